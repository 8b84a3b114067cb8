"""The map of the deal state: every slot of every array of ``state.DealState``, declared once
with its meaning, its values and the rules it serves.

Each entry names a module constant that holds its index (``ST_TURN_SEAT`` is ``st``'s slot of
the seat whose turn it is); the kernels read ``S.st[ST_TURN_SEAT]``.  A new slot is one line
here: the indices after it move with it, and every array is sized from its map's total
(``NST``, ``NSEATV``, ``NSIDEV``, ``WS_ROWS``, ``M_COLS``).  ``tests/test_state_map.py``
checks that the map and the arrays agree.
"""
from typing import NamedTuple

from .cards import NKINDS
from .layout import MAX_SEATS


class Slot(NamedTuple):
    """One named place in a state array: a scalar slot, a column, a scratch row or a run of
    them.  ``name`` becomes a module constant holding its index (``None``: an unused place
    that keeps the indices after it); ``width`` is how many places it spans."""
    name: str
    width: int
    meaning: str
    values: str
    rules: str


def declare(namespace, total, slots):
    """Give every named slot of ``slots`` its index (the widths of the slots before it) as a
    constant in ``namespace``, and the whole width as ``total``; return the slots."""
    at = 0
    for slot in slots:
        if slot.name is not None:
            namespace[slot.name] = at
        at += slot.width
    if total is not None:
        namespace[total] = at
    return slots


# The map of the deal state: every slot of every array of DealState below, declared once with
# its meaning, its values and the rules it serves (docs/architecture.md, "The deal state").
# ``S.melds[side, column, rank]``: the meld table's columns.
MELD_COLUMNS = declare(globals(), "M_COLS", (
    Slot("M_NAT", 1, "natural cards on the meld", "0..4 x packs", "R15, R18"),
    Slot("M_DEUCE", 1, "deuces on the meld", "0..", "R18-R20"),
    Slot("M_JOKER", 1, "jokers on the meld", "0..", "R18-R20"),
    Slot("M_SIZE", 1, "the meld's cards, M_NAT + M_DEUCE + M_JOKER, kept up to date as cards "
                      "move", "0..", "R23"),
))
# ``S.st[i]``: deal-level scalars, then the turn in progress.
ST_SLOTS = declare(globals(), "NST", (
    Slot("ST_DECK_N", 1, "cards in the deck", "108..162", "R2"),
    Slot("ST_STOCK_POS", 1, "index in deck of the stock's top card", "0..ST_DECK_N", "R12"),
    Slot("ST_PILE_N", 1, "cards in the pile", "0..", "R12, R36"),
    Slot("ST_FREEZERS", 1, "cards in the pile that freeze it for everyone", "0..", "R8, R32"),
    Slot("ST_DEALER", 1, "the dealer's seat", "0..seats-1", "R5"),
    Slot("ST_TURNS", 1, "turns begun in the deal", "0..", "R11"),
    Slot("ST_OUT_SEAT", 1, "the seat that went out", "0..seats-1", "R39"),
    Slot("ST_CONCEALED", 1, "the going-out was concealed", "0/1", "R44"),
    Slot("ST_END_REASON", 1, "how the deal ended", "layout.END_OUT / END_STOCK", "R39, R47-R50"),
    Slot("ST_UPCARDS", 1, "cards turned for the upcard", "1..", "R7"),
    Slot("ST_NSEATS", 1, "seats at the table", "2..6", "R1"),
    Slot("ST_NSIDES", 1, "sides (partnerships or players)", "2..3", "R1"),
    Slot("ST_TURN_SEAT", 1, "the seat whose turn it is", "0..seats-1", "R10"),
    Slot("ST_TURN_TAKE", 1, "the turn began with a pile take", "0/1", "R12"),
    Slot("ST_TURN_ASK", 1, "the partner's answer this turn", "-1 not asked, 0 no, 1 yes", "R42"),
    Slot("ST_TURN_COUNT", 1, "count of the turn's initial meld so far", "0..", "R28"),
    Slot("ST_TURN_NEEDS_MIN", 1, "the turn still has to reach the side's minimum", "0/1", "R26"),
    Slot("ST_TURN_PRE_RANKS", 1, "bitmask: the side's meld ranks when the turn began", "mask",
         "R44"),
    Slot("ST_TURN_NEW_RANKS", 1, "bitmask: ranks whose meld this turn created", "mask", "R44"),
    Slot("ST_TURN_ADDED_PRE", 1, "the player added to a meld older than the turn", "0/1", "R44"),
    Slot("ST_TURN_MELDED", 1, "the player placed a card on a meld this turn", "0/1", "R44"),
    Slot("ST_TURN_LAST_RED3", 1, "a red three was drawn as the last stock card", "0/1",
         "R47"),
    Slot("ST_TURN_TAKE_CANASTAS", 1, "bitmask: take melds that were canastas when taken", "mask",
         "2.11"),
    Slot("ST_TURN_DISCARDED", 1, "the turn ended with a discard", "0/1", "R17, R44"),
    Slot("ST_TRACE_ON", 1, "record the deal: 0 off, 1 trace, 2 trace and decisions", "0..2", ""),
    Slot("ST_TRACE_POS", 1, "next free place in the trace buffer", "0..", ""),
    Slot("ST_TRACE_OVERFLOW", 1, "the trace buffer was too small", "0/1", ""),
    Slot("ST_TURN_OUT_CHOICE", 1, "the search player's going-out choice this turn", "OUT_*",
         ""),
    Slot("ST_TURN_MIN", 1, "the minimum the turn's initial meld must reach", "0..", "R27"),
    Slot("ST_CHECK_ON", 1, "check card conservation after every turn", "0/1", "R2"),
    Slot("ST_CHECK_FAILS", 1, "turns after which conservation failed", "0..", "R2"),
    Slot(None, 1, "unused", "", ""),
    Slot("ST_SIDE_OF", MAX_SEATS, "the side of each seat (state.side_of_nb): s % sides at the "
                                  "deal; in cutthroat3 the partners share one from formation",
         "0..sides-1", "R1, C5"),
    Slot("ST_LONE", 1, "cutthroat3: the lone hand's seat, -1 before formation", "-1..2",
         "C5, C6"),
    Slot("ST_FORMED_BY", 1, "cutthroat3: how the partnership formed", "layout.FORMED_*",
         "C5, C6"),
    Slot("ST_PART_SIDE", 1, "cutthroat3: the partnership's side after a take formed it, else -1",
         "-1..1", "C5, C7"),
    Slot("ST_DUP_CANASTAS", 1, "cutthroat3: canastas among the second melds of a rank the "
                               "partnership holds (the meld row DUP_ROW)", "0..", "C7, C11"),
))
DUP_ROW = 2     # cutthroat3 after formation by a take: the higher partner's second melds (C7)
# ST_TURN_OUT_CHOICE values: how a club player's going-out wish and question are decided this
# turn (kernels/players/club.py go_out_wanted_nb, asks_partner_nb).  Only the search player sets
# one other than OUT_OWN (and the analysis, OUT_NO_ASK); every turn begins with OUT_OWN
# (moves.begin_turn_nb).
OUT_OWN = 0     # by the player's own reasons
OUT_NOW = 1     # wants out all this meld phase; does not ask
OUT_ASK = 2     # asks the partner (R42); its wish is its own
OUT_HOLD = 3    # wants out at no point of this meld phase; does not ask
OUT_NO_ASK = 4  # by the player's own reasons, but does not ask (the analysis' meld steps: R42 asks
                # only before the first meld)
# ``S.seatv[seat, i]``: per-seat scalars.
SEAT_SLOTS = declare(globals(), "NSEATV", (
    Slot("SEAT_MELDED_BEFORE", 1, "the seat melded in an earlier turn of this deal", "0/1",
         "R44 (i)"),
    Slot("SEAT_POLICY", 1, "unused (the policy table holds the seats' players)", "", ""),
    Slot("SEAT_HAD_TURN", 1, "the seat has begun a turn", "0/1", "R9 (first_turn timing)"),
    Slot("SEAT_LAST_DISCARD", 1, "public: 1 + kind of the seat's last discard, 0 before its "
                                 "first", "0..NKINDS", "0.1"),
    Slot("SEAT_KNOWN", NKINDS, "public, + kind: cards the seat took with the pile and still "
                               "holds", "0..", "0.1, R36"),
    Slot("SEAT_MINIMUM", 1, "the seat's own initial-meld minimum (its side's, but in cutthroat3 "
                            "from its own score)", "0..", "R27, C9"),
    Slot("SEAT_RED3", 1, "red threes the seat laid in front of itself", "0..", "R13, C4"),
    Slot("SEAT_RED3_DEALT", 1, "of them, dealt in its hand", "0..", "R9, C4"),
))
# ``S.sidev[side, i]``: per-side scalars.
SIDE_SLOTS = declare(globals(), "NSIDEV", (
    Slot("SIDE_RED3", 1, "red threes on the side's table", "0..", "R9, R13, R14, R52"),
    Slot("SIDE_RED3_DEALT", 1, "of them, dealt in the hands", "0..", "R9"),
    Slot("SIDE_MELDED", 1, "the side has a meld on the table", "0/1", "R24, R26"),
    Slot("SIDE_PILE_TAKES", 1, "pile takes this deal", "0..", "R33"),
    Slot("SIDE_MINIMUM", 1, "initial-meld minimum for this deal", "0..", "R27"),
    Slot("SIDE_SCORE_BEFORE", 1, "cumulative score before the deal", "any", "R27, R58"),
    Slot("SIDE_CONCEALED_CANASTAS", 1, "canastas made from the hand in one turn", "0..",
         "2.11"),
    Slot(None, 1, "unused", "", ""),
))
# ``S.ws[row]``: scratch rows, so hot loops never allocate.  Each user owns its rows; users
# that nest use different rows.
WS_SLOTS = declare(globals(), "WS_ROWS", (
    Slot("WS_HAND", 1, "plans.go_out_plans_nb: the hand less the tried discard", "", "R39"),
    Slot(None, 1, "unused", "", ""),
    Slot("WS_PLAN_MELDS", 1, "plans: the side's melds and their choices", "", "R39-R44"),
    Slot("WS_PLAN_OPTS", 1, "plans: the options of each meld", "", "R39-R44"),
    Slot("WS_PLAN_DFS", 1, "plans: the depth-first walk", "", "R39-R44"),
    Slot("WS_PAIR_VALUE", 1, "reach.max_extra_count_nb: values of the singles and pairs", "",
         "R28"),
    Slot("WS_PAIR_NEED", 1, "reach.max_extra_count_nb: cards each needs", "", "R28"),
    Slot("WS_SAVE_HAND", 1, "snapshot of the hand, its known cards and the side's melded flag "
                            "(meld phase, take planning)", "", "R35"),
    Slot("WS_SAVE_ST", 1, "snapshot of st", "", "R35"),
    Slot("WS_ORDER", 1, "take_pile_nb: order of the take melds", "", "R35"),
    Slot("WS_SCORES", 1, "players: one score per option (MAX_OPTS wide)", "", ""),
    Slot("WS_CHECK_HAVE", 1, "cards_conserved_nb: the cards found", "", "R2"),
    Slot("WS_CHECK_WANT", 1, "cards_conserved_nb: the deck's cards", "", "R2"),
    Slot("WS_UNSEEN", 1, "club players: cards of each kind the deciding seat has not seen", "",
         "0.1"),
    Slot("WS_USER_VIEW", 1, "user policies (players/user.py): the seat's view", "", "0.1"),
    Slot("WS_USER_OPTS", 5, "user policies: a copy of the options, five ints each", "", ""),
    Slot("WS_SEARCH", 36, "play/search.py: the search player's scratch deal state and its "
                          "tables (search.SEARCH_ROWS of them)", "", ""),
))
WS_COLS = 1280      # = options.MAX_OPTS: WS_SCORES holds one score per option
# ``S.wm[row]``: scratch meld tables.
WM_SLOTS = declare(globals(), None, (
    Slot("WM_SAVE", 1, "snapshot of the side's melds", "", "R35"),
    Slot("WM_TAKEN", 1, "take_pile_nb: hand cards of each take meld", "", "R35"),
))
