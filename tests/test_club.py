"""The club players (careful, rush, builder, expert) do what kernels/players/club.py documents.

Each test sets up a position from card strings, lists the legal options the engine
would offer, and asks the policy to choose (``club_decide_nb``, the code the engine
calls).  Plus: sweeps write their columns, and a short strength check.
"""
import numpy as np
import pyarrow as pa
import pytest
from canasta_sim.kernels.game import options, plans, slots
from canasta_sim.kernels.game.cards import TOKEN_TO_KIND
from canasta_sim.kernels.players import club, switch
from scenario import Position, describe

import canasta_sim
from canasta_sim.errors import BadInput
from canasta_sim.policies import parse_one
from canasta_sim.strength import a_results, format_row, play_match, seats_for

K = TOKEN_TO_KIND


def choose(pos, policy, decision, n, seat=0):
    """The option the policy picks among the first n rows of pos.opts."""
    _, pid, values = parse_one(policy)
    params = np.zeros(8)
    params[:len(values)] = values
    return int(club.club_decide_nb(pos.nb, pos.S, seat, pid, params, decision, pos.opts, n))


def discard(pos, policy, seat=0):
    """The token of the card the policy discards from seat's hand."""
    n = options.discard_options_nb(pos.S.hands[seat], pos.opts)
    i = choose(pos, policy, options.DEC_DISCARD, n, seat)
    return next(t for t, k in K.items() if k == pos.opts[i, 1])


def meld_step(pos, policy, seat=0):
    """The meld-phase step the policy takes (the engine's choose_meld_step_nb), written as
    scenario.describe writes the first card of it: ('new', '8', '2N+2'), ('add', '9', '2'),
    ('out', discard), ('stop',)."""
    pos.policies(*([policy] * 4)).begin(seat)
    kind, rank, nat, de, jo = switch.choose_meld_step_nb(pos.nb, pos.S, pos.buf, seat, pos.table,
                                                         False, False)
    if kind == options.OPT_NEW:
        row = [kind, rank, 3, 0, 0] if de + jo == 0 else [kind, rank, 2, de, jo]
    elif kind == options.OPT_ADD:
        row = [kind, rank, rank if nat else K["2"] if de else K["JK"], 0, 0]
    elif kind == options.OPT_GO_OUT:                  # the plan's discard kind (-1: none)
        row = [kind, rank, int(pos.plan[rank, plans.PLAN_META, 0]), 0, 0]
    else:
        row = [kind, rank, 0, 0, 0]
    return describe(np.array(row))


def draw_or_take(pos, policy, seat=0):
    """'draw', or the take (naturals, deuces, jokers) the policy makes (the engine's
    choose_take_nb, the stock not yet gone)."""
    pos.policies(*([policy] * 4)).begin(seat, take=True)
    take = switch.choose_take_nb(pos.nb, pos.S, pos.buf, seat, pos.table, False)
    return "draw" if take[0] < 0 else tuple(int(x) for x in take)


def answer(pos, policy, decision, seat=0):
    """True for 'ask' / 'yes'."""
    first = options.OPT_ASK if decision == options.DEC_ASK else options.OPT_YES
    second = options.OPT_NO_ASK if decision == options.DEC_ASK else options.OPT_NO
    n = options.add_opt_nb(pos.opts, 0, first, 0, 0, 0, 0)
    n = options.add_opt_nb(pos.opts, n, second, 0, 0, 0, 0)
    return pos.opts[choose(pos, policy, decision, n, seat), 0] == first


def melded(pos):
    """Both sides have melded (the pile is open to both unless a wild card freezes it)."""
    return pos.meld(0, "Q", "Q Q Q").meld(1, "J", "J J J")


def big_stock(pos):
    return pos.stock(" ".join(["4"] * 40))


def ready_to_go_out(scores=(0, 0), opponents="4 5 6 7 8 9 10 J"):
    """Side 0 has one canasta and seat 0 can go out; the stock is big; each opponent holds
    ``opponents``."""
    pos = big_stock(Position(scores=scores).meld(0, "9", "9 9 9 9 9 9 9").hand(0, "K K K 5"))
    return pos.hand(1, opponents).hand(3, "4 5 6 7 8 9 10 J")


# ---- careful ---------------------------------------------------------------------------------

@pytest.mark.parametrize("policy", ["careful", "expert", "builder"])
def test_discards_a_black_three_first(policy):
    pos = melded(Position()).hand(0, "A K 9 3s 2").pile("5 6")
    assert discard(pos, policy) == "3b"


def test_careful_freezes_a_big_pile_with_a_wild_card():
    pos = melded(Position()).hand(0, "A K 9 2 JK").pile("5 6 7 8 9 10 J K")
    assert discard(pos, "careful") == "2"                      # deuce before joker
    assert discard(pos, "careful(freeze_at=12)") != "2"        # the pile is not big enough
    frozen = melded(Position()).hand(0, "A K 9 2 JK").pile("5 6 2 8 9 10 J K")
    assert discard(frozen, "careful") not in ("2", "JK")       # already frozen
    assert discard(pos, "rush") not in ("2", "JK")             # rush never freezes


def test_careful_does_not_feed_the_opponents_melds():
    """The next player's side (side 1) has a meld of jacks and the pile is open to it: a
    jack would be laid off at once (R34 c).  greedy would throw the jack (its highest
    single card); careful keeps it."""
    pos = melded(Position()).hand(0, "J 8 5 5").pile("4 6")
    assert discard(pos, "careful") == "8"


def test_careful_prefers_the_rank_the_next_opponent_discarded_last():
    pos = melded(Position()).hand(0, "K 9 5 5").pile("4 6")
    pos.S.seatv[1, slots.SEAT_LAST_DISCARD] = K["9"] + 1
    assert discard(pos, "careful") == "9"
    pos.S.seatv[1, slots.SEAT_LAST_DISCARD] = K["K"] + 1
    assert discard(pos, "careful") == "K"


def test_careful_keeps_pairs():
    pos = melded(Position()).hand(0, "A A 7 K K").pile("4 6")
    assert discard(pos, "careful") == "7"


def test_careful_builds_canastas_before_going_out():
    """One canasta lets it go out; careful wants two while the deal is young."""
    pos = ready_to_go_out()
    assert any(o[0] == "out" for o in pos.begin(0).meld_options(0))
    assert meld_step(pos, "careful")[0] != "out"
    assert meld_step(pos, "careful(want_canastas=1)")[0] == "out"


def test_careful_never_melds_down_to_its_last_card_before_it_wants_out():
    """Melding K K K from K K K 4 would leave one card, whose discard goes out (R39)."""
    pos = big_stock(Position().meld(0, "9", "9 9 9 9 9 9 9").meld(1, "J", "J J J")
                    .hand(0, "K K K 4"))
    pos.hand(1, "4 5 6 7 8 9 10 J").hand(3, "4 5 6 7 8 9 10 J")
    assert meld_step(pos, "careful") == ("stop",)
    assert meld_step(pos, "careful(want_canastas=1)")[0] == "out"
    assert meld_step(pos.hand(0, "K K K 4 5"), "careful") == ("new", "K", "3N")


def test_careful_goes_out_when_an_opponent_is_about_to():
    pos = ready_to_go_out(opponents="4 5")
    assert meld_step(pos, "careful")[0] == "out"


def test_careful_holds_a_wild_card():
    pos = big_stock(melded(Position()).hand(0, "8 8 2 4 5 6 7"))
    assert meld_step(pos, "careful") == ("stop",)             # keeps its only wild card
    assert meld_step(pos, "careful(wild_hold=0)") == ("new", "8", "2N+2")


def test_careful_spends_wild_cards_on_a_small_pile_only_from_min_pile_take():
    pos = melded(Position()).hand(0, "K 2 5 6 7").pile("4 K")
    assert draw_or_take(pos, "careful") == "draw"              # 2 cards < min_pile_take 4
    assert draw_or_take(pos, "careful(min_pile_take=2)") == (1, 1, 0)
    natural = melded(Position()).hand(0, "K K 5 6 7").pile("4 K")
    assert draw_or_take(natural, "careful") == (2, 0, 0)       # naturals: always


# ---- rush ------------------------------------------------------------------------------------

def test_rush_goes_out_at_the_first_chance():
    pos = ready_to_go_out()
    assert meld_step(pos, "rush")[0] == "out"


def test_rush_melds_its_wild_cards():
    pos = big_stock(melded(Position()).hand(0, "8 8 2 4 5 6 7"))
    assert meld_step(pos, "rush") == ("new", "8", "2N+2")


# ---- builder ---------------------------------------------------------------------------------

def test_builder_delays_going_out_while_ahead():
    assert meld_step(ready_to_go_out(scores=(2000, 0)), "builder")[0] != "out"
    assert meld_step(ready_to_go_out(scores=(0, 2000)), "builder")[0] == "out"


def test_builder_puts_wild_cards_on_growing_melds():
    pos = big_stock(Position().meld(0, "9", "9 9 9 9").meld(1, "J", "J J J")
                    .hand(0, "2 4 5 6 7 K"))
    assert meld_step(pos, "builder") == ("add", "9", "2")
    assert meld_step(pos, "careful") == ("stop",)


# ---- expert ----------------------------------------------------------------------------------

def test_expert_counts_cards():
    """Every other ace is on the table or in the pile, so the next opponent cannot hold a
    pair of aces; kings are all unseen.  careful sees no difference and sheds the ace (the
    higher card); expert also judges the king more dangerous than careful does."""
    pos = Position().meld(0, "A", "A A A A A A").meld(1, "J", "J J J").hand(0, "A K 5 5") \
        .pile("4 6")
    pos.S.seatv[1, slots.SEAT_KNOWN + K["K"]] = 2                 # seat 1 took two kings
    assert discard(pos, "expert") == "A"
    pos.S.melds[0, :, K["A"]] = 0                                    # now the aces are unseen
    pos.meld(0, "8", "8 8 8").hand(0, "8 K 5 5")
    assert discard(pos, "expert") == "8"


def test_expert_asks_its_partner_when_unsure_and_answers_by_the_score():
    pos = ready_to_go_out()
    assert answer(pos, "expert", options.DEC_ASK)              # one canasta, wants two
    assert not answer(pos, "careful", options.DEC_ASK)
    ahead = Position(scores=(3000, 0)).meld(0, "9", "9 9 9 9 9 9 9").hand(2, "A A K K Q JK")
    assert not answer(big_stock(ahead), "expert", options.DEC_ANSWER, seat=2)
    light = Position(scores=(3000, 0)).meld(0, "9", "9 9 9 9 9 9 9").hand(2, "4 5")
    assert answer(big_stock(light), "expert", options.DEC_ANSWER, seat=2)
    behind = Position(scores=(0, 3000)).meld(0, "9", "9 9 9 9 9 9 9").hand(2, "A A K K Q JK")
    assert answer(big_stock(behind), "expert", options.DEC_ANSWER, seat=2)
    assert answer(big_stock(ahead), "careful", options.DEC_ANSWER, seat=2)


def test_expert_plays_the_end_of_the_stock():
    """With the stock nearly gone expert goes out at once and sheds its high cards."""
    pos = Position().meld(0, "9", "9 9 9 9 9 9 9").hand(0, "K K K 5").stock("4 5 6")
    pos.hand(1, "4 5 6 7 8 9 10 J").hand(3, "4 5 6 7 8 9 10 J")
    assert meld_step(pos, "expert")[0] == "out"
    shed = melded(Position()).hand(0, "A 5 7 7").pile("4 6").stock("4 5 6")
    assert discard(shed, "expert") == "A"


# ---- choosing and sweeping -------------------------------------------------------------------

def test_policy_parameters_are_parsed_and_checked():
    name, pid, values = parse_one("careful(freeze_at=12)")
    assert name == "careful(freeze_at=12)" and values[0] == 12
    with pytest.raises(BadInput, match="freeze_at, min_pile_take"):
        parse_one("careful(freezeat=3)")
    with pytest.raises(BadInput, match="accepted policies are random, greedy, careful"):
        parse_one("smart")


def test_sweep_writes_one_column_per_parameter_on_the_same_deals():
    table = canasta_sim.simulate(60, seed=3, policies="careful,greedy,careful,greedy",
                                 sweep=["careful.freeze_at=4:8:2", "careful.danger=0,1"])
    df = table.to_pandas()
    assert df.groupby(["careful__freeze_at", "careful__danger"]).size().to_dict() == {
        (f, d): 60 for f in (4, 6, 8) for d in (0.0, 1.0)}
    assert table["careful__freeze_at"].type == pa.int64()              # a whole-number parameter
    assert table["careful__danger"].type == pa.float64()
    for _, part in df.groupby(["careful__freeze_at", "careful__danger"]):
        assert list(part.deal) == list(range(60))
    first = df[(df.careful__freeze_at == 4) & (df.careful__danger == 0)]
    assert set(first.policy_0) == {"careful(danger=0,freeze_at=4)"}
    assert set(first.policy_1) == {"greedy"}
    assert table.schema.metadata[b"canasta_sim.sweep"] == \
        b"careful.freeze_at=4,6,8;careful.danger=0,1"
    assert table.schema.metadata[b"canasta_sim.sweep_columns"] == \
        b"careful__freeze_at,careful__danger"


@pytest.mark.parametrize("sweep,fragment", [
    ("careful.freeze=4:8", "no parameter 'freeze'"),
    ("smart.freeze_at=4:8", "unknown policy 'smart'"),
    ("careful.freeze_at=8:4", "empty, reversed"),
    ("careful.freeze_at=a:b", "not a finite number"),
    ("careful_freeze_at=4:8", "malformed"),
    ("expert.freeze_at=4:8", "no seat plays 'expert'"),
    ("careful.freeze_at=0:nan", "not a finite number"),
    (["careful.freeze_at=4:8", "careful.danger=1,2", "careful.danger=3"],
     "'careful.danger' is given twice"),
    ("careful.freeze_at=4:8:0.5", "freeze_at=4.5 is not a whole number"),
    ("careful.wild_hold=0:30:5", "wild_hold=25 is out of range: accepted: a whole number in 0..24"),
    (["careful.freeze_at=1:1000", "careful.danger=1:1000"],
     "make 1000000 combinations .*accepted: at most 1000"),
])
def test_bad_sweeps_are_rejected(sweep, fragment):
    with pytest.raises(BadInput, match=fragment):
        canasta_sim.simulate(5, policies="careful,greedy,careful,greedy", sweep=sweep)


def test_sweeps_and_parameters_keep_full_precision():
    table = canasta_sim.simulate(2, policies="builder(danger=1.2345678)",
                                 sweep="builder.go_out_margin=1000000:1000002:1")
    assert sorted(set(table["policy_0"].to_pylist())) == [
        f"builder(danger=1.2345678,go_out_margin={m})" for m in (1000000, 1000001, 1000002)]
    with pytest.raises(BadInput, match="finite"):
        parse_one("careful(danger=inf)")


def test_strength_at_three_sides_plays_rotations_of_whole_seeds():
    """Three sides are no longer refused (tests/test_strength.py checks the figures): a
    multiple of 3 games plays, any other count is refused."""
    assert play_match("careful", "greedy", 3, rules="six-player-3x2").seeds == 1
    with pytest.raises(BadInput, match="--games 2 .*multiple of 3"):
        play_match("careful", "greedy", 2, rules="six-player-3x2")


def test_careful_beats_random():
    """The suite's short strength check (the README's table comes from canasta-sim strength):
    the interval comes from the 30 game pairs."""
    match = play_match("careful", "random", 60, seed=5)
    low, high = match.interval
    assert match.pairs == 30 and low > 0.7 and match.significant, match
    assert low <= (2 * match.pentanomial[4] + 1.5 * match.pentanomial[3] + match.pentanomial[2]
                   + 0.5 * match.pentanomial[1]) / 60 <= high
    assert match.elo.ci_low > 100
    assert format_row(match).endswith(f"| {match.elo.estimate:+.0f} ({match.elo.ci_low:+.0f}, "
                                      f"{match.elo.ci_high:+.0f}) |")


def test_strength_pentanomial_counts_match_the_raw_games():
    """7 games: seeds 0..3 with careful on side 0, seeds 0..2 swapped; seeds 0..2 are the
    pairs (seed 3 has no partner and stays out of the pairs, not out of the counts)."""
    match = play_match("careful", "greedy", 7, seed=3)
    first, _ = canasta_sim.simulate(games=4, seed=3,
                                    policies=seats_for("careful", "greedy", 4, 2))
    second, _ = canasta_sim.simulate(games=3, seed=3,
                                     policies=seats_for("greedy", "careful", 4, 2))
    a_first = [1.0 if w == 0 else 0.5 if e == "draw" else 0.0
               for w, e in zip(first["winner"].to_pylist(), first["ended"].to_pylist())]
    a_second = [1.0 if w == 1 else 0.5 if e == "draw" else 0.0
                for w, e in zip(second["winner"].to_pylist(), second["ended"].to_pylist())]
    expected = [0] * 5
    for x, y in zip(a_first[:3], a_second):
        expected[int(round(2 * (x + y)))] += 1
    assert list(match.pentanomial) == expected and sum(expected) == 3
    assert list(a_results(first, 0)) == a_first and list(a_results(second, 1)) == a_second
    assert match.a_wins + match.b_wins + match.draws == 7
    assert match.a_rate == pytest.approx((sum(a_first) + sum(a_second)) / 7)
    lost, drawn, won = match.trinomial
    assert won + 0.5 * drawn == pytest.approx(sum(a_first[:3]) + sum(a_second))
    assert play_match("careful", "greedy", 1, seed=3).interval == (None, None)
