"""Small helpers for the rules tests on top of ``tests/scenario.py``.

* :func:`clone` copies a :class:`scenario.Position` (state arrays included).
* :func:`apply_step` carries out one meld-phase option the way the engine's meld phase does.
* :func:`outcomes` explores every sequence of meld-phase options of a turn and returns the
  table states at which the turn may legally end (stop or go out), so a test can ask
  "is there a legal turn that lays these melds?" without depending on a policy.
"""
from __future__ import annotations

import copy

import naive
import numpy as np
from canasta_sim.kernels.game import cards, options, slots, state
from canasta_sim.kernels.game.cards import TOKEN_TO_KIND, TOKENS


def clone(pos):
    new = copy.copy(pos)
    new.S = state.copy_state(pos.S)
    new.opts = pos.opts.copy()
    new.plan = pos.plan.copy()
    return new


def side_melds(pos, side) -> dict:
    """{rank token: (naturals, deuces, jokers)} of a side's melds on the table."""
    out = {}
    for r in range(cards.BLACK3, cards.NKINDS):
        n, d, j = (int(x) for x in pos.S.melds[side, :slots.M_SIZE, r])
        if n + d + j:
            out[TOKENS[r]] = (n, d, j)
    return out


def apply_step(pos, seat, opt_row):
    """Carry out one OPT_NEW / OPT_ADD row as ``turn.meld_phase_nb`` does."""
    hands, melds, st, sidev = pos.S.hands, pos.S.melds, pos.S.st, pos.S.sidev
    kind, r = int(opt_row[0]), int(opt_row[1])
    nat, de, jo = options.step_cards_nb(kind, r, int(opt_row[2]), int(opt_row[3]),
                                        int(opt_row[4]))
    if st[slots.ST_TURN_NEEDS_MIN] == 1:
        st[slots.ST_TURN_COUNT] += nat * int(state.card_value_nb(pos.nb, r)) + de * 20 + jo * 50
    options.place_cards_nb(pos.nb, st, hands, melds, sidev, pos.buf, seat, r, nat, de, jo, False)


def _key(pos, seat, side):
    return (pos.S.hands[seat].tobytes(), pos.S.melds[side].tobytes(), int(pos.st[slots.ST_TURN_COUNT]))


def outcomes(pos, seat, limit=20000):
    """Every legal end of the meld phase reachable from ``pos`` (``begin(seat)`` done):
    a set of (how, frozenset of side melds), ``how`` = "stop" or "out"."""
    side = seat % pos.rules.num_sides
    seen = set()
    found = set()
    stack = [clone(pos)]
    while stack:
        p = stack.pop()
        key = _key(p, seat, side)
        if key in seen:
            continue
        seen.add(key)
        if len(seen) > limit:
            raise RuntimeError("search too large")
        p.meld_options(seat)
        n = len(p.meld_options(seat))
        rows = p.opts[:n].copy()
        for row in rows:
            if row[0] == options.OPT_STOP:
                found.add(("stop", frozenset(side_melds(p, side).items())))
            elif row[0] == options.OPT_GO_OUT:
                q = clone(p)
                plan = p.plan[int(row[1])].copy()
                for r in range(cards.BLACK3, cards.NKINDS):
                    for col in range(3):
                        q.S.melds[side, col, r] += plan[r, col]
                state.set_meld_sizes(q.S.melds)
                found.add(("out", frozenset(side_melds(q, side).items())))
            else:
                q = clone(p)
                apply_step(q, seat, row)
                if q.S.hands[seat].sum() == 0:
                    found.add(("out", frozenset(side_melds(q, side).items())))
                else:
                    stack.append(q)
    return found


def new_meld_ranks(outcome_set, before=()):
    """The sets of ranks present after each legal end (``before``: ranks already down)."""
    return {frozenset(r for r, _ in melds) - set(before) for _, melds in outcome_set}


def kind(tok):
    return TOKEN_TO_KIND[tok]


def turn_upcard(pos):
    """Turn the upcard from the position's stock (deal.turn_upcard_nb); returns the pile."""
    from canasta_sim.kernels.game.deal import turn_upcard_nb
    turn_upcard_nb(pos.nb, pos.S, pos.buf)
    n = int(pos.st[slots.ST_PILE_N])
    return [TOKENS[int(k)] for k in pos.S.pile[:n]]


def pile_of(pos):
    n = int(pos.st[slots.ST_PILE_N])
    return [TOKENS[int(k)] for k in pos.S.pile[:n]]


def frozen(pos):
    """The pile holds a card that freezes it for everyone (R8, R32)."""
    return int(pos.st[slots.ST_FREEZERS]) > 0


def red3_of(pos, side):
    return int(pos.S.sidev[side, slots.SIDE_RED3])


def stock_left(pos):
    return int(pos.st[slots.ST_DECK_N] - pos.st[slots.ST_STOCK_POS])


def hand_size(pos, seat):
    return int(np.sum(pos.S.hands[seat]))


# ---- moves made directly, without a policy choosing them ------------------------------------------

def take(pos, seat, k, d=0, j=0) -> bool:
    """Take the pile with k naturals, d deuces and j jokers from the hand (turn.take_pile_nb).
    Extra take melds of an unmelded side (R35) are still chosen by the seat's policy."""
    from canasta_sim.kernels.play import turn
    pos.begin(seat, take=True)
    return bool(turn.take_pile_nb(pos.nb, pos.S, pos.buf, seat, k, d, j, pos.table))


def go_out(pos, seat, discard="best", melds=None) -> int:
    """Carry out a going-out plan for ``seat`` now (``begin`` done): the one of the highest
    score, or the first with this ``discard`` (token, None for none) and, if given, these
    meld sizes ({rank: cards placed})."""
    from canasta_sim.kernels.game import moves
    options = pos.go_out_plans(seat)
    if discard == "best":
        p = max(options, key=lambda o: (o["score"], -o["index"]))
    else:
        p = next(o for o in options if o["discard"] == discard
                 and (melds is None or o["melds"] == melds))
    return int(moves.execute_go_out_nb(pos.nb, pos.S, pos.buf, seat, pos.plan, p["index"]))


def draw(pos, seat):
    """Start a draw turn: draw from the stock, placing red threes (R12, R13, R47)."""
    from canasta_sim.kernels.game import moves
    pos.begin(seat)
    moves.draw_from_stock_nb(pos.nb, pos.S, pos.buf, seat)


def random_turns(build, seat=0, seeds=range(16)):
    """Play one turn of ``seat`` with the ``random`` policy (every seat) from several random
    streams; returns [(result, position)].  Used where any legal play must satisfy a fact."""
    from canasta_sim.kernels.game.rng import seed_streams_nb
    results = []
    for s in seeds:
        p = build().policies("random", "random", "random", "random")
        seed_streams_nb(p.S.rng, 99, s)
        results.append((p.play_turn(seat), p))
    return results


def stop_ends(pos, seat, keep=2):
    """The tables at which the meld phase may stop with at least ``keep`` cards in hand
    (frozensets of (rank, (naturals, deuces, jokers)), natural ranks only)."""
    side = seat % pos.rules.num_sides
    before = sum(sum(v) for v in side_melds(pos, side).values())
    total = hand_size(pos, seat)
    ends = set()
    for how, melds in outcomes(pos, seat):
        placed = sum(sum(v) for _, v in melds) - before
        if how == "stop" and total - placed >= keep:
            ends.add(frozenset((r, v) for r, v in melds if r != "3b"))
    return ends


CONTINUE, DEAL_OVER = 0, 1          # turn.play_turn_nb results
CANASTA = {"9": "9 9 9 9 9 9 9"}


def side0(rules="classic", **melds):
    """A position where side 0 has melded (5-5-5 unless other melds are given)."""
    from scenario import Position

    p = Position(rules)
    for rank, meld in (melds or {"5": "5 5 5"}).items():
        p.meld(0, rank, meld)
    return p


POOL = list(naive.NATURALS) * 2 + ["2", "JK", "3b"]   # cards for hypothesis-drawn hands
