"""User policies the Modern American tests play (tests/test_american_user_policy.py), loaded as
tests/american_user_policies.py:NAME."""
from numba import njit

from canasta_sim import policy_api as api


@njit
def american_view_echo(decision, opts, n, view, params, rules, rand):
    """Plays a random option; returns n (out of range, an error) when the view or the options
    disagree with themselves: the hand against its size, the family and the rules record, an
    option that needs cards the hand does not hold, a decision and its options."""
    size = 0
    for kind in range(api.NKINDS):
        size += api.hand_count(view, kind)
    if size != api.hand_size(view, view[api.V_SEAT]) or api.family(view) != api.FAMILY_AMERICAN:
        return n
    if rules[api.MR_NUM_PLAYERS] != view[api.V_NSEATS] or not api.pile_frozen(view):
        return n
    if api.talon_sizes(view)[0] != rules[api.MR_TALON_FIRST]:
        return n
    for i in range(n):
        kind = opts[i, 0]
        if decision == api.DEC_DISCARD and (kind != api.OPT_DISCARD or
                                             api.hand_count(view, opts[i, 1]) < 1):
            return n
        if kind == api.OPT_NEW or kind == api.OPT_ADD_CARDS or kind == api.OPT_MELD_OUT:
            if decision != api.DEC_MELD or api.hand_count(view, api.DEUCE) < opts[i, 3] or \
                    api.hand_count(view, api.JOKER) < opts[i, 4]:
                return n
            if opts[i, 1] != api.WILD_MELD and api.hand_count(view, opts[i, 1]) < opts[i, 2]:
                return n
        if kind == api.OPT_TAKE and (decision != api.DEC_DRAW or
                                     api.hand_count(view, api.pile_top(view)) < 2):
            return n
        if kind == api.OPT_SPECIAL and (decision != api.DEC_SPECIAL or opts[i, 2] <= 0):
            return n
    opts[0, 0] = 99                          # writing into the copy changes nothing
    return api.below(rand, 0, n)


@njit
def discards_out_of_range(decision, opts, n, view, params, rules, rand):
    """Answers n at a discard decision: one past the last option."""
    return n if decision == api.DEC_DISCARD else 0


@njit
def raises_at_meld(decision, opts, n, view, params, rules, rand):
    """Raises at the first meld decision."""
    if decision == api.DEC_MELD:
        raise ValueError("no melds today")
    return 0


def recorded(decision, opts, n, view, params, rules, rand):
    """Plain Python: option 0 (a test reads what it was shown from RECORD)."""
    RECORD.append((decision, opts[:n].copy(), view.copy()))
    return 0


RECORD = []
