"""The rule set as the kernels see it: a NamedTuple of plain ints, made from the knob table.

``canasta_sim.rules.RuleSet`` (a frozen dataclass) turns itself into a :class:`RulesNb`; every
row of the knob table (:mod:`.knobs`) gives its fields, most rows one int named as the knob.
Because the tuple is an argument, not a global, one compilation serves every variant.

Enumerated knobs are small ints: the code of a value is its position in the row's ``values``.
The row names the constant kernels read its codes from (``enum="Ask"`` for ``ask_permission``),
whose fields are the value names in capitals: ``rules.ask_permission == Ask.REQUIRED``.  The
loop below makes one such constant per enumerated row (``Ask``, ``Tie``, ...), an instance of
a NamedTuple class named like it with a ``T`` (``AskT``).  Those classes and RulesNb are module
attributes under their own names, so numba's on-disk cache pickles them by reference.
"""
from typing import NamedTuple

from .knobs import KNOB_TABLE, MELD_TABLE_ROWS, NO_LIMIT  # noqa: F401  (re-exported)

NEG_INF = -(1 << 62)         # lower bound of the first initial_meld_table row


def _codes(knob):
    """The constant of an enumerated knob's codes, ``<enum>T(NAME=0, ...)``, from its row."""
    cls = NamedTuple(knob.enum + "T", [(value.upper(), int) for value in knob.values])
    cls.__module__ = __name__
    cls.__doc__ = f"Codes of ``{knob.name}``: each value's position in its row of the knob table."
    globals()[cls.__name__] = cls
    return cls(*range(len(knob.values)))


for _knob in KNOB_TABLE:
    if _knob.enum:
        globals()[_knob.enum] = _codes(_knob)
del _knob

RulesNb = NamedTuple("RulesNb", [(field, int) for knob in KNOB_TABLE
                                 for field in knob.kernel_fields])
RulesNb.__module__ = __name__
RulesNb.__doc__ = """Every knob of the knob table as ints (booleans 0/1, enums as codes above).

The fields are the rows' ``kernel_fields`` in table order: one int named as the knob unless the
row lists others (``team_layout`` gives ``num_sides``; ``initial_meld_table`` gives
``meld_rows``, ``meld_lo*`` and ``meld_min*``; ``wild_canasta_bonus`` gives none)."""
