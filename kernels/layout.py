"""Fixed layouts shared by kernels and the Python face: result columns,
trace event codes, policy ids, state limits.

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
NCOLS = SIDE_BASE + SIDE_STRIDE * MAX_SIDES
SIDE_FIELDS = ("score", "melds", "natural", "mixed", "canasta_bonus", "red3", "red3_dealt",
               "red3_points", "out_bonus", "hand", "melded", "pile_takes")

END_OUT = 0
END_STOCK = 1

# --- trace events (int32 buffer) -------------------------------------------------------------
# Each event is [code, seat, a, b, n, c_1..c_n]: code and seat, two small arguments and a list
# of n integers (card kinds, or for TAKE the pile then the melds as rank, count, cards...).
EV_START = 1        # seat=dealer; cards = hands as dealt (seat order, hand_size each) + stock
EV_UPCARD = 2       # cards turned
EV_RED3 = 3         # a = source (RED3_FROM_*), b = replacement kind or -1
EV_DRAW = 4         # cards drawn
EV_TAKE = 5         # a = pile size, b = number of take melds; cards = pile, then per meld
                    # rank, count, cards
EV_MELD = 6         # a = rank; cards placed
EV_ASK = 7          # a = answer (0/1)
EV_DISCARD = 8      # a = card
EV_OUT = 9          # a = concealed (0/1)
EV_END = 10         # a = END_OUT / END_STOCK
EV_HEADER = 5       # ints before the card list
RED3_FROM_DEAL = 0
RED3_FROM_STOCK = 1
RED3_FROM_PILE = 2
RED3_SOURCES = ("deal", "stock", "pile")

# --- policies --------------------------------------------------------------------------------
POLICY_RANDOM = 0
POLICY_GREEDY = 1
POLICY_NAMES = ("random", "greedy")
