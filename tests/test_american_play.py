"""Modern American whole deals and games (docs/american.md): random-play soaks of every knob
with card conservation checked after every turn, the score identity and the A49 signs on
every row, reproducibility, traces that agree with the rows, and the commands that play it."""
import json

import numpy as np
import pytest
from canasta_sim.kernels.game import layout
from canasta_sim.kernels.play.american.tasks import play_mac_deals
from click.testing import CliRunner

import canasta_sim
from canasta_sim.cli import cli
from canasta_sim.errors import BadInput
from canasta_sim.rules import parse_rules
from canasta_sim.runner import policy_table, prepare
from canasta_sim.trace import trace_events

RULE_SETS = (
    "modern-american",
    "modern-american-pagat",
    "modern-american(mac_rule_of_five=false)",
    "modern-american(mac_max_wilds_per_meld=0)",
    "modern-american(mac_max_wilds_per_meld=7,mac_rule_of_five=false)",
    "modern-american(mac_dead_rank_scope=own)",
    "modern-american(mac_talon_source=set_aside)",
    "modern-american(mac_talon_sizes=5;0)",
    "modern-american(mac_threes_timing=after_deal)",
    "modern-american(mac_special_hands=none)",
    "modern-american(mac_allow_oversize_when_going_out=true)",
    "modern-american(canastas_to_go_out=1)",
    "modern-american(going_out_bonus=500,black3_card_value=100)",
    "modern-american(mac_initial_meld_needs=clean_or_wild,mac_take_pair_counts=false)",
)
SOAK_DEALS = 400


def side(k, field):
    """Index of side k's shared column ``field``."""
    return layout.SIDE_BASE + layout.SIDE_STRIDE * k + layout.SIDE_FIELDS.index(field)


def fam(k, field):
    """Index of side k's Modern American column ``field``."""
    return layout.MAC_SIDE_BASE + layout.MAC_SIDE_STRIDE * k + layout.MAC_SIDE_FIELDS.index(field)


def soak_rows(rules, policy, deals=SOAK_DEALS, seed=11):
    """Rows of ``deals`` deals played with the conservation check after every turn."""
    plan = prepare(deals, seed, rules, policy)
    rows = np.zeros((deals, layout.NCOLS), np.int64)
    play_mac_deals(plan.rules_nb, seed, 0, rows, policy_table(plan), plan.params,
                   plan.scores_before, check=1)
    return rows


def check_rows(rows, rules):
    """Every row: cards conserved, the deal ended properly, the score identity, the A49 signs,
    canastas by kind add up, threes by colour, the special hand scores alone."""
    r = parse_rules(rules)
    assert rows[:, layout.COL_CHECK_FAILS].sum() == 0
    for row in rows:
        special_seat = row[layout.COL_MAC_SPECIAL_SEAT]
        for k in range(2):
            items = [row[side(k, "canasta_bonus")], row[side(k, "out_bonus")],
                     row[side(k, "melds")], row[side(k, "red3_points")],
                     row[fam(k, "incomplete")], row[side(k, "hand")],
                     row[fam(k, "hand_penalty")], row[fam(k, "special")]]
            assert sum(items) == row[side(k, "score")]                       # A49, A53
            kinds = sum(row[fam(k, f)] for f in ("clean_canastas", "dirty_canastas",
                                                 "aces_canastas", "sevens_canastas",
                                                 "wild_canastas"))
            c = row[fam(k, "canastas")]
            if special_seat >= 0 and special_seat % 2 == k:
                assert row[fam(k, "special")] > 0 and sum(items) == row[fam(k, "special")]
                continue
            assert kinds == c
            if c == 0:                                                       # A49
                assert row[side(k, "canasta_bonus")] == 0 and row[side(k, "melds")] <= 0
                assert row[side(k, "red3_points")] <= 0 and row[side(k, "out_bonus")] == 0
            if c == 1:
                assert row[side(k, "red3_points")] == 0
            if c >= 2:
                assert row[side(k, "red3_points")] >= 0
            assert row[fam(k, "incomplete")] <= 0 and row[side(k, "hand")] <= 0
            assert row[fam(k, "red_threes")] == row[side(k, "red3")]
            out = row[layout.COL_OUT_SEAT]
            if out >= 0 and out % 2 == k:
                assert c >= r.canastas_to_go_out                             # A40
                assert row[side(k, "out_bonus")] == r.going_out_bonus        # A42
        reds = row[fam(0, "red_threes")] + row[fam(1, "red_threes")]
        blacks = row[fam(0, "black_threes")] + row[fam(1, "black_threes")]
        assert reds <= 4 and blacks <= 4
        assert row[layout.COL_END_REASON] in (layout.END_OUT, layout.END_STOCK,
                                              layout.END_SPECIAL)
        assert (row[layout.COL_OUT_SEAT] >= 0) == (row[layout.COL_END_REASON] == layout.END_OUT)


@pytest.mark.parametrize("rules", RULE_SETS)
@pytest.mark.parametrize("policy", ["random", "greedy", "expert,careful,builder,rush"])
def test_soak_every_knob(rules, policy):
    """Every player plays every knob's value legally (the conservation check after every
    turn, the safety nets never fire) and every row scores as A45-A53 say."""
    rows = soak_rows(rules, policy)
    check_rows(rows, rules)


def test_deals_end_every_way():
    """Over a soak the deals end by going out, by the stock and by a special hand, and talons,
    takes and canastas of every kind happen (the soak reaches the rules it checks)."""
    rows = np.concatenate([soak_rows("modern-american", p, 1500) for p in ("random", "greedy")])
    ends = np.bincount(rows[:, layout.COL_END_REASON], minlength=3)
    assert (ends > 0).all(), ends
    for field in ("talon", "clean_canastas", "dirty_canastas", "wild_canastas",
                  "sevens_canastas", "aces_canastas"):
        assert rows[:, fam(0, field)].sum() + rows[:, fam(1, field)].sum() > 0, field
    assert rows[:, side(0, "pile_takes")].sum() > 0


def test_same_seed_same_rows_any_threads_and_chunks():
    """Deal i is the same deal on any thread count and chunk size."""
    a = canasta_sim.simulate(deals=300, seed=5, rules="modern-american", policies="greedy",
                             threads=1)
    b = canasta_sim.simulate(deals=300, seed=5, rules="modern-american", policies="greedy",
                             threads=2, chunk_size=37)
    assert a.equals(b)
    assert a.column("rules")[0].as_py() == "modern-american"


def test_traces_agree_with_the_rows():
    """The trace of deal i ends with the score of row i, and its events move every card from
    where it lies: a replay of the lines conserves the 108 cards (A2)."""
    table = canasta_sim.simulate(deals=30, seed=3, rules="modern-american",
                                 policies="random").to_pandas()
    for events in trace_events("modern-american", 3, 0, 30, "random"):
        deal = events[0]["deal"]
        score = events[-1]
        assert score["ev"] == "score"
        for k in range(2):
            assert score["sides"][k]["total"] == table.loc[deal, f"s{k}_score"]
        assert events[-2]["ev"] == "end"
        assert "upcard" not in {e["ev"] for e in events}                     # A6
        assert all(len(h) == 13 for h in events[0]["hands"])                # A5


def test_set_aside_talons_are_on_the_start_line():
    events = next(trace_events("modern-american(mac_talon_source=set_aside)", 1, 0, 1,
                               "greedy"))
    start = events[0]
    assert [len(t) for t in start["talons"]] == [4, 3]
    assert len(start["stock"]) == 108 - 52 - 7


def test_games_reach_the_target():
    """Games run to 8,500 (A54) or end with a Dream Hand (A53)."""
    games, deals = canasta_sim.simulate(games=12, seed=2, rules="modern-american",
                                        policies="greedy")
    g = games.to_pandas()
    assert (g["ended"] == "target").all()
    top = g[["s0_final", "s1_final"]].max(axis=1)
    dream = deals.to_pandas().groupby("game")["special_hand"].agg(
        lambda s: bool(s.isin(["dream_plus_4", "dream_plus_5"]).any()))
    assert ((top >= 8500) | dream.reindex(g["game"]).to_numpy()).all()
    assert len(deals) == g["deals"].sum()


def test_columns_are_null_outside_the_family():
    table = canasta_sim.simulate(deals=5, seed=1, rules="classic", policies="random")
    assert table.column("s0_talon").null_count == 5
    assert table.column("special_hand").null_count == 5


def test_every_player_plays_the_family_and_search_plays_a_determinization_once():
    mine = f"{__file__.rsplit('/', 1)[0]}/user_policies.py:same_as_random"
    table = canasta_sim.simulate(deals=3, rules="modern-american", policies=f"{mine},search")
    assert table.num_rows == 3 and table.column("policy_1")[0].as_py() == "search"
    with pytest.raises(BadInput, match="rollouts is not accepted with "
                                       "family=modern_american: accepted: rollouts=1"):
        canasta_sim.simulate(deals=5, rules="modern-american", policies="search(rollouts=2)")


def test_simulate_and_replay_commands(tmp_path):
    out = tmp_path / "mac.parquet"
    result = CliRunner().invoke(cli, ["simulate", "--rules", "modern-american", "--deals",
                                      "200", "--policies", "greedy,random", "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert out.exists()
    result = CliRunner().invoke(cli, ["replay", "--rules", "modern-american", "--deals", "4",
                                      "--policies", "random"])
    assert result.exit_code == 0, result.output
    lines = [json.loads(x) for x in result.stdout.splitlines()]
    assert lines[0]["ev"] == "start" and lines[-1]["ev"] == "score"
    result = CliRunner().invoke(cli, ["replay", "--rules", "modern-american", "--deals", "4",
                                      "--policies", "random", "--pretty"])
    assert result.exit_code == 0 and "threes" in result.stdout


@pytest.mark.parametrize("rules", ["modern-american(ask_permission=required)",
                                   "modern-american(mac_ask_limit=once_per_side)",
                                   "modern-american(ask_permission=never)"])
def test_asking_the_partner(rules):
    """A41: a player may ask before going out (must, under ``required``); the answer binds:
    after a yes the seat goes out that turn, after a no it does not; at most one question per
    player (or per side) in a deal; never under ``never``."""
    r = parse_rules(rules)
    asked = 0
    for events in trace_events(rules, 4, 0, 150, "random"):
        seen = {}
        for i, ev in enumerate(events):
            if ev["ev"] != "ask":
                continue
            asked += 1
            assert r.ask_permission != "never"
            key = ev["seat"] if r.mac_ask_limit == "once_per_player" else ev["seat"] % 2
            assert key not in seen
            seen[key] = ev["answer"]
            rest = [e for e in events[i + 1:] if e.get("seat") == ev["seat"] or
                    e["ev"] in ("end", "score")]
            turn = []
            for e in rest:
                turn.append(e["ev"])
                if e["ev"] in ("discard", "end"):
                    break
            if ev["answer"]:
                assert "out" in [e["ev"] for e in rest[:len(turn) + 1]], turn
            else:
                assert turn[-1] == "discard"
        if r.ask_permission == "required":
            for i, ev in enumerate(events):
                if ev["ev"] == "out":          # asked this turn (or its asks were used up)
                    turn = [e for e in events[:i] if e.get("seat") == ev["seat"]]
                    last_draw = max(j for j, e in enumerate(turn) if e["ev"] in ("draw", "take"))
                    asked_now = any(e["ev"] == "ask" for e in turn[last_draw:])
                    assert asked_now or ev["seat"] in seen
    if r.ask_permission != "never":
        assert asked > 0


def test_the_balance_example_reads_a_games_run():
    """examples/american_balance.py (docs/american.md, Balance) on a small run: the shares of
    the deals' ends add to one, the special hands counted by name add to those laid, and the
    first player's edge is the mean of its per-deal margins."""
    import importlib.util
    from pathlib import Path

    path = Path(__file__).resolve().parents[1] / "examples" / "american_balance.py"
    spec = importlib.util.spec_from_file_location("american_balance", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    games, deals = canasta_sim.simulate(games=15, seed=3, rules="modern-american",
                                        policies="expert")
    g, d = canasta_sim.to_pandas(games), canasta_sim.to_pandas(deals)
    out = module.balance(g, d)
    assert out["games"] == 15 and out["deals"] == len(d)
    assert abs(out["ends_out"][0] + out["ends_stock"][0] + out["ends_special"][0] - 1) < 1e-9
    named = sum(v for k, v in out.items() if k.startswith("special "))
    assert named == round(out["ends_special"][0] * len(d))
    first = (d.dealer + 1) % 2
    margin = (d.s0_score - d.s1_score).where(first == 0, d.s1_score - d.s0_score)
    assert abs(out["first_player_edge"][0] - margin.mean()) < 1e-6
    low, high = out["first_player_edge"][1:]
    assert low <= out["first_player_edge"][0] <= high


def test_club_players_take_their_parameters_in_the_family():
    """A parameter reaches the family's club players: expert with another pile threshold
    plays other deals, and a policy with parameters is not refused."""
    a = canasta_sim.simulate(deals=200, seed=6, rules="modern-american", policies="expert")
    b = canasta_sim.simulate(deals=200, seed=6, rules="modern-american",
                             policies="expert(min_pile_take=1)")
    assert not a.column("s0_score").equals(b.column("s0_score"))


@pytest.mark.parametrize("pile, in_hand, takes", [
    (24, 2, False),            # a pair only, a pile under BIG_PILE: the sevens would cost (A46)
    (25, 2, True),             # BIG_PILE cards are worth the risk
    (6, 4, True),              # two more of the rank in hand: the meld can grow
])
def test_club_players_take_a_pile_onto_new_sevens_only_when_worth_it(pile, in_hand, takes):
    """A46: a new sevens meld from a take needs two more sevens in hand, or a pile of
    ``american_club.BIG_PILE`` cards; the same rule for every club player."""
    from canasta_sim.kernels.game.cards import FOUR, SEVEN
    from canasta_sim.kernels.game.layout import NPARAMS
    from canasta_sim.kernels.game.slots import SIDE_MELDED, ST_PILE_N
    from canasta_sim.kernels.game.state import new_state
    from canasta_sim.kernels.players.american_club import BIG_PILE, club_takes_pile_nb
    from canasta_sim.kernels.players.club import P_MIN_PILE_TAKE
    from canasta_sim.kernels.players.ids import POLICY_RUSH
    assert BIG_PILE == 25
    mac = parse_rules("modern-american").to_american_kernel()
    S = new_state()
    S.sidev[:, SIDE_MELDED] = 1
    S.hands[0, SEVEN] = in_hand
    S.pile[:pile] = FOUR                       # fours under the top card
    S.pile[pile - 1] = SEVEN
    S.st[ST_PILE_N] = pile
    par = np.zeros(NPARAMS)
    par[P_MIN_PILE_TAKE] = 1                   # rush's: any pile
    assert bool(club_takes_pile_nb(mac, S, 0, par, POLICY_RUSH)) is takes


@pytest.mark.parametrize("rules_text", ["modern-american",
                                        "modern-american(ask_permission=required)"])
def test_a_step_under_the_talon_rule_goes_out_only_where_going_out_is_allowed(rules_text):
    """A17, A39, A41: in an opening turn that earns a talon, a meld step that leaves one card
    goes out when going out is allowed, and is the talon's last step (TALON_LAST) when the
    turn's answer forbids going out (a partner's "no", or a searched hold): ``greedy``'s
    scored step (``modern-american``) and a step picked from the legal list (asking
    required) alike."""
    from canasta_sim.kernels.game.american import pile as P
    from canasta_sim.kernels.game.american.state import (
        X_TURN_ANSWER,
        X_TURN_FRESH,
        X_TURN_OPENING,
        X_TURN_TALON,
        mac_record_nb,
        new_mac_state,
    )
    from canasta_sim.kernels.game.american.steps import GOES_OUT, TALON_LAST
    from canasta_sim.kernels.game.cards import FIVE, JACK, KING, QUEEN
    from canasta_sim.kernels.game.slots import M_NAT, M_SIZE, SIDE_MELDED
    from canasta_sim.kernels.game.state import new_state
    from canasta_sim.kernels.play.american.turn import step_loop_nb

    plan = prepare(1, 0, rules_text, "greedy")
    record = mac_record_nb(plan.rules_nb)
    king, queen, jack, five = KING, QUEEN, JACK, FIVE
    kinds = []
    for answer in (-1, 0):
        S, A = new_state(), new_mac_state()
        S.hands[0, jack] = 3
        S.hands[0, five] = 1
        for row in (king, queen):                    # two clean canastas laid this turn
            S.melds[0, M_NAT, row] = S.melds[0, M_SIZE, row] = 7
        S.sidev[0, SIDE_MELDED] = 0
        A.x[X_TURN_OPENING] = 1
        A.x[X_TURN_FRESH] = 1 << king | 1 << queen
        A.x[X_TURN_TALON] = P.TALON_FIRST
        A.x[X_TURN_ANSWER] = answer
        buf = np.zeros(64, np.int64)
        kinds.append(step_loop_nb(record[0], S, A, buf, plan.policy_ids, plan.params, 0))
        assert S.hands[0, jack] == 0 and S.melds[0, M_SIZE, jack] == 3    # J J J laid
    assert kinds == [GOES_OUT, TALON_LAST]
