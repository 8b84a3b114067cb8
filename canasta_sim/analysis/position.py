"""A traced deal as a script of the engine's moves, its decisions, and the deal state at each.

A trace (docs/trace.md) holds every card that moved.  :class:`DealScript` turns one deal's
events into rows of ``kernels/play/analysis.py``'s script (``OP_*``) and lists its
decisions (:class:`Decision`): the take or the draw at the start of a turn, the going-out
choice after the draw, the partner's answer and the discard.  :meth:`DealScript.state`
replays the deal with the engine's own moves up to a decision; :meth:`DealScript.check`
replays it whole and compares the engine's trace of the replay with the trace read, so a
trace the engine cannot reproduce (another rule set, a broken file) is refused.
"""
from __future__ import annotations

import json
from typing import NamedTuple

import numpy as np

from canasta_sim.errors import BadInput
from canasta_sim.kernels.game.cards import DEUCE, JOKER, NKINDS, TOKEN_TO_KIND
from canasta_sim.kernels.game.layout import END_OUT, END_STOCK, MAX_CARDS, MAX_SIDES, NCOLS
from canasta_sim.kernels.game.slots import ST_TRACE_ON
from canasta_sim.kernels.play import analysis as k

TRACE_INTS = 1 << 16
DECISION_KINDS = ("take", "going out", "answer", "meld", "discard")


class Decision(NamedTuple):
    """One decision of the deal: ``kind`` (take, going out, answer, meld, discard), the seat
    that makes it (``seat``), the seat whose turn it is (``actor``), the script rows done
    before it (``at``), the index of the trace event it precedes (``event``), the turn number
    and the option the trace played (``played``: ``draw``/``take``, ``now``/``ask``/``hold``,
    ``yes``/``no``, a meld step's name or ``stop``, or a card token); ``code``: a meld
    step's candidate code (kernels/play/analysis.py ``meld_code_nb``)."""
    kind: str
    seat: int
    actor: int
    at: int
    event: int
    turn: int
    played: str
    code: int = 0


def read_trace(path) -> list:
    """The deals of a trace file: a list of event lists, each from its ``start`` line
    (audit.read_deals)."""
    from canasta_sim.audit import read_deals

    try:
        with open(path, encoding="utf-8") as f:
            deals = list(read_deals(f, str(path)))
    except OSError as exc:
        raise BadInput(f"cannot read trace {path}: {exc.strerror}") from None
    if not deals:
        raise BadInput(f"{path} holds no deal: accepted: a trace with a start line")
    return deals


def _kind(token) -> int:
    try:
        return TOKEN_TO_KIND[token]
    except (KeyError, TypeError):
        raise BadInput(f"unknown card {token!r} in the trace: accepted: "
                       f"{', '.join(TOKEN_TO_KIND)}") from None


def _counts(rank, cards) -> tuple:
    """(naturals, deuces, jokers) of a list of card tokens laid on the meld of ``rank``."""
    kinds = [_kind(c) for c in cards]
    return (sum(1 for x in kinds if x == rank), kinds.count(DEUCE), kinds.count(JOKER))


class DealScript:
    """One traced deal, ready to replay with the engine's moves (module docstring)."""

    def __init__(self, events: list, rules=None):
        from canasta_sim.rules import parse_rules

        start = events[0]
        if start.get("ev") != "start":
            raise BadInput("a deal must begin with its start line (docs/trace.md)")
        self.events = events
        self.start = start
        self.rules = parse_rules(rules if rules is not None else start.get("rules", "classic"))
        if self.rules.team_layout.startswith("cutthroat") or "partnership" in {
                e["ev"] for e in events}:
            raise BadInput(f"rules {self.rules.canonical()}: accepted: fixed layouts "
                           "(cutthroat deals are not analysed)")
        self.rules_nb = self.kernel_rules()
        self.seats = int(start["seats"])
        self.dealer = int(start["dealer"])
        self.scores_before = np.zeros(MAX_SIDES, np.int64)
        for i, s in enumerate(start.get("scores_before", [])[:MAX_SIDES]):
            self.scores_before[i] = int(s)
        self.deck, self.size = self._deck()
        self.moves, self.decisions, self.rows_at_event = self._script()

    american = False

    def kernel_rules(self):
        """The rule set's kernel record (classic's; the family's in :mod:`.american`)."""
        return self.rules.to_kernel()

    def deck_after_hands(self) -> list:
        """The cards after the dealt hands, top first: the stock."""
        return list(self.start["stock"])

    # ---- reading the trace ----

    def _deck(self):
        """The deck in dealing order: the hands, one card at a time from the dealer's left
        (R6), then the stock, top first."""
        n = self.seats
        hands = self.start["hands"]
        deck = np.zeros(MAX_CARDS, np.int64)
        size = len(hands[0]) if hands else 0
        for j in range(n * size):
            seat = (self.dealer + 1 + j) % n
            deck[j] = _kind(hands[seat][j // n])
        stock = self.deck_after_hands()
        for i, token in enumerate(stock):
            deck[n * size + i] = _kind(token)
        return deck, n * size + len(stock)

    def _script(self):
        """The script rows, the decisions and, per event, the rows done before it."""
        rows, decisions, at_event = [], [], []
        turn = -1
        open_seat = -1          # the seat whose turn is under way (no discard or out yet)
        out_asked = {}          # per turn: what the seat did after its draw
        steps, staged = [], []  # the open turn's meld decisions; those of a turn not gone out
        for i, ev in enumerate(self.events):
            at_event.append(len(rows))
            kind = ev["ev"]
            seat = int(ev.get("seat", -1)) if ev.get("seat") is not None else -1
            if kind in ("draw", "take", "end"):
                decisions += staged             # the turn before did not go out
                steps, staged = [], []
            if kind in ("draw", "take"):
                turn += 1
                decisions.append(Decision("take", seat, seat, len(rows), i, turn, kind))
                rows.append((k.OP_BEGIN, seat, 0, 0, 0, 0))
                open_seat = seat
                if kind == "draw":
                    rows.append((k.OP_DRAW, seat, 0, 0, 0, 0))
                else:
                    self._take_rows(ev, seat, rows)
                out_asked[turn] = (len(rows), i + 1, seat, kind)
            elif kind == "meld":
                rank = _kind(ev["rank"])
                step = (rank,) + _counts(rank, ev["cards"])
                code = meld_code(*step)
                steps.append(Decision("meld", seat, seat, len(rows), i, turn,
                                      meld_label(code), code))
                rows.append((k.OP_MELD, seat) + step)
            elif kind == "ask":
                decisions.append(Decision("answer", (seat + self.rules.num_sides) % self.seats,
                                          seat, len(rows), i, turn,
                                          "yes" if ev["answer"] else "no"))
                rows.append((k.OP_ASK, seat, int(bool(ev["answer"])), 0, 0, 0))
            elif kind == "discard":
                decisions.append(Decision("discard", seat, seat, len(rows), i, turn,
                                          ev["card"]))
                staged = steps + [Decision("meld", seat, seat, len(rows), i, turn,
                                           meld_label(k.MELD_STOP), k.MELD_STOP)]
                rows.append((k.OP_DISCARD, seat, _kind(ev["card"]), 0, 0, 0))
                open_seat = -1
            elif kind == "out":
                steps, staged = [], []          # its melds were a going-out plan's
                if rows and rows[-1][0] not in (k.OP_DISCARD, k.OP_TAKE, k.OP_TAKE_MELD):
                    rows.append((k.OP_OUT, seat, 0, 0, 0, 0))
                open_seat = -1
            elif kind == "end":
                reason = END_OUT if ev.get("reason") == "out" else END_STOCK
                rows.append((k.OP_END, max(open_seat, 0), reason, int(open_seat >= 0), 0, 0))
        decisions += staged + self._out_decisions(out_asked)
        decisions.sort(key=lambda d: (d.at, DECISION_KINDS.index(d.kind)))
        moves = np.zeros((max(len(rows), 1), k.SCRIPT_COLS), np.int64)
        for r, row in enumerate(rows):
            moves[r] = row
        return moves, decisions, at_event

    def _take_rows(self, ev, seat, rows):
        """OP_TAKE for the first take meld (the top card beside cards from the hand), then
        OP_TAKE_MELD for each further one (R33-R35)."""
        melds = ev.get("melds") or []
        if not melds:
            raise BadInput(f"a take by seat {seat} has no melds: accepted: a take line with "
                           "its take melds (docs/trace.md)")
        first = melds[0]
        rank = _kind(first["rank"])
        rows.append((k.OP_TAKE, seat) + _counts(rank, first["cards"][1:]) + (0,))
        for meld in melds[1:]:
            r = _kind(meld["rank"])
            rows.append((k.OP_TAKE_MELD, seat, r) + _counts(r, meld["cards"]))

    def _out_decisions(self, out_asked) -> list:
        """The going-out choice of every turn, after its draw or take: what the seat did
        (asked, went out without asking, or neither)."""
        found = []
        for turn, (at, first_event, seat, how) in out_asked.items():
            played = "hold"
            for ev in self.events[first_event:]:
                if ev["ev"] in ("draw", "take", "end"):
                    break
                if ev["ev"] == "ask":
                    played = "ask"
                    break
                if ev["ev"] == "out":
                    played = "now"
                    break
            found.append(Decision("going out", seat, seat, at, first_event, turn, played))
        return found

    # ---- replaying ----

    def state(self, stop: int, trace: bool = False):
        """The deal state after the first ``stop`` script rows, and (with ``trace``) the
        engine's trace buffer of the replay so far."""
        from canasta_sim.kernels.game.state import new_state

        S = new_state()
        buf = np.zeros(TRACE_INTS if trace else 1, np.int32)
        S.st[ST_TRACE_ON] = 1 if trace else 0
        row = np.zeros(NCOLS, np.int64)
        done, used = call(0, self.rules_nb, S, buf, self.moves, stop, self.deck, self.size,
                          self.dealer, self.scores_before, row=row)
        if done != stop:
            raise BadInput(f"the trace's deal {self.start.get('deal')} could not be replayed "
                           f"past move {done}")
        self.last_row = row
        return S, buf[:used]

    def replayed_events(self) -> list:
        """The docs/trace.md events of the whole deal replayed with the engine's moves."""
        from canasta_sim.runner import prepare
        from canasta_sim.trace import decode_events

        S, buf = self.state(len(self.moves), trace=True)
        row = self.last_row
        plan = prepare(1, 0, self.rules, "random", self._scores_text())
        events = decode_events(buf, plan, int(self.start.get("deal", 0)), row,
                               game=self.start.get("game"))
        return events

    def _scores_text(self):
        return ",".join(str(int(x)) for x in self.scores_before[:self.rules.num_sides])

    def check(self):
        """BadInput unless the engine's replay of the deal writes the trace read, line by
        line (every card, red three, upcard and the score)."""
        mine = self.replayed_events()
        theirs = [e for e in self.events]
        for n, (a, b) in enumerate(zip(mine, theirs)):
            b = {key: b[key] for key in a if key in b}
            if a != b:
                raise BadInput(f"deal {self.start.get('deal')}: trace line {n + 1} "
                               f"({json.dumps(theirs[n])[:80]}) differs from the engine's "
                               f"replay ({json.dumps(a)[:80]}): accepted: a trace the engine "
                               f"plays under rules {self.rules.canonical()}")
        if len(mine) != len(theirs):
            raise BadInput(f"deal {self.start.get('deal')}: the trace has {len(theirs)} lines, "
                           f"the engine's replay {len(mine)}")


_DUMMY = {}


def call(task, rules_nb, S, buf, moves, stop, deck, size, dealer, scores_before, *,
         pol=None, params=None, view=0, seat=0, decision=0, cands=None, key=0, first=0,
         values=None, row=None, turns=None):
    """Call the analysis' entry kernel with dummies for what ``task`` does not use."""
    from canasta_sim.kernels.game.layout import MAX_SEATS, NPARAMS

    if not _DUMMY:
        _DUMMY.update(pol=np.zeros(MAX_SEATS, np.int64),
                      params=np.zeros((MAX_SEATS, NPARAMS), np.float64),
                      cands=np.zeros(1, np.int64),
                      values=np.zeros((0, 1, MAX_SIDES + 1), np.int64),
                      moves=np.zeros((1, k.SCRIPT_COLS), np.int64),
                      deck=np.zeros(MAX_CARDS, np.int64))
    d = _DUMMY
    return k.analysis_task_nb(
        task, rules_nb, S, buf, d["moves"] if moves is None else moves, stop,
        d["deck"] if deck is None else deck, size, dealer,
        np.zeros(MAX_SIDES, np.int64) if scores_before is None else scores_before,
        d["pol"] if pol is None else pol, d["params"] if params is None else params,
        view, seat, decision, d["cands"] if cands is None else cands, np.uint64(key), first,
        d["values"] if values is None else values,
        np.zeros(NCOLS, np.int64) if row is None else row,
        k.MAX_TURNS if turns is None else turns)


def meld_code(rank, nat, de, jo) -> int:
    """The candidate code of a meld step (kernels/play/analysis.py ``meld_code_nb``)."""
    base = k.CODE_BASE
    return rank + base * (nat + base * (de + base * jo))


def meld_label(code) -> str:
    """The name of a meld candidate: ``stop``, or the rank and the cards laid on its meld
    (``K: K K 2``)."""
    from canasta_sim.kernels.game.cards import TOKENS

    if code == k.MELD_STOP:
        return "stop"
    base = k.CODE_BASE
    rank, nat, de, jo = code % base, code // base % base, code // base**2 % base, code // base**3
    cards = [TOKENS[rank]] * nat + [TOKENS[DEUCE]] * de + [TOKENS[JOKER]] * jo
    return f"{TOKENS[rank]}: {' '.join(cards)}"


def hand_kinds(S, seat) -> list:
    """The kinds of card in ``seat``'s hand (the discard options, R17)."""
    return [kind for kind in range(NKINDS) if S.hands[seat, kind] > 0]
