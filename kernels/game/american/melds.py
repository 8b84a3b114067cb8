"""Modern American melds (A19-A23, A25c): what a meld may hold, dead ranks, the wild meld,
canastas, and card values (A3).

Melds live in the state's meld table ``melds[side, column, row]`` as classic's do (columns
``M_NAT``, ``M_DEUCE``, ``M_JOKER``, ``M_SIZE``); rows FOUR..ACE are the natural ranks and row
``WILD_ROW`` (the joker's kind) holds the side's wild meld (docs/american.md, reading 4).
"""
from ...jit import kernel, one_step
from ..cards import ACE, BLACK3, DEUCE, FIRST_NATURAL, JOKER, RED3, SEVEN
from ..slots import M_DEUCE, M_JOKER, M_NAT, M_SIZE
from ..state import card_value_nb
from .rules_nb import DeadScope

WILD_ROW = JOKER       # the meld row of a side's wild meld (A23)
CANASTA = 7            # A19: a canasta is a meld of seven cards
SIDES = 2              # A1: two partnerships


@kernel
def mac_card_value_nb(mac, kind):
    """A3: the card value of one card; a three of either colour left in a hand counts
    ``black3_card_value`` (reading 9)."""
    if kind == RED3 or kind == BLACK3:
        return mac.black3_card_value
    return card_value_nb(mac, kind)


@kernel
def is_wild_nb(kind):
    """A joker or a 2."""
    return kind == JOKER or kind == DEUCE


@kernel
def is_natural_nb(kind):
    """A natural card: 4 to ace."""
    return kind >= FIRST_NATURAL


@kernel
def wilds_on_nb(melds, side, row):
    """Wild cards on ``side``'s meld of ``row``."""
    return melds[side, M_DEUCE, row] + melds[side, M_JOKER, row]


@kernel
def is_dead_nb(mac, melds, side, row):
    """A22: whether ``row`` (a natural rank or WILD_ROW) is dead for ``side``: a canasta of it
    exists on either side (``both``), or on ``side``'s own (``own``, reading 11)."""
    for s in range(SIDES):
        if mac.mac_dead_rank_scope == DeadScope.OWN and s != side:
            continue
        if melds[s, M_SIZE, row] >= CANASTA:
            return True
    return False


@kernel
def wild_meld_open_nb(melds, side):
    """A23: ``side`` has a wild meld of fewer than seven cards."""
    size = melds[side, M_SIZE, WILD_ROW]
    return 0 < size < CANASTA


@kernel
def canastas_nb(melds, side):
    """A19, A40, A49: ``side``'s completed canastas, natural ranks and wild meld."""
    n = 0
    if melds[side, M_SIZE, WILD_ROW] >= CANASTA:
        n += 1
    for r in range(FIRST_NATURAL, ACE + 1):
        if melds[side, M_SIZE, r] >= CANASTA:
            n += 1
    return n


@kernel
def can_place_nb(mac, melds, side, row, add_nat, add_deuce, add_joker, laid_this_turn,
                 opening_turn, going_out):
    """Whether ``side`` may put ``add_nat`` natural cards of ``row`` and the given wild cards on
    its meld of ``row`` (a new meld when it has none) in one step.

    ``laid_this_turn``: the meld was started in this turn (or is started by this step);
    ``opening_turn``: this is the turn of the side's initial meld (A20a, A25c);
    ``going_out``: the player goes out this turn (A19's size limit with
    ``mac_allow_oversize_when_going_out``)."""
    add_wild = add_deuce + add_joker
    if add_nat + add_wild <= 0 or is_dead_nb(mac, melds, side, row):     # A22
        return False
    size = melds[side, M_SIZE, row] + add_nat + add_wild
    limit = mac.mac_max_meld_size
    if going_out and mac.mac_allow_oversize_when_going_out:
        limit = 1 << 30
    if size < 3 or size > limit:                                          # A19, A23
        return False
    if row == WILD_ROW:                                                   # A23
        return add_nat == 0
    if row < FIRST_NATURAL:
        return False                                                      # A11: no threes
    naturals = melds[side, M_NAT, row] + add_nat
    wilds = wilds_on_nb(melds, side, row) + add_wild
    if naturals < 2 or wilds > mac.mac_max_wilds_per_meld:                # A19
        return False
    if opening_turn and size >= CANASTA and wilds > 0:                    # A25c
        return False
    if add_wild == 0:
        return True
    if row == SEVEN or wild_meld_open_nb(melds, side):                    # A21, A23
        return False
    fresh = opening_turn and laid_this_turn
    if row == ACE and wilds == add_wild and not fresh:                    # A21, reading 6
        return False
    return not (mac.mac_rule_of_five and not fresh and naturals < 5)     # A20


@kernel
def place_nb(melds, side, row, add_nat, add_deuce, add_joker):
    """Put the cards on ``side``'s meld of ``row`` (no check: :func:`can_place_nb` first)."""
    melds[side, M_NAT, row] += add_nat
    melds[side, M_DEUCE, row] += add_deuce
    melds[side, M_JOKER, row] += add_joker
    melds[side, M_SIZE, row] += add_nat + add_deuce + add_joker


@kernel
def wild_room_nb(mac, melds, side, row, held, fresh):
    """The most wild cards one step can put on ``side``'s meld of natural ``row`` (``held``
    naturals of it in hand; ``fresh``: laid in the opening turn), by the limits of
    :func:`can_place_nb` that do not depend on the step (A19-A21, A23); the wild meld's own
    room for ``WILD_ROW``.  Only prunes: every step is still checked by can_place_nb."""
    if row == WILD_ROW:
        return 1 << 30
    if row == SEVEN or wild_meld_open_nb(melds, side):                    # A21, A23
        return 0
    on = wilds_on_nb(melds, side, row)
    if row == ACE and on == 0 and not fresh:                              # A21
        return 0
    if mac.mac_rule_of_five and not fresh and melds[side, M_NAT, row] + held < 5:
        return 0                                                          # A20
    return max(mac.mac_max_wilds_per_meld - on, 0)                        # A19


@kernel
def meld_steps_nb(mac, melds, side, hand, fresh_rows, opening_turn, going_out, out):
    """Every placement A19-A23 and A25c allow from ``hand`` onto ``side``'s melds in one step:
    rows (row, naturals, 2s, jokers) written to ``out`` (int64[n, 4]); returns their count
    (-1 if ``out`` is too small).  ``fresh_rows``: bitmask of the rows whose meld was started
    this turn (a meld started by the step is fresh too).  Keeping a discard (A16) and the
    opening's own conditions (A25) are the turn's to check."""
    return meld_steps_but_nb(mac, melds, side, hand, fresh_rows, opening_turn, going_out, out,
                             0)


@kernel
def meld_steps_but_nb(mac, melds, side, hand, fresh_rows, opening_turn, going_out, out,
                      skip_rows):
    """:func:`meld_steps_nb` without the placements on the rows of bitmask ``skip_rows``."""
    n = 0
    limit = size_limit_nb(mac, going_out)
    for row in range(WILD_ROW, ACE + 1):
        if FIRST_NATURAL > row > WILD_ROW or (skip_rows >> row) & 1 == 1:
            continue
        most_nat, most_deuces, most_wild, fresh, no_wild = row_room_nb(
            mac, melds, side, hand, fresh_rows, opening_turn, row)
        if most_nat < 0:
            continue
        n = row_steps_nb(mac, melds[side, M_SIZE, row], melds[side, M_NAT, row],
                         wilds_on_nb(melds, side, row), row, most_nat, most_deuces,
                         hand[JOKER], most_wild, limit, fresh, opening_turn, no_wild, out, n)
        if n < 0:
            return -1
    return n


@kernel
def size_limit_nb(mac, going_out):
    """A19: the most cards a meld may hold after a step (no limit when going out with
    ``mac_allow_oversize_when_going_out``)."""
    if going_out and mac.mac_allow_oversize_when_going_out:
        return 1 << 30
    return mac.mac_max_meld_size


@one_step
def row_room_nb(mac, melds, side, hand, fresh_rows, opening_turn, row):
    """What one row of :func:`meld_steps_nb` allows from ``hand``: (the most natural cards,
    the most 2s, the most wild cards a step may put on it, ``fresh``: the meld is laid in
    the opening turn, ``no_wild``: no wild card may join it); the most natural cards is -1
    when no placement can exist (A19: two naturals and cards held; A22: a dead rank)."""
    wilds = hand[DEUCE] + hand[JOKER]
    if row == WILD_ROW and wilds == 0 or row != WILD_ROW and \
            hand[row] + melds[side, M_NAT, row] < 2 or \
            row != WILD_ROW and hand[row] == 0 and wilds == 0:
        return -1, 0, 0, False, False
    if is_dead_nb(mac, melds, side, row):
        return -1, 0, 0, False, False                                   # A22
    fresh = (melds[side, M_SIZE, row] == 0 or (fresh_rows >> row) & 1 == 1) and opening_turn
    most_nat = 0 if row == WILD_ROW else hand[row]
    most_wild = wild_room_nb(mac, melds, side, row, hand[row], fresh)
    return most_nat, min(hand[DEUCE], most_wild), most_wild, fresh, \
        row == SEVEN or wild_meld_open_nb(melds, side)


@one_step
def placement_ok_nb(mac, size, naturals, on, row, nat, wild, limit, fresh, opening_turn,
                    no_wild):
    """Whether ``nat`` natural cards and ``wild`` wild cards may go in one step on a meld of
    ``row`` holding ``size`` cards, ``naturals`` of them natural and ``on`` wild: the
    conditions of :func:`can_place_nb` (the arguments as :func:`row_steps_nb`'s).  They read
    the wild cards' number only, never which of them are 2s."""
    after = size + nat + wild
    if nat + wild <= 0 or after < 3 or after > limit:                     # A19, A23
        return False
    if row == WILD_ROW:
        return True
    wilds = on + wild
    if naturals + nat < 2 or wilds > mac.mac_max_wilds_per_meld:          # A19
        return False
    if opening_turn and after >= CANASTA and wilds > 0:                   # A25c
        return False
    if wild > 0 and (no_wild or                                           # A21, A23
                     row == ACE and on == 0 and not fresh or
                     mac.mac_rule_of_five and not fresh and naturals + nat < 5):
        return False                                                      # A20, A21
    return True


@kernel
def row_steps_nb(mac, size, naturals, on, row, most_nat, most_deuces, jokers, most_wild,
                 limit, fresh, opening_turn, no_wild, out, n):
    """The placements of :func:`meld_steps_nb` on one live row, appended to ``out`` from
    index ``n`` (returns the new count, -1 if ``out`` is too small): :func:`placement_ok_nb`
    with the meld's ``size``, ``naturals`` and wild cards ``on`` it read once.  ``fresh``:
    laid in the opening turn (A20a, A21); ``no_wild``: no wild card may join it (a sevens
    meld, or the side's wild meld is open: A21, A23)."""
    for nat in range(most_nat + 1):
        for deuces in range(most_deuces + 1):
            for jokers_added in range(min(jokers, most_wild - deuces) + 1):
                if not placement_ok_nb(mac, size, naturals, on, row, nat,
                                       deuces + jokers_added, limit, fresh, opening_turn,
                                       no_wild):
                    continue
                if n >= out.shape[0]:
                    return -1
                out[n, 0] = row
                out[n, 1] = nat
                out[n, 2] = deuces
                out[n, 3] = jokers_added
                n += 1
    return n


@kernel
def first_split_nb(wild, jokers):
    """The 2s and jokers of the first placement :func:`row_steps_nb` lists with ``wild`` wild
    cards (``jokers`` held): as many jokers as there are, then 2s."""
    add_jokers = min(wild, jokers)
    return wild - add_jokers, add_jokers
