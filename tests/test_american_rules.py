"""Modern American Canasta's rule pieces (kernels/game/american/, docs/american.md), each
tested alone, with the worked examples A-T01..A-T24 of the family's rules as tests."""
import numpy as np
import pytest
from canasta_sim.kernels.game.american import deal as mdeal
from canasta_sim.kernels.game.american import discard as D
from canasta_sim.kernels.game.american import initial as I
from canasta_sim.kernels.game.american import melds as M
from canasta_sim.kernels.game.american import moves as MV
from canasta_sim.kernels.game.american import pile as P
from canasta_sim.kernels.game.american import scoring as SC
from canasta_sim.kernels.game.american import special as SP
from canasta_sim.kernels.game.american import threes as T
from canasta_sim.kernels.game.american.state import new_mac_state
from canasta_sim.kernels.game.cards import (
    ACE,
    BLACK3,
    DEUCE,
    EIGHT,
    JOKER,
    KING,
    MELD_KINDS,
    NINE,
    NKINDS,
    QUEEN,
    RED3,
    SEVEN,
    TOKEN_TO_KIND,
)
from canasta_sim.kernels.game.slots import (
    M_COLS,
    M_DEUCE,
    M_JOKER,
    M_NAT,
    M_SIZE,
    ST_DECK_N,
    ST_STOCK_POS,
)
from canasta_sim.kernels.game.state import new_state

from canasta_sim.rules import parse_rules

MAC = parse_rules("modern-american").to_american_kernel()
PAGAT = parse_rules("modern-american-pagat").to_american_kernel()
X, Y = 0, 1                      # the two sides (seats 0, 2 and 1, 3)
ALIASES = {"Jk": "JK", "3h": "3r", "3d": "3r", "3s": "3b", "3c": "3b"}


def kind(token):
    """A card kind from the rules' notation (``Jk``, ``3h``, ``K``)."""
    return TOKEN_TO_KIND[ALIASES.get(token, token)]


def hand(text):
    """A count vector from ``"K K A 2 Jk"``; ``Nx5`` is five N."""
    row = np.zeros(NKINDS, np.int64)
    for token in text.split():
        token, _, times = token.partition("x")
        row[kind(token)] += int(times or 1)
    return row


def table():
    """An empty meld table for the two sides."""
    return np.zeros((2, M_COLS, MELD_KINDS), np.int64)


def meld(melds, side, text):
    """Put the cards of ``text`` on ``side``'s melds (wild cards on the rank's meld, or on the
    wild meld if the text has no natural card); no rule check."""
    cards = hand(text)
    naturals = [k for k in range(4, NKINDS) if cards[k]]
    row = naturals[0] if naturals else M.WILD_ROW
    M.place_nb(melds, side, row, cards[row] if naturals else 0, cards[DEUCE], cards[JOKER])
    return melds


def can(melds, side, text, onto=None, fresh=False, opening=False, going_out=False):
    """:func:`melds.can_place_nb` for the cards of ``text``."""
    cards = hand(text)
    naturals = [k for k in range(4, NKINDS) if cards[k]]
    row = onto if onto is not None else (naturals[0] if naturals else M.WILD_ROW)
    nat = cards[row] if row != M.WILD_ROW else 0
    return bool(M.can_place_nb(MAC, melds, side, row, nat, cards[DEUCE], cards[JOKER], fresh,
                               opening, going_out))


def score(melds, side, threes, hands, went_out=False, mac=MAC):
    """:func:`scoring.score_side_nb` for seats ``side`` and ``side + 2``; the items."""
    out = np.zeros(SC.N_ITEMS, np.int64)
    SC.score_side_nb(mac, melds, side, threes, hands, side, side + 2, went_out, out)
    return out


# --- melds (A19-A23) ---------------------------------------------------------------------------

def test_A_T01_meld_composition_and_the_rule_of_five():
    """A19, A20: clean any time; 2N+1W only in the opening turn; never 3 wilds."""
    t = table()
    assert can(t, X, "K K K", fresh=True)
    assert can(t, X, "K K 2", fresh=True, opening=True)
    assert not can(t, X, "K K 2", fresh=True)                        # A20
    assert can(t, X, "K K 2 Jk", fresh=True, opening=True)
    assert not can(t, X, "K K K 2 2 Jk", fresh=True, opening=True)   # A19: at most 2 wilds
    assert not can(t, X, "K 2 Jk", fresh=True, opening=True)         # A19: 2 naturals


def test_A_T02_rule_of_five_after_the_opening():
    """A20: a wild joins only a meld of 5 naturals; a 7-card meld is closed (A19)."""
    t = meld(table(), X, "9x4")
    assert not can(t, X, "2", onto=NINE)
    assert can(t, X, "9", onto=NINE)
    meld(t, X, "9")
    assert can(t, X, "2", onto=NINE)
    M.place_nb(t, X, NINE, 0, 1, 0)
    assert can(t, X, "Jk", onto=NINE)
    M.place_nb(t, X, NINE, 0, 0, 1)
    assert t[X, M_SIZE, NINE] == 7 and M.canastas_nb(t, X) == 1
    assert not can(t, X, "9", onto=NINE) and not can(t, X, "2", onto=NINE)   # closed, dead
    items = score(t, X, np.zeros((2, 2), np.int64), np.zeros((4, NKINDS), np.int64))
    assert (items[SC.I_CANASTA_BONUS], items[SC.I_MELDS]) == (300, 120)
    t2 = meld(table(), X, "9x6")
    assert can(t2, X, "2", onto=NINE) and not can(t2, X, "2 Jk", onto=NINE)
    loose = parse_rules("modern-american(mac_rule_of_five=false)").to_american_kernel()
    t3 = meld(table(), X, "9x4")
    assert M.can_place_nb(loose, t3, X, NINE, 0, 1, 0, False, False, False)


def test_A_T03_sevens():
    """A21: a sevens meld never holds a wild card; seven sevens score 2,500 + 35."""
    t = table()
    assert not can(t, X, "7 7 7 2", fresh=True, opening=True)
    assert not can(meld(table(), X, "7x5"), X, "2", onto=SEVEN)
    meld(t, X, "7x7")
    items = score(t, X, np.zeros((2, 2), np.int64), np.zeros((4, NKINDS), np.int64))
    assert (items[SC.I_CANASTA_BONUS], items[SC.I_MELDS]) == (2500, 35)


def test_A_T04_aces():
    """A21, reading 6: a dirty ace meld only in the opening turn; it is then ordinary."""
    t = table()
    assert can(t, X, "A A A Jk", fresh=True, opening=True)
    assert not can(t, X, "A A A Jk", fresh=True)
    clean = meld(table(), X, "Ax5")
    assert not can(clean, X, "2", onto=ACE)                          # clean for good
    dirty = meld(table(), X, "A A A Jk")
    items = score(dirty, X, np.zeros((2, 2), np.int64), np.zeros((4, NKINDS), np.int64))
    assert items[SC.I_INCOMPLETE] == 0                               # no ace penalty
    meld(dirty, X, "A A")
    assert can(dirty, X, "2", onto=ACE)                              # 5 naturals, ordinary
    M.place_nb(dirty, X, ACE, 0, 1, 0)
    assert SC.canasta_bonus_nb(MAC, dirty, X, ACE) == 300


def test_A_T05_wild_melds():
    """A23: a wild meld of 2s and jokers; while incomplete no wild goes elsewhere; A45."""
    t = table()
    assert can(t, X, "2 2 Jk", fresh=True)
    meld(t, X, "2 2 Jk")
    meld(t, X, "9x5")
    assert not can(t, X, "2", onto=NINE)                             # A23
    assert M.can_place_nb(MAC, t, X, M.WILD_ROW, 0, 2, 0, False, False, False)
    assert not M.can_place_nb(MAC, t, X, M.WILD_ROW, 1, 0, 0, False, False, False)
    for text, bonus, value in (("2x7", 3000, 140), ("Jk Jk Jk Jk 2 2 2", 2500, 260),
                               ("Jk Jk 2x5", 2000, 200)):
        w = meld(table(), X, text)
        items = score(w, X, np.zeros((2, 2), np.int64), np.zeros((4, NKINDS), np.int64))
        assert (items[SC.I_CANASTA_BONUS], items[SC.I_MELDS]) == (bonus, value), text


def test_A_T06_dead_rank():
    """A22: a completed canasta of queens kills the rank for both sides (A30, A36)."""
    t = meld(table(), Y, "Qx7")
    assert M.is_dead_nb(MAC, t, X, QUEEN) and M.is_dead_nb(MAC, t, Y, QUEEN)
    assert not P.can_take_nb(MAC, t, X, hand("Q Q 5"), QUEEN, 4)
    assert not can(t, X, "Q Q Q", fresh=True)
    assert not D.discard_ok_nb(MAC, t, X, hand("Q 5"), QUEEN, True, False)
    assert D.discard_ok_nb(MAC, t, X, hand("Q 5"), QUEEN, False, False)     # A38
    own = parse_rules("modern-american(mac_dead_rank_scope=own)").to_american_kernel()
    assert not M.is_dead_nb(own, t, X, QUEEN) and M.is_dead_nb(own, t, Y, QUEEN)


def test_wild_canasta_kills_the_wild_rank():
    """A22, reading 12: after a wild canasta no side adds to or starts a wild meld."""
    t = meld(meld(table(), X, "2x7"), Y, "Jk Jk 2")
    assert not M.can_place_nb(MAC, t, Y, M.WILD_ROW, 0, 0, 1, False, False, False)


def test_oversize_only_when_going_out():
    """A19, DA10: passing seven cards only while going out, with the house knob."""
    big = parse_rules("modern-american(mac_allow_oversize_when_going_out=true)")\
        .to_american_kernel()
    t = meld(table(), X, "8x6")
    assert not M.can_place_nb(big, t, X, EIGHT, 2, 0, 0, False, False, False)
    assert M.can_place_nb(big, t, X, EIGHT, 2, 0, 0, False, False, True)
    assert not M.can_place_nb(MAC, t, X, EIGHT, 2, 0, 0, False, False, True)


# --- the initial meld (A24-A28) ------------------------------------------------------------------

def test_A_T07_minimum_by_score():
    """A24: 125 below 3,000 (negative too), 155 from 3,000, 180 from 5,000."""
    for before, minimum in ((-500, 125), (0, 125), (2995, 125), (3000, 155), (4995, 155),
                            (5000, 180), (8400, 180)):
        assert I.mac_minimum_nb(MAC, before) == minimum


def opening(texts, take=None, mac=MAC):
    """The side's melds and the ``laid`` table of an opening of new melds ``texts`` (the take
    meld's hand pair first when ``take`` is a rank token), checked with opening_ok_nb."""
    t = table()
    laid = np.zeros((M_COLS, MELD_KINDS), np.int64)
    take_row = -1
    if take is not None:
        take_row = kind(take)
        M.place_nb(t, X, take_row, 3, 0, 0)
        laid[M_NAT, take_row] += 2
        laid[M_SIZE, take_row] += 2
    for text in texts:
        meld(t, X, text)
        cards = hand(text)
        naturals = [k for k in range(4, NKINDS) if cards[k]]
        row = naturals[0] if naturals else M.WILD_ROW
        laid[M_NAT, row] += cards[row] if naturals else 0
        laid[M_DEUCE, row] += cards[DEUCE]
        laid[M_JOKER, row] += cards[JOKER]
        laid[M_SIZE, row] += cards[DEUCE] + cards[JOKER] + (cards[row] if naturals else 0)
    return t, laid, take_row


def test_A_T08_clean_triple_and_minimum():
    """A25a, A25b: 125 needed; A-A-A is the clean triple."""
    t, laid, tr = opening(["A A A", "K K K 2"])
    assert I.opening_count_nb(MAC, laid, tr) == 110
    assert not I.opening_ok_nb(MAC, t, X, laid, tr, 125)
    t, laid, tr = opening(["A A A", "K K K 2", "Q Q Jk"])
    assert I.opening_count_nb(MAC, laid, tr) == 180 and I.opening_ok_nb(MAC, t, X, laid, tr, 125)
    t, laid, tr = opening(["K K 2", "Q Q Jk", "J J 2"])
    assert I.opening_count_nb(MAC, laid, tr) == 150
    assert not I.opening_ok_nb(MAC, t, X, laid, tr, 125)                   # no clean triple
    assert not I.opening_ok_nb(PAGAT, t, X, laid, tr, 125)                 # nor a wild meld
    t, laid, tr = opening(["K K 2", "Q Q Jk", "2 2 Jk"])
    assert not I.opening_ok_nb(MAC, t, X, laid, tr, 125)
    assert I.opening_ok_nb(PAGAT, t, X, laid, tr, 125)                     # clean_or_wild


def test_A_T09_opening_with_a_take():
    """A25b, A26, DA3: the take pair counts by default, the top card never."""
    t, laid, tr = opening(["A A A", "Q Q Q 2"], take="K")
    assert I.opening_count_nb(MAC, laid, tr) == 130 and I.opening_ok_nb(MAC, t, X, laid, tr, 125)
    assert I.opening_count_nb(PAGAT, laid, tr) == 110
    assert not I.opening_ok_nb(PAGAT, t, X, laid, tr, 125)
    top = parse_rules("modern-american(top_card_counts_for_minimum=true)").to_american_kernel()
    assert I.opening_count_nb(top, laid, tr) == 140


def test_take_meld_is_never_the_clean_triple():
    """Reading 8: K-K + the top K, and a K from the hand, is not a clean triple."""
    t, laid, tr = opening([], take="K")
    M.place_nb(t, X, KING, 1, 0, 0)
    laid[M_NAT, KING] += 1
    laid[M_SIZE, KING] += 1
    assert not I.has_clean_triple_nb(MAC, t, X, laid, tr)


def test_an_opening_is_lost_when_no_clean_triple_is_laid_or_can_be():
    """A25a, A22, reading 8 (``initial.opening_lost_nb``, where the turn stops a try of greedy
    or a club player): lost once no clean triple is laid and none can be laid from the
    hand; never under a Splash or ``clean_or_wild`` (not worked out there)."""
    t, laid, tr = opening(["K K K", "Q Q 2"])
    assert not I.opening_lost_nb(MAC, t, X, laid, tr, hand("J 5 2"))      # K K K stands
    t, laid, tr = opening(["K K K 2", "Q Q 2"])
    assert I.opening_lost_nb(MAC, t, X, laid, tr, hand("J J 5"))          # dirtied, none left
    assert not I.opening_lost_nb(MAC, t, X, laid, tr, hand("J J J 5"))    # J J J can be laid
    assert I.opening_lost_nb(MAC, t, X, laid, tr, hand("Q Q Q 5"))        # Qs have a meld
    dead = meld(t.copy(), Y, "J J J J J J J")                                # A22: J is dead
    assert I.opening_lost_nb(MAC, dead, X, laid, tr, hand("J J J 5"))
    t, laid, tr = opening(["Q Q 2"], take="K")                              # reading 8
    assert I.opening_lost_nb(MAC, t, X, laid, tr, hand("K K K 5"))
    t, laid, tr = opening(["K K K 2", "Q Q 2"])
    for text in ("modern-american(mac_splash=true)", "modern-american-pagat"):
        mac = parse_rules(text).to_american_kernel()
        assert not I.opening_lost_nb(mac, t, X, laid, tr, hand("J J 5"))


def test_A_T10_no_dirty_canasta_in_the_opening_turn():
    """A25c: 8x5 + 2 + Jk is refused in the opening turn; 8x7 is legal and counts 70."""
    t = meld(table(), X, "8x5")
    assert not M.can_place_nb(MAC, t, X, EIGHT, 0, 1, 1, True, True, False)
    t, laid, tr = opening(["8x5 2 Jk"])
    assert not I.opening_ok_nb(MAC, t, X, laid, tr, 0)
    t, laid, tr = opening(["8x7", "A A A"])
    assert I.opening_count_nb(MAC, laid, tr) == 130 and I.opening_ok_nb(MAC, t, X, laid, tr, 125)


def test_splash():
    """A28: with the Splash a complete canasta from the hand opens without the minimum."""
    t, laid, tr = opening(["4x7"])
    assert I.opening_count_nb(MAC, laid, tr) == 35
    assert not I.opening_ok_nb(MAC, t, X, laid, tr, 125)
    assert I.is_splash_nb(PAGAT, t, X, laid, tr) and I.opening_ok_nb(PAGAT, t, X, laid, tr, 125)
    t, laid, tr = opening(["2x5 Jk Jk"])
    assert I.opening_ok_nb(PAGAT, t, X, laid, tr, 180)                     # a wild canasta
    t, laid, tr = opening(["4x5 2 Jk"])
    assert not I.opening_ok_nb(PAGAT, t, X, laid, tr, 0)                   # dirty: never


# --- talons and the turn card (A7, A32-A34) -------------------------------------------------------

def stock(cards=56, dealt=52):
    """A deck whose stock holds ``cards`` cards (kinds 4, 5, ... in turn) and its ``st``."""
    deck = np.array([4 + (i % 11) for i in range(108)], np.int64)
    st = np.zeros(64, np.int64)
    st[ST_DECK_N] = dealt + cards
    st[ST_STOCK_POS] = dealt
    return deck, st


def test_A_T11_talon_sizes():
    """A32, A33: the first side to open gets 4 stock cards after the discard, the second 3."""
    which = P.talon_earned_nb(51, False, False, False)
    assert which == P.TALON_FIRST and P.talon_size_nb(MAC, which) == 4
    deck, st = stock(51)
    h = np.zeros(NKINDS, np.int64)
    assert P.take_talon_nb(MAC, h, deck, st, which) == 4 and h.sum() == 4
    assert P.stock_left_nb(st) == 47
    which = P.talon_earned_nb(30, False, True, False)
    assert which == P.TALON_SECOND and P.talon_size_nb(MAC, which) == 3
    assert P.talon_earned_nb(30, False, False, True) == P.TALON_NONE     # one per side


def test_A_T12_no_talon_after_the_turn_card_or_with_a_take():
    """A7, A32: stock 8 after the draw: the turn card is gone; a take earns none."""
    assert P.turn_card_drawn_nb(8) and not P.turn_card_drawn_nb(9)
    assert P.talon_earned_nb(8, False, True, False) == P.TALON_NONE
    assert P.talon_earned_nb(9, False, True, False) == P.TALON_SECOND
    assert P.talon_earned_nb(40, True, False, False) == P.TALON_NONE


def test_A34_talon_below_the_turn_card_and_set_aside_talons():
    """A34: the talon is taken whole even below 9; A5, A33: set-aside piles after the deal."""
    deck, st = stock(10)
    h = np.zeros(NKINDS, np.int64)
    assert P.take_talon_nb(MAC, h, deck, st, P.TALON_FIRST) == 4 and P.stock_left_nb(st) == 6
    aside = parse_rules("modern-american(mac_talon_source=set_aside)").to_american_kernel()
    deck, st = stock(49, 59)
    h = np.zeros(NKINDS, np.int64)
    assert P.take_talon_nb(aside, h, deck, st, P.TALON_SECOND) == 3
    assert P.stock_left_nb(st) == 49
    assert list(np.repeat(np.arange(NKINDS), h)) == sorted(deck[56:59])


def test_A_T13_talon_exception():
    """A16, A17: with a talon earned the opener may meld down to one card and discard it."""
    t = table()
    last = hand("5")
    assert D.keeps_discard_nb(MAC, t, X, last, False, True, True)
    assert not D.keeps_discard_nb(MAC, t, X, last, False, True, False)
    assert D.keeps_discard_nb(MAC, t, X, hand("5 6"), False, True, False)


# --- the pile (A29-A31) --------------------------------------------------------------------------

def test_A_T14_no_take_past_seven_cards():
    """A30: three more cards must fit the side's meld of the top card's rank."""
    assert not P.can_take_nb(MAC, meld(table(), X, "9x5"), X, hand("9 9"), NINE, 5)
    assert P.can_take_nb(MAC, meld(table(), X, "9x4"), X, hand("9 9"), NINE, 5)


def test_A_T15_always_frozen():
    """A29: a natural pair is needed; a wild card never helps; A30: never a wild top card."""
    t = meld(table(), X, "8x3")
    assert not P.can_take_nb(MAC, t, X, hand("8 Jk"), EIGHT, 3)
    assert P.can_take_nb(MAC, t, X, hand("8 8"), EIGHT, 3)
    assert not P.can_take_nb(MAC, t, X, hand("8 8"), EIGHT, 0)            # empty pile
    assert not P.can_take_nb(MAC, t, X, hand("2 2"), DEUCE, 3)
    assert P.can_take_nb(MAC, table(), X, hand("7 7"), SEVEN, 3)          # sevens: clean


# --- discards (A16, A35-A39) ---------------------------------------------------------------------

def legal(h, pile_empty, t=None, going_out=False):
    """The tokens ``h`` may legally discard."""
    t = table() if t is None else t
    tokens = ("JK", "2", "3r", "3b", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
    return {tokens[k] for k in range(NKINDS)
            if D.discard_ok_nb(MAC, t, X, h, k, pile_empty, going_out)}


def test_A_T16_swad():
    """A36, A37, A16: no seven, wild, ace or dead rank onto an empty pile."""
    assert legal(hand("7 A 2 K 9"), True) == {"K", "9"}
    dead = meld(table(), Y, "Kx7")
    assert legal(hand("7 A 2 K 9"), True, dead) == {"9"}
    assert legal(hand("7 7 A 2"), True) == {"7", "A"}                     # PAG's exception
    assert legal(hand("7 A 2 K"), False) == {"7", "A", "K"}               # A38; 2 never
    assert legal(hand("2 Jk"), False) == {"2", "JK"}                      # A37b
    assert legal(hand("3b 5"), False) == {"5"}                            # A35
    assert legal(hand("3b 5"), True, going_out=True) == {"5"}
    after = hand("7 A")                       # right after a take: Q-Q-Q would leave 7, A
    assert not D.keeps_discard_nb(MAC, table(), X, after, True, True, False)
    assert D.keeps_discard_nb(MAC, table(), X, after, True, False, False)


# --- going out (A39-A40) -------------------------------------------------------------------------

def test_A_T17_going_out():
    """A40: two canastas and no incomplete sevens; A39: the last discard may be wild."""
    t = meld(meld(meld(table(), X, "Kx7"), X, "9x7"), X, "7x5")
    assert not D.may_go_out_nb(MAC, t, X)
    meld(t, X, "7 7")
    meld(t, X, "Q Q Q")
    assert D.may_go_out_nb(MAC, t, X)
    assert D.discard_ok_nb(MAC, t, X, hand("2"), DEUCE, False, True)      # going out: a 2
    assert not D.keeps_discard_nb(MAC, t, X, hand(""), False, True, False)   # melding the last
    for text in ("Ax4", "2 2 Jk"):                                        # A40 blockers
        b = meld(meld(meld(table(), X, "Kx7"), X, "9x7"), X, text)
        assert not D.may_go_out_nb(MAC, b, X), text
    dirty_aces = meld(meld(meld(table(), X, "Kx7"), X, "9x7"), X, "A A A Jk")
    assert D.may_go_out_nb(MAC, dirty_aces, X)


# --- threes and the end of the stock (A9-A11, A43) -----------------------------------------------

def three_state(text, cards=20):
    """A deal state whose seat 0 (side X) holds ``text`` over a stock of ``cards`` cards
    (:func:`stock`), the family's slots and a trace buffer (tracing off): what the moves of
    threes (kernels/game/american/moves.py) read."""
    deck, st = stock(cards)
    S = new_state()
    S.hands[0] = hand(text)
    S.deck[:deck.shape[0]] = deck
    S.st[ST_DECK_N] = st[ST_DECK_N]
    S.st[ST_STOCK_POS] = st[ST_STOCK_POS]
    return S, new_mac_state(), np.zeros(16, np.int32)


def test_threes_are_laid_and_replaced():
    """A9: every three is laid and replaced; a replacement three too."""
    S, A, buf = three_state("3h 3s 5")
    S.deck[52] = RED3
    S.deck[53] = 9
    assert MV.lay_threes_nb(S, A, buf, 0, 0, 2, MV.THREE_FROM_DEAL, 0) == MV.LAID
    assert list(A.threes[X]) == [2, 1] and T.threes_in_nb(S.hands[0]) == 0
    assert S.hands[0].sum() == 3 and P.stock_left_nb(S.st) == 17


def test_A_T18_last_stock_card_a_three():
    """A43: the last stock card is 3s: the deal ends, the three counts 5 in the hand."""
    S, A, buf = three_state("5 6", cards=1)
    S.deck[52] = BLACK3
    assert MV.draw_card_nb(S, A, buf, 0) == BLACK3
    assert MV.lay_threes_nb(S, A, buf, 0, 0, 1, MV.THREE_FROM_STOCK, 0) == MV.STOCK_OUT
    assert S.hands[0, BLACK3] == 1 and A.threes.sum() == 0 and P.stock_left_nb(S.st) == 0
    assert SC.hand_items_nb(MAC, S.hands[0]) == (15, 0)                   # 5 + 5 + 5


def test_A_T24_kept_three():
    """A10: one three may be kept while the side has not melded; never two; laid later."""
    assert T.may_keep_three_nb(MAC, False) and not T.may_keep_three_nb(MAC, True)
    none = parse_rules("modern-american(mac_special_hands=none)").to_american_kernel()
    assert not T.may_keep_three_nb(none, False)
    S, A, buf = three_state("3h 3s 5")
    MV.lay_threes_nb(S, A, buf, 0, 1, 2, MV.THREE_FROM_DEAL, 0)
    assert T.threes_in_nb(S.hands[0]) == 1 and S.hands[0, RED3] == 1
    assert A.threes[X].sum() == 1
    S.hands[0] = hand("A 2 3h 4 5 6 7 8 9 10 J Q K Jk")
    sizes = np.zeros(9, np.int64)
    assert SP.special_hand_nb(MAC, S.hands[0], sizes) == (SP.STRAIGHT, 3000)
    MV.lay_threes_nb(S, A, buf, 0, 0, 0, MV.THREE_FROM_STOCK, 1)        # partner opened
    assert SP.special_hand_nb(MAC, S.hands[0], sizes)[0] == SP.NONE


# --- scoring (A45-A49) ---------------------------------------------------------------------------

def test_A_T19_threes_by_colour_and_canasta_count():
    """A47, A49: 2 red + 3 black = 800, signed by the canasta count."""
    threes = np.array([[2, 3], [4, 1]], np.int64)
    hands = np.zeros((4, NKINDS), np.int64)
    two = meld(meld(table(), X, "Kx7"), X, "Qx7")
    one = meld(table(), X, "Kx7")
    assert score(two, X, threes, hands)[SC.I_THREES] == 800
    assert score(one, X, threes, hands)[SC.I_THREES] == 0
    assert score(table(), X, threes, hands)[SC.I_THREES] == -800
    assert SC.three_points_nb(MAC, 4) + SC.three_points_nb(MAC, 1) == 1100


def test_A_T20_a_full_deal():
    """A42, A45-A49: X = 4,045 and Y = -3,645."""
    t = table()
    for text in ("Kx7", "9x5 2 Jk", "7x7", "Q Q Q"):
        meld(t, X, text)
    for text in ("Jx6 2", "Ax4", "8 8 8"):
        meld(t, Y, text)
    threes = np.array([[2, 1], [1, 0]], np.int64)
    hands = np.zeros((4, NKINDS), np.int64)
    hands[2] = hand("5 6")                                                 # X2
    hands[1] = hand("A A A 4")                                             # Y1
    hands[3] = hand("Jk 2")                                                # Y2
    x = score(t, X, threes, hands, went_out=True)
    assert list(x) == [3, 3300, 100, 255, 400, 0, -10, 0, 0, 4045]
    y = score(t, Y, threes, hands)
    assert list(y) == [1, 300, 0, 190, 0, -2500, -135, -1500, 0, -3645]
    assert I.mac_minimum_nb(MAC, 2000 + 4045) == 180 and I.mac_minimum_nb(MAC, 3100 - 3645) == 125


def test_A_T21_no_canasta():
    """A49: with no canasta melds and threes count minus; A46: -2,000 for a wild meld."""
    t = meld(meld(table(), X, "9 9 9"), X, "6 6 6 6")
    threes = np.array([[0, 2], [0, 0]], np.int64)
    hands = np.zeros((4, NKINDS), np.int64)
    hands[0] = hand("8 K")
    assert score(t, X, threes, hands)[SC.I_TOTAL] == -370
    meld(t, X, "2 2 Jk")
    assert score(t, X, threes, hands)[SC.I_TOTAL] == -2460
    four = meld(table(), X, "Jk Jk Jk Jk")
    assert SC.incomplete_penalty_nb(MAC, four, X, M.WILD_ROW) == 2000
    assert SC.incomplete_penalty_nb(PAGAT, four, X, M.WILD_ROW) == 2500   # DA6


def test_A_T22_stacked_penalties():
    """A46, A48: -2,500 - 1,500 - 15 for an incomplete sevens meld and 7-7-7 in hand."""
    t = meld(meld(meld(table(), X, "Kx7"), X, "Qx7"), X, "7x4")
    hands = np.zeros((4, NKINDS), np.int64)
    hands[0] = hand("7 7 7")
    items = score(t, X, np.zeros((2, 2), np.int64), hands)
    assert items[SC.I_INCOMPLETE] + items[SC.I_HAND_PENALTY] + items[SC.I_HAND] == -4015


# --- special hands (A51-A53) ---------------------------------------------------------------------

def special(text, mac=MAC):
    """(code, points) of a 14-card hand."""
    return tuple(SP.special_hand_nb(mac, hand(text), np.zeros(9, np.int64)))


def test_A_T23_special_hands():
    """A51-A53: Garbage 3,000 (2,000 pagat); the other side scores normally; a Dream Hand."""
    assert special("8x4 Qx4 5 5 5 K K K") == (SP.GARBAGE, 3000)
    assert special("8x4 Qx4 5 5 5 K K K", PAGAT) == (SP.GARBAGE, 2000)
    out = np.zeros(SC.N_ITEMS, np.int64)
    assert SC.score_special_nb(3000, out) == 3000 and out[SC.I_SPECIAL] == 3000
    t = meld(meld(table(), Y, "10x6 2"), Y, "5 5 5")
    hands = np.zeros((4, NKINDS), np.int64)
    hands[1] = hand("9 9")
    hands[3] = hand("K Q J")
    assert score(t, Y, np.array([[0, 0], [1, 0]], np.int64), hands)[SC.I_TOTAL] == 345
    code, points = special("4x5 Kx5 Jk Jk Jk Jk")
    assert (code, points) == (SP.DREAM_PLUS_4, 8500) and SP.wins_game_nb(code)
    assert special("4x5 Kx5 Jk Jk Jk Jk", PAGAT) == (SP.NONE, 0)


@pytest.mark.parametrize("text, name, points", [
    ("4 4 5 5 6 6 8 8 9 9 J J K K", "pairs", 2500),
    ("A A 7 7 4 4 5 5 6 6 8 8 2 2", "wild_pairs", 2000),
    ("A A 7 7 4 4 5 5 6 6 8 8 Jk Jk", "wild_pairs", 2000),
    ("A A 7 7 2 2 Jk Jk 4 4 5 5 6 6", "miami_pairs", 2500),
    ("8 8 Jk Jk Q Q Q K K K 4 4 4 4", "zip_code", 2500),
    ("4 4 4 4 4 K K K K 9 9 9 6 6", "blast_off", 3000),
    ("4 4 4 K K K 9 9 9 6 6 6 2 2", "triples", 3500),
    ("4 4 4 4 K K K K 9 9 9 9 Jk Jk", "quads", 3500),
    ("4x5 Kx4 2 2 2 Jk Jk", "dream_plus_5", 8500),
    ("4 4 5 5 6 6 8 8 9 9 J J K", "none", 0),                       # 13 cards
    ("4 4 4 5 5 6 6 8 8 9 9 J J K", "none", 0),                     # a triple
    ("A A 7 7 4 4 5 5 6 6 8 8 2 Jk", "none", 0),                     # mixed wild pair
])
def test_special_hand_compositions(text, name, points):
    """A51 with the league's set (reading 10)."""
    code, value = special(text)
    assert (SP.NAMES[code], value) == (name, points)


def test_pagat_wild_pairs_are_two_twos():
    """A51: pagat's pairs with 2s, 7s and aces: the wild pair is 2-2."""
    assert special("A A 7 7 4 4 5 5 6 6 8 8 2 2", PAGAT) == (SP.WILD_PAIRS, 2000)
    assert special("A A 7 7 4 4 5 5 6 6 8 8 Jk Jk", PAGAT) == (SP.NONE, 0)


# --- the deal (A2, A5-A7) ------------------------------------------------------------------------

@pytest.mark.parametrize("source, stock_cards", [("stock", 56), ("set_aside", 49)])
def test_deal(source, stock_cards):
    """A5, A6: 13 cards each, no upcard, the stock 56 (49 with set-aside talons)."""
    from canasta_sim.kernels.game.slots import SIDE_MINIMUM, ST_PILE_N
    from canasta_sim.kernels.game.state import new_state
    mac = parse_rules(f"modern-american(mac_talon_source={source})").to_american_kernel()
    S = new_state()
    mdeal.deal_american_nb(mac, S, 7, 3, -1, np.array([0, 3000, 0], np.int64))
    assert list(S.hands[:4].sum(axis=1)) == [13] * 4
    assert S.st[ST_PILE_N] == 0 and P.stock_left_nb(S.st) == stock_cards
    assert list(S.sidev[:2, SIDE_MINIMUM]) == [125, 155]
    assert sorted(np.bincount(S.deck[:108], minlength=NKINDS)) == \
        sorted([8] * 11 + [8, 4, 4, 4])                                   # A2


def test_deal_shares_classic_shuffle():
    """A4: one seed shuffles both families alike, so each hand's first 11 cards agree."""
    from canasta_sim.kernels.game.deal import deal_nb
    from canasta_sim.kernels.game.state import new_state, rules_record_nb
    classic = rules_record_nb(parse_rules("classic").to_kernel())
    C, A = new_state(), new_state()
    deal_nb(classic[0], C, np.zeros(64, np.int32), 11, 2, 1, np.zeros(3, np.int64))
    mdeal.deal_american_nb(MAC, A, 11, 2, 1, np.zeros(3, np.int64))
    assert np.array_equal(C.deck, A.deck)


def test_every_worked_example_has_a_test():
    """A-T01..A-T24: each worked example of the family's rules is a test named after it."""
    import re
    from pathlib import Path
    names = set(re.findall(r"def test_A_T(\d\d)_", Path(__file__).read_text()))
    assert names == {f"{i:02d}" for i in range(1, 25)}


def test_penalty_and_count_knobs():
    """A25b, A46, A48: the take pair, the four-jokers penalty and the hand penalty as knobs."""
    no_pair = parse_rules("modern-american(mac_take_pair_counts=false)").to_american_kernel()
    t, laid, tr = opening(["A A A", "Q Q Q 2"], take="K")
    assert I.opening_count_nb(no_pair, laid, tr) == 110
    jokers = parse_rules("modern-american(mac_wild_meld_penalty_four_jokers=2500)")\
        .to_american_kernel()
    four = meld(table(), X, "Jk Jk Jk Jk")
    assert SC.incomplete_penalty_nb(jokers, four, X, M.WILD_ROW) == 2500
    triple = parse_rules("modern-american(mac_hand_triple_penalty=1000)").to_american_kernel()
    assert SC.hand_items_nb(triple, hand("A A A 7 7 7")) == (75, 2000)
    assert SC.hand_items_nb(MAC, hand("A A A 7 7 7")) == (75, 3000)


@pytest.mark.parametrize("source", ["stock", "set_aside"])
def test_cards_are_conserved_through_the_pieces(source):
    """A2: after a deal, threes laid, a talon, a meld, a take and a discard, the deal holds
    the 108 cards of the deck exactly once; a card lost or doubled is caught."""
    from canasta_sim.kernels.game.slots import ST_PILE_N
    mac = parse_rules(f"modern-american(mac_talon_source={source})").to_american_kernel()
    S = new_state()
    A = new_mac_state()
    threes = A.threes
    buf = np.zeros(16, np.int32)
    mdeal.deal_american_nb(mac, S, 5, 0, 0, np.zeros(3, np.int64))
    assert SC.mac_cards_conserved_nb(mac, S, threes, 0)
    for seat in range(4):                                                  # A9
        MV.lay_threes_nb(S, A, buf, seat, 0, T.threes_in_nb(S.hands[seat]),
                         MV.THREE_FROM_DEAL, 0)
    MV.draw_card_nb(S, A, buf, 1)
    MV.lay_threes_nb(S, A, buf, 1, 0, 1, MV.THREE_FROM_STOCK, 0)
    assert SC.mac_cards_conserved_nb(mac, S, threes, 0)
    P.take_talon_nb(mac, S.hands[1], S.deck, S.st, P.TALON_FIRST)          # A33
    assert SC.mac_cards_conserved_nb(mac, S, threes, 1 << P.TALON_FIRST)
    rank = int(np.argmax(S.hands[1][4:])) + 4
    n = int(S.hands[1, rank])
    S.hands[1, rank] -= n
    M.place_nb(S.melds, 1, rank, n, 0, 0)                                 # a meld
    card = next(k for k in range(4, NKINDS) if S.hands[0, k])
    S.hands[0, card] -= 1                                                  # a discard
    S.pile[0] = card
    S.st[ST_PILE_N] = 1
    assert SC.mac_cards_conserved_nb(mac, S, threes, 1 << P.TALON_FIRST)
    S.hands[2, JOKER] += 1                                                 # a card doubled
    assert not SC.mac_cards_conserved_nb(mac, S, threes, 1 << P.TALON_FIRST)
