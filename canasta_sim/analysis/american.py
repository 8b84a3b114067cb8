"""A traced Modern American deal as a script of the family's moves, its decisions, and the
deal state at each (docs/analysis.md, "Modern American").

:class:`MacDealScript` is :class:`.position.DealScript` for the family: the same decisions
(:class:`.position.Decision`), the same replay check, with the family's trace lines
(docs/american.md, "Traces") turned into rows of ``kernels/play/american/analysis.py``'s
script (``OP_*``) and the family's deal state: a pair ``(S, A)``, classic's deal state and
the family's :class:`MacState`.  The decisions valued are the take or the draw at the start
of a turn (after the turn's threes), the partner's answer (A41) and the discard; a turn's
melds and its going out are played as the trace played them.
"""
from __future__ import annotations

from typing import NamedTuple

import numpy as np

from canasta_sim.errors import BadInput
from canasta_sim.kernels.game.cards import JOKER
from canasta_sim.kernels.game.layout import END_OUT, END_SPECIAL, END_STOCK, MAX_SEATS
from canasta_sim.kernels.play.american import analysis as mk

from .position import TRACE_INTS, DealScript, Decision, _counts, _kind

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


class MacDealScript(DealScript):
    """One traced Modern American deal, ready to replay with the family's moves."""

    american = True

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
        before_turns = self.rules.mac_threes_timing == "after_deal"
        for i, ev in enumerate(self.events):
            at_event.append(len(rows))
            kind = ev["ev"]
            seat = int(ev["seat"]) if ev.get("seat") is not None else -1
            if kind in ("three", "draw", "take") and open_seat < 0 and not (
                    before_turns and kind == "three"):
                rows.append((mk.OP_BEGIN, seat, 0, 0, 0, 0))
                open_seat = seat
            if kind in ("draw", "take"):
                before_turns = False
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
                rows.append((mk.OP_MELD, seat, rank) + step_counts(rank, ev["cards"]))
            elif kind == "ask":
                decisions.append(Decision("answer", (seat + 2) % self.seats, seat, len(rows),
                                          i, turn, "yes" if ev["answer"] else "no"))
                rows.append((mk.OP_ASK, seat, int(bool(ev["answer"])), 0, 0, 0))
            elif kind == "discard":
                out = self._goes_out(i)
                if not out:
                    decisions.append(Decision("discard", seat, seat, len(rows), i, turn,
                                              ev["card"]))
                rows.append((mk.OP_DISCARD, seat, _kind(ev["card"]), int(out), 0, 0))
                open_seat = -1
            elif kind == "special":
                rows.append((mk.OP_SPECIAL, seat, 0, 0, 0, 0))
            elif kind == "end":
                reason = END_CODES.get(ev.get("reason"), END_STOCK)
                rows.append((mk.OP_END, max(open_seat, 0), reason, 0, 0, 0))
        decisions.sort(key=lambda d: (d.at, d.event))
        moves = np.zeros((max(len(rows), 1), mk.SCRIPT_COLS), np.int64)
        for r, row in enumerate(rows):
            moves[r] = row
        return moves, decisions, at_event

    def _goes_out(self, i) -> bool:
        """Whether the discard of event ``i`` goes out (an ``out`` line follows it)."""
        return i + 1 < len(self.events) and self.events[i + 1]["ev"] == "out"

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

    def state(self, stop: int, trace: bool = False):
        """The deal state (a :class:`MacPosition`) after the first ``stop`` script rows, and
        (with ``trace``) the engine's trace buffer of the replay so far."""
        from canasta_sim.kernels.game.american.state import new_mac_state
        from canasta_sim.kernels.game.layout import NCOLS
        from canasta_sim.kernels.game.slots import ST_TRACE_ON
        from canasta_sim.kernels.game.state import new_state

        S, A = new_state(), new_mac_state()
        buf = np.zeros(TRACE_INTS if trace else 1, np.int32)
        S.st[ST_TRACE_ON] = 1 if trace else 0
        row = np.zeros(NCOLS, np.int64)
        done, used = mk.mac_analysis_task_nb(
            mk.TASK_REPLAY, self.rules_nb, S, A, buf, self.moves, stop, self.deck,
            self.size, self.dealer, self.scores_before, greedy_table(), no_params(), row)
        if done != stop:
            raise BadInput(f"the trace's deal {self.start.get('deal')} could not be replayed "
                           f"past move {max(done, 0)}: accepted: a trace the engine plays "
                           f"under rules {self.rules.canonical()}")
        self.last_row = row
        return MacPosition(S, A), buf[:used]


def greedy_table():
    """A policy table of ``greedy`` at every seat (it lays a special hand it holds, which the
    replay of a ``special`` line asks of the turn's own code)."""
    from canasta_sim.kernels.players.ids import POLICY_GREEDY

    return np.full(MAX_SEATS, POLICY_GREEDY, np.int64)


def no_params():
    """Parameters for a policy table that reads none."""
    from canasta_sim.kernels.game.layout import NPARAMS

    return np.zeros((MAX_SEATS, NPARAMS), np.float64)
