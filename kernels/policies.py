"""Scripted policies: a closed registry switched on an integer id (STYLE.md 4).

A policy is asked one decision at a time and answers with the index of one of
the legal options the engine listed (``actions.OPT_*`` rows).  It sees only its
own hand row and public information: the melds, the pile, the hand sizes and the
size of the stock (RULES.md 0.1); it is never passed another hand or the stock.

``random``
    Uniform over the listed options at every decision, from the deal's policy
    stream.  Meld choices are atomic steps, so ``random`` melds often in small
    pieces; it answers a partner's question yes or no with equal chance.

``greedy``
    A sensible baseline.  It takes the pile whenever it legally can (with the
    most natural cards from the hand, the fewest wild cards); lays new melds and
    adds natural cards as soon as the rules allow (the initial minimum included);
    spends a wild card only to complete a canasta or when a started initial meld
    still needs it; goes out as soon as it can (asking its partner only when
    ``ask_permission=required``) and always answers yes; discards the card least
    useful to itself: a black three first, then a single card of a rank its side
    has not melded (highest value first), keeping pairs and wild cards to last.
"""
from numba import njit

from .actions import (DEC_ANSWER, DEC_ASK, DEC_DISCARD, DEC_DRAW, OPT_ADD, OPT_ASK, OPT_DISCARD,
                      OPT_GO_OUT, OPT_NEW, OPT_NO_ASK, OPT_STOP, OPT_TAKE, OPT_YES, NEW_3N,
                      NEW_2N_DEUCE)
from .cards import BLACK3, DEUCE, FIRST_NATURAL, JOKER
from .layout import POLICY_GREEDY, POLICY_RANDOM
from .rng import STREAM_POLICY, rand_below_nb
from .rules_nb import Ask
from .state import card_value_nb, meld_size_nb


@njit(cache=True)
def decide_nb(rules, policy, params, decision, opts, n, hand_row, melds, side, rng, scores):
    """Index of the option ``policy`` picks among ``opts[:n]`` (n >= 1); ``scores`` is
    scratch space of at least n ints."""
    if n == 1:
        return 0
    if policy == POLICY_RANDOM:
        return rand_below_nb(rng, STREAM_POLICY, n)
    if policy == POLICY_GREEDY:
        return greedy_nb(rules, params, decision, opts, n, hand_row, melds, side, scores)
    return 0


@njit(cache=True)
def best_index_nb(scores, n):
    """Index of the first highest score."""
    best = 0
    for i in range(1, n):
        if scores[i] > scores[best]:
            best = i
    return best


@njit(cache=True)
def greedy_nb(rules, params, decision, opts, n, hand_row, melds, side, scores):
    """The ``greedy`` baseline (module docstring): score every option, take the best."""
    for i in range(n):
        if decision == DEC_DISCARD:
            scores[i] = -greedy_usefulness_nb(rules, opts[i, 1], hand_row, melds, side)
        else:
            scores[i] = greedy_option_score_nb(rules, decision, opts[i], melds, side)
    return best_index_nb(scores, n)


@njit(cache=True)
def greedy_option_score_nb(rules, decision, opt, melds, side):
    """How much ``greedy`` likes one draw, meld, ask or answer option."""
    kind = opt[0]
    if kind == OPT_TAKE:
        return 1000 + 10 * opt[1] - 3 * (opt[2] + opt[3])
    if kind == OPT_GO_OUT:
        return 10000
    if kind == OPT_NEW:
        if opt[2] == NEW_3N:
            return 600 + card_value_nb(rules, opt[1])
        if opt[2] == NEW_2N_DEUCE:
            return 400 + card_value_nb(rules, opt[1])
        return 350 + card_value_nb(rules, opt[1])
    if kind == OPT_ADD:
        if opt[2] >= FIRST_NATURAL:
            return 500
        if meld_size_nb(melds, side, opt[1]) == 6:
            return 450 if opt[2] == DEUCE else 440          # completes a canasta
        return 10 if opt[2] == DEUCE else 5                   # only when stopping is illegal
    if kind == OPT_STOP:
        return 100
    if kind == OPT_ASK:
        return 1 if rules.ask_permission == Ask.REQUIRED else 0
    if kind == OPT_NO_ASK:
        return 0 if rules.ask_permission == Ask.REQUIRED else 1
    if kind == OPT_YES:
        return 1
    return 0                                                   # draw, decline, no


@njit(cache=True)
def greedy_usefulness_nb(rules, kind, hand_row, melds, side):
    """How useful one card of ``kind`` is to keep (lower = discard first)."""
    if kind == BLACK3:
        return -1000
    if kind == JOKER or kind == DEUCE:
        return 1000 + card_value_nb(rules, kind)
    use = 100 * (hand_row[kind] - 1) - card_value_nb(rules, kind)
    if meld_size_nb(melds, side, kind) > 0:
        use += 300
    return use
