"""The Modern American search player and its rollouts (kernels/play/american/rollout.py,
search.py; docs/search.md, "Modern American"): determinizations keep what the seat may know
and conserve the cards, rollouts use common random numbers and split over calls alike,
search games are legal (the audit replays their traces) and reproducible."""
from collections import Counter

import numpy as np
import pytest
from canasta_sim.kernels.game import layout
from canasta_sim.kernels.game.american.pile import set_aside_start_nb
from canasta_sim.kernels.game.american.state import X_TALONS_TAKEN, new_mac_state
from canasta_sim.kernels.game.cards import ACE, BLACK3, DEUCE, FIRST_NATURAL, JOKER, RED3
from canasta_sim.kernels.game.slots import (
    M_DEUCE,
    M_JOKER,
    M_NAT,
    SEAT_HAD_TURN,
    SIDE_MELDED,
    ST_DECK_N,
    ST_PILE_N,
    ST_STOCK_POS,
)
from canasta_sim.kernels.game.state import new_state
from canasta_sim.kernels.play.american import probe
from canasta_sim.kernels.play.american.rollout import (
    DEC_DISCARD,
    DEC_OUT,
    DEC_TAKE,
    OUT_ASK,
    OUT_HOLD,
    OUT_OWN,
    OUT_OWN_ASKS,
)
from canasta_sim.kernels.play.american.tasks import play_mac_deals

import canasta_sim
from canasta_sim.audit_american import audit_american_deal
from canasta_sim.errors import BadInput
from canasta_sim.rules import parse_rules
from canasta_sim.runner import policy_table, prepare
from canasta_sim.trace import trace_events

KEY = np.uint64(0x5EED5EED)
TALONS = "modern-american(mac_talon_source=set_aside)"


def deck_counts():
    """A2: the 108 cards by kind."""
    deck = Counter({k: 8 for k in range(FIRST_NATURAL, ACE + 1)})
    deck.update({DEUCE: 8, RED3: 4, BLACK3: 4, JOKER: 4})
    return deck


class Position:
    """A deal stopped at one decision of one seat (:func:`probe.reach_decision_nb`)."""

    def __init__(self, rules, deal, turn, decision, seed=11):
        self.rules = parse_rules(rules)
        self.mac = self.rules.to_american_kernel()
        self.S, self.A = new_state(), new_mac_state()
        self.W, self.A2 = new_state(), new_mac_state()
        self.decision = decision
        self.seat, self.choices = self.run(probe.PROBE_REACH, seed, deal, turn, -1)

    def run(self, task, seed=0, deal=0, turn=0, seat=0, cands=None, d0=0, count=1):
        """One call of the probe entry."""
        cands = np.zeros(1, np.int64) if cands is None else np.asarray(cands, np.int64)
        values = np.zeros((count, len(cands), 2), np.int64)
        out = probe.rollout_probe_nb(task, self.mac, seed, deal, turn, seat, self.decision,
                                     self.S, self.A, self.W, self.A2, cands, KEY, d0, values)
        self.values = values
        return out

    def determinize(self, d):
        """``W``, ``A2`` <- determinization ``d``."""
        self.run(probe.PROBE_DETERMINIZE, seat=self.seat, d0=d)

    def rollouts(self, cands, d0, count):
        """values[d, c, side] of ``cands`` on determinizations d0 .. d0 + count - 1."""
        self.run(probe.PROBE_ROLLOUTS, seat=self.seat, cands=cands, d0=d0, count=count)
        return self.values.copy()

    def legal_discards(self):
        """The seat's legal discards (left in ws[WS_ORDER] by the probe)."""
        from canasta_sim.kernels.game.slots import WS_ORDER
        return list(self.S.ws[WS_ORDER, :self.choices])


def positions(rules, decision, want=6):
    """Up to ``want`` positions with a choice at ``decision``, from several deals and turns."""
    found = []
    for deal in range(40):
        for turn in (3, 9, 17, 26):
            p = Position(rules, deal, turn, decision)
            if p.seat >= 0 and p.choices >= 2:
                found.append(p)
                if len(found) == want:
                    return found
    return found


def hidden(S, A, mac_rules, seat):
    """The cards hidden from ``seat``: other hands, face-down talons, the stock."""
    cards = Counter()
    for s in range(4):
        if s != seat:
            cards.update({k: int(v) for k, v in enumerate(S.hands[s]) if v})
    if mac_rules.mac_talon_source == "set_aside":
        mac = mac_rules.to_american_kernel()
        for which, size in ((1, 4), (2, 3)):
            if not A.x[X_TALONS_TAKEN] & (1 << which):
                start = set_aside_start_nb(mac, which)
                cards.update(int(c) for c in S.deck[start:start + size])
    cards.update(int(c) for c in S.deck[S.st[ST_STOCK_POS]:S.st[ST_DECK_N]])
    return cards


def seen(S, A, seat):
    """The cards ``seat`` sees: its hand, the melds, the threes laid, the pile."""
    cards = Counter({k: int(v) for k, v in enumerate(S.hands[seat]) if v})
    for side in range(2):
        for row in range(S.melds.shape[2]):
            cards[row] += int(S.melds[side, M_NAT, row])
            cards[DEUCE] += int(S.melds[side, M_DEUCE, row])
            cards[JOKER] += int(S.melds[side, M_JOKER, row])
        cards[RED3] += int(A.threes[side, 0])
        cards[BLACK3] += int(A.threes[side, 1])
    cards.update(int(c) for c in S.pile[:S.st[ST_PILE_N]])
    return +cards


@pytest.mark.parametrize("rules", ["modern-american", TALONS,
                                   "modern-american(mac_threes_timing=after_deal)"])
def test_determinizations_keep_what_the_seat_knows_and_conserve_the_cards(rules):
    parsed = parse_rules(rules)
    ps = positions(rules, DEC_DISCARD, want=4)
    assert len(ps) == 4
    moved = 0
    for p in ps:
        S, A, W, A2, seat = p.S, p.A, p.W, p.A2, p.seat
        before = hidden(S, A, parsed, seat)
        assert before + seen(S, A, seat) == deck_counts()                          # A2
        for d in range(4):
            p.determinize(d)
            assert (W.hands[seat] == S.hands[seat]).all()
            assert (W.melds == S.melds).all() and (A2.threes == A.threes).all()
            n = S.st[ST_PILE_N]
            assert (W.pile[:n] == S.pile[:n]).all() and (W.st == S.st).all()
            assert (W.hands.sum(axis=1) == S.hands.sum(axis=1)).all()       # sizes public
            assert hidden(W, A2, parsed, seat) == before                    # same cards
            for s in range(4):                    # no three where none may be held (A9-A10)
                if s != seat and W.seatv[s, SEAT_HAD_TURN] and W.sidev[s % 2, SIDE_MELDED]:
                    assert W.hands[s, RED3] + W.hands[s, BLACK3] == 0
            moved += int((W.hands != S.hands).any())
            first = W.hands.copy(), W.deck.copy()
            p.determinize(d)                                  # d alone fixes it
            assert (W.hands == first[0]).all() and (W.deck == first[1]).all()
    assert moved >= 14                                       # the hidden cards do move


def test_a_determinization_does_not_depend_on_where_the_hidden_cards_lie():
    """Two other hands trade a card (and the stock turns over): the seat cannot tell, and
    its determinizations are the same."""
    for p in positions("modern-american", DEC_DISCARD, want=3):
        S, W, seat = p.S, p.W, p.seat
        p.determinize(5)
        before = W.hands.copy(), W.deck.copy()
        a, b = [s for s in range(4) if s != seat][:2]
        ka, kb = int(np.argmax(S.hands[a])), int(np.argmax(S.hands[b]))
        S.hands[a, ka] -= 1
        S.hands[b, ka] += 1
        S.hands[b, kb] -= 1
        S.hands[a, kb] += 1
        lo, hi = S.st[ST_STOCK_POS], S.st[ST_DECK_N]
        S.deck[lo:hi] = S.deck[lo:hi][::-1].copy()
        p.determinize(5)
        assert (W.hands == before[0]).all() and (W.deck == before[1]).all()


def test_identical_candidates_get_identical_values():
    """Common random numbers: a candidate given twice is valued alike on every
    determinization; two different discards differ somewhere."""
    differ = 0
    for p in positions("modern-american", DEC_DISCARD, want=4):
        a, b = p.legal_discards()[:2]
        v = p.rollouts([a, b, a], 0, 6)
        assert (v[:, 0] == v[:, 2]).all()
        differ += int((v[:, 0] != v[:, 1]).any())
    assert differ >= 1


@pytest.mark.parametrize("decision,cands", [(DEC_DISCARD, None), (DEC_TAKE, [1, 0]),
                                            (DEC_OUT, [0, OUT_HOLD])])
def test_rollouts_split_over_calls_give_the_same_values(decision, cands):
    """Determinization d depends on the key and d only: four at once or two and two."""
    p = positions(TALONS, decision, want=1)[0]
    cands = cands or p.legal_discards()[:3]
    whole = p.rollouts(cands, 0, 4)
    parts = np.concatenate([p.rollouts(cands, 0, 2), p.rollouts(cands, 2, 2)])
    assert (whole == parts).all()
    assert (p.rollouts(cands, 3, 1)[0] == whole[3]).all()
    assert np.abs(whole).sum() > 0


def test_search_games_are_legal_the_audit_replays_them():
    rules = parse_rules("modern-american")
    pols = "search(determinizations=3,candidates=3,threshold=0,confidence=0),expert"
    played = Counter()
    for events in trace_events("modern-american", 5, 0, 6, pols):
        assert audit_american_deal(events, rules) == []
        played.update(e["ev"] for e in events)
    assert played["discard"] > 50 and played["take"] > 0


def test_same_seed_same_rows_any_threads():
    pols = "search(determinizations=2,threshold=0,confidence=0),greedy"
    a = canasta_sim.simulate(deals=4, seed=9, rules=TALONS, policies=pols, threads=1)
    b = canasta_sim.simulate(deals=4, seed=9, rules=TALONS, policies=pols, threads=2,
                             chunk_size=1)
    assert a.equals(b)


def test_search_games_conserve_the_cards():
    plan = prepare(4, 3, TALONS, "greedy,search(determinizations=2,threshold=0,confidence=0)")
    rows = np.zeros((4, layout.NCOLS), np.int64)
    play_mac_deals(plan.rules_nb, 3, 0, rows, policy_table(plan), plan.params,
                   plan.scores_before, check=1)
    assert rows[:, layout.COL_CHECK_FAILS].sum() == 0
    assert (rows[:, layout.COL_TURNS] > 0).all()


def test_search_with_a_huge_threshold_plays_expert():
    """The blueprint is expert: a search seat that never trusts its rollouts plays expert's
    game card for card."""
    a = canasta_sim.simulate(deals=3, seed=2, rules="modern-american",
                             policies="search(determinizations=2,threshold=1e9),rush")
    b = canasta_sim.simulate(deals=3, seed=2, rules="modern-american", policies="expert,rush")
    for k in range(2):
        assert a.column(f"s{k}_score").equals(b.column(f"s{k}_score"))


def test_rollouts_other_than_one_are_refused():
    with pytest.raises(BadInput, match="rollouts is not accepted with family=modern_american"):
        canasta_sim.simulate(deals=1, rules="modern-american", policies="search(rollouts=2)")


def test_search_gains_over_expert_on_paired_seeds():
    """A measured claim (docs/search.md, "Modern American"), small: on 150 deal seeds played
    both ways round, search's side outscores expert's on average by more than two standard
    errors."""
    pols = "search(determinizations=8)"
    a = canasta_sim.simulate(deals=150, seed=21, rules="modern-american",
                             policies=f"{pols},expert").to_pandas()
    b = canasta_sim.simulate(deals=150, seed=21, rules="modern-american",
                             policies=f"expert,{pols}").to_pandas()
    m = ((a.s0_score - a.s1_score) + (b.s1_score - b.s0_score)) / 2
    assert m.mean() > 2 * m.std(ddof=1) / np.sqrt(len(m))


def out_candidates(p):
    """The going-out candidates the probe listed (``rollout.out_options_nb``)."""
    from canasta_sim.kernels.play.search import AT, R_STATS
    return list(p.S.ws[R_STATS, AT:AT + p.choices])


def test_going_out_lists_asking_and_its_rollouts_play_it():
    """With asking optional expert never asks: asking is listed where a question is open, and
    played: its values differ from holding on somewhere, and listed twice they agree."""
    listed = differ = 0
    for p in positions("modern-american", DEC_OUT, want=12):
        cands = out_candidates(p)
        assert cands[0] in (OUT_OWN, OUT_HOLD) and len(set(cands)) == len(cands)
        if OUT_ASK not in cands:
            continue
        listed += 1
        v = p.rollouts([OUT_ASK, OUT_HOLD, OUT_ASK], 0, 4)
        assert (v[:, 0] == v[:, 2]).all()
        differ += int((v[:, 0] != v[:, 1]).any())
    assert listed >= 1 and differ >= 1


def test_where_asking_is_required_expert_asks_and_may_hold():
    for p in positions("modern-american(ask_permission=required)", DEC_OUT, want=4):
        cands = out_candidates(p)
        assert cands[0] in (OUT_OWN_ASKS, OUT_HOLD, OUT_OWN)
        if cands[0] == OUT_OWN_ASKS:
            assert cands == [OUT_OWN_ASKS, OUT_HOLD]


def test_search_asks_its_partner_and_its_games_stay_legal():
    """Expert never asks with asking optional, so every question of these games is a search
    seat's searched one; the audit replays them (A41: the answer binds)."""
    rules = parse_rules("modern-american")
    pols = "search(decisions=8,determinizations=4,threshold=0,confidence=0),expert"
    asks = Counter()
    for events in trace_events("modern-american", 3, 0, 30, pols):
        assert audit_american_deal(events, rules) == []
        asks.update(e["seat"] % 2 for e in events if e["ev"] == "ask")
    assert asks[0] >= 1 and asks[1] == 0


REQUIRED = "modern-american(ask_permission=required)"


def test_a_search_seat_asked_by_its_partner_answers_legally():
    """With asking required expert asks before going out; its search partner's answer is
    searched (search.search_answer_nb) and the games stay legal (A41: the answer binds)."""
    rules = parse_rules(REQUIRED)
    pols = "expert,search(decisions=8,determinizations=4,threshold=0,confidence=0)"
    asked = 0
    for events in trace_events(REQUIRED, 3, 0, 12, pols):
        assert audit_american_deal(events, rules) == []
        asked += sum(1 for e in events if e["ev"] == "ask" and e["seat"] % 2 == 0)
    assert asked >= 1


def test_an_answer_search_that_never_trusts_its_rollouts_plays_expert():
    """The asker's turn beside a search partner (search.asked_turn_nb) is expert's own when
    the search keeps the blueprint's yes."""
    a = canasta_sim.simulate(deals=6, seed=3, rules=REQUIRED,
                             policies="expert,search(decisions=8,threshold=1e9)")
    b = canasta_sim.simulate(deals=6, seed=3, rules=REQUIRED, policies="expert,expert")
    for k in range(2):
        assert a.column(f"s{k}_score").equals(b.column(f"s{k}_score"))
