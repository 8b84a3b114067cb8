"""The search player ``search``: the ``expert`` blueprint, improved at chosen decisions by
rollouts on determinized copies of the deal (docs/search.md).

At a searched decision the seat lists a few candidates -- the blueprint's own choice first:

* **discard** (``SEARCH_DISCARD``): the blueprint's best ``candidates`` discards, in the order
  of expert's discard cost (:func:`discard_candidates_nb`);
* **freeze** (``SEARCH_FREEZE``): also a wild card (a deuce before a joker) while the pile is
  not frozen (R32), if the hand holds one and it is not a candidate already;
* **take or draw** (``SEARCH_TAKE``): when the pile can be taken only by spending wild cards
  (where expert's ``min_pile_take`` decides), taking it and drawing instead;
* **going out or asking** (``SEARCH_OUT``): after the draw, when the seat could go out, its
  going-out choice for the meld phase (``state.OUT_*``): expert's own, going out now, asking
  the partner (R42) and holding on, less the one expert's own play is
  (:func:`out_candidates_nb`).  The choice is played by setting ``ST_TURN_OUT_CHOICE``, which
  expert's going-out wish and question obey for the rest of the turn (kernels/players/club.py).

Each candidate is played on ``determinizations`` times: the deal is copied into the scratch
state (:func:`copy_state_nb`), the cards hidden from the seat are dealt again at random
from what the seat may know (:func:`resample_hidden_nb`), the candidate is played and the
deal is played to its end with ``expert`` (default parameters) at every seat.  Every
candidate sees the same determinizations (common random numbers): determinization ``d``
of a decision is drawn from a key made of the seat's own policy stream, the turn count and
the decision (:func:`decision_key_nb`), never from the deal's own streams, which the search
never advances.  A rollout's value is the seat's side's deal score less the best other
side's.  The best candidate is played if its mean beats the blueprint's choice by more
than ``threshold`` points and by ``confidence`` standard errors of the paired gains;
otherwise the blueprint's choice.  Every other decision of a
search seat (the meld steps, answering the partner) is expert's.

The scratch state lives in rows ``WS_SEARCH`` onwards of the state's ``ws`` array, as views
of the same numba types as a deal state, so rollouts run the engine's one compiled turn
(``turn.play_turns_nb``); helpers never allocate.  The engine plays a deal's turns with
:func:`play_table_turns_nb`: without a search seat it is exactly ``play_turns_nb``.
"""
import numpy as np

from ..game.cards import DEUCE, JOKER, MELD_KINDS, NKINDS, RED3
from ..game.cutthroat import forms_partnership_nb, side_canastas_nb
from ..game.deal import shuffle_nb
from ..game.layout import (
    MAX_CARDS,
    MAX_SEATS,
    MAX_SIDES,
    NCOLS,
    NPARAMS,
    S_SCORE,
    SIDE_BASE,
    SIDE_STRIDE,
)
from ..game.moves import CONTINUE, DEAL_OVER, begin_turn_nb, finish_discard_nb, first_turn_nb
from ..game.options import (
    DEC_ASK,
    DEC_DISCARD,
    DEC_DRAW,
    can_go_out_if_yes_nb,
    discard_options_nb,
    forced_take_due_nb,
    pile_top_takeable_nb,
)
from ..game.plans import has_partner_nb
from ..game.rng import GOLDEN, NSTREAMS, STREAM_POLICY, mix64_nb
from ..game.rules_nb import Ask, Red3Timing
from ..game.scoring import cards_conserved_nb, score_deal_nb
from ..game.slots import (
    M_COLS,
    NSEATV,
    NSIDEV,
    NST,
    OUT_ASK,
    OUT_HOLD,
    OUT_NOW,
    OUT_OWN,
    SEAT_HAD_TURN,
    SEAT_KNOWN,
    SIDE_RED3,
    ST_CHECK_FAILS,
    ST_CHECK_ON,
    ST_DECK_N,
    ST_FREEZERS,
    ST_NSEATS,
    ST_NSIDES,
    ST_PILE_N,
    ST_STOCK_POS,
    ST_TRACE_ON,
    ST_TURN_LAST_RED3,
    ST_TURN_OUT_CHOICE,
    ST_TURN_SEAT,
    ST_TURN_TAKE,
    ST_TURNS,
    WS_ROWS,
    WS_SEARCH,
    WS_UNSEEN,
)
from ..game.state import (
    DealState,
    hand_size_nb,
    keep_alive_nb,
    rules_record_nb,
    side_of_nb,
)
from ..jit import entry, kernel, level, one_step
from ..players.club import (
    LONE_PILE_FACTOR,
    P_MIN_PILE_TAKE,
    asks_partner_nb,
    club_discard_nb,
    count_unseen_nb,
    go_out_wanted_nb,
)
from ..players.greedy import greedy_take_nb
from ..players.ids import POLICY_EXPERT, POLICY_SEARCH
from ..players.switch import Table, log_decision_nb
from .turn import DRAW_ONLY, FROM_MELD, MAX_TURNS, MELD_ONLY, play_turns_nb

# the search player's parameters (canasta_sim/policies.py names them; slot Q_*)
Q_DETERMINIZATIONS = 0   # deals of the hidden cards each candidate is played on
Q_CANDIDATES = 1         # the blueprint's best discards searched
Q_THRESHOLD = 2          # points a candidate must gain over the blueprint's choice
Q_DECISIONS = 3          # SEARCH_* bits: which decisions are searched
Q_CONFIDENCE = 4         # standard errors by which the gain must exceed zero
Q_ROLLOUTS = 5           # playouts per candidate and determinization, the stock shuffled again
SEARCH_DISCARD = 1
SEARCH_FREEZE = 2
SEARCH_TAKE = 4
SEARCH_OUT = 8
MAX_CANDIDATES = 8       # candidates (at most MAX_CANDIDATES - 1) plus a freeze

# the blueprint: expert with its default parameters (canasta_sim/policies.py REGISTRY)
EXPERT_DEFAULTS = (16.0, 6.0, 300.0, 1.0, 2.0, 8.0, 30.0, 4.0)
TAKE_ALWAYS = 0.0        # min_pile_take values that make expert take a pile with wild
TAKE_NEVER = 1000.0      # cards, or refuse it (club.club_take_nb)

# scratch rows of ws: the engine's turns use the rows below WS_SEARCH; from WS_SEARCH, first
# the scratch state's own ws (WS_SEARCH rows), then its other arrays and the search's tables
W_WS = WS_SEARCH
R_HANDS = 2 * WS_SEARCH
R_MELDS = R_HANDS + 1
R_DECK = R_HANDS + 2
R_PILE = R_HANDS + 3
R_ST = R_HANDS + 4
R_SEATV = R_HANDS + 5
R_SIDEV = R_HANDS + 6    # ... and the scratch state's random streams from column AT
R_WM = R_HANDS + 7
R_POL = R_HANDS + 8      # the blueprint's policy table: search seats play expert
R_PARAMS = R_HANDS + 9   # ... and its parameters (float64)
R_RPOL = R_HANDS + 10    # the rollouts' policy table: expert at every seat
R_RPARAMS = R_HANDS + 11
R_POOL = R_HANDS + 12    # the resampler: the cards hidden from the seat
R_UNSEEN = R_HANDS + 13  # ... their counts by kind, and its random stream from column AT
R_STATS = R_HANDS + 14   # candidates' summed gains and squared gains over the blueprint's
                         # choice (float64, from 0 and SQ), their cards from column AT
R_ROW = R_HANDS + 15     # a rollout's result row
SEARCH_ROWS = R_ROW + 1 - WS_SEARCH
AT = 64
SQ = 16
assert WS_SEARCH + SEARCH_ROWS <= WS_ROWS


# ---- the scratch state ----------------------------------------------------------------------

@one_step
def scratch_state_nb(ws):
    """The scratch deal state: views into the rows of ``ws`` from ``WS_SEARCH``, of the same
    shapes and numba types as a state from ``state.new_state``."""
    hands = ws[R_HANDS, 0:MAX_SEATS * NKINDS].reshape((MAX_SEATS, NKINDS))
    melds = ws[R_MELDS, 0:MAX_SIDES * MELD_KINDS * M_COLS].reshape(
        (MAX_SIDES, M_COLS, MELD_KINDS))
    deck = ws[R_DECK, 0:MAX_CARDS]
    pile = ws[R_PILE, 0:MAX_CARDS]
    st = ws[R_ST, 0:NST]
    seatv = ws[R_SEATV, 0:MAX_SEATS * NSEATV].reshape((MAX_SEATS, NSEATV))
    sidev = ws[R_SIDEV, 0:MAX_SIDES * NSIDEV].reshape((MAX_SIDES, NSIDEV))
    rng = ws[R_SIDEV, AT:AT + NSTREAMS].view(np.uint64)
    scratch = ws[W_WS:W_WS + WS_SEARCH]
    wm = ws[R_WM, 0:2 * MELD_KINDS * M_COLS].reshape((2, MELD_KINDS, M_COLS))
    return DealState(hands, melds, deck, pile, st, seatv, sidev, rng, scratch, wm)


@kernel
def copy_state_nb(S, W):
    """Copy the deal of ``S`` into ``W`` (all but the scratch rows ``ws`` and ``wm``, which
    hold nothing between turns or at a searched decision), with the trace and the
    conservation check off in ``W``."""
    hands = S.hands
    melds = S.melds
    deck = S.deck
    pile = S.pile
    st = S.st
    seatv = S.seatv
    sidev = S.sidev
    rng = S.rng
    hands2 = W.hands
    melds2 = W.melds
    deck2 = W.deck
    pile2 = W.pile
    st2 = W.st
    seatv2 = W.seatv
    sidev2 = W.sidev
    rng2 = W.rng
    for s in range(MAX_SEATS):
        for k in range(NKINDS):
            hands2[s, k] = hands[s, k]
        for c in range(NSEATV):
            seatv2[s, c] = seatv[s, c]
    for side in range(MAX_SIDES):
        for r in range(MELD_KINDS):
            for c in range(M_COLS):
                melds2[side, c, r] = melds[side, c, r]
        for c in range(NSIDEV):
            sidev2[side, c] = sidev[side, c]
    for i in range(MAX_CARDS):
        deck2[i] = deck[i]
        pile2[i] = pile[i]
    for i in range(NST):
        st2[i] = st[i]
    for i in range(NSTREAMS):
        rng2[i] = rng[i]
    st2[ST_TRACE_ON] = 0
    st2[ST_CHECK_ON] = 0


# ---- the resampler --------------------------------------------------------------------------

@kernel
def hidden_pool_nb(rules, S, seat, pool, unseen):
    """Write into ``pool`` the cards hidden from ``seat`` -- the deck (R2) less its hand, the
    melds, the pile, the red threes on the table and the cards other seats are known to
    hold (``SEAT_KNOWN``) -- in order of kind; returns how many."""
    hands = S.hands
    melds = S.melds
    pile = S.pile
    st = S.st
    seatv = S.seatv
    sidev = S.sidev
    count_unseen_nb(rules, hands, melds, pile, st, seatv, seat, unseen)
    red3 = 2 * rules.num_packs - hands[seat, RED3]                      # R2: two per pack
    for side in range(st[ST_NSIDES]):
        red3 -= sidev[side, SIDE_RED3]                                  # R9, R13, R14
    for i in range(st[ST_PILE_N]):
        if pile[i] == RED3:
            red3 -= 1
    unseen[RED3] = max(red3, 0)
    return pool_from_counts_nb(unseen, pool)


@kernel
def pool_from_counts_nb(counts, pool):
    """Write the cards counted by kind in ``counts`` into ``pool``, in order of kind; returns
    how many."""
    n = 0
    for kind in range(NKINDS):
        for _ in range(counts[kind]):
            pool[n] = kind
            n += 1
    return n


@kernel
def unknown_cards_nb(S, s):
    """Cards of seat ``s``'s hand not known to all (its size is public, RULES.md 0.1)."""
    hands = S.hands
    seatv = S.seatv
    known = 0
    for k in range(NKINDS):
        known += seatv[s, SEAT_KNOWN + k]
    return max(hand_size_nb(hands, s) - known, 0)


@kernel
def resample_hidden_nb(rules, W, seat, pool, unseen, key_rng):
    """Deal the cards hidden from ``seat`` again, at random (stream 0 of ``key_rng``), into
    ``W``: every other hand keeps its size and its known cards (``SEAT_KNOWN``) and gets
    the rest from the hidden cards; the stock keeps its size and gets what is left, shuffled
    once more (the hands skip the red threes no hand may hold, which would otherwise stay
    near the top of the stock: so every order of the stock is equally likely).  A red three
    goes only to a hand that may still hold one (red3_replacement_timing = first_turn, before
    its first turn, R9); elsewhere red threes are always on the table.
    Reads only what ``seat`` may know: its own hand, the melds, the pile, red threes, hand
    and stock sizes and known cards.  Returns False (``W`` unusable) if the hidden cards
    cannot fill the hidden places, which no real deal allows."""
    hands = W.hands
    deck = W.deck
    st = W.st
    seatv = W.seatv
    n = hidden_pool_nb(rules, W, seat, pool, unseen)
    need = st[ST_DECK_N] - st[ST_STOCK_POS]
    for s in range(st[ST_NSEATS]):
        if s != seat:
            need += unknown_cards_nb(W, s)
    if n < need:
        return False
    shuffle_nb(pool, n, key_rng)                         # Fisher-Yates, stream 0 of key_rng
    for s in range(st[ST_NSEATS]):
        if s == seat:
            continue
        want = unknown_cards_nb(W, s)
        red3_ok = rules.red3_replacement_timing == Red3Timing.FIRST_TURN and \
            seatv[s, SEAT_HAD_TURN] == 0
        for k in range(NKINDS):
            hands[s, k] = seatv[s, SEAT_KNOWN + k]
        got = 0
        i = 0
        while got < want and i < n:
            card = pool[i]
            if card >= 0 and (card != RED3 or red3_ok):
                hands[s, card] += 1
                pool[i] = -1
                got += 1
            i += 1
        if got < want:
            return False
    at = st[ST_STOCK_POS]
    for i in range(n):
        if pool[i] >= 0 and at < st[ST_DECK_N]:
            deck[at] = pool[i]
            at += 1
    if at != st[ST_DECK_N]:
        return False
    shuffle_nb(deck[st[ST_STOCK_POS]:at], at - st[ST_STOCK_POS], key_rng)   # uniform order
    return True


@kernel
def decision_key_nb(rng, st, seat, decision):
    """The key of a searched decision: from the seat's own policy stream (never advanced by
    the search), the turn count and the decision, so the determinizations depend on nothing
    hidden and are the same for any thread count or chunking."""
    return mix64_nb(rng[STREAM_POLICY + seat] ^ mix64_nb(np.uint64(st[ST_TURNS]) * GOLDEN
                                                          + np.uint64(decision + 1)))


@kernel
def determinize_nb(rules, S, W, seat, key, d):
    """Determinization ``d`` of the decision with ``key``: ``W`` becomes a copy of ``S`` with
    the cards hidden from ``seat`` dealt again (:func:`resample_hidden_nb`).  Its scratch rows
    come from ``S``'s ``ws``; returns False if ``W`` is unusable."""
    ws = S.ws
    copy_state_nb(S, W)
    key_rng = ws[R_UNSEEN, AT:AT + 1].view(np.uint64)
    key_rng[0] = playout_seed_nb(key, d, 0)
    return resample_hidden_nb(rules, W, seat, ws[R_POOL], ws[R_UNSEEN], key_rng)


@kernel
def reshuffle_stock_nb(S, W, key, d, r):
    """Playout ``r`` >= 1 of determinization ``d`` (:func:`determinize_nb`, already in ``W``):
    the stock, the deal's future, in another random order; the hands stay as dealt."""
    st = W.st
    key_rng = S.ws[R_UNSEEN, AT:AT + 1].view(np.uint64)
    key_rng[0] = playout_seed_nb(key, d, r)
    shuffle_nb(W.deck[st[ST_STOCK_POS]:st[ST_DECK_N]], st[ST_DECK_N] - st[ST_STOCK_POS], key_rng)


@kernel
def playout_seed_nb(key, d, r):
    """The random state of playout ``r`` of determinization ``d`` of the decision with
    ``key``: playout 0 deals the hidden cards (:func:`determinize_nb`), each later one only
    reorders the stock (:func:`reshuffle_stock_nb`)."""
    seed = mix64_nb(key + np.uint64(d + 1) * GOLDEN)
    return seed if r == 0 else mix64_nb(seed ^ np.uint64(r))


# ---- the policy tables ----------------------------------------------------------------------

@kernel
def has_search_nb(pol, st):
    """Whether any seat plays ``search``."""
    for s in range(st[ST_NSEATS]):
        if pol[s] == POLICY_SEARCH:
            return True
    return False


@kernel
def expert_row_nb(row):
    """Write expert's default parameters (the blueprint) into a parameter row."""
    for i in range(NPARAMS):
        row[i] = EXPERT_DEFAULTS[i] if i < len(EXPERT_DEFAULTS) else 0.0


@kernel
def fill_tables_nb(ws, pol, params, st, every_seat):
    """Fill a policy table and its parameters in the search rows (:func:`tables_nb`): a copy
    of ``pol`` and ``params`` with every search seat (``every_seat``: every seat) playing the
    blueprint."""
    table, values = tables_nb(ws, pol, every_seat)
    for i in range(pol.shape[0]):
        table[i] = pol[i]
    for s in range(MAX_SEATS):
        for i in range(NPARAMS):
            values[s, i] = params[s, i]
        if s < st[ST_NSEATS] and (every_seat or pol[s] == POLICY_SEARCH):
            table[s] = POLICY_EXPERT
            expert_row_nb(values[s])


@one_step
def tables_nb(ws, pol, every_seat):
    """The policy table and parameters filled by :func:`fill_tables_nb`."""
    row = R_RPOL if every_seat else R_POL
    return (ws[row, 0:pol.shape[0]],
            ws[row + 1, 0:MAX_SEATS * NPARAMS].view(np.float64).reshape((MAX_SEATS, NPARAMS)))


# ---- rollouts -------------------------------------------------------------------------------

@level
def play_out_nb(rules, W, buf, seat, table):
    """Play the deal in ``W`` to its end from ``seat``'s turn."""
    play_turns_nb(rules, W, buf, seat, table, np.int64(MAX_TURNS))


@kernel
def margin_nb(rules, W, seat, row):
    """The ended deal in ``W``, scored (R51-R57): the seat's side's deal score less the best
    other side's (cutthroat: the seat's own score less the best other seat's, C13)."""
    score_deal_nb(rules, W, row)
    st = W.st
    if rules.cutthroat == 1:
        mine = row[SIDE_BASE + SIDE_STRIDE * seat + S_SCORE]
        best = -10 ** 9
        for k in range(3):
            if k != seat:
                best = max(best, row[SIDE_BASE + SIDE_STRIDE * k + S_SCORE])
        return mine - best
    side = side_of_nb(st, seat)
    mine = row[SIDE_BASE + SIDE_STRIDE * side + S_SCORE]
    best = -10 ** 9
    for k in range(st[ST_NSIDES]):
        if k != side:
            best = max(best, row[SIDE_BASE + SIDE_STRIDE * k + S_SCORE])
    return mine - best


@kernel
def add_gain_nb(stats, c, gain):
    """Record candidate ``c``'s gain over the blueprint's choice on one determinization
    (common random numbers): its sum and sum of squares."""
    stats[c] += gain
    stats[SQ + c] += gain * gain


@kernel
def worth_playing_nb(stats, c, samples, q):
    """Whether candidate ``c``'s mean gain over the blueprint's choice beats ``threshold``
    points and is ``confidence`` standard errors above zero (paired over the ``samples``
    determinizations)."""
    mean = stats[c] / samples
    if mean <= q[Q_THRESHOLD]:
        return False
    if samples < 2:
        return q[Q_CONFIDENCE] <= 0.0
    var = max(stats[SQ + c] / samples - mean * mean, 0.0) * samples / (samples - 1)
    return mean > q[Q_CONFIDENCE] * np.sqrt(var / samples)


@kernel
def choose_nb(stats, n, samples, q):
    """The candidate to play: the best mean gain over candidate 0 (the blueprint's choice)
    if it is worth playing (:func:`worth_playing_nb`); else 0."""
    best = 0
    for c in range(1, n):
        if best == 0 or stats[c] > stats[best]:
            best = c
    if best > 0 and worth_playing_nb(stats, best, samples, q):
        return best
    return 0


@level
def play_candidate_nb(rules, W, buf, seat, decision, cand, rollouts):
    """Play candidate ``cand`` of a searched ``decision`` in ``W`` and the deal to its end,
    with the rollouts' tables: a discard (DEC_DISCARD: the card), the take or the draw
    (DEC_DRAW: the ``min_pile_take`` that makes expert play it, for the whole turn) or a
    going-out choice (DEC_ASK: ``OUT_*``, from the meld phase)."""
    nxt = (seat + 1) % W.st[ST_NSEATS]
    if decision == DEC_DISCARD:
        if finish_discard_nb(rules, W, buf, seat, cand) != DEAL_OVER:
            play_out_nb(rules, W, buf, nxt, rollouts)
    elif decision == DEC_DRAW:
        rollouts.params[seat, P_MIN_PILE_TAKE] = float(cand)
        after = play_turns_nb(rules, W, buf, seat, rollouts, np.int64(1))
        rollouts.params[seat, P_MIN_PILE_TAKE] = EXPERT_DEFAULTS[P_MIN_PILE_TAKE]
        if after >= 0:
            play_out_nb(rules, W, buf, nxt, rollouts)
    else:
        W.st[ST_TURN_OUT_CHOICE] = cand
        play_turns_nb(rules, W, buf, seat, rollouts, np.int64(FROM_MELD))


@level
def rollout_choice_nb(rules, S, buf, seat, q, decision, cands, nc, rollouts):
    """Roll out the candidates ``cands[:nc]`` of ``seat``'s ``decision`` (the blueprint's
    choice first), each on the same ``determinizations`` deals of the hidden cards and, on
    each, the same ``rollouts`` orders of the stock (common random numbers), and return the
    index of the one to play (:func:`choose_nb`); 0 if a determinization is unusable.  A
    candidate's gain on a determinization is its mean over the playouts, so the confidence
    gate counts determinizations, the independent samples."""
    rng, ws = S.rng, S.ws
    W = scratch_state_nb(ws)
    stats = ws[R_STATS, 0:3 * SQ].view(np.float64)
    stats[:] = 0.0
    dsum = stats[2 * SQ:3 * SQ]                 # this determinization's summed gains
    base = 0
    dets = int(q[Q_DETERMINIZATIONS])
    playouts = max(int(q[Q_ROLLOUTS]), 1)
    key = decision_key_nb(rng, S.st, seat, decision)
    for det in range(dets):
        dsum[:] = 0.0
        for r in range(playouts):
            for c in range(nc):
                if not determinize_nb(rules, S, W, seat, key, det):
                    return 0
                if r > 0:
                    reshuffle_stock_nb(S, W, key, det, r)
                play_candidate_nb(rules, W, buf, seat, decision, cands[c], rollouts)
                value = margin_nb(rules, W, seat, ws[R_ROW, 0:NCOLS])
                if c == 0:
                    base = value
                dsum[c] += value - base
        for c in range(nc):               # one paired sample per determinization
            add_gain_nb(stats, c, dsum[c] / playouts)
    return choose_nb(stats, nc, dets, q)


@level
def search_take_nb(rules, S, buf, seat, q, rollouts):
    """The take-or-draw search (``SEARCH_TAKE``): when the pile can be taken only by
    spending wild cards, the take and the draw are rolled out (``pol_r``, ``params_r``: the
    rollouts' tables).  Returns the ``min_pile_take`` that makes the blueprint play the
    chosen one, or -1 for the blueprint's own choice."""
    hands = S.hands
    melds = S.melds
    pile = S.pile
    st = S.st
    seatv = S.seatv
    sidev = S.sidev
    ws = S.ws
    if not pile_top_takeable_nb(st, hands, melds, pile, seat):
        return -1.0
    begin_turn_nb(st, S.seatv, sidev, melds, seat, 1)             # as draw_phase_nb does (R11)
    if st[ST_STOCK_POS] >= st[ST_DECK_N] and forced_take_due_nb(rules, S, seat):
        return -1.0                                       # R49: the take is forced
    k, d, j = greedy_take_nb(rules, st, seatv, sidev, hands[seat], melds, pile, seat,
                             rollouts.plan, ws)
    if k < 0 or (d + j == 0 and not forms_partnership_nb(rules, st)):
        return -1.0                      # cutthroat: the first take (the lone hand) is searched
    cands = ws[R_STATS, AT:AT + 2]                        # the blueprint's choice first
    need = EXPERT_DEFAULTS[P_MIN_PILE_TAKE]
    if forms_partnership_nb(rules, st):
        need = LONE_PILE_FACTOR * need        # C5: club.take_needs_nb's lone-hand threshold
    takes = st[ST_PILE_N] >= need
    cands[0] = int(TAKE_ALWAYS if takes else TAKE_NEVER)
    cands[1] = int(TAKE_NEVER if takes else TAKE_ALWAYS)
    if rollout_choice_nb(rules, S, buf, seat, q, DEC_DRAW, cands, 2, rollouts) == 1:
        return float(cands[1])
    return -1.0


@kernel
def discard_candidates_nb(rules, S, seat, q, eparams, opts, n, cands):
    """The discards searched, into ``cands`` (the blueprint's choice first); returns how
    many.  ``opts[:n]`` are the discard options (reordered here)."""
    hands = S.hands
    melds = S.melds
    pile = S.pile
    st = S.st
    seatv = S.seatv
    sidev = S.sidev
    ws = S.ws
    mask = int(q[Q_DECISIONS])
    want = min(int(q[Q_CANDIDATES]), MAX_CANDIDATES - 1) if mask & SEARCH_DISCARD else 1
    nc = 0
    m = n
    while nc < want and m >= 1:             # expert's best, then its best of the rest ...
        i = club_discard_nb(rules, hands, melds, pile, st, seatv, sidev, ws[WS_UNSEEN], seat,
                            POLICY_EXPERT, eparams, opts, m)
        cands[nc] = opts[i, 1]
        nc += 1
        for c in range(5):                  # ... with the chosen option moved out of the list
            t = opts[i, c]
            opts[i, c] = opts[m - 1, c]
            opts[m - 1, c] = t
        m -= 1
    if mask & SEARCH_FREEZE and st[ST_FREEZERS] == 0:                     # R32: freeze it
        wild = DEUCE if hands[seat, DEUCE] > 0 else (JOKER if hands[seat, JOKER] > 0 else -1)
        fresh = wild >= 0
        for c in range(nc):
            if cands[c] == wild:
                fresh = False
        if fresh:
            cands[nc] = wild
            nc += 1
    return nc


@level
def search_discard_nb(rules, S, buf, seat, q, eparams, rollouts):
    """The seat's discard (R17): the blueprint's, or a better candidate found by rollouts
    (``SEARCH_DISCARD``, ``SEARCH_FREEZE``).  With the decision log on, the decision is
    logged as the engine logs one."""
    hands = S.hands
    st = S.st
    ws = S.ws
    n = discard_options_nb(hands[seat], rollouts.opts)
    cands = ws[R_STATS, AT:AT + MAX_CANDIDATES]
    nc = discard_candidates_nb(rules, S, seat, q, eparams, rollouts.opts, n, cands)
    chosen = 0
    if nc >= 2:
        chosen = rollout_choice_nb(rules, S, buf, seat, q, DEC_DISCARD, cands, nc, rollouts)
    card = cands[chosen]
    if st[ST_TRACE_ON] == 2:
        n = discard_options_nb(hands[seat], rollouts.opts)
        for i in range(n):
            if rollouts.opts[i, 1] == card:
                log_decision_nb(st, buf, seat, DEC_DISCARD, i, rollouts.opts, n, rollouts.plan)
    return card


# ---- going out or asking --------------------------------------------------------------------

@kernel
def out_open_nb(rules, S, seat, plan):
    """Whether the seat could go out in this turn's meld phase (a going-out plan exists, as
    after a "yes" if it asked, R42): only then is there a going-out choice."""
    hands = S.hands
    melds = S.melds
    st = S.st
    seatv = S.seatv
    ws = S.ws
    if st[ST_TURN_LAST_RED3] == 1 and rules.last_card_red3_may_meld == 0:
        return False                                                   # R47: no meld
    return can_go_out_if_yes_nb(rules, st, seatv, hands[seat], melds, seat, plan, ws)


@kernel
def may_ask_nb(rules, st):
    """Whether the seat may ask its partner this turn (R42): a turn begun with a draw, a
    partner, and asking not ruled out."""
    return st[ST_TURN_TAKE] == 0 and rules.ask_permission != Ask.NEVER and \
        has_partner_nb(st, st[ST_TURN_SEAT])


@kernel
def blueprint_out_nb(rules, S, seat, eparams):
    """The going-out choice (``OUT_*``) that expert's own reasons make this turn
    (club.go_out_wanted_nb, club.asks_partner_nb)."""
    hands = S.hands
    melds = S.melds
    st = S.st
    sidev = S.sidev
    if may_ask_nb(rules, st) and asks_partner_nb(rules, S, seat, POLICY_EXPERT, eparams):
        return OUT_ASK
    wanted = go_out_wanted_nb(rules, hands, st, sidev, melds, seat, POLICY_EXPERT, eparams,
                              side_canastas_nb(st, melds, side_of_nb(st, seat)))
    return OUT_NOW if wanted else OUT_HOLD


@kernel
def out_candidates_nb(rules, S, seat, eparams, cands):
    """The going-out choices searched, into ``cands``: ``OUT_OWN`` (the blueprint) first, then
    every other choice open to the seat (R42: going out without asking is closed when asking
    is required in a draw turn); returns how many."""
    st = S.st
    own = blueprint_out_nb(rules, S, seat, eparams)
    cands[0] = OUT_OWN
    nc = 1
    for choice in range(OUT_NOW, OUT_HOLD + 1):
        if choice == own:
            continue
        if choice == OUT_ASK and not may_ask_nb(rules, st):
            continue
        if choice == OUT_NOW and may_ask_nb(rules, st) and rules.ask_permission == Ask.REQUIRED:
            continue
        cands[nc] = choice
        nc += 1
    return nc


@level
def search_out_nb(rules, S, buf, seat, q, eparams, rollouts):
    """The going-out search (``SEARCH_OUT``), after the draw: when the seat could go out,
    going out now, asking the partner (R42) and holding on are rolled out from the meld
    phase on (``pol_r``, ``params_r``: the rollouts' tables).  Returns the ``OUT_*`` choice
    for the turn: ``OUT_OWN`` for the blueprint's own."""
    ws = S.ws
    if not out_open_nb(rules, S, seat, rollouts.plan):
        return OUT_OWN
    cands = ws[R_STATS, AT:AT + MAX_CANDIDATES]
    nc = out_candidates_nb(rules, S, seat, eparams, cands)
    return cands[rollout_choice_nb(rules, S, buf, seat, q, DEC_ASK, cands, nc, rollouts)]


# ---- the search seat's turn -----------------------------------------------------------------

@level
def search_turn_nb(rules, S, buf, seat, q, blueprint, rollouts):
    """A search seat's turn (R11): as ``turn.play_turn_nb``, with the blueprint's table
    ``blueprint`` and the searched decisions -- the take before the draw, the going-out
    choice after it, the discard (``q``: the seat's search parameters; ``rollouts``: the
    rollouts' table)."""
    first_turn_nb(rules, S, buf, seat)
    if int(q[Q_DECISIONS]) & SEARCH_TAKE:
        take = search_take_nb(rules, S, buf, seat, q, rollouts)
        if take >= 0.0:
            blueprint.params[seat, P_MIN_PILE_TAKE] = take
    over = play_turns_nb(rules, S, buf, seat, blueprint, np.int64(DRAW_ONLY)) < 0
    blueprint.params[seat, P_MIN_PILE_TAKE] = EXPERT_DEFAULTS[P_MIN_PILE_TAKE]
    if over:
        return DEAL_OVER
    if int(q[Q_DECISIONS]) & SEARCH_OUT:
        S.st[ST_TURN_OUT_CHOICE] = search_out_nb(rules, S, buf, seat, q,
                                                 blueprint.params[seat], rollouts)
    if play_turns_nb(rules, S, buf, seat, blueprint, np.int64(MELD_ONLY)) < 0:
        return DEAL_OVER
    card = search_discard_nb(rules, S, buf, seat, q, blueprint.params[seat], rollouts)
    return finish_discard_nb(rules, S, buf, seat, card)


@level
def search_table_turn_nb(rules, S, buf, seat, table):
    """A turn of a deal with a search seat: every search seat plays the blueprint but at its
    own searched decisions; a user policy's error record is kept in ``table.pol``.  Returns
    DEAL_OVER or CONTINUE."""
    ws = S.ws
    st = S.st
    fill_tables_nb(ws, table.pol, table.params, st, False)
    fill_tables_nb(ws, table.pol, table.params, st, True)
    pol_b, params_b = tables_nb(ws, table.pol, False)
    pol_r, params_r = tables_nb(ws, table.pol, True)
    blueprint = Table(pol_b, params_b, table.opts, table.plan)
    rollouts = Table(pol_r, params_r, table.opts, table.plan)
    if table.pol[seat] == POLICY_SEARCH:
        result = search_turn_nb(rules, S, buf, seat, table.params[seat], blueprint, rollouts)
        if st[ST_CHECK_ON] == 1 and not cards_conserved_nb(rules, S):
            st[ST_CHECK_FAILS] += 1                                       # R2, as engine
    else:
        after = play_turns_nb(rules, S, buf, seat, blueprint, np.int64(1))
        result = DEAL_OVER if after < 0 else CONTINUE
    for i in range(MAX_SEATS, table.pol.shape[0]):
        table.pol[i] = pol_b[i]
    return result


@kernel
def play_table_turns_nb(rules, S, buf, seat, table, turns):
    """``turn.play_turns_nb`` for the deal loops: up to ``turns`` turns from ``seat``;
    returns the seat whose turn comes next, or -1 once the deal is over.  With a search seat
    at the table the turns go one by one through :func:`search_table_turn_nb`."""
    if not has_search_nb(table.pol, S.st):
        return play_turns_nb(rules, S, buf, seat, table, turns)
    n = S.st[ST_NSEATS]
    for _ in range(turns):
        if search_table_turn_nb(rules, S, buf, seat, table) == DEAL_OVER:
            return -1
        seat = (seat + 1) % n
    return seat


@entry
def determinize_entry_nb(rules, S, W, seat, decision, d, r):
    """For tests: ``W`` (a state from ``state.new_state``) becomes determinization ``d`` of
    ``seat``'s decision ``decision`` in ``S``, with the stock of playout ``r``; returns
    whether it is usable."""
    record = rules_record_nb(rules)
    key = decision_key_nb(S.rng, S.st, seat, decision)
    ok = determinize_nb(record[0], S, W, seat, key, d)
    if ok and r > 0:
        reshuffle_stock_nb(S, W, key, d, r)
    keep_alive_nb(record)
    return ok
