"""An example of your own policy for Modern American (``--rules modern-american``): take the
pile whenever it may, lay natural cards, put wild cards only where they complete a canasta
(or an opening needs them), never start a sevens, ace or wild meld it cannot complete, go out
when it can, and throw a card of a dead rank, else a single the next player is least likely
to pair.

    canasta-sim check-policy examples/american_pile_hungry.py:american_pile_hungry \\
        --rules modern-american
    canasta-sim strength --rules modern-american --games 400 \\
        --policies 'examples/american_pile_hungry.py:american_pile_hungry,random'
"""
from numba import njit

from canasta_sim import policy_api as api

NOT_WORTH = -1e9


@njit
def step_score(opts, i, view, params, pending):
    """The value of meld step ``i`` (OPT_NEW, OPT_ADD_CARDS or OPT_MELD_OUT)."""
    side = api.my_side(view)
    kind, rank, nat = opts[i, 0], opts[i, 1], opts[i, 2]
    wild = opts[i, 3] + opts[i, 4]
    if kind == api.OPT_MELD_OUT:
        return 5000.0
    size = api.meld_size(view, side, rank)
    after = size + nat + wild
    if not pending:
        if size == 0 and (rank == api.SEVEN or rank == api.ACE) and nat < 5:
            return NOT_WORTH                  # an incomplete one costs 2,500 (A46)
        if rank == api.WILD_MELD and after < 7:
            return NOT_WORTH                  # an incomplete wild meld costs 2,000
        if wild > 0 and rank != api.WILD_MELD and after < 7:
            return NOT_WORTH                  # wild cards only to complete a canasta
    score = 100.0 + 10.0 * nat - params[0] * wild
    if after >= 7:
        score += 300.0
    return score


@njit
def discard_score(view, card):
    """How good a discard ``card`` is: a dead rank for the next side is safe, wild cards and
    cards the seat holds several of are kept, a card the others cannot pair is safer."""
    nxt = api.side_of(view, api.next_seat(view))
    if card == api.DEUCE or card == api.JOKER:
        return -10000.0
    if card >= api.FOUR and api.is_dead(view, nxt, card):
        return 1000.0
    return -100.0 * api.hand_count(view, card) - 10.0 * api.unseen_count(view, card)


@api.policy(params={"wild_penalty": 30.0})
@njit
def american_pile_hungry(decision, opts, n, view, params, rules, rand):
    """Score every legal option and return the index of the best one."""
    pending = api.opening_pending(view)
    best, best_score = 0, -1e18
    for i in range(n):
        kind = opts[i, 0]
        score = 0.0
        if kind == api.OPT_TAKE or kind == api.OPT_SPECIAL or kind == api.OPT_LAY_THREES:
            score = 1.0
        elif kind == api.OPT_ASK or kind == api.OPT_YES:
            score = 1.0
        elif kind == api.OPT_NEW or kind == api.OPT_ADD_CARDS or kind == api.OPT_MELD_OUT:
            score = step_score(opts, i, view, params, pending)
        elif kind == api.OPT_STOP:
            score = NOT_WORTH * 2 if pending else 0.0
        elif kind == api.OPT_DISCARD:
            score = discard_score(view, opts[i, 1])
        score += 0.001 * api.uniform(rand, i)     # break ties at random, reproducibly
        if score > best_score:
            best, best_score = i, score
    return best
