"""An example of your own policy: take the pile whenever you may, meld naturals, keep
wild cards for canastas, go out with the best-scoring plan, and throw the card the next
player is least likely to want.

    canasta-sim check-policy examples/pile_hungry.py:pile_hungry
    canasta-sim strength --policies 'examples/pile_hungry.py:pile_hungry,greedy' --games 400
"""
from numba import njit

from canasta_sim import policy_api as api


@api.policy(params={"wild_penalty": 30.0})
@njit
def pile_hungry(decision, opts, n, view, params, rules, rand):
    """Score every legal option and return the index of the best one."""
    side = api.my_side(view)
    best, best_score = 0, -1e18
    for i in range(n):
        kind = opts[i, 0]
        score = 0.0
        if kind == api.OPT_TAKE:                  # bigger piles, fewer wild cards spent
            score = 1000.0 + api.pile_size(view) - params[0] * (opts[i, 2] + opts[i, 3])
        elif kind == api.OPT_GO_OUT:              # the plan that scores most
            score = 2000.0 + opts[i, 4]
        elif kind == api.OPT_NEW:                 # new melds: naturals first
            score = 500.0 - params[0] * (opts[i, 3] + opts[i, 4])
        elif kind == api.OPT_ADD:                 # a wild card only to finish a canasta
            wild = opts[i, 2] == api.DEUCE or opts[i, 2] == api.JOKER
            near = api.meld_size(view, side, opts[i, 1]) == 6
            score = 400.0 if not wild else (450.0 if near else -1.0)
        elif kind == api.OPT_STOP:
            score = 0.0
        elif kind == api.OPT_DISCARD:             # a card the opponents have not melded,
            card = opts[i, 1]                     # unlikely to pair up in the next hand
            score = -100.0 * api.hand_count(view, card) - api.unseen_count(view, card)
            if card == api.DEUCE or card == api.JOKER:
                score -= 1000.0
            if card == api.BLACK3:
                score += 500.0
        elif kind == api.OPT_YES or kind == api.OPT_ASK:
            score = 1.0
        score += 0.001 * api.uniform(rand, i)     # break ties at random, reproducibly
        if score > best_score:
            best, best_score = i, score
    return best
