"""A traced Modern American deal as a script of the family's moves, its decisions, and the
deal state at each (docs/analysis.md, "Modern American").

:class:`MacDealScript` is :class:`.position.DealScript` for the family: the same decisions
(:class:`.position.Decision`), the same replay check, with the family's trace lines
(docs/american.md, "Traces") turned into rows of ``kernels/play/american/analysis.py``'s
script (``OP_*``) and the family's deal state: a pair ``(S, A)``, classic's deal state and
the family's :class:`MacState`.  The decisions valued are the take or the draw at the start
of a turn (after the turn's threes), going out, holding on or asking the partner after the
draw, the partner's answer at a question (A41) and the discard; a turn's meld steps are
played as the trace played them.
"""
from __future__ import annotations

from typing import NamedTuple

import numpy as np

from canasta_sim.errors import BadInput
from canasta_sim.kernels.game.american.pile import TALON_FIRST, TALON_NONE, TURN_CARD_STOCK
from canasta_sim.kernels.game.american.state import (
    X_TURN_CARD,
    X_TURN_OPENING,
    X_TURN_TALON,
)
from canasta_sim.kernels.game.cards import JOKER, NKINDS, TOKENS
from canasta_sim.kernels.game.layout import (
    END_OUT,
    END_SPECIAL,
    END_STOCK,
    MAX_SEATS,
    MAX_SIDES,
    NCOLS,
)
from canasta_sim.kernels.game.slots import ST_DECK_N, ST_PILE_N, ST_STOCK_POS, ST_TRACE_ON
from canasta_sim.kernels.play.american import analysis as mk
from canasta_sim.kernels.play.american.turn import MAX_TURNS
from canasta_sim.kernels.play.american.rollout import (
    ANSWER_YES,
    DEC_ANSWER,
    DEC_DISCARD,
    DEC_MELD,
    DEC_OUT,
    DEC_TAKE,
    OUT_ASK,
    OUT_HOLD,
    OUT_OWN,
    OUT_OWN_ASKS,
    TAKE_PILE,
)
from canasta_sim.kernels.play.analysis import MELD_STOP, VALID

from .meld_choice import meld_choice
from .position import (
    DECISION_KINDS,
    TRACE_INTS,
    DealScript,
    Decision,
    _counts,
    _kind,
    meld_code,
    meld_label,
)

END_CODES = {"out": END_OUT, "stock": END_STOCK, "special": END_SPECIAL}


class MacPosition(NamedTuple):
    """A Modern American deal state: classic's ``S`` and the family's ``A``; ``hands`` is
    ``S.hands`` (what the analysis reads of a state, as of classic's)."""
    S: object
    A: object

    @property
    def hands(self):
        """Every seat's hand (count vectors)."""
        return self.S.hands


def step_counts(rank, cards) -> tuple:
    """(naturals, deuces, jokers) of a meld step of ``rank``; the wild meld (row JOKER) holds
    no naturals: its jokers are wild cards (kernels/game/american/melds.py)."""
    nat, de, jo = _counts(rank, cards)
    return (0, de, nat) if rank == JOKER else (nat, de, jo)


class MacDecisions:
    """What the analysis asks of a Modern American deal or position besides its state: the
    candidates of a decision, their readable labels and their rollouts (the family's entry
    kernel, kernels/play/american/analysis.py).  Needs ``rules``, ``rules_nb`` and
    ``state(stop)``."""

    american = True

    def candidates(self, decision, ro=None) -> tuple:
        """The decision's kernel code (rollout.DEC_*), its candidates and their names (see
        :func:`option_name`); no candidate: no decision (a going-out point with nothing to
        choose, kernels/play/american/rollout.py ``out_options_nb``).  The own play of the
        rollout policy of ``ro`` (:class:`.rollout.Rollouts`; default ``expert``) is among
        the going-out and meld candidates."""
        from .rollout import rollout_setup

        ro = ro or rollout_setup(self.rules, threads=1)
        code = DECISION_CODES[decision.kind]
        S, A = self.state(decision.at)[0]
        cands = _zeros(A.steps.shape[0] + NKINDS)
        n, own = mac_task(self.rules_nb, mk.TASK_OPTIONS, S, A, pol=ro.pol.copy(),
                          params=ro.params.copy(), seat=decision.seat, decision=code,
                          cands=cands)
        found = [int(c) for c in cands[:n]]
        if code == DEC_MELD:
            found, _ = meld_choice(found, int(own), decision.code)
        return code, found, [option_name(code, c) for c in found]

    def labels(self, pos, decision, names) -> dict:
        """Readable labels of the options (docs/analysis.md, "Modern American"): the pile and
        its top card of a take, the stock and the turn card of a draw, the talon an opening's
        discard brings, what going out, holding, asking and an answer mean."""
        return {name: option_label(self.rules, pos, decision, name) for name in names}

    def rollout_batch(self, pos, view, seat, decision, cands, key, first, values, ro):
        """Rollouts ``first`` .. ``first + len(values) - 1`` of every candidate on a copy of
        the position ``pos`` (kernels/play/american/rollout.py: the policy of ``ro`` at every
        seat, to the deal's end or ``ro.truncate`` turns after the decision's turn; its
        determinizations list the cards hidden from ``view`` by kind before dealing them
        again, so a trace and its position file give the same values); returns the
        determinizations done."""
        S, A = copy_position(pos)
        done, _ = mac_task(self.rules_nb, mk.TASK_ROLLOUTS, S, A, pol=ro.pol.copy(),
                           params=ro.params.copy(), seat=view, decision=decision,
                           cands=np.asarray(cands, np.int64), key=key, first=first,
                           values=values, turns=ro.truncate or MAX_TURNS)
        values[:, :, VALID] = 1
        return done


def mac_task(rules_nb, task, S, A, buf=None, moves=None, stop=0, deck=None, size=0, dealer=0,
             scores_before=None, row=None, seat=0, decision=0, cands=None, key=0, first=0,
             values=None, pol=None, params=None, turns=MAX_TURNS):
    """Call the family's analysis entry kernel with dummies for what ``task`` does not use
    (``pol``, ``params``: greedy's table, what the replay wants, unless given)."""
    return mk.mac_analysis_task_nb(
        task, rules_nb, S, A, np.zeros(1, np.int32) if buf is None else buf,
        np.zeros((1, mk.SCRIPT_COLS), np.int64) if moves is None else moves, stop,
        _zeros(1) if deck is None else deck, size, dealer,
        _zeros(MAX_SIDES) if scores_before is None else scores_before,
        greedy_table() if pol is None else pol, no_params() if params is None else params,
        _zeros(NCOLS) if row is None else row, seat, decision,
        _zeros(1) if cands is None else cands, np.uint64(key), first,
        np.zeros((0, 1, MAX_SIDES + 1), np.int64) if values is None else values, int(turns))


class MacDealScript(MacDecisions, DealScript):
    """One traced Modern American deal, ready to replay with the family's moves."""

    def kernel_rules(self):
        """The family's kernel record (RuleSet.to_american_kernel)."""
        return self.rules.to_american_kernel()

    def deck_after_hands(self) -> list:
        """A5: the set-aside talons (under ``set_aside``), then the stock, top first."""
        talons = self.start.get("talons") or []
        return [t for talon in talons for t in talon] + list(self.start["stock"])

    # ---- reading the trace ----

    def _script(self):
        """The script rows, the decisions and, per event, the rows done before it."""
        rows, decisions, at_event = [], [], []
        turn = -1
        open_seat = -1             # the seat whose turn is under way
        out_point = False          # the turn's going-out choice is still to come
        steps = []                 # the open turn's meld decisions (dropped if it goes out)
        before_turns = self.rules.mac_threes_timing == "after_deal"
        for i, ev in enumerate(self.events):
            at_event.append(len(rows))
            kind = ev["ev"]
            seat = int(ev["seat"]) if ev.get("seat") is not None else -1
            if kind in ("three", "draw", "take") and open_seat < 0 and not (
                    before_turns and kind == "three"):
                rows.append((mk.OP_BEGIN, seat, 0, 0, 0, 0))
                open_seat = seat
            if kind in ("meld", "ask", "discard") and out_point:
                decisions.append(Decision("going out", seat, seat, len(rows), i, turn,
                                          self._out_played(i)))
                out_point = False
            if kind in ("draw", "take"):
                before_turns = False
                out_point = True          # the going-out choice comes after the draw part
                turn += 1
                decisions.append(Decision("take", seat, seat, len(rows), i, turn, kind))
                if kind == "draw":
                    rows.append((mk.OP_DRAW, seat, 0, 0, 0, 0))
                else:
                    self._take_rows(ev, seat, rows)
            elif kind == "three":
                rows.append((mk.OP_THREE, seat, _kind(ev["card"]),
                             ("deal", "stock", "kept").index(ev["from"]), 0, 0))
            elif kind == "meld":
                rank = _kind(ev["rank"])
                step = (rank,) + step_counts(rank, ev["cards"])
                code = meld_code(*step)
                steps.append(Decision("meld", seat, seat, len(rows), i, turn,
                                      meld_label(code), code))
                rows.append((mk.OP_MELD, seat) + step)
            elif kind == "ask":
                decisions.append(Decision("answer", (seat + 2) % 4, seat, len(rows), i, turn,
                                          "yes" if ev["answer"] else "no"))
                rows.append((mk.OP_ASK, seat, int(bool(ev["answer"])), 0, 0, 0))
            elif kind == "discard":
                out = self._goes_out(i)
                if not out:                 # a turn gone out: its melds were going out's
                    decisions.append(Decision("discard", seat, seat, len(rows), i, turn,
                                              ev["card"]))
                    decisions += steps + [Decision("meld", seat, seat, len(rows), i, turn,
                                                   "stop", MELD_STOP)]
                steps = []
                rows.append((mk.OP_DISCARD, seat, _kind(ev["card"]), int(out), 0, 0))
                open_seat = -1
            elif kind == "special":
                rows.append((mk.OP_SPECIAL, seat, 0, 0, 0, 0))
            elif kind == "end":
                reason = END_CODES.get(ev.get("reason"), END_STOCK)
                rows.append((mk.OP_END, max(open_seat, 0), reason, 0, 0, 0))
        decisions.sort(key=lambda d: (d.at, d.event, DECISION_KINDS.index(d.kind)))
        moves = np.zeros((max(len(rows), 1), mk.SCRIPT_COLS), np.int64)
        for r, row in enumerate(rows):
            moves[r] = row
        return moves, decisions, at_event

    def _goes_out(self, i) -> bool:
        """Whether the discard of event ``i`` goes out (an ``out`` line follows it)."""
        return i + 1 < len(self.events) and self.events[i + 1]["ev"] == "out"

    def _out_played(self, i) -> str:
        """What the turn under way at event ``i`` played at its going-out point: ``ask`` (it
        asked its partner, A41), ``out`` (it went out without asking) or ``hold``."""
        for j in range(i, len(self.events)):
            kind = self.events[j]["ev"]
            if kind == "ask":
                return "ask"
            if kind == "discard":
                return "out" if self._goes_out(j) else "hold"
            if kind == "end":
                return "hold"
        return "hold"

    def _take_rows(self, ev, seat, rows):
        """OP_TAKE (the take meld: the pair and the top card, A29), then OP_TAKE_MELD for each
        meld of the opening laid with it (A26)."""
        melds = ev.get("melds") or []
        if not melds:
            raise BadInput(f"a take by seat {seat} has no melds: accepted: a take line with "
                           "its take meld (docs/american.md)")
        rows.append((mk.OP_TAKE, seat, 0, 0, 0, 0))
        for meld in melds[1:]:
            rank = _kind(meld["rank"])
            rows.append((mk.OP_TAKE_MELD, seat, rank) + step_counts(rank, meld["cards"]))

    # ---- replaying ----

    def _replayed(self, done, stop):
        if done != stop:
            raise BadInput(f"the trace's deal {self.start.get('deal')} could not be replayed "
                           f"past move {max(done, 0)}: accepted: a trace the engine plays "
                           f"under rules {self.rules.canonical()}")

    def state(self, stop: int, trace: bool = False):
        """The deal state (a :class:`MacPosition`) after the first ``stop`` script rows, and
        (with ``trace``) the engine's trace buffer of the replay so far."""
        S, A = new_position()
        buf = np.zeros(TRACE_INTS if trace else 1, np.int32)
        S.st[ST_TRACE_ON] = 1 if trace else 0
        row = _zeros(NCOLS)
        done, used = mac_task(self.rules_nb, mk.TASK_REPLAY, S, A, buf, self.moves, stop,
                              self.deck, self.size, self.dealer, self.scores_before, row)
        self._replayed(done, stop)
        self.last_row = row
        return MacPosition(S, A), buf[:used]


DECISION_CODES = {"take": DEC_TAKE, "going out": DEC_OUT, "answer": DEC_ANSWER,
                  "meld": DEC_MELD, "discard": DEC_DISCARD}
OUT_NAMES = {OUT_OWN: "out", OUT_HOLD: "hold", OUT_ASK: "ask", OUT_OWN_ASKS: "ask"}
OUT_LABELS = {"out": "go out this turn, as the rollout policy plays it",
              "hold": "hold: do not go out this turn",
              "ask": "ask the partner (A41: the answer binds), then as the rollout policy "
                     "plays it"}


def option_name(code, cand) -> str:
    """The name of a candidate, as the decision's ``played`` names it: ``draw``/``take``,
    ``out``/``hold``/``ask``, ``no``/``yes``, or a card token."""
    if code == DEC_TAKE:
        return "take" if cand == TAKE_PILE else "draw"
    if code == DEC_OUT:
        return OUT_NAMES[cand]
    if code == DEC_ANSWER:
        return "yes" if cand == ANSWER_YES else "no"
    if code == DEC_MELD:
        return meld_label(cand)
    return TOKENS[cand]


def option_label(rules, pos, decision, name) -> str:
    """The readable label of option ``name`` of ``decision`` in the position ``pos``."""
    S, A = pos
    stock = int(S.st[ST_DECK_N] - S.st[ST_STOCK_POS])
    if decision.kind == "take":
        if name == "take":
            top = TOKENS[int(S.pile[S.st[ST_PILE_N] - 1])]
            return f"take the pile ({int(S.st[ST_PILE_N])} cards, top {top})"
        if stock == 0:
            return "draw: none left, the deal ends (A44)"
        turn = "; draws the turn card (A7)" if stock - 1 <= TURN_CARD_STOCK and \
            A.x[X_TURN_CARD] == 0 else ""
        return f"draw (stock {stock}{turn})"
    if decision.kind == "going out":
        return OUT_LABELS[name]
    if decision.kind == "meld":
        return "stop: on to the discard" if name == "stop" else f"lay {name}"
    if decision.kind == "answer":
        if name == "yes":
            return f"yes: seat {decision.actor} must go out this turn (A41)"
        return f"no: seat {decision.actor} may not go out this turn (A41)"
    label = f"discard {name}"
    which = int(A.x[X_TURN_TALON])
    if which != TALON_NONE and A.x[X_TURN_OPENING] == 1:
        label += f", then the talon of {talon_cards(rules, which)} cards (A33)"
    return label


def talon_cards(rules, which) -> int:
    """The size of talon ``which`` (A32)."""
    first, second = rules.mac_talon_sizes
    return first if which == TALON_FIRST else second


def new_position():
    """A zeroed deal state and family state."""
    from canasta_sim.kernels.game.american.state import new_mac_state
    from canasta_sim.kernels.game.state import new_state

    return new_state(), new_mac_state()


def copy_position(pos) -> tuple:
    """Copies of a position's two states (each rollout thread plays on its own)."""
    S, A = pos
    return type(S)(*(a.copy() for a in S)), type(A)(*(a.copy() for a in A))


def _zeros(n):
    return np.zeros(n, np.int64)


def greedy_table():
    """A policy table of ``greedy`` at every seat (it lays a special hand it holds, which the
    replay of a ``special`` line asks of the turn's own code)."""
    from canasta_sim.kernels.players.ids import POLICY_GREEDY

    return np.full(MAX_SEATS, POLICY_GREEDY, np.int64)


def no_params():
    """Parameters for a policy table that reads none."""
    from canasta_sim.kernels.game.layout import NPARAMS

    return np.zeros((MAX_SEATS, NPARAMS), np.float64)
