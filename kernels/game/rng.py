"""Counter-based randomness: every deal's streams derive from (master seed, deal index).

splitmix64 (Steele, Lea, Flood 2014) both mixes the seed words into a stream
state and steps that state.  Streams are independent uint64 slots of a small
array, so results never depend on threads, batch sizes or machines.
"""
import numpy as np

from ..jit import kernel

GOLDEN = np.uint64(0x9E3779B97F4A7C15)
MIX1 = np.uint64(0xBF58476D1CE4E5B9)
MIX2 = np.uint64(0x94D049BB133111EB)

STREAM_DECK = 0        # the shuffle: shared by every rule set with the same deck (common numbers)
STREAM_DEALER = 1      # the first dealer of an independent deal (R5)
STREAM_POLICY = 2      # random choices of seat s's policy use stream STREAM_POLICY + s, so one
NSTREAMS = 8           # seat's choices never shift another's (common random numbers, 6 seats)


@kernel
def mix64_nb(z):
    """The splitmix64 finaliser: a bijective scramble of one uint64."""
    z = (z ^ (z >> np.uint64(30))) * MIX1
    z = (z ^ (z >> np.uint64(27))) * MIX2
    return z ^ (z >> np.uint64(31))


@kernel
def seed_streams_nb(rng, seed, deal):
    """Fill ``rng`` (uint64[NSTREAMS]) with the stream states of deal ``deal``."""
    base = mix64_nb(np.uint64(seed) + GOLDEN)
    for s in range(rng.shape[0]):
        rng[s] = mix64_nb(base ^ mix64_nb(np.uint64(deal) * GOLDEN + np.uint64(s + 1)))


@kernel
def next_u64_nb(rng, stream):
    """Step stream ``stream`` and return its next 64 random bits."""
    rng[stream] = rng[stream] + GOLDEN
    return mix64_nb(rng[stream])


@kernel
def rand_below_nb(rng, stream, n):
    """A uniform int in [0, n) for 0 < n < 2**31 (Lemire's multiply-shift, bias < 2**-31)."""
    return below_nb(next_u64_nb(rng, stream), n)


@kernel
def below_nb(bits, n):
    """:func:`rand_below_nb`'s int in [0, n) from 64 random bits (their high 32)."""
    return np.int64(((bits >> np.uint64(32)) * np.uint64(n)) >> np.uint64(32))
