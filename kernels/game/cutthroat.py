"""Three-player Cutthroat (``team_layout=cutthroat3``, docs/cutthroat.md): the partnership that
forms mid-deal (C5-C8), and the side questions it changes (C11).

How a partnership is held in the state.  Every deal starts with three one-seat sides: seat k
is side k, its melds are meld row k (C1).  When the first pile take forms the partnership
(C5, :func:`form_by_take_nb`), the state is renumbered once, so that every other kernel keeps
asking its side questions of one meld row per side:

* the sides become two (``ST_NSIDES`` = 2): the partnership and the lone hand, numbered in the
  order of their lowest seat (lone 0: lone = side 0, partners = side 1; lone 1 or 2:
  partners = side 0, lone = side 1); ``ST_SIDE_OF`` maps both partners to the partnership;
* the partnership's melds are the lower partner's row; the higher partner's melds move onto
  it, except a meld of a rank the lower partner also has: under ``separate`` (and under
  ``merge`` where the two together would break R18-R19) it stays behind in meld row
  ``DUP_ROW`` (= 2, no seat's side from then on), a second meld of that rank (C7).  Cards of
  that rank melded later go onto the first one (the lower partner's): the engine's players
  never choose the second, which is a legal choice, not a rule (docs/cutthroat.md);
* red threes stay each seat's own (``SEAT_RED3``, C4); the side rows keep the sums.

A going-out before any take (C6, :func:`form_by_out_nb`) only records the lone hand: the deal
is over, and scoring (scoring.score_cutthroat_nb) pools the partners' rows.
"""
from ..jit import kernel
from .cards import FIRST_NATURAL, MELD_KINDS, NKINDS
from .layout import EV_PARTNERSHIP, FORMED_OUT, FORMED_TAKE
from .rules_nb import SameRank
from .slots import (
    DUP_ROW,
    M_COLS,
    M_DEUCE,
    M_JOKER,
    M_NAT,
    M_SIZE,
    NSIDEV,
    SIDE_CONCEALED_CANASTAS,
    SIDE_MELDED,
    SIDE_PILE_TAKES,
    SIDE_RED3,
    SIDE_RED3_DEALT,
    ST_DUP_CANASTAS,
    ST_FORMED_BY,
    ST_LONE,
    ST_NSIDES,
    ST_PART_SIDE,
    ST_SIDE_OF,
)
from .state import canastas_nb, meld_ok_nb
from .trace_events import ev_begin_nb, ev_push_nb

POOLED = (SIDE_RED3, SIDE_RED3_DEALT, SIDE_MELDED, SIDE_PILE_TAKES, SIDE_CONCEALED_CANASTAS)


@kernel
def forms_partnership_nb(rules, st):
    """C5: would a pile take now make the taker the lone hand?  (Public, C0.1.)"""
    return rules.cutthroat == 1 and st[ST_LONE] < 0


@kernel
def lower_partner_nb(lone):
    """The lower-numbered partner of lone hand ``lone`` (his meld row holds the side's)."""
    return 1 if lone == 0 else 0


@kernel
def second_meld_canastas_nb(st, side):
    """C7, C11: the canastas among ``side``'s second melds of a rank (``DUP_ROW``, fixed from
    formation on): the partnership's count, 0 for every other side (and in every other
    layout, where ``ST_PART_SIDE`` is -1)."""
    return st[ST_DUP_CANASTAS] if side == st[ST_PART_SIDE] else 0


@kernel
def side_canastas_nb(st, melds, side):
    """R23, C11: ``side``'s canastas, a partnership's second melds of a rank included."""
    return canastas_nb(melds, side) + second_meld_canastas_nb(st, side)


@kernel
def canastas_needed_nb(rules, st, side):
    """R40, C11: canastas ``side`` still needs on its main melds to go out: a partnership's
    second melds of a rank (``DUP_ROW``) count too."""
    return rules.canastas_to_go_out - second_meld_canastas_nb(st, side)


@kernel
def meld_owner_code_nb(st, melds, side, rank):
    """A trace's owner code for cards put on ``side``'s meld of ``rank``: 1 + the seat whose
    meld receives them when the side holds two melds of that rank (the lower partner's, C7),
    else 0 (the default of docs/trace.md applies)."""
    if side != st[ST_PART_SIDE] or melds[DUP_ROW, M_SIZE, rank] == 0:
        return 0
    return 1 + lower_partner_nb(st[ST_LONE])


@kernel
def swap_rows_nb(S, a, b):
    """Exchange side rows ``a`` and ``b`` of the meld table and of ``sidev``."""
    melds = S.melds
    sidev = S.sidev
    for c in range(M_COLS):
        for r in range(MELD_KINDS):
            t = melds[a, c, r]
            melds[a, c, r] = melds[b, c, r]
            melds[b, c, r] = t
    for i in range(NSIDEV):
        t = sidev[a, i]
        sidev[a, i] = sidev[b, i]
        sidev[b, i] = t


@kernel
def move_meld_nb(melds, src, dst, rank):
    """Put every card of row ``src``'s meld of ``rank`` onto row ``dst``'s."""
    for c in range(M_COLS):
        melds[dst, c, rank] += melds[src, c, rank]
        melds[src, c, rank] = 0


@kernel
def form_by_take_nb(rules, S, buf, lone):
    """C5, C7: the first pile take of the deal makes ``lone`` the lone hand; the other two
    become one side with pooled melds (module docstring).  Writes the ``partnership`` event
    with the ranks merged under ``merge``."""
    melds = S.melds
    st = S.st
    sidev = S.sidev
    if lone == 2:
        swap_rows_nb(S, 1, 2)        # lone 2 becomes side 1; the higher partner (1) row 2
    part = 1 if lone == 0 else 0
    pos = ev_begin_nb(st, buf, EV_PARTNERSHIP, lone, FORMED_TAKE, 0)
    for r in range(FIRST_NATURAL, NKINDS):
        if melds[DUP_ROW, M_SIZE, r] == 0:
            continue
        if melds[part, M_SIZE, r] == 0:
            move_meld_nb(melds, DUP_ROW, part, r)                      # C7: now the side's
        elif rules.cutthroat_same_rank_melds == SameRank.MERGE and meld_ok_nb(
                rules, melds[part, M_NAT, r] + melds[DUP_ROW, M_NAT, r],
                melds[part, M_DEUCE, r] + melds[DUP_ROW, M_DEUCE, r]
                + melds[part, M_JOKER, r] + melds[DUP_ROW, M_JOKER, r]):
            move_meld_nb(melds, DUP_ROW, part, r)                      # C7 merge
            ev_push_nb(st, buf, pos, r)
    for i in POOLED:
        sidev[part, i] = max(sidev[part, i], sidev[DUP_ROW, i]) if i == SIDE_MELDED \
            else sidev[part, i] + sidev[DUP_ROW, i]
        sidev[DUP_ROW, i] = 0
    dup = 0
    for r in range(FIRST_NATURAL, NKINDS):
        if melds[DUP_ROW, M_SIZE, r] >= 7:
            dup += 1
    for s in range(3):
        st[ST_SIDE_OF + s] = 1 - part if s == lone else part
    st[ST_NSIDES] = 2
    st[ST_LONE] = lone
    st[ST_FORMED_BY] = FORMED_TAKE
    st[ST_PART_SIDE] = part
    st[ST_DUP_CANASTAS] = dup


@kernel
def form_by_out_nb(rules, S, buf, lone):
    """C6: a going-out before any take makes ``lone`` the lone hand for the scoring (the sides
    in the state stay as they are: the deal is over); under ``merge`` the partners' melds of a
    rank both hold become one where legal, in front of the lower partner (C7)."""
    melds = S.melds
    st = S.st
    st[ST_LONE] = lone
    st[ST_FORMED_BY] = FORMED_OUT
    pos = ev_begin_nb(st, buf, EV_PARTNERSHIP, lone, FORMED_OUT, 0)
    low = lower_partner_nb(lone)
    high = 3 - lone - low
    if rules.cutthroat_same_rank_melds != SameRank.MERGE:
        return
    for r in range(FIRST_NATURAL, NKINDS):
        if melds[low, M_SIZE, r] > 0 and melds[high, M_SIZE, r] > 0 and meld_ok_nb(
                rules, melds[low, M_NAT, r] + melds[high, M_NAT, r],
                melds[low, M_DEUCE, r] + melds[high, M_DEUCE, r]
                + melds[low, M_JOKER, r] + melds[high, M_JOKER, r]):
            move_meld_nb(melds, high, low, r)                          # C7 merge
            ev_push_nb(st, buf, pos, r)
