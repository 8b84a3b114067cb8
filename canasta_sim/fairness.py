"""``canasta-sim check-policy``: show that a policy keeps to the interface and plays fair.

Four checks, each on real deals of the chosen rule set:

* **interface** -- the deals play to the end: every answer is a legal option index, nothing
  raised (an error names the decision; a compiled policy that raised is played again as
  plain Python to show the exception);
* **repeatable** -- playing the same deals again gives the same rows (a policy that reads
  ``np.random`` or a clock fails here);
* **information** (docs/rules.md: what a seat may know) -- positions are taken from real
  deals at a random turn of a seat the policy plays; the cards hidden from that seat (the
  other hands, except cards known from pile takes, and the stock below the cards the turn
  can draw) are shuffled
  among themselves, and the seat's turn is played from both positions.  Its decisions and
  moves must be identical up to the first event of another seat (a partner's answer may
  rightly differ);
* **rules** -- traces of the deals are replayed by canasta-sim's own referee
  (:mod:`canasta_sim.referee`, which never calls the kernels) and audited for card
  conservation and the score identity (:mod:`canasta_sim.audit`).  The replay covers the
  four-player partnership rule sets with ``draw_count=1`` and red-three replacement after
  the deal; for other rule sets the audit alone runs, and the report says so.
"""
from __future__ import annotations

import time
from typing import NamedTuple

import numpy as np

from canasta_sim.numbers import format_number

DECISION_LIMIT = 10.0      # seconds one decision may take in the interface check
MAX_DECISION_LIMIT = 86400
FIXED_STOCK = 8            # stock cards a turn may draw (draws and red-three replacements)
FIXED_STOCK_AMERICAN = 16  # Modern American: a draw, the threes' replacements, a talon (A33)
MAX_TURN = 60              # positions are taken at a turn in 0..MAX_TURN-1


class Check(NamedTuple):
    """One check's outcome: its name, whether it passed, and a line saying what was done."""

    name: str
    ok: bool
    detail: str


# --------------------------------------------------------------------------------------------
# The information check
# --------------------------------------------------------------------------------------------

def rearrange_hidden(S, seat: int, rng, fixed: int = FIXED_STOCK) -> bool:
    """Shuffle, in place, the cards of state ``S`` hidden from ``seat``: every other hand's
    cards that are not public (SEAT_KNOWN), keeping hand sizes, and the stock below its top
    ``fixed`` cards (red threes stay where they are).  Returns whether anything moved."""
    from canasta_sim.kernels.game import slots
    from canasta_sim.kernels.game.cards import NKINDS, RED3

    hands, _, deck, _, st, seatv = S.hands, S.melds, S.deck, S.pile, S.st, S.seatv
    others = [s for s in range(int(st[slots.ST_NSEATS])) if s != seat]
    pool, sizes = [], {}
    for s in others:
        hidden = hands[s] - seatv[s, slots.SEAT_KNOWN:slots.SEAT_KNOWN + NKINDS]
        hidden = np.maximum(hidden, 0)
        sizes[s] = hidden.copy()
        for kind in range(NKINDS):
            pool += [kind] * int(hidden[kind])
    lo = int(st[slots.ST_STOCK_POS]) + fixed
    hi = int(st[slots.ST_DECK_N])
    places = [i for i in range(lo, hi) if deck[i] != RED3]
    pool += [int(deck[i]) for i in places]
    before = list(pool)
    rng.shuffle(pool)
    at = 0
    for s in others:
        count = int(sizes[s].sum())
        hands[s] -= sizes[s]
        for kind in pool[at:at + count]:
            hands[s, kind] += 1
        at += count
    for i, kind in zip(places, pool[at:]):
        deck[i] = kind
    return pool != before


def _own_events(buf, used: int, seat: int) -> list:
    """The turn's events (as int lists) up to the first event of another seat or an ask's
    answer: what the seat itself decided and did."""
    from canasta_sim.kernels.game import layout

    events, pos = [], 0
    while pos < used:
        code, who, n = int(buf[pos]), int(buf[pos + 1]), int(buf[pos + 4])
        event = [int(x) for x in buf[pos:pos + layout.EV_HEADER + n]]
        pos += layout.EV_HEADER + n
        if (who >= 0 and who != seat) or code == layout.EV_ASK:
            break
        events.append(event)
    return events


def information_check(plan, positions: int = 200, seed: int = 1) -> Check:
    """Play ``positions`` turns of the plan's user seats (every seat if it has none) twice,
    the second time with the hidden cards rearranged; the seat's play must not change."""
    from canasta_sim.runner import check_policy_table, policy_table

    play = _american_turns(plan) if plan.rules.american else _classic_turns(plan)
    seats = [s for s, u in enumerate(plan.users) if u is not None] or \
        list(range(plan.rules.num_players))
    rng = np.random.default_rng(seed)
    buf1 = np.zeros(1 << 18, np.int32)
    buf2 = np.zeros(1 << 18, np.int32)
    tested = moved = 0
    deal = plan.first_deal
    while tested < positions:
        table = policy_table(plan)
        turn = int(rng.integers(0, MAX_TURN))
        seat, position = play.until(deal, table, turn)
        check_policy_table(plan, table)
        deal += 1
        if seat < 0 or seat not in seats:
            continue
        hidden = play.copy(position)
        moved += rearrange_hidden(hidden[0], seat, rng, play.fixed)
        results = []
        for position, buf in ((position, buf1), (hidden, buf2)):
            table = policy_table(plan)
            used = play.turn(position, seat, table, buf)
            check_policy_table(plan, table)
            results.append(_own_events(buf, used, seat))
        tested += 1
        if results[0] != results[1]:
            return Check("information", False,
                         f"deal {deal - 1}, turn {turn}, seat {seat} ({plan.names[seat]}): "
                         "the seat played differently when the cards hidden from it were "
                         "rearranged (docs/rules.md: what a seat may know)")
    return Check("information", True,
                 f"{tested} turns from real deals replayed with the hidden cards rearranged "
                 f"({moved} positions had hidden cards to move): the seat's play never "
                 "changed")


class Turns(NamedTuple):
    """How the information check stops a deal at a turn and plays one turn, for a family:
    ``until(deal, table, turn)`` -> (seat to play or -1, position), ``copy(position)``,
    ``turn(position, seat, table, buf)`` -> ints traced; ``fixed`` the stock cards a turn
    may draw (left in place).  A position's first item is the deal state ``S``."""

    until: object
    copy: object
    turn: object
    fixed: int


def _classic_turns(plan) -> Turns:
    """Classic's and cutthroat's mid-game kernels (kernels/play/midgame.py)."""
    from canasta_sim.kernels.game import state
    from canasta_sim.kernels.play.midgame import play_turn_traced_nb, play_until_nb

    def until(deal, table, turn):
        S = state.new_state()
        seat = play_until_nb(plan.rules_nb, plan.seed, deal, table, plan.params,
                             plan.scores_before, turn, S)
        return seat, (S,)

    def turn(position, seat, table, buf):
        return play_turn_traced_nb(plan.rules_nb, position[0], seat, table, plan.params, buf)

    return Turns(until, lambda position: (state.copy_state(position[0]),), turn, FIXED_STOCK)


def _american_turns(plan) -> Turns:
    """Modern American's (kernels/play/american/midgame.py): a position is ``(S, A)``."""
    from canasta_sim.kernels.game import state
    from canasta_sim.kernels.game.american.state import MacState, new_mac_state
    from canasta_sim.kernels.play.american.midgame import (
        mac_play_turn_traced_nb,
        mac_play_until_nb,
    )

    def until(deal, table, turn):
        S, A = state.new_state(), new_mac_state()
        seat = mac_play_until_nb(plan.rules_nb, plan.seed, deal, table, plan.params,
                                 plan.scores_before, turn, S, A)
        return seat, (S, A)

    def copy(position):
        return state.copy_state(position[0]), MacState(*(a.copy() for a in position[1]))

    def turn(position, seat, table, buf):
        return mac_play_turn_traced_nb(plan.rules_nb, position[0], position[1], seat, table,
                                       plan.params, buf)

    return Turns(until, copy, turn, FIXED_STOCK_AMERICAN)


# --------------------------------------------------------------------------------------------
# The other checks
# --------------------------------------------------------------------------------------------

def play_watched(plan, first: int, out, limit: float = DECISION_LIMIT) -> None:
    """:func:`canasta_sim.runner.play_range` on a worker thread, while this thread watches
    the policy table's decision counts (kernels/players/user.py): PolicyError if a user
    policy has not answered one decision within ``limit`` seconds (the worker is left to
    loop; a daemon thread does not keep the process alive)."""
    import threading

    from canasta_sim.runner import play_range, policy_table

    table = policy_table(plan)
    failure = []

    def play():
        try:
            play_range(plan, first, out, table)
        except BaseException as exc:  # noqa: BLE001 - raised again on the watching thread
            failure.append(exc)

    worker = threading.Thread(target=play, daemon=True, name="canasta-sim-check")
    worker.start()
    _watch_decisions(worker, table, plan, limit)
    if failure:
        raise failure[0]


def _watch_decisions(worker, table, plan, limit: float) -> None:
    """Wait for ``worker``; PolicyError once the same decision has been open ``limit``
    seconds."""
    from canasta_sim.kernels.players import user as k

    calls, since = -1, time.monotonic()
    while worker.is_alive():
        worker.join(0.05)
        now = time.monotonic()
        if table[k.CALLS] != calls or table[k.CALLS] == table[k.ANSWERS]:
            calls, since = int(table[k.CALLS]), now
        elif now - since > limit:
            raise _too_slow(table, plan, limit)


def _too_slow(table, plan, limit: float):
    """The PolicyError of a decision open longer than ``limit`` seconds."""
    from canasta_sim.kernels.players import user as k
    from canasta_sim.policy_api import DECISIONS
    from canasta_sim.user_policy import PolicyError

    seat = int(table[k.CALL_SEAT])
    user = plan.users[seat] if seat < len(plan.users) else None
    label = user.label if user is not None else plan.names[seat]
    decision = DECISIONS.get(int(table[k.CALL_DECISION]), "?")
    return PolicyError(f"policy {label} has not answered a {decision} decision (seat {seat}) "
                       f"within {format_number(limit)} s: accepted: a policy whose every "
                       "decision returns within --decision-limit seconds (a loop that never "
                       "ends?)", {"kind": "slow", "seat": seat, "user": user})


def interface_check(plan, decision_limit: float = DECISION_LIMIT):
    """Play the plan's deals; returns (Check, rows, deals per second on one thread).
    PolicyError if a user policy breaks the interface or one of its decisions takes longer
    than ``decision_limit`` seconds."""
    out = plan.new_rows(plan.deals)
    if plan.rules.american:          # the family's kernel loads (or compiles) off the clock
        play_watched(plan, plan.first_deal, plan.new_rows(1), decision_limit)
    start = time.perf_counter()
    play_watched(plan, plan.first_deal, out, decision_limit)
    seconds = time.perf_counter() - start
    return Check("interface", True, f"{plan.deals} deals played to the end: every answer a "
                 "legal option index, no exception"), out, plan.deals / max(seconds, 1e-9)


def repeat_check(plan, rows) -> Check:
    """Play the deals again: the rows must be identical."""
    from canasta_sim.runner import play_range

    again = plan.new_rows(plan.deals)
    play_range(plan, plan.first_deal, again)
    same = np.array_equal(rows, again)
    if same:
        return Check("repeatable", True, f"the same {plan.deals} deals played again gave "
                     "identical rows")
    deal = plan.first_deal + int(np.nonzero((rows != again).any(axis=1))[0][0])
    return Check("repeatable", False, f"deal {deal} gave another result when played again: "
                 "the policy depends on something other than its arguments (np.random, "
                 "time, a global)")


def audit_deal(events: list, rules) -> list:
    """The problems the family's checker finds in one traced deal (canasta_sim/audit.py)."""
    if rules.american:
        from canasta_sim.audit_american import audit_american_deal

        return audit_american_deal(events, rules)
    from canasta_sim.audit import audit_deal as audit_classic

    return audit_classic(events, rules)


def rules_check(plan, deals: int) -> Check:
    """Replay ``deals`` traced deals with the referee (where it applies) and audit them."""
    from canasta_sim.referee.replay import replay_deals, supports
    from canasta_sim.trace import decode_events, run_traced

    events = []
    for deal in range(plan.first_deal, plan.first_deal + deals):
        buf, row = run_traced(plan, deal)
        events.append(decode_events(buf, plan, deal, row))
    problems = []
    for deal in events:
        problems += audit_deal(deal, plan.rules)
    if plan.rules.american:
        return Check("rules", not problems, f"{deals} traced deals replayed against A1-A54 by "
                     f"the family's own checker (canasta_sim/audit_american): {len(problems)} "
                     "problems" + (f"; first: {problems[0]}" if problems else ""))
    if not supports(plan.rules):
        ok = not problems
        return Check("rules", ok, f"{deals} traced deals audited (cards conserved, score "
                     f"identity): {len(problems)} problems; the rules replay does not cover "
                     "this rule set (four-player partnerships, draw_count=1, red threes "
                     "replaced after the deal)" + (f"; first: {problems[0]}" if problems else ""))
    violations, _ = replay_deals(events, plan.rules)
    ok = not problems and not violations
    first = ""
    if violations:
        first = f"; first: deal {violations[0].deal}, {violations[0].rule}: {violations[0].msg}"
    elif problems:
        first = f"; first: {problems[0]}"
    return Check("rules", ok, f"{deals} traced deals replayed against the rules: "
                 f"{len(violations)} violations; audit: {len(problems)} problems{first}")


def check_policy(policies: str, rules: str = "classic", deals: int = 300, seed: int = 1,
                 positions: int = 200, traced: int = 100,
                 decision_limit: float = DECISION_LIMIT):
    """Run every check; returns (list of Check, deals per second of the interface run).
    Bad input (an unknown policy, a policy that does not compile) raises BadInput before
    any deal is played; a policy that breaks the interface while playing, or takes longer
    than ``decision_limit`` seconds over one decision, fails the interface check with the
    error's text."""
    from canasta_sim.runner import prepare
    from canasta_sim.user_policy import PolicyError

    decision_limit = check_decision_limit(decision_limit)
    plan = prepare(deals, seed, rules, policies)
    try:
        interface, rows, rate = interface_check(plan, decision_limit)
    except PolicyError as exc:
        return [Check("interface", False, explain_failure(plan, exc))], 0.0
    checks = [interface, repeat_check(plan, rows),
              information_check(plan, positions, seed), rules_check(plan, min(traced, deals))]
    return checks, rate


def check_decision_limit(limit) -> float:
    """The decision time limit as a float in (0, MAX_DECISION_LIMIT], or BadInput."""
    import math

    from canasta_sim.errors import BadInput

    if isinstance(limit, bool) or not isinstance(limit, (int, float)) or \
            not math.isfinite(limit) or not 0 < limit <= MAX_DECISION_LIMIT:
        raise BadInput(f"decision limit {limit!r} is not accepted: accepted: seconds in "
                       f"(0, {MAX_DECISION_LIMIT}], e.g. 10")
    return float(limit)


def explain_failure(plan, exc) -> str:
    """The error's text; for a compiled policy that raised, also the Python exception found
    by playing the same deal again with the policy as plain Python."""
    text = str(exc)
    info = getattr(exc, "info", None)
    if not info or info.get("kind") != "raised" or info["user"].python:
        return text
    from canasta_sim.runner import play_range
    from canasta_sim.user_policy import PolicyError

    users = tuple(u._replace(python=True) if u is not None else None for u in plan.users)
    slow = plan._replace(users=users)
    try:
        play_range(slow, info["deal"], slow.new_rows(1))
    except PolicyError as again:
        if again.info.get("kind") == "raised":
            return f"{again} (found by playing deal {info['deal']} again as plain Python)"
        return f"{text}; as plain Python: {again}"
    return (f"{text}; as plain Python deal {info['deal']} plays without an exception (the "
            "exception depends on numba, e.g. an integer overflow or an index error)")
