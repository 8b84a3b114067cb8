"""The search player (kernels/play/search.py, docs/search.md): its resampler of hidden cards, that
it leaves the real deal alone, that it decides from what its seat may know, and that its rows
do not depend on threads or chunking."""
import numpy as np
import pytest
from canasta_sim.kernels.game import slots, state
from canasta_sim.kernels.game.cards import DEUCE, FIRST_NATURAL, JOKER, NKINDS, RED3
from canasta_sim.kernels.game.layout import COL_CHECK_FAILS, NCOLS
from canasta_sim.kernels.game.options import DEC_DISCARD, DEC_DRAW
from canasta_sim.kernels.play import search, tasks
from canasta_sim.kernels.play.midgame import play_turn_traced_nb, play_until_nb
from canasta_sim.kernels.play.tasks import play_deals_nb
from canasta_sim.kernels.players.ids import POLICY_SEARCH

from canasta_sim import simulate
from canasta_sim.fairness import information_check, rearrange_hidden
from canasta_sim.policies import REGISTRY, SEARCH_PARAMS, parse_policies
from canasta_sim.runner import policy_table, prepare

FAST = "search(determinizations=2,candidates=2,threshold=0,decisions=15,rollouts=2)"
PAIRED = f"{FAST},expert,{FAST},expert"


def test_blueprint_and_slots_match_the_registry():
    """The kernel's copy of expert's defaults and the search slots follow policies.py."""
    assert search.EXPERT_DEFAULTS == tuple(REGISTRY["expert"].params.values())
    assert list(REGISTRY["search"].params) == list(SEARCH_PARAMS)
    assert [search.Q_DETERMINIZATIONS, search.Q_CANDIDATES, search.Q_THRESHOLD,
            search.Q_DECISIONS, search.Q_CONFIDENCE, search.Q_ROLLOUTS] == [0, 1, 2, 3, 4, 5]
    assert REGISTRY["search"].policy_id == POLICY_SEARCH
    assert search.WS_SEARCH + search.SEARCH_ROWS <= slots.WS_ROWS
    _, ids, params = parse_policies("search(decisions=1),expert,search(decisions=1),expert", 4)
    assert list(ids[:4]) == [POLICY_SEARCH, 5, POLICY_SEARCH, 5]
    assert params[0, search.Q_DECISIONS] == 1 and params[0, search.Q_DETERMINIZATIONS] == 16


def _positions(count, rules="classic", policies="expert", seed=3):
    """Real mid-deal states (between turns) with the seat to play: (plan, S, seat)."""
    plan = prepare(count, seed, rules, policies)
    rng = np.random.default_rng(seed)
    out, deal = [], 0
    while len(out) < count:
        S = state.new_state()
        seat = play_until_nb(plan.rules_nb, plan.seed, deal, policy_table(plan), plan.params,
                             plan.scores_before, int(rng.integers(0, 50)), S)
        deal += 1
        if seat >= 0:
            out.append((plan, S, seat))
    return out


def _stock(S):
    st = S.st
    return S.deck[st[slots.ST_STOCK_POS]:st[slots.ST_DECK_N]]


def _all_cards(S, nb):
    """Count by kind of every card in hands, melds, the pile, the stock and red-three areas."""
    hands, melds, deck, pile, st, seatv, sidev = S[:7]
    have = hands.sum(axis=0).copy()
    have[RED3] += sidev[:, slots.SIDE_RED3].sum()
    for r in range(NKINDS):
        have[r] += melds[:, slots.M_NAT, r].sum()
    have[DEUCE] += melds[:, slots.M_DEUCE, :].sum()
    have[JOKER] += melds[:, slots.M_JOKER, :].sum()
    have += np.bincount(pile[:st[slots.ST_PILE_N]], minlength=NKINDS)
    have += np.bincount(_stock(S), minlength=NKINDS)
    return have


def _deck(nb):
    want = np.full(NKINDS, 4 * nb.num_packs)
    want[RED3] = want[3] = 2 * nb.num_packs
    want[JOKER] = nb.num_jokers
    return want


@pytest.mark.parametrize("rules", ["classic", "classic(red3_replacement_timing=first_turn)"])
def test_resampler_keeps_what_the_seat_knows_and_conserves_cards(rules):
    """A determinization holds exactly the deck (R2); the seat's hand, the melds, the pile,
    red threes, every hand size, every known card and the stock size are kept; only a hand
    that may still hold red threes (first_turn timing, before its first turn) gets any."""
    moved = 0
    for plan, S, seat in _positions(25, rules):
        nb = plan.rules_nb
        for d in range(3):
            W = state.new_state()
            assert search.determinize_entry_nb(nb, S, W, seat, DEC_DISCARD, d, 0)
            assert np.array_equal(_all_cards(W, nb), _deck(nb))
            assert np.array_equal(W.hands[seat], S.hands[seat])
            for a in (1, 3, 5, 6):                      # melds, pile, seat and side records
                assert np.array_equal(W[a], S[a])
            assert np.array_equal(W.st[:slots.ST_TRACE_ON], S.st[:slots.ST_TRACE_ON])
            assert np.array_equal(W.hands.sum(axis=1), S.hands.sum(axis=1))
            known = W.seatv[:, slots.SEAT_KNOWN:slots.SEAT_KNOWN + NKINDS]
            assert (W.hands >= known).all()
            assert len(_stock(W)) == len(_stock(S))
            for s in range(plan.rules.num_players):
                if W.hands[s, RED3] > 0:
                    assert "first_turn" in rules and W.seatv[s, slots.SEAT_HAD_TURN] == 0
            moved += not np.array_equal(W.hands, S.hands) or not np.array_equal(_stock(W), _stock(S))
    assert moved >= 70


def test_resampler_puts_red_threes_anywhere_in_the_stock():
    """The stock of a determinization is in uniform order: the red threes no hand may hold
    lie on average halfway down it, not near its top (where a resampler that filled the
    hands first left them, so that a seat about to draw drew red threes too often)."""
    where = []
    for plan, S, seat in _positions(25):
        for d in range(20):
            W = state.new_state()
            assert search.determinize_entry_nb(plan.rules_nb, S, W, seat, DEC_DRAW, d, 0)
            stock = _stock(W)
            where += [(i + 0.5) / len(stock) for i in np.flatnonzero(stock == RED3)]
    where = np.array(where)
    assert len(where) > 100
    assert abs(where.mean() - 0.5) < 4 * where.std() / np.sqrt(len(where))


def test_resampler_is_a_function_of_what_the_seat_knows():
    """Rearranging the hidden cards (as the information check does) changes no
    determinization; the same key gives the same deal, another determinization another."""
    rng = np.random.default_rng(5)
    differ = 0
    for plan, S, seat in _positions(20):
        S2 = state.copy_state(S)
        rearrange_hidden(S2, seat, rng)
        W1, W2, W3, W4 = (state.new_state() for _ in range(4))
        nb = plan.rules_nb
        search.determinize_entry_nb(nb, S, W1, seat, DEC_DRAW, 0, 0)
        search.determinize_entry_nb(nb, S2, W2, seat, DEC_DRAW, 0, 0)
        search.determinize_entry_nb(nb, S, W3, seat, DEC_DRAW, 0, 0)
        search.determinize_entry_nb(nb, S, W4, seat, DEC_DRAW, 1, 0)
        for a in range(8):
            assert np.array_equal(W1[a], W2[a])
            assert np.array_equal(W1[a], W3[a])
        differ += not np.array_equal(_stock(W1), _stock(W4))
    assert differ >= 18


def test_playouts_shuffle_only_the_stock_and_only_from_what_the_seat_knows():
    """Playout r >= 1 of a determinization (``rollouts``) keeps its hands and everything
    else and deals the same stock in another order, the same whatever the hidden cards of
    the real deal were; another playout gives another order."""
    rng = np.random.default_rng(6)
    reordered = 0
    for plan, S, seat in _positions(20, seed=9):
        nb = plan.rules_nb
        S2 = state.copy_state(S)
        rearrange_hidden(S2, seat, rng)
        W0, W1, W1b, W2 = (state.new_state() for _ in range(4))
        search.determinize_entry_nb(nb, S, W0, seat, DEC_DISCARD, 3, 0)
        search.determinize_entry_nb(nb, S, W1, seat, DEC_DISCARD, 3, 1)
        search.determinize_entry_nb(nb, S2, W1b, seat, DEC_DISCARD, 3, 1)
        search.determinize_entry_nb(nb, S, W2, seat, DEC_DISCARD, 3, 2)
        for a in (0, 1, 3, 4, 5, 6):                     # hands, melds, pile, records
            assert np.array_equal(W0[a], W1[a])
        assert sorted(_stock(W0)) == sorted(_stock(W1))
        for a in range(8):
            assert np.array_equal(W1[a], W1b[a])
        if len(_stock(W0)) > 4:
            reordered += not np.array_equal(_stock(W0), _stock(W1))
            reordered += not np.array_equal(_stock(W1), _stock(W2))
    assert reordered >= 36


def test_playouts_per_determinization_play_legal_deals():
    """With two playouts per determinization search still plays legal deals, and its play
    differs from one playout's in some deals (other samples, other choices)."""
    one = _checked_rows(PAIRED)
    policy = FAST.replace("rollouts=2", "rollouts=3")
    rows = _checked_rows(f"{policy},expert,{policy},expert")
    assert (rows[:, COL_CHECK_FAILS] == 0).all()
    assert (rows != one).any(axis=1).sum() >= 3


def test_a_short_pool_is_refused():
    """A position whose hidden places outnumber the cards the seat has not seen (no real
    deal) is not determinized."""
    plan, S, seat = _positions(1)[0]
    other = (seat + 1) % 4
    S.hands[other, FIRST_NATURAL] += 200
    assert not search.determinize_entry_nb(plan.rules_nb, S, state.new_state(), seat,
                                           DEC_DISCARD, 0, 0)


def _rows(policies, deals=40, **kw):
    """The result rows of ``deals`` deals, without the policy names."""
    return _played(simulate(deals, seed=11, policies=policies, **kw))


def _played(table):
    """A results table as a DataFrame without the policy name columns."""
    frame = table.to_pandas()
    return frame.drop(columns=[c for c in frame.columns if c.startswith("policy_")])


def test_unreachable_threshold_plays_expert_exactly():
    """With a threshold no rollout can beat, search plays expert's every move: the rollouts
    (copies of the deal, resampled and played out) never touch the real deal."""
    expert = _rows("expert")
    same = _rows("search(threshold=1e9,determinizations=3),expert,expert,expert")
    assert expert.equals(same)
    games = simulate(games=4, seed=2, policies="expert")
    games2 = simulate(games=4, seed=2, policies="search(threshold=1e9,determinizations=2)")
    assert _played(games[0]).equals(_played(games2[0]))
    assert _played(games[1]).equals(_played(games2[1]))


def _checked_rows(policies, deals=40):
    """Rows of ``deals`` deals played with card conservation checked after every turn."""
    plan = prepare(deals, 11, "classic", policies)
    out = np.zeros((deals, NCOLS), np.int64)
    play_deals_nb(plan.rules_nb, plan.seed, 0, out, policy_table(plan), plan.params,
                  plan.scores_before, 1)
    return out


def test_search_deviates_and_plays_legal_deals():
    """With no threshold search leaves expert's play in some deals, and every deal stays
    legal (cards conserved after every turn, no safety net hit)."""
    expert = _checked_rows("expert")
    rows = _checked_rows(PAIRED)
    assert (rows[:, COL_CHECK_FAILS] == 0).all() and (expert[:, COL_CHECK_FAILS] == 0).all()
    assert (rows != expert).any(axis=1).sum() >= 10


@pytest.mark.parametrize("threads,chunk_size", [(1, None), (2, 7)])
def test_rows_do_not_depend_on_threads_or_chunks(threads, chunk_size):
    one = _rows(PAIRED, deals=16, threads=1, chunk_size=16)
    other = _rows(PAIRED, deals=16, threads=threads,
                  chunk_size=chunk_size)
    assert one.equals(other)


def test_information_check_passes():
    """fairness.information_check on search seats: the seat's play does not change when the
    cards hidden from it are rearranged (its resampler reads only what it may know)."""
    plan = prepare(30, 4, "classic", FAST)
    check = information_check(plan, positions=30, seed=4)
    assert check.ok, check.detail


def test_synthetic_positions_do_not_depend_on_hidden_cards():
    """tests/test_information.py's positions, played by search seats through the engine's
    turn dispatch (midgame.play_turn_traced_nb): seat 0's turn is the same when every card
    hidden from it is rearranged."""
    from scenario import random_position
    from test_information import hidden_cards_never_matter, seat0_view

    buf = np.zeros(1 << 16, np.int32)

    def play(pos):
        play_turn_traced_nb(pos.rules.to_kernel(), pos.S, 0, pos.pol, pos.params, buf)

    assert hidden_cards_never_matter(FAST, 60, play) > 40
    deviated = 0                            # ... and the search really ran in those turns
    for seed in range(60):
        played = []
        for policy in (FAST, "expert"):
            pos = random_position(seed, policy)[0]
            play(pos)
            played.append(seat0_view(pos))
        deviated += any(not np.array_equal(a, b) for a, b in zip(*played))
    assert deviated >= 5


OUT_RULES = ["classic", "classic(ask_permission=required)", "classic(ask_permission=never)",
             "two-player", "six-player-3x2"]


def _open_choices(rules, st):
    """The going-out choices R42 leaves the seat in the turn recorded by ``st``."""
    ask = st[slots.ST_TURN_TAKE] == 0 and st[slots.ST_NSEATS] > st[slots.ST_NSIDES] \
        and "never" not in rules
    choices = {slots.OUT_NOW, slots.OUT_ASK, slots.OUT_HOLD}
    if not ask:
        choices.discard(slots.OUT_ASK)
    if ask and "required" in rules:
        choices.discard(slots.OUT_NOW)                   # R42: no going out without a yes
    return choices


def _turn_with_choice(plan, S, seat, choice):
    """``seat``'s draw and meld phases from a copy of ``S``, its going-out choice fixed after
    the draw (tasks.out_choice_entry_nb): (candidates the search would roll out, the state
    after the meld phase)."""
    S2 = state.copy_state(S)
    cands = np.zeros(search.MAX_CANDIDATES, np.int64)
    n = tasks.out_choice_entry_nb(plan.rules_nb, S2, seat, policy_table(plan), plan.params,
                                   choice, cands)
    return [int(c) for c in cands[:max(n, 0)]], S2


def _went_out(S, seat):
    """Whether the seat's hand is empty: it went out (R39)."""
    return S.hands[seat].sum() == 0


def _same_turn(A, B):
    """The same state, but for the recorded going-out choice."""
    keep = [i for i in range(slots.NST) if i != slots.ST_TURN_OUT_CHOICE]
    return all(np.array_equal(a, b) for a, b in zip(A[:4], B[:4])) and \
        np.array_equal(A[4][keep], B[4][keep]) and \
        all(np.array_equal(a, b) for a, b in zip(A[5:8], B[5:8]))


@pytest.mark.parametrize("rules", OUT_RULES)
def test_going_out_candidates_and_what_each_choice_plays(rules):
    """Where the seat could go out after its draw, the search rolls out expert's own play
    (OUT_OWN) and every other choice R42 leaves open; the one left out plays exactly as
    expert does.  OUT_NOW goes out, OUT_ASK asks the partner, OUT_HOLD (almost) never goes
    out (only when nothing else is legal)."""
    seen = held_out = 0
    for plan, S, seat in _positions(400, rules, seed=8):
        cands, own = _turn_with_choice(plan, S, seat, slots.OUT_OWN)
        if not cands:
            continue
        seen += 1
        choices = _open_choices(rules, own[4])
        assert cands[0] == slots.OUT_OWN and len(set(cands)) == len(cands)
        assert set(cands[1:]) <= choices
        left = choices - set(cands[1:])
        assert len(left) == 1
        blueprint = left.pop()
        _, same = _turn_with_choice(plan, S, seat, blueprint)
        if blueprint == slots.OUT_HOLD:        # expert may still go out later in the phase
            assert _same_turn(own, same) or _went_out(own, seat)
        else:
            assert _same_turn(own, same)
        for choice in choices:
            _, after = _turn_with_choice(plan, S, seat, choice)
            if choice == slots.OUT_NOW:
                assert _went_out(after, seat)
            elif choice == slots.OUT_ASK:
                assert after[4][slots.ST_TURN_ASK] in (0, 1)
                assert _went_out(after, seat) == (after[4][slots.ST_TURN_ASK] == 1)
            else:
                assert after[4][slots.ST_TURN_ASK] == -1
                held_out += _went_out(after, seat)
    assert seen >= 5
    assert held_out <= seen // 10


def test_going_out_search_deviates_and_plays_legal_deals():
    """Searching only the going-out decision (decisions=8) leaves expert's play in some
    deals, and every deal stays legal."""
    expert = _checked_rows("expert", deals=60)
    only_out = "search(determinizations=4,threshold=0,confidence=0,decisions=8)"
    rows = _checked_rows(f"{only_out},expert,{only_out},expert", deals=60)
    assert (rows[:, COL_CHECK_FAILS] == 0).all()
    assert (rows != expert).any(axis=1).sum() >= 3
