"""The ``random`` player: uniform over the listed options at every decision.

It draws from the deal's policy stream of its seat (``rng.STREAM_POLICY + seat``), so a deal
plays the same on any machine.  Meld choices are atomic steps, so ``random`` melds often in
small pieces; it answers a partner's question yes or no with equal chance.  It is the player
the random-play soaks use: every legal option has a chance.
"""
from ..game.bits import bit_count_nb, lowest_bit_nb
from ..game.options import discardable_kinds_nb
from ..game.rng import rand_below_nb
from ..jit import one_step


@one_step
def random_pick_nb(rng, stream, n):
    """The index ``random`` picks among n >= 2 listed options: one draw from ``stream``."""
    return rand_below_nb(rng, stream, n)


@one_step
def random_discard_nb(hand_row, rng, stream):
    """``random``'s discard (R17) straight from the hand: the card :func:`random_pick_nb`
    picks from the list of ``options.discard_options_nb`` (every kind held but red threes, in
    kind order), with the same draw from the seat's stream (none for a single kind), without
    building the list."""
    kinds = discardable_kinds_nb(hand_row)
    n = bit_count_nb(kinds)
    i = 0 if n == 1 else random_pick_nb(rng, stream, n)
    for _ in range(i):                        # the i-th kind held, in kind order
        kinds &= kinds - 1
    return lowest_bit_nb(kinds) if kinds != 0 else -1
