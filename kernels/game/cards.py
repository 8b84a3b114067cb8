"""Card kinds as small integers, and their fixed values (RULES.md R3, R4).

Suits play no part in the rules, so a card is its *kind*.  Hands, melds and
the deck composition are count vectors indexed by kind.
"""
JOKER = 0
DEUCE = 1
RED3 = 2
BLACK3 = 3
FOUR = 4
FIVE = 5
SIX = 6
SEVEN = 7
EIGHT = 8
NINE = 9
TEN = 10
JACK = 11
QUEEN = 12
KING = 13
ACE = 14
NKINDS = 15
FIRST_NATURAL = FOUR          # natural ranks are FOUR..ACE (R3)
MELD_KINDS = 16               # meld tables are indexed by kind; BLACK3 holds the R25 meld

TOKENS = ("JK", "2", "3r", "3b", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
TOKEN_TO_KIND = {t: i for i, t in enumerate(TOKENS)}
