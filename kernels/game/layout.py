"""Fixed layouts shared by kernels and the Python face: result columns,
trace event codes, state limits (the players' ids are in kernels/players/ids.py).

Every kernel output is a preallocated integer array; these constants say what
each slot means.
"""

MAX_SEATS = 6
MAX_SIDES = 3
MAX_CARDS = 162
NPARAMS = 8                      # policy parameters per seat (float64)

# --- per-deal result row (int64) -------------------------------------------------------------
COL_DEALER = 0
COL_END_REASON = 1               # END_OUT or END_STOCK
COL_OUT_SEAT = 2                 # -1 if nobody went out
COL_CONCEALED = 3
COL_TURNS = 4
COL_STOCK_LEFT = 5
COL_UPCARDS = 6                  # cards turned for the upcard (R7)
COL_TRACE_OVERFLOW = 7           # 1 if a trace buffer was too small (trace runs only)
COL_CHECK_FAILS = 8              # turns after which the card-conservation check failed
SIDE_BASE = 9
SIDE_STRIDE = 12
S_SCORE = 0
S_MELDS = 1
S_NATURAL = 2
S_MIXED = 3
S_CANASTA_BONUS = 4
S_RED3 = 5
S_RED3_DEALT = 6
S_RED3_POINTS = 7
S_OUT_BONUS = 8
S_HAND = 9
S_MELDED = 10
S_PILE_TAKES = 11
# cutthroat3 (docs/cutthroat.md): side k's columns are seat k's (its own red threes, its deal
# score; the other items those of the side it ended the deal in), and two deal columns follow
COL_LONE_SEAT = SIDE_BASE + SIDE_STRIDE * MAX_SIDES      # the lone hand, -1 if none (C5, C6)
COL_FORMED_BY = COL_LONE_SEAT + 1                        # FORMED_* (C5, C6, C14)
# Modern American (docs/american.md): the deal's special hand, then per side the items this
# family adds (MAC_SIDE_FIELDS); the shared side columns above hold its score items too
COL_MAC_SPECIAL = COL_FORMED_BY + 1                      # special.NAMES code, 0 none (A51)
COL_MAC_SPECIAL_SEAT = COL_MAC_SPECIAL + 1               # -1 none (A52)
COL_MAC_GAME_OVER = COL_MAC_SPECIAL_SEAT + 1             # a Dream Hand ended the game (A53)
MAC_SIDE_BASE = COL_MAC_GAME_OVER + 1
MAC_SIDE_FIELDS = ("canastas", "clean_canastas", "dirty_canastas", "aces_canastas",
                   "sevens_canastas", "wild_canastas", "incomplete", "hand_penalty",
                   "red_threes", "black_threes", "threes_dealt", "talon", "special")
MAC_SIDE_STRIDE = len(MAC_SIDE_FIELDS)
NCOLS = MAC_SIDE_BASE + MAC_SIDE_STRIDE * 2                # the widest row: a Modern American deal
CLASSIC_NCOLS = COL_LONE_SEAT    # the columns every layout fills; the rest are a family's
CLASSIC_ROW_NCOLS = COL_FORMED_BY + 1   # a classic or cutthroat deal's row: no family columns


def row_ncols(american: bool) -> int:
    """How wide a deal's result row is: NCOLS for Modern American, CLASSIC_ROW_NCOLS for the
    classic layouts, whose kernels never write the family's columns (a narrower row keeps
    classic's memory traffic and its table build as they were before the family came)."""
    return NCOLS if american else CLASSIC_ROW_NCOLS

FORMED_NONE = 0
FORMED_TAKE = 1
FORMED_OUT = 2
FORMED_BY = ("none", "take", "going_out")
SIDE_FIELDS = ("score", "melds", "natural", "mixed", "canasta_bonus", "red3", "red3_dealt",
               "red3_points", "out_bonus", "hand", "melded", "pile_takes")

END_OUT = 0
END_STOCK = 1
END_SPECIAL = 2     # Modern American: a special hand was laid (A52)

# --- trace events (int32 buffer) -------------------------------------------------------------
# Each event is [code, seat, a, b, n, c_1..c_n]: code and seat, two small arguments and a list
# of n integers (card kinds, or for TAKE the pile then the melds as rank, count, cards...).
EV_START = 1        # seat=dealer; cards = hands as dealt (seat order, hand_size each) + stock
EV_UPCARD = 2       # cards turned
EV_RED3 = 3         # a = source (RED3_FROM_*), b = replacement kind or -1
EV_DRAW = 4         # cards drawn
EV_TAKE = 5         # a = pile size, b = number of take melds; cards = pile, then per meld
                    # rank (+ OWNER_STRIDE x (1 + owner) as for EV_MELD's b), count, cards
OWNER_STRIDE = 32
EV_MELD = 6         # a = rank, b = 1 + the seat whose meld gets them where the side holds
                    # two of the rank (cutthroat3, C7), else 0; cards placed
EV_ASK = 7          # a = answer (0/1)
EV_DISCARD = 8      # a = card; b = the pile was empty (Modern American, A36)
EV_OUT = 9          # a = concealed (0/1)
EV_END = 10         # a = END_OUT / END_STOCK
EV_DECISION = 11    # a = decision kind, b = option chosen; cards = the options (decision log)
EV_PARTNERSHIP = 12  # seat = the lone hand, a = FORMED_*; cards = the ranks merged (C5-C7)
EV_THREE = 13       # Modern American: a = from (american.moves.THREE_FROM_*), b = replacement
                    # or -1 (A43); cards = the three (A9, A10)
EV_TALON = 14       # a = size; cards = the talon (A32, A33)
EV_TURN_CARD = 15   # a = stock cards left (A7)
EV_SPECIAL = 16     # a = special hand code, b = points; cards = the hand (A52, A53)
EV_HEADER = 5       # ints before the card list
RED3_FROM_DEAL = 0
RED3_FROM_STOCK = 1
RED3_FROM_PILE = 2
RED3_SOURCES = ("deal", "stock", "pile")

# --- games (R58-R60) -------------------------------------------------------------------------
# Deal k of game g is dealt from the random streams of deal number g * GAME_STRIDE + k, so a
# game never shares a deck with another game and two rule sets with the same deck see the same
# cards in deal k of game g (common random numbers).
GAME_STRIDE = 4096
MAX_GAME_DEALS = 2000            # a game still unfinished after this many deals is cut off
# per-game result row (int64)
G_FIRST_DEALER = 0
G_DEALS = 1                      # deals played
G_WINNER = 2                     # side with the higher total; -1 for a draw or a cut-off game
G_ENDED = 3                      # GAME_TARGET, GAME_DRAW or GAME_CUT
G_FINAL = 4                      # + side: cumulative score after the last deal
G_NCOLS = G_FINAL + MAX_SIDES
GAME_TARGET = 0                  # a side reached game_target with the higher total (R59)
GAME_DRAW = 1                    # a tie at the top ended the game (tie_policy=draw, R60)
GAME_CUT = 2                     # MAX_GAME_DEALS reached without an end
GAME_ENDINGS = ("target", "draw", "cut")
# per-deal extras of a game (int64), beside the per-deal result row
D_GAME = 0
D_DEAL_IN_GAME = 1
D_CUM_BEFORE = 2                 # + side: cumulative score before the deal (R27, R58)
D_NCOLS = D_CUM_BEFORE + MAX_SIDES
