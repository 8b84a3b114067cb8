"""Writing trace events into an int32 buffer while a deal is played.

The same kernels that play a deal record it here when ``st[ST_TRACE_ON]`` is
set; ``canasta_sim.trace`` turns the buffer into TRACE.md JSON lines.  Event
layout: ``[code, seat, a, b, n, c_1..c_n]`` (see ``layout.EV_*``).  A full
buffer sets ``ST_TRACE_OVERFLOW`` instead of writing past its end.
"""
from ..jit import kernel
from .cards import DEUCE, JOKER
from .layout import EV_HEADER
from .slots import ST_TRACE_ON, ST_TRACE_OVERFLOW, ST_TRACE_POS


@kernel
def ev_begin_nb(st, buf, code, seat, a, b):
    """Start an event; returns its position (or -1 when tracing is off or full)."""
    if st[ST_TRACE_ON] == 0:
        return -1
    pos = st[ST_TRACE_POS]
    if pos + EV_HEADER > buf.shape[0]:
        st[ST_TRACE_OVERFLOW] = 1
        return -1
    buf[pos] = code
    buf[pos + 1] = seat
    buf[pos + 2] = a
    buf[pos + 3] = b
    buf[pos + 4] = 0
    st[ST_TRACE_POS] = pos + EV_HEADER
    return pos


@kernel
def ev_push_nb(st, buf, pos, value):
    """Append one int to the list of the event begun at ``pos``."""
    if pos < 0:
        return
    end = st[ST_TRACE_POS]
    if end >= buf.shape[0]:
        st[ST_TRACE_OVERFLOW] = 1
        return
    buf[end] = value
    buf[pos + 4] += 1
    st[ST_TRACE_POS] = end + 1


@kernel
def ev_simple_nb(st, buf, code, seat, a, b):
    """Write an event without a card list."""
    ev_begin_nb(st, buf, code, seat, a, b)


@kernel
def ev_push_cards_nb(st, buf, pos, rank, nat, deuces, jokers):
    """Append the cards of a meld step, naturals of ``rank`` first, then 2s, then jokers."""
    for _ in range(nat):
        ev_push_nb(st, buf, pos, rank)
    for _ in range(deuces):
        ev_push_nb(st, buf, pos, DEUCE)
    for _ in range(jokers):
        ev_push_nb(st, buf, pos, JOKER)
