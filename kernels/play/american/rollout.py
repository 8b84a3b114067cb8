"""Rollouts of one decision of a Modern American seat: the reusable pieces of the family's
``search`` player (kernels/play/american/search.py) and of the analysis that values a seat's
choices (docs/search.md, "Modern American").

**The decision points and their candidates.**  A decision is one of the seat's own turn,
at the point where the turn reaches it; a candidate is one int:

* ``DEC_TAKE`` (0): after the seat's threes (``turn.open_turn_nb``), before the take or the
  draw.  Candidates: ``TAKE_DRAW`` (0) draw from the stock, ``TAKE_PILE`` (1) take the pile
  (A29-A31; where the take is not open, or a side that has not melded cannot open with it,
  A26, the seat draws).  Only when ``turn.take_open_nb`` holds is there a choice.
* ``DEC_OUT`` (1): after the draw and a special hand (``turn.draw_part_nb``), before the meld
  steps.  Candidates: ``OUT_OWN`` (0) the rest of the turn as the rollout policy plays it
  (it goes out, without asking), ``OUT_HOLD`` (1) the seat may not go out this turn (no step
  that goes out is listed, as after a partner's "no", A41), ``OUT_ASK`` (2) the seat asks
  its partner at its first chance in this meld phase (A41: ten cards or fewer and a step
  that goes out listed; ``turn.ASK_CHOSEN``), its partner answers as its player would and
  the answer binds, and ``OUT_OWN_ASKS`` (3) the policy's own play where that play asks
  (played as ``OUT_OWN``).  :func:`out_options_nb` lists them, the policy's own first.
* ``DEC_ANSWER`` (3): the partner's answer to a question (A41), decided by the partner:
  ``ANSWER_NO`` (0), ``ANSWER_YES`` (1).  The state is the asker's turn right before its
  question (its meld steps so far laid); the rollout determinizes from the partner's view
  (``seat`` is the partner), then the asker asks at its first chance with the candidate as
  the answer (``turn.ASK_CHOSEN_NO``, ``ASK_CHOSEN_YES``) and plays on.  The asker's hand
  is dealt again like any hidden hand, so a determinized asker that cannot go out never asks
  and both answers play alike there.
* ``DEC_MELD`` (4): before a meld step of the seat's meld phase, or at its end (after the
  draw and any steps laid, a tentative opening still open).  Candidates: a meld step's code
  (kernels/play/analysis.py ``meld_code_nb``: row, naturals, deuces, jokers) among the legal
  steps that do not go out (going out is ``DEC_OUT``'s), or ``MELD_STOP`` (on to the
  discard; a tentative opening that does not stand is put back, as the turn puts it back)
  unless a partner's yes binds the seat (A41): :func:`meld_options_nb`.  The step is laid,
  the policy plays the rest of the meld steps, the opening is settled (A25-A28).
* ``DEC_DISCARD`` (2): after the meld steps (``turn.melds_part_nb`` returned ``GOES_ON``),
  before the discard.  Candidates: a card kind (``cards.py``: 0..NKINDS-1) among the legal
  discards (``turn.legal_discards_nb``); after it, the talon if the turn earned one (A33).

**A rollout** of candidate ``c`` on determinization ``d``: the deal ``S`` with its family
state ``A`` is copied into the scratch state (:func:`copy_deal_nb`), the cards hidden from the
seat are dealt again (:func:`determinize_nb`), ``c`` is played, then the rest of the seat's
turn and the deal with the rollout policy table ``pol``, ``params`` (:func:`play_candidate_nb`;
the search player's is ``expert`` with its default parameters at every seat,
:func:`expert_tables_nb`; the analysis passes any club player with its parameters): to the
deal's end, or ``turns`` turns after the decision's turn, where the deal is scored as it
stands, as if the stock had run out (A44: no going-out bonus, A42; the threes, the penalties
and the canasta-count rule as at any end, A46-A49); every side's deal score (A45-A53) goes to
``values[d, c, side]``.  The club players are deterministic in this family (their choices
are scores; only ``random`` draws from a stream), so a rollout depends only on the
determinization and the candidate: every candidate is played on the same determinizations
(common random numbers), and identical candidates get identical values.  Determinization
``d`` of a decision is drawn from ``key`` and ``d`` and what the seat sees alone
(``search.playout_seed_nb``; the hidden cards are listed by kind, not by where they lie), so
any split of the ``d`` over threads or calls (``d0``) gives the same values.

**What the seat may know** (docs/american.md, "What each seat may know"): its own hand, every
meld, the threes laid, the whole pile (face up, A0.1), the sizes of the hands and the stock,
which talons were taken.  Hidden: the other hands, the stock and the set-aside talons not yet
taken (``mac_talon_source=set_aside``, face down, A5).  Those cards -- the deck (A2) less what
the seat sees -- are shuffled and dealt back into the same places: each other hand keeps its
size, the talons and the stock keep theirs, in a uniform order.  A three goes only to a hand
that may hold one: before its first turn under ``mac_threes_timing=first_turn`` (A9), or one
three kept for the Straight while its side has not melded (A10); the others go to the stock
and talons.  The family's engine keeps no record of which cards of another hand are public
(a taken pile's cards, A31), so the re-deal treats the whole of each other hand as hidden:
it uses less than the seat may know, never more.

**Scratch space.**  Nothing is allocated per call: the scratch deal state is classic
search's (``search.scratch_state_nb``, rows ``WS_SEARCH`` onwards of ``S.ws``); the scratch
family state keeps its small arrays in row ``R_POOL`` of ``S.ws`` from column ``MAC_AT`` and
shares ``A``'s pure scratch arrays (``steps``, ``scores``, ``sizes``), which the turn fills
afresh before each use.  So a caller must not keep anything in ``S.ws`` rows ``WS_SEARCH``
and above, nor in ``A.steps`` across a call.
"""
import numpy as np

from ...game.american.pile import TALON_FIRST, TALON_SECOND, set_aside_start_nb, talon_size_nb
from ...game.american.rules_nb import TalonSource, ThreesTiming
from ...game.american.state import (
    MAX_LOG,
    NX,
    X_ASKED,
    X_KEPT,
    X_TALONS_TAKEN,
    X_TENTATIVE,
    X_TURN_ANSWER,
    MacState,
)
from ...game.american.scoring import N_ITEMS
from ...game.american.moves import apply_step_nb
from ...game.american.steps import GOES_ON, GOES_OUT, legal_steps_nb, may_ask_nb, step_kind_nb
from ...game.american.threes import may_keep_three_nb, threes_in_nb
from ...game.cards import BLACK3, MELD_KINDS, NKINDS, RED3
from ...game.deal import shuffle_nb
from ...game.layout import END_STOCK, MAX_SEATS, NPARAMS
from ...game.slots import (
    M_COLS,
    SEAT_HAD_TURN,
    SIDE_MELDED,
    ST_DECK_N,
    ST_END_REASON,
    ST_NSEATS,
    ST_STOCK_POS,
)
from ...game.state import row_total_nb
from ...jit import kernel, level
from ...players.american_user import pick_step_nb
from ...players.ids import POLICY_EXPERT
from ..analysis import CODE_BASE, MELD_STOP, meld_code_nb
from ..search import (
    AT,
    R_POOL,
    R_RPARAMS,
    R_RPOL,
    R_UNSEEN,
    copy_state_nb,
    expert_row_nb,
    playout_seed_nb,
    pool_from_counts_nb,
    scratch_state_nb,
)
from .turn import (
    ASK_CHOSEN,
    ASK_CHOSEN_NO,
    ASK_CHOSEN_YES,
    DEAL_OVER,
    begin_opening_nb,
    close_melds_nb,
    discard_phase_nb,
    draw_part_nb,
    melds_part_nb,
    opening_stands_nb,
    play_to_end_nb,
    side_total_nb,
    step_loop_nb,
)

DEC_TAKE = 0
DEC_OUT = 1
DEC_DISCARD = 2
DEC_ANSWER = 3
DEC_MELD = 4
TAKE_DRAW = 0
TAKE_PILE = 1
OUT_OWN = 0
OUT_HOLD = 1
OUT_ASK = 2
OUT_OWN_ASKS = 3
ANSWER_NO = 0
ANSWER_YES = 1
SIDES = 2

# the scratch family state's small arrays, in row R_POOL of ws from column MAC_AT (the pool of
# hidden cards uses the columns below)
MAC_AT = 256
_X = MAC_AT
_THREES = _X + NX
_LAID = _THREES + 4
_LOG = _LAID + M_COLS * MELD_KINDS
_SAVE_MELDS = _LOG + MAX_LOG * 4
_SAVE_HAND = _SAVE_MELDS + M_COLS * MELD_KINDS
_PRE = _SAVE_HAND + NKINDS
_ITEMS = _PRE + NKINDS
MAC_END = _ITEMS + SIDES * N_ITEMS
assert MAC_END <= 1280


# ---- the scratch state --------------------------------------------------------------------

@kernel
def scratch_mac_nb(ws, A):
    """The scratch family state: its own small arrays in row ``R_POOL`` of ``ws``, ``A``'s
    pure scratch arrays (``steps``, ``scores``, ``sizes``) and table (``chances``) shared."""
    row = ws[R_POOL]
    return MacState(row[_X:_THREES],
                    row[_THREES:_LAID].reshape((SIDES, 2)),
                    row[_LAID:_LOG].reshape((M_COLS, MELD_KINDS)),
                    A.steps,
                    row[_LOG:_SAVE_MELDS].reshape((MAX_LOG, 4)),
                    row[_SAVE_MELDS:_SAVE_HAND].reshape((M_COLS, MELD_KINDS)),
                    row[_SAVE_HAND:_PRE],
                    row[_PRE:_ITEMS],
                    row[_ITEMS:MAC_END].reshape((SIDES, N_ITEMS)),
                    A.sizes,
                    A.scores,
                    A.chances)


@kernel
def copy_flat_nb(src, dst):
    """Copy the array ``src`` into ``dst`` of the same shape, element by element."""
    a = src.reshape(src.size)
    b = dst.reshape(dst.size)
    for i in range(a.size):
        b[i] = a[i]


@kernel
def copy_mac_nb(A, A2):
    """Copy the family state ``A`` into ``A2`` (all but the shared scratch arrays)."""
    copy_flat_nb(A.x, A2.x)
    copy_flat_nb(A.threes, A2.threes)
    copy_flat_nb(A.laid, A2.laid)
    copy_flat_nb(A.log, A2.log)
    copy_flat_nb(A.save_melds, A2.save_melds)
    copy_flat_nb(A.save_hand, A2.save_hand)
    copy_flat_nb(A.pre, A2.pre)
    copy_flat_nb(A.items, A2.items)


@kernel
def copy_deal_nb(S, A, W, A2):
    """Copy the deal ``S`` and its family state ``A`` into the scratch ``W``, ``A2`` (the
    trace and the card check off in ``W``)."""
    copy_state_nb(S, W)
    copy_mac_nb(A, A2)


# ---- determinizing ------------------------------------------------------------------------

@kernel
def talon_hidden_nb(mac, A, which):
    """Whether set-aside talon ``which`` still lies face down (A5, A33)."""
    return mac.mac_talon_source == TalonSource.SET_ASIDE and \
        not A.x[X_TALONS_TAKEN] & (1 << which)


@kernel
def hidden_cards_nb(mac, S, A, seat, counts, pool):
    """Write into ``pool``, in order of kind, the cards hidden from ``seat``: the other hands,
    the set-aside talons not yet taken and the stock (the deck less what the seat sees,
    module docstring), counted by kind in ``counts``; returns how many.  In order of kind, so
    that a determinization depends on nothing hidden, not even where the hidden cards lie."""
    st = S.st
    counts[:] = 0
    for s in range(st[ST_NSEATS]):
        if s != seat:
            for k in range(NKINDS):
                counts[k] += S.hands[s, k]
    for which in (TALON_FIRST, TALON_SECOND):
        if talon_hidden_nb(mac, A, which):
            start = set_aside_start_nb(mac, which)
            for i in range(start, start + talon_size_nb(mac, which)):
                counts[S.deck[i]] += 1
    for i in range(st[ST_STOCK_POS], st[ST_DECK_N]):
        counts[S.deck[i]] += 1
    return pool_from_counts_nb(counts, pool)


@kernel
def threes_allowed_nb(mac, S, s):
    """How many threes seat ``s`` may hold as far as the others can tell: any before its
    first turn under ``first_turn`` (A9), one kept for the Straight while its side has not
    melded (A10), else none."""
    if mac.mac_threes_timing == ThreesTiming.FIRST_TURN and S.seatv[s, SEAT_HAD_TURN] == 0:
        return NKINDS * 8
    if may_keep_three_nb(mac, S.sidev[s % 2, SIDE_MELDED] == 1):
        return 1
    return 0


@kernel
def fill_hand_nb(hand, want, cap, pool, n):
    """Give ``hand`` ``want`` cards from ``pool[:n]`` in order, at most ``cap`` threes, marking
    the cards taken -1; if the pool runs short of other cards, threes fill the rest."""
    got = 0
    threes = 0
    for i in range(n):
        if got == want:
            break
        card = pool[i]
        if card < 0 or ((card == RED3 or card == BLACK3) and threes >= cap):
            continue
        hand[card] += 1
        threes += 1 if card == RED3 or card == BLACK3 else 0
        pool[i] = -1
        got += 1
    for i in range(n):
        if got == want:
            break
        if pool[i] >= 0:
            hand[pool[i]] += 1
            pool[i] = -1
            got += 1


@kernel
def compact_nb(pool, n):
    """Move the cards of ``pool[:n]`` not marked -1 to its front, in order; returns how many."""
    m = 0
    for i in range(n):
        if pool[i] >= 0:
            pool[m] = pool[i]
            m += 1
    return m


@kernel
def redeal_hidden_nb(mac, W, A2, seat, counts, pool, key_rng):
    """Deal the cards hidden from ``seat`` in ``W`` again (module docstring), at random from
    stream 0 of ``key_rng``: the other hands, then the face-down talons and the stock."""
    st = W.st
    n = hidden_cards_nb(mac, W, A2, seat, counts, pool)
    shuffle_nb(pool, n, key_rng)
    for s in range(st[ST_NSEATS]):
        if s == seat:
            continue
        hand = W.hands[s]
        want = row_total_nb(hand)
        hand[:] = 0
        fill_hand_nb(hand, want, threes_allowed_nb(mac, W, s), pool, n)
        A2.x[X_KEPT + s] = threes_in_nb(hand) if W.seatv[s, SEAT_HAD_TURN] == 1 else 0
    n = compact_nb(pool, n)
    shuffle_nb(pool, n, key_rng)                  # the threes skipped above: uniform again
    i = 0
    for which in (TALON_FIRST, TALON_SECOND):
        if talon_hidden_nb(mac, A2, which):
            start = set_aside_start_nb(mac, which)
            for j in range(start, start + talon_size_nb(mac, which)):
                W.deck[j] = pool[i]
                i += 1
    for j in range(st[ST_STOCK_POS], st[ST_DECK_N]):
        W.deck[j] = pool[i]
        i += 1


@kernel
def determinize_nb(mac, S, A, W, A2, seat, key, d):
    """Determinization ``d`` of the decision with ``key``: ``W``, ``A2`` become a copy of
    ``S``, ``A`` with the cards hidden from ``seat`` dealt again (:func:`redeal_hidden_nb`),
    from a random state that depends on ``key`` and ``d`` only."""
    ws = S.ws
    copy_deal_nb(S, A, W, A2)
    key_rng = ws[R_UNSEEN, AT:AT + 1].view(np.uint64)
    key_rng[0] = playout_seed_nb(key, d, 0)
    redeal_hidden_nb(mac, W, A2, seat, ws[R_UNSEEN, 0:NKINDS], ws[R_POOL, 0:MAC_AT], key_rng)


# ---- rollouts -----------------------------------------------------------------------------

@kernel
def expert_tables_nb(ws):
    """The search player's rollout policy table and parameters, in the search rows of ``ws``:
    ``expert`` with its default parameters at every seat."""
    pol = ws[R_RPOL, 0:MAX_SEATS]
    params = ws[R_RPARAMS, 0:MAX_SEATS * NPARAMS].view(np.float64).reshape((MAX_SEATS, NPARAMS))
    for s in range(MAX_SEATS):
        pol[s] = POLICY_EXPERT
        expert_row_nb(params[s])
    return pol, params


@kernel
def chosen_answer_nb(decision, cand):
    """What a ``DEC_OUT`` or ``DEC_ANSWER`` candidate sets the turn's ``X_TURN_ANSWER`` to
    before the meld steps (``turn.ASK_CHOSEN*``), or -1: the player's own (hold aside)."""
    if decision == DEC_OUT and cand == OUT_ASK:
        return ASK_CHOSEN
    if decision == DEC_ANSWER:
        return ASK_CHOSEN_YES if cand == ANSWER_YES else ASK_CHOSEN_NO
    return -1


@level
def melds_by_choice_nb(mac, W, A2, buf, pol, params, seat, decision, cand):
    """The meld steps of ``seat``'s turn (``turn.melds_part_nb``) with candidate ``cand`` of
    ``decision`` (``DEC_OUT``, ``DEC_ANSWER``; any other plays the policy's own): a hold, a
    question asked at the first chance, a given answer.  Returns GOES_OUT or GOES_ON."""
    chosen = chosen_answer_nb(decision, cand)
    if chosen != -1:
        A2.x[X_TURN_ANSWER] = chosen
    return melds_part_nb(mac, W, A2, buf, pol, params, seat,
                         decision == DEC_OUT and cand == OUT_HOLD)


@kernel
def step_of_code_nb(code):
    """(row, naturals, deuces, jokers) of a meld step's code (``analysis.meld_code_nb``)."""
    return (code % CODE_BASE, code // CODE_BASE % CODE_BASE,
            code // (CODE_BASE * CODE_BASE) % CODE_BASE,
            code // (CODE_BASE * CODE_BASE * CODE_BASE))


@level
def meld_candidate_nb(mac, W, A2, buf, pol, params, seat, code):
    """Play meld candidate ``code`` (``DEC_MELD``): lay the step, then the rest of the meld
    steps by ``pol``, or stop; then settle a tentative opening.  Returns GOES_ON or
    GOES_OUT."""
    kind = GOES_ON
    if code != MELD_STOP:
        opening_point_nb(mac, W, A2, seat)
        row, nat, deuces, jokers = step_of_code_nb(code)
        kind = step_kind_nb(mac, W, A2, seat, row, nat, deuces, jokers, True)
        apply_step_nb(W, A2, buf, seat, row, nat, deuces, jokers)            # A15
        if kind == GOES_ON:
            kind = step_loop_nb(mac, W, A2, buf, pol, params, seat)
    return close_melds_nb(mac, W, A2, buf, seat, kind)


@kernel
def opening_point_nb(mac, W, A2, seat):
    """Before the first meld step of a side that has not melded: its tentative opening
    begins (``turn.begin_opening_nb``, A25)."""
    if W.sidev[seat % 2, SIDE_MELDED] == 0 and A2.x[X_TENTATIVE] == 0:
        begin_opening_nb(mac, W, A2, seat)


@level
def meld_options_nb(mac, S, A, pol, params, seat, cands):
    """The candidates of the seat's ``DEC_MELD`` point, into ``cands``: the codes of the legal
    steps that do not go out (``steps.legal_steps_nb``; a side that has not melded lists
    them as its tentative opening's, on a copy), then ``MELD_STOP`` unless a yes binds
    (A41).  Returns their number and the choice among them of the rollout policy ``pol``."""
    ws = S.ws
    W = scratch_state_nb(ws)
    A2 = scratch_mac_nb(ws, A)
    copy_deal_nb(S, A, W, A2)
    opening_point_nb(mac, W, A2, seat)
    n = legal_steps_nb(mac, W, A2, seat, False)
    steps = A2.steps
    for i in range(n):
        cands[i] = meld_code_nb(steps[i, 0], steps[i, 1], steps[i, 2], steps[i, 3])
    bound = A2.x[X_TURN_ANSWER] == 1
    pending = A2.x[X_TENTATIVE] == 1 and not opening_stands_nb(mac, W, A2, seat)
    i = pick_step_nb(pol, params, mac, W, A2, seat, n, pending or bound)
    own = MELD_STOP if i < 0 else cands[i]
    if bound:
        return n, own
    cands[n] = MELD_STOP
    return n + 1, own


@level
def finish_turn_nb(mac, W, A2, buf, pol, params, seat, decision, cand):
    """Play candidate ``cand`` of ``decision`` (module docstring) in ``W`` and the rest of the
    seat's turn by ``pol``; returns CONTINUE or DEAL_OVER."""
    kind = GOES_ON
    if decision == DEC_TAKE:
        if draw_part_nb(mac, W, A2, buf, pol, params, seat, cand) == DEAL_OVER:
            return DEAL_OVER
    if decision == DEC_MELD:
        kind = meld_candidate_nb(mac, W, A2, buf, pol, params, seat, cand)
    elif decision != DEC_DISCARD:
        kind = melds_by_choice_nb(mac, W, A2, buf, pol, params, seat, decision, cand)
    card = cand if decision == DEC_DISCARD else -1
    return discard_phase_nb(mac, W, A2, buf, pol, params, seat, kind, card)


@level
def play_candidate_nb(mac, W, A2, buf, pol, params, seat, decision, cand, turns):
    """Play candidate ``cand`` and the deal in ``W`` with ``pol``: to its end, or ``turns``
    turns after the decision's turn (MAX_TURNS: to its end).  Returns whether it ended."""
    if finish_turn_nb(mac, W, A2, buf, pol, params, seat, decision, cand) == DEAL_OVER:
        return True
    return play_to_end_nb(mac, W, A2, buf, pol, params, (seat + 1) % mac.num_players, turns)


@kernel
def deal_scores_nb(mac, W, A2, ended, out):
    """Score the deal in ``W`` (A45-A53): every side's total into ``out``.  A deal cut off
    (not ``ended``) is scored as if the stock had run out (A44): nobody went out (A42)."""
    if not ended:
        W.st[ST_END_REASON] = END_STOCK                               # truncated: A44
    for side in range(SIDES):
        out[side] = side_total_nb(mac, W, A2, side)


@kernel
def player_of_nb(seat, decision):
    """The seat whose turn plays ``seat``'s ``decision``: the asker for a partner's answer
    (A41), else the seat itself."""
    return (seat + 2) % 4 if decision == DEC_ANSWER else seat


@level
def rollouts_nb(mac, S, A, buf, pol, params, seat, decision, cands, nc, key, d0, values,
                turns):
    """Value the candidates ``cands[:nc]`` of ``seat``'s ``decision`` in the deal ``S``, ``A``
    (stopped at that decision): for each ``i`` < ``values.shape[0]`` and candidate ``c``, play
    ``c`` on determinization ``d0 + i`` of ``key`` (from ``seat``'s view) and the deal with
    ``pol`` at every seat, to its end or ``turns`` turns after the decision's turn, and write
    every side's deal score into ``values[i, c, side]`` (int64).  ``S`` and ``A`` are left as
    they were (but ``A``'s scratch arrays, module docstring)."""
    ws = S.ws
    W = scratch_state_nb(ws)
    A2 = scratch_mac_nb(ws, A)
    player = player_of_nb(seat, decision)
    for i in range(values.shape[0]):
        for c in range(nc):
            determinize_nb(mac, S, A, W, A2, seat, key, d0 + i)
            ended = play_candidate_nb(mac, W, A2, buf, pol, params, player, decision,
                                      cands[c], turns)
            deal_scores_nb(mac, W, A2, ended, values[i, c])


@level
def own_meld_play_nb(mac, S, A, buf, pol, params, seat, cand):
    """The seat's meld steps from its ``DEC_OUT`` point with candidate ``cand``, played by the
    rollout policy ``pol`` on a plain copy (its own turn does not depend on the hidden cards;
    its partner's answer, a club player's, neither): (whether it goes out, whether it asks)."""
    ws = S.ws
    W = scratch_state_nb(ws)
    A2 = scratch_mac_nb(ws, A)
    copy_deal_nb(S, A, W, A2)
    kind = melds_by_choice_nb(mac, W, A2, buf, pol, params, seat, DEC_OUT, cand)
    return kind == GOES_OUT, A2.x[X_ASKED + seat] > A.x[X_ASKED + seat]


@level
def out_options_nb(mac, S, A, buf, pol, params, seat, cands):
    """The candidates of the seat's ``DEC_OUT`` point, into ``cands``, the own play of the
    rollout policy ``pol`` first: ``OUT_OWN`` (it goes out without asking) or ``OUT_OWN_ASKS``
    (it asks, A41) or ``OUT_HOLD`` (it does not go out); then ``OUT_HOLD`` if it goes out,
    and ``OUT_ASK`` if it does not ask and a question asked at the first chance would be
    (A41: asking allowed, not yet spent).  Returns their number, or 0 when there is no choice."""
    out, asks = own_meld_play_nb(mac, S, A, buf, pol, params, seat, OUT_OWN)
    n = 1
    if asks:
        cands[0] = OUT_OWN_ASKS
    elif out:
        cands[0] = OUT_OWN
    else:
        cands[0] = OUT_HOLD
    if out:
        cands[n] = OUT_HOLD
        n += 1
    if not asks and may_ask_nb(mac, A, seat) and \
            own_meld_play_nb(mac, S, A, buf, pol, params, seat, OUT_ASK)[1]:
        cands[n] = OUT_ASK
        n += 1
    return n if n > 1 else 0
