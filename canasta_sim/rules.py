"""Rule sets: every knob of the knob table as a frozen dataclass, named presets as data.

A rule set has a canonical string, the name of its preset optionally followed by
the knobs that differ from it::

    classic
    classic(black_three_freezes=true)
    six-player(initial_meld_table=-inf:15;0:50;1500:90;3000:120;7000:150)

:func:`parse_rules` reads a preset name, a canonical string or a TOML file and
gives back a validated :class:`RuleSet`; ``parse_rules(r.canonical()) == r``.
:meth:`RuleSet.to_kernel` turns it into the NamedTuple of ints the kernels take.

Every knob is one row of ``KNOB_TABLE`` (kernels/game/knobs.py, plain data the kernels read
too); the RuleSet fields and defaults, ``KNOBS`` (how each value is checked, read from text,
written and turned into a kernel int), ``KNOB_DOCS``, ``canasta-sim rules show`` and the knob
table of docs/knobs.md are all made from it.
"""
from __future__ import annotations

import dataclasses
import os
import re
from dataclasses import dataclass
from typing import Any, NamedTuple

from canasta_sim.errors import BadInput
from canasta_sim.kernels.game import knobs, rules_nb
from canasta_sim.kernels.game.knobs import (
    AMERICAN_FIXED,
    AMERICAN_KNOBS,
    AMERICAN_MELD_TABLE,
    AMERICAN_NOT_APPLICABLE,
    CLASSIC_MELD_TABLE,
    CUTTHROAT_KNOBS,
    KNOB_TABLE,
    SCORE_LIMIT,
)

MeldTable = tuple  # tuple of (lower bound or None for -inf, minimum) pairs

DECKS = ((2, 4), (3, 6))  # (num_packs, num_jokers)
_MAX_MELD_BOUND = 1 << 40
_ROWS = {row.name: row for row in KNOB_TABLE}


# --------------------------------------------------------------------------------------------
# The rule set
# --------------------------------------------------------------------------------------------

_ANNOTATIONS = {knobs.BOOL: "bool", knobs.INT: "int", knobs.INT_OR_NONE: "int | None",
                knobs.ENUM: "str", knobs.MELD_TABLE: "MeldTable", knobs.INT_LIST: "tuple"}


def _knob_fields(cls):
    """Give ``cls`` one field per row of the knob table, in table order, its default the row's
    classic value, then ``preset`` (default classic); ``dataclass`` then makes them fields."""
    cls.__annotations__ = {row.name: _ANNOTATIONS[row.type] for row in KNOB_TABLE}
    cls.__annotations__["preset"] = "str"
    for row in KNOB_TABLE:
        setattr(cls, row.name, row.default)
    cls.preset = "classic"
    return cls


def _named_knobs_only(cls):
    """Make ``cls(...)`` raise BadInput, not TypeError, for a knob that does not exist or
    values given by position; returns ``cls``."""
    import functools

    init = cls.__init__

    @functools.wraps(init)
    def checked_init(self, *args, **values):
        if args:
            raise BadInput(f"RuleSet got {len(args)} values by position: accepted: knobs by "
                           "name, e.g. RuleSet(hand_size=13)")
        for name in values:
            if name != "preset" and name not in KNOBS:
                raise BadInput(_unknown_knob_message(name))
        init(self, **values)

    cls.__init__ = checked_init
    return cls


@_named_knobs_only
@dataclass(frozen=True)
@_knob_fields
class RuleSet:
    """One Canasta variant: a field per row of the knob table (classic defaults) plus its preset.

    Build one with :func:`parse_rules`, :meth:`from_preset` or the constructor; the
    constructor validates every knob and raises :class:`BadInput` on a bad value.
    """

    def __post_init__(self):
        """Validate and normalise every knob, then the combinations of knobs."""
        if not isinstance(self.preset, str) or self.preset not in PRESETS:
            raise BadInput(f"unknown preset {self.preset!r}: accepted presets are "
                           f"{', '.join(PRESETS)}")
        for name, knob in KNOBS.items():
            object.__setattr__(self, name, knob.check(name, getattr(self, name)))
        _check_combinations(self)

    # --- construction ------------------------------------------------------------------------
    @classmethod
    def from_preset(cls, name: str = "classic", **overrides: Any) -> "RuleSet":
        """The rule set of preset ``name`` with the given knobs changed."""
        key = _preset_key(name)
        unknown = sorted(set(overrides) - set(KNOBS))
        if unknown:
            raise BadInput(_unknown_knob_message(unknown[0]))
        return cls(**{**PRESETS[key].overrides, **overrides, "preset": key})

    # --- reading -----------------------------------------------------------------------------
    def knobs(self) -> dict:
        """Every knob name -> value (without ``preset``), in docs/rules.md order."""
        return {name: getattr(self, name) for name in KNOBS}

    def differences(self) -> dict:
        """Knobs whose value differs from the rule set's own preset, sorted by name."""
        base = preset_rules(self.preset)
        return {name: getattr(self, name) for name in sorted(KNOBS)
                if getattr(self, name) != getattr(base, name)}

    def canonical(self) -> str:
        """Preset name plus ``(knob=value,...)`` for the knobs that differ from it, by name."""
        diffs = self.differences()
        if not diffs:
            return self.preset
        body = ",".join(f"{name}={KNOBS[name].format(value)}" for name, value in diffs.items())
        return f"{self.preset}({body})"

    def __str__(self) -> str:
        """The canonical string."""
        return self.canonical()

    @property
    def deck_size(self) -> int:
        """Number of cards in the deck: 52 per pack plus the jokers."""
        return 52 * self.num_packs + self.num_jokers

    @property
    def num_sides(self) -> int:
        """Number of sides at the deal: 2x2 -> 2, solo -> num_players, 2x3 -> 2, 3x2 -> 3,
        cutthroat3 -> 3 (every deal starts with three one-seat sides; docs/cutthroat.md)."""
        _check_supported(_ROWS["team_layout"], self.team_layout)
        if self.team_layout in ("solo", "cutthroat3"):
            return self.num_players
        return {"2x2": 2, "2x3": 2, "3x2": 3}[self.team_layout]

    @property
    def cutthroat(self) -> bool:
        """Three-player Cutthroat: sides that form mid-deal (docs/cutthroat.md)."""
        return self.team_layout == "cutthroat3"

    def sides(self) -> list:
        """Seats of each side: side k holds the seats s with s % num_sides == k (docs/rules.md)."""
        n = self.num_sides
        return [[s for s in range(self.num_players) if s % n == k] for k in range(n)]

    # --- kernels -----------------------------------------------------------------------------
    def to_kernel(self) -> rules_nb.RulesNb:
        """The rule set as the kernels take it: a ``RulesNb`` of plain Python ints.

        A row's one field named as the knob is made here from the knob's kind; the two rows
        with fields of their own (``kernel`` in the table) are ``team_layout`` (``num_sides``)
        and ``initial_meld_table`` (its padded rows).
        """
        for row in KNOB_TABLE:
            _check_supported(row, getattr(self, row.name))
        values = {"num_sides": self.num_sides, "cutthroat": int(self.cutthroat),
                  **_meld_table_fields(self.initial_meld_table)}
        for row in KNOB_TABLE:
            if row.kernel is None:
                values[row.name] = KNOBS[row.name].to_int(getattr(self, row.name))
        return rules_nb.RulesNb(**values)

    def play_record(self):
        """The record this rule set's own kernels take: :meth:`to_american_kernel` for Modern
        American, :meth:`to_kernel` for classic (BadInput for a knob value not played yet)."""
        return self.to_american_kernel() if self.american else self.to_kernel()

    @property
    def american(self) -> bool:
        """Modern American Canasta (``family=modern_american``, docs/american.md)."""
        return self.family == "modern_american"

    def to_american_kernel(self):
        """The record the Modern American pieces take (kernels/game/american/rules_nb.py):
        the classic knobs the family reads and every family knob, as plain ints.  BadInput for
        a classic rule set."""
        from canasta_sim.kernels.game.american import rules_nb as mac

        if not self.american:
            raise BadInput(f"family={self.family} has no Modern American record: accepted is "
                           "family=modern_american")
        values = {name: KNOBS[name].to_int(getattr(self, name)) for name in mac.CLASSIC_FIELDS}
        values["num_sides"] = self.num_sides
        values.update(_meld_table_fields(self.initial_meld_table))
        for row in mac.FAMILY_ROWS:
            value = getattr(self, row.name)
            if row.name in mac.LIST_FIELDS:
                values.update(zip(mac.LIST_FIELDS[row.name], value))
            else:
                values[row.name] = KNOBS[row.name].to_int(value)
        return mac.MacRulesNb(**values)


AMERICAN_COMMANDS = ("simulate", "replay", "audit", "bench", "compare", "study", "strength",
                     "tune", "check-policy")
"""The commands that play (or read) Modern American so far (docs/american.md)."""


def refuse_unplayable(text, command: str = "") -> None:
    """BadInput (one line) if ``text`` is a rule set ``command`` cannot play yet: Modern American
    outside :data:`AMERICAN_COMMANDS` (docs/american.md).  Any other problem of ``text`` is left
    to the caller's own parsing, so its messages stay as they were."""
    try:
        rules = parse_rules(text)
    except BadInput:
        return
    if rules.american and command not in AMERICAN_COMMANDS:
        where = f"'{command}'" if command else "this command"
        raise BadInput(f"family=modern_american does not play in {where} yet: accepted: a "
                       f"classic rule set; Modern American plays in "
                       f"{', '.join(AMERICAN_COMMANDS)} (docs/american.md)")


def _check_supported(row, value):
    """BadInput for a value the engine cannot play yet (not in the row's ``supported``)."""
    if row.supported is not None and value not in row.supported:
        kind = KNOBS[row.name]
        accepted = ", ".join(kind.format(v) for v in row.supported)
        values = "value is" if len(row.supported) == 1 else "values are"
        raise BadInput(f"{row.name}={kind.format(value)} is not supported yet: accepted "
                       f"{values} {accepted}")


def _meld_table_fields(table):
    """``meld_rows`` and the padded ``meld_lo*`` / ``meld_min*`` fields of RulesNb (R27).

    Padding rows have a lower bound no score reaches and repeat the last minimum.
    """
    fields = {"meld_rows": len(table)}
    for row in range(rules_nb.MELD_TABLE_ROWS):
        if row < len(table):
            lower, minimum = table[row]
            lower = rules_nb.NEG_INF if lower is None else lower
        else:
            lower, minimum = -rules_nb.NEG_INF, table[-1][1]
        fields[f"meld_lo{row}"] = int(lower)
        fields[f"meld_min{row}"] = int(minimum)
    return fields


MIN_STOCK_AFTER_DEAL = 10   # cards the stock keeps after the deal: the cap on hand_size


def _check_combinations(r: RuleSet):
    """BadInput for knob values that are fine alone but impossible together."""
    _check_family(r)
    if (r.num_packs, r.num_jokers) not in DECKS:
        raise BadInput(f"num_packs={r.num_packs} with num_jokers={r.num_jokers} is not a "
                       "deck: accepted are 2 packs with 4 jokers or 3 packs with 6 jokers")
    layouts = {"2x2": (4,), "solo": (2, 3), "2x3": (6,), "3x2": (6,), "cutthroat3": (3,)}
    if r.num_players not in layouts[r.team_layout]:
        accepted = " or ".join(str(n) for n in layouts[r.team_layout])
        raise BadInput(f"num_players={r.num_players} does not fit team_layout="
                       f"{r.team_layout}: accepted num_players for it is {accepted}")
    if r.team_layout != "cutthroat3":
        for name in CUTTHROAT_KNOBS:
            if getattr(r, name) != _ROWS[name].default:
                raise BadInput(f"{name}={getattr(r, name)} needs team_layout=cutthroat3 "
                               f"(team_layout is {r.team_layout}): accepted outside it is "
                               f"{name}={_ROWS[name].default}")
    stock = r.deck_size - r.num_players * r.hand_size
    if stock < MIN_STOCK_AFTER_DEAL:  # R6: the stock must outlast red-three replacements
        most = (r.deck_size - MIN_STOCK_AFTER_DEAL) // r.num_players
        raise BadInput(f"hand_size={r.hand_size} with num_players={r.num_players} leaves "
                       f"{stock} of the deck's {r.deck_size} cards in the stock: accepted "
                       f"hand_size is 1..{most} (the stock keeps at least "
                       f"{MIN_STOCK_AFTER_DEAL} cards after the deal, so red-three "
                       "replacements and the upcard never empty it)")


def _check_family(r: RuleSet):
    """BadInput for a family knob outside its family, and in Modern American for a classic
    knob that the family fixes or that does not apply to it (docs/american.md)."""
    if not r.american:
        for name in AMERICAN_KNOBS:
            if getattr(r, name) != _ROWS[name].default:
                raise BadInput(f"{name}={KNOBS[name].format(getattr(r, name))} needs "
                               f"family=modern_american (family is {r.family}): accepted with "
                               f"it is {name}={KNOBS[name].format(_ROWS[name].default)}")
        return
    for name, value in AMERICAN_FIXED.items():
        if getattr(r, name) != value:
            raise BadInput(f"{name}={KNOBS[name].format(getattr(r, name))} is not played with "
                           f"family=modern_american: accepted is {name}="
                           f"{KNOBS[name].format(value)}")
    for name in AMERICAN_NOT_APPLICABLE:
        if getattr(r, name) != _ROWS[name].default:
            raise BadInput(f"{name}={KNOBS[name].format(getattr(r, name))} does not apply with "
                           f"family=modern_american: accepted is its classic value {name}="
                           f"{KNOBS[name].format(_ROWS[name].default)}")


# --------------------------------------------------------------------------------------------
# Knob kinds: how each knob is checked, read from text, written and given to the kernels
# --------------------------------------------------------------------------------------------

def _q(value):
    """A value quoted for an error message (strings in quotes, newlines escaped)."""
    return repr(value) if isinstance(value, str) else str(value)


class IntKnob(NamedTuple):
    """An integer knob with an inclusive range or a set of accepted values."""

    lo: int
    hi: int
    choices: tuple = ()

    def accepted(self):
        """Text listing the accepted values."""
        if self.choices:
            return ", ".join(str(c) for c in self.choices)
        return f"a whole number in {self.lo}..{self.hi}"

    def check(self, name, value):
        """The value as an int, or BadInput."""
        if isinstance(value, str):
            value = _parse_int(name, value, self.accepted())
        if isinstance(value, bool) or not isinstance(value, int):
            raise BadInput(f"{name}={_q(value)} is not a whole number: accepted: "
                           f"{self.accepted()}")
        if (self.choices and value not in self.choices) or not self.lo <= value <= self.hi:
            raise BadInput(f"{name}={value} is out of range: accepted: {self.accepted()}")
        return int(value)

    def format(self, value):
        """Canonical text of the value."""
        return str(value)

    def to_int(self, value):
        """Kernel int of the value."""
        return int(value)


class OptionalIntKnob(NamedTuple):
    """An integer knob that may also be ``none`` (no limit, or not part of the rules)."""

    lo: int
    hi: int
    none_int: int = rules_nb.NO_LIMIT

    def accepted(self):
        """Text listing the accepted values."""
        return f"none or a whole number in {self.lo}..{self.hi}"

    def check(self, name, value):
        """The value as an int or None, or BadInput."""
        if value is None or (isinstance(value, str) and value.strip().lower() == "none"):
            return None
        if isinstance(value, str):
            value = _parse_int(name, value, self.accepted())
        if isinstance(value, bool) or not isinstance(value, int):
            raise BadInput(f"{name}={_q(value)} is not a whole number: accepted: "
                           f"{self.accepted()}")
        if not self.lo <= value <= self.hi:
            raise BadInput(f"{name}={value} is out of range: accepted: {self.accepted()}")
        return int(value)

    def format(self, value):
        """Canonical text of the value (``none`` for None)."""
        return "none" if value is None else str(value)

    def to_int(self, value):
        """Kernel int of the value (``none_int`` for None)."""
        return self.none_int if value is None else int(value)


class BoolKnob(NamedTuple):
    """A true/false knob."""

    def check(self, name, value):
        """The value as a bool, or BadInput."""
        if isinstance(value, str):
            text = value.strip().lower()
            if text in ("true", "false"):
                return text == "true"
        if isinstance(value, bool):
            return value
        raise BadInput(f"{name}={_q(value)} is not a boolean: accepted: true, false")

    def format(self, value):
        """``true`` or ``false``."""
        return "true" if value else "false"

    def to_int(self, value):
        """1 or 0."""
        return int(bool(value))


class EnumKnob(NamedTuple):
    """A knob with named values; the kernel code is the value's index in ``names``."""

    names: tuple

    def check(self, name, value):
        """The value as one of ``names``, or BadInput."""
        text = value.strip().lower() if isinstance(value, str) else value
        if text not in self.names:
            raise BadInput(f"{name}={_q(value)} is not accepted: accepted values are "
                           f"{', '.join(self.names)}")
        return text

    def format(self, value):
        """The value's name."""
        return value

    def to_int(self, value):
        """The value's code (its index in ``names``)."""
        return self.names.index(value)


class MeldTableKnob(NamedTuple):
    """``initial_meld_table``: rows of (lower bound, minimum), the first bound -inf (R27)."""

    max_rows: int = rules_nb.MELD_TABLE_ROWS

    def accepted(self):
        """Text describing the accepted form."""
        return (f"1..{self.max_rows} rows 'bound:minimum' joined by ';', the first bound "
                "-inf, bounds increasing, minimums in 0.." + str(SCORE_LIMIT)
                + ", e.g. -inf:15;0:50;1500:90;3000:120")

    def check(self, name, value):
        """The table as a tuple of (int or None, int) pairs, or BadInput."""
        if isinstance(value, str):
            value = self._parse_text(name, value)
        if not isinstance(value, (list, tuple)) or not value:
            raise BadInput(f"{name}={_q(value)} is not a table: accepted: {self.accepted()}")
        rows = tuple(self._row(name, row) for row in value)
        self._check_rows(name, rows)
        return rows

    def _parse_text(self, name, text):
        """Rows from ``-inf:15;0:50``."""
        rows = []
        for part in text.split(";"):
            bits = part.split(":")
            if len(bits) != 2:
                raise BadInput(f"{name}={_q(text)} is not a table: accepted: {self.accepted()}")
            rows.append((bits[0].strip(), bits[1].strip()))
        return rows

    def _row(self, name, row):
        """One (bound, minimum) pair with bound None for -inf."""
        if not isinstance(row, (list, tuple)) or len(row) != 2:
            raise BadInput(f"{name} row {_q(row)} is not a pair: accepted: {self.accepted()}")
        lower, minimum = row
        if lower is None or lower == float("-inf") or (
                isinstance(lower, str) and lower.strip().lower() == "-inf"):
            lower = None
        else:
            lower = IntKnob(-_MAX_MELD_BOUND, _MAX_MELD_BOUND).check(f"{name} bound", lower)
        minimum = IntKnob(0, SCORE_LIMIT).check(f"{name} minimum", minimum)
        return (lower, minimum)

    def _check_rows(self, name, rows):
        """Row count, -inf first, increasing bounds."""
        text = self.format(rows)
        if len(rows) > self.max_rows:
            raise BadInput(f"{name}={text} has {len(rows)} rows: accepted: {self.accepted()}")
        bounds = [lower for lower, _ in rows]
        if bounds[0] is not None or any(b is None for b in bounds[1:]):
            raise BadInput(f"{name}={text} must start with -inf and only there: accepted: "
                           f"{self.accepted()}")
        if any(a >= b for a, b in zip(bounds[1:], bounds[2:])):
            raise BadInput(f"{name}={text} has bounds that do not increase: accepted: "
                           f"{self.accepted()}")

    def format(self, rows):
        """Canonical text ``-inf:15;0:50;1500:90;3000:120``."""
        return ";".join(f"{'-inf' if lower is None else lower}:{minimum}"
                        for lower, minimum in rows)

    def to_int(self, value):  # pragma: no cover - expanded into several fields instead
        """Not used: the table becomes meld_rows / meld_lo* / meld_min*."""
        raise TypeError("initial_meld_table has no single kernel int")


class IntListKnob(NamedTuple):
    """A fixed number of ints, each in lo..hi, written ``a;b;c`` (family knobs such as
    ``mac_talon_sizes=4;3``); a RuleSet holds a tuple."""

    length: int
    lo: int
    hi: int
    example: tuple = ()

    def accepted(self):
        """Text describing the accepted form."""
        return (f"{self.length} whole numbers in {self.lo}..{self.hi} joined by ';', e.g. "
                f"{self.format(self.example)}")

    def check(self, name, value):
        """The value as a tuple of ints, or BadInput."""
        text = value
        if isinstance(value, str):
            value = [_parse_int(name, part, self.accepted()) for part in value.split(";")]
        if not isinstance(value, (list, tuple)) or len(value) != self.length:
            shown = text if isinstance(text, str) else self.format(text) \
                if isinstance(text, (list, tuple)) else _q(text)
            raise BadInput(f"{name}={shown} is not {self.length} numbers: accepted: "
                           f"{self.accepted()}")
        item = IntKnob(self.lo, self.hi)
        for v in value:
            if isinstance(v, bool) or not isinstance(v, int) or not self.lo <= v <= self.hi:
                raise BadInput(f"{name}={self.format(value)} holds {_q(v)}: accepted: "
                               f"{self.accepted()}")
        return tuple(item.check(name, v) for v in value)

    def format(self, value):
        """Canonical text ``a;b;c``."""
        return ";".join(str(v) for v in value)

    def to_int(self, value):  # pragma: no cover - expanded into several fields instead
        """Not used: the family record takes one field per number."""
        raise TypeError("a list knob has no single kernel int")


def _parse_int(name, text, accepted):
    """An int from text, or BadInput naming the knob."""
    try:
        return int(text.strip(), 10)
    except ValueError:
        raise BadInput(f"{name}={text!r} is not a whole number: accepted: {accepted}") from None


def _kind(row):
    """How the knob of a table row is checked, read, written and given to the kernels."""
    if row.type == knobs.BOOL:
        return BoolKnob()
    if row.type == knobs.ENUM:
        return EnumKnob(row.values)
    if row.type == knobs.INT_OR_NONE:
        return OptionalIntKnob(row.lo, row.hi)
    if row.type == knobs.MELD_TABLE:
        return MeldTableKnob(row.hi)
    if row.type == knobs.INT_LIST:
        return IntListKnob(row.length, row.lo, row.hi, row.default)
    if row.values:
        return IntKnob(min(row.values), max(row.values), row.values)
    return IntKnob(row.lo, row.hi)


KNOBS = {row.name: _kind(row) for row in KNOB_TABLE}
"""Knob name -> its kind (IntKnob, OptionalIntKnob, BoolKnob, EnumKnob, MeldTableKnob)."""


class KnobDoc(NamedTuple):
    """What a knob means (one line, ending with its rule IDs) and which rule books use which of
    its values: what ``canasta-sim rules show`` and the table in docs/knobs.md print."""

    meaning: str
    sources: str


def _meaning(row):
    """The row's meaning followed by its rule IDs, ``... (R8, R32)``."""
    return f"{row.meaning} ({', '.join(row.rule_ids)})" if row.rule_ids else row.meaning


# Source tags: docs/rules.md, "Sources".
KNOB_DOCS = {row.name: KnobDoc(_meaning(row), row.sources) for row in KNOB_TABLE}


def knob_values(knob) -> str:
    """The values a knob accepts, as text for docs and ``rules show``."""
    if isinstance(knob, EnumKnob):
        return ", ".join(knob.names)
    if isinstance(knob, BoolKnob):
        return "true, false"
    if isinstance(knob, MeldTableKnob):
        return f"1..{knob.max_rows} rows bound:minimum"
    if isinstance(knob, IntListKnob):
        return f"{knob.length} numbers a;b;..., each {knob.lo}..{knob.hi}"
    return knob.accepted()


def knobs_markdown() -> str:
    """The knob table of docs/knobs.md, made from KNOBS and KNOB_DOCS (a test compares)."""
    classic = preset_rules("classic")
    lines = ["| knob | values | classic | meaning | sources of each value |",
             "|---|---|---|---|---|"]
    for name, knob in KNOBS.items():
        doc = KNOB_DOCS[name]
        default = knob.format(getattr(classic, name))
        lines.append(f"| `{name}` | {knob_values(knob)} | `{default}` | {doc.meaning} | "
                     f"{doc.sources} |")
    return "\n".join(lines) + "\n"


def presets_markdown() -> str:
    """The preset table of docs/knobs.md, made from PRESETS (a test compares)."""
    lines = ["| preset | description | knobs that differ from classic |", "|---|---|---|"]
    for name, preset in PRESETS.items():
        rules = preset_rules(name)
        diffs = ", ".join(f"`{k}={KNOBS[k].format(getattr(rules, k))}`"
                          for k in KNOBS if k in preset.overrides) or "-"
        lines.append(f"| `{name}` | {preset.description} | {diffs} |")
    return "\n".join(lines) + "\n"


# --------------------------------------------------------------------------------------------
# Presets (docs/knobs.md, Presets)
# --------------------------------------------------------------------------------------------

class Preset(NamedTuple):
    """A named rule set: a one-line description and the knobs that differ from classic."""

    description: str
    overrides: dict


_SIX_PLAYER = {"num_players": 6, "num_packs": 3, "num_jokers": 6, "hand_size": 13,
               "canastas_to_go_out": 2}

_CUTTHROAT = {"num_players": 3, "team_layout": "cutthroat3", "hand_size": 13, "draw_count": 2,
              "canastas_to_go_out": 2, "game_target": 7500}

# A3, A24, A42, A54: the classic knobs with Modern American values (docs/american.md).
_AMERICAN = {"family": "modern_american", "hand_size": 13, "canastas_to_go_out": 2,
             "game_target": 8500, "initial_meld_table": AMERICAN_MELD_TABLE,
             "top_card_counts_for_minimum": False, "unfrozen_take_natural_plus_wild": False,
             "unfrozen_take_by_layoff": False, "empty_stock_forced_take": False,
             "concealed_going_out_bonus": 100, "black_three_going_out_meld": False}

PRESETS = {
    "classic": Preset("four players in two partnerships, 108 cards, 11 each (docs/rules.md)", {}),
    "two-player": Preset("two solo players, 15 cards each, draw 2 discard 1, two canastas "
                         "to go out (BIC Two-Hand)",
                         {"num_players": 2, "team_layout": "solo", "hand_size": 15,
                          "draw_count": 2, "canastas_to_go_out": 2}),
    "three-player": Preset("three solo players, 13 cards each, otherwise as classic (RG)",
                           {"num_players": 3, "team_layout": "solo", "hand_size": 13}),
    "six-player": Preset("two sides of three seated alternately, 162 cards, 13 each, two "
                         "canastas to go out, game to 10000, minimum 150 from 7500 (RG)",
                         {**_SIX_PLAYER, "team_layout": "2x3", "game_target": 10000,
                          "initial_meld_table": CLASSIC_MELD_TABLE + ((7500, 150),)}),
    "six-player-3x2": Preset("three sides of two, 162 cards, 13 each, two canastas to go "
                             "out, game to 7500 (RG)",
                             {**_SIX_PLAYER, "team_layout": "3x2", "game_target": 7500}),
    "cutthroat": Preset("three players, 13 cards each, draw 2; the first to take the pile plays "
                        "alone against the other two; two canastas to go out, game to 7500 "
                        "(BIC, RG; docs/cutthroat.md)", _CUTTHROAT),
    "cutthroat-pagat": Preset("cutthroat with one canasta to go out, classic play after the "
                              "stock, a last red three as a one-card draw (PAG, second-hand)",
                              {**_CUTTHROAT, "canastas_to_go_out": 1,
                               "cutthroat_stock_end": "classic_r49",
                               "draw2_last_red3": "one_card_draw"}),
    "cutthroat-11": Preset("cutthroat with 11 cards each (LR)", {**_CUTTHROAT, "hand_size": 11}),
    "modern-american": Preset("Modern American Canasta as the league plays it: 13 cards each, no "
                              "upcard, the pile always frozen, talons, 7-card melds, game to "
                              "8500 (docs/american.md)", _AMERICAN),
    "modern-american-pagat": Preset("Modern American with pagat's readings: a wild meld may "
                                    "open, the take pair counts nothing, the Splash, pagat's "
                                    "four special hands (docs/american.md)",
                                    {**_AMERICAN, "mac_initial_meld_needs": "clean_or_wild",
                                     "mac_take_pair_counts": False, "mac_splash": True,
                                     "mac_special_hands": "pagat",
                                     "mac_wild_meld_penalty_four_jokers": 2500}),
    "seed-a": Preset("classic as source A reads literally: black threes freeze, no concealed "
                     "exemption from the minimum, two naturals per wild card",
                     {"black_three_freezes": True, "concealed_exempt_from_min_count": False,
                      "wild_ratio_rule": "half"}),
    "seed-b": Preset("classic as source B reads literally: wilds <= naturals, a red-three "
                     "upcard does not freeze, 100 per concealed canasta",
                     {"wild_ratio_rule": "le", "upcard_red3_freezes": False,
                      "concealed_canasta_bonus": 100}),
}

_PRESET_CACHE: dict = {}

PLAYABLE_PRESETS = tuple(name for name, preset in PRESETS.items()
                         if preset.overrides.get("family", "classic") == "classic")
"""The presets of the classic family: those every playing command accepts (Modern American plays
in the commands of AMERICAN_COMMANDS, docs/american.md)."""


def preset_rules(name: str) -> RuleSet:
    """The :class:`RuleSet` of preset ``name``."""
    key = _preset_key(name)
    if key not in _PRESET_CACHE:
        _PRESET_CACHE[key] = RuleSet(**PRESETS[key].overrides, preset=key)
    return _PRESET_CACHE[key]


def _preset_key(name):
    """The preset name normalised, or BadInput listing the presets."""
    key = name.strip().lower() if isinstance(name, str) else name
    if key not in PRESETS:
        raise BadInput(f"unknown preset {_q(name)}: accepted presets are {', '.join(PRESETS)}")
    return key


def _unknown_knob_message(name):
    """One line saying a knob does not exist, with the closest knob name if there is one."""
    import difflib

    close = difflib.get_close_matches(str(name), list(KNOBS), n=1)
    hint = f"did you mean {close[0]}? " if close else ""
    return (f"unknown rule knob {_q(name)}: {hint}accepted knobs (docs/knobs.md) are "
            f"{', '.join(KNOBS)}")


# --------------------------------------------------------------------------------------------
# Parsing
# --------------------------------------------------------------------------------------------

_CANONICAL = re.compile(r"^\s*([A-Za-z0-9_-]+)\s*(?:\((.*)\))?\s*$", re.DOTALL)


def _unknown_rules_message(text):
    """One line for text that is neither a preset, a canonical string nor a TOML file."""
    return (f"unknown rule set {_q(text)}: accepted presets are {', '.join(PRESETS)}, "
            "or a canonical string such as classic(black_three_freezes=true), or a .toml file")


def parse_rules(text) -> RuleSet:
    """A :class:`RuleSet` from a preset name, a canonical string or a path to a TOML file.

    A RuleSet passes through unchanged.  Preset names win over a file of the same
    name; a text ending in ``.toml`` is always a file.  Raises :class:`BadInput`
    naming the bad preset, knob or value and what is accepted.
    """
    if isinstance(text, RuleSet):
        return text
    if not isinstance(text, str):
        raise BadInput(_unknown_rules_message(text))
    stripped = text.strip()
    if stripped.lower().endswith(".toml"):
        return parse_rules_file(stripped)
    match = _CANONICAL.match(stripped)
    if match is not None and match.group(1).lower() in PRESETS:
        return RuleSet.from_preset(match.group(1), **_parse_overrides(match.group(2) or ""))
    if os.path.isfile(stripped):
        return parse_rules_file(stripped)
    if match is not None and match.group(2) is not None:
        raise BadInput(_unknown_rules_message(match.group(1)))
    raise BadInput(_unknown_rules_message(text))


def _parse_overrides(body):
    """``knob=value,...`` -> dict of knob -> text, rejecting unknown and repeated knobs."""
    overrides = {}
    for item in body.split(","):
        if not item.strip():
            if body.strip():
                raise BadInput(f"empty knob in ({body}): accepted: knob=value,knob=value")
            continue
        name, eq, value = item.partition("=")
        name = name.strip().lower()
        if not eq:
            raise BadInput(f"{_q(item.strip())} is not knob=value: accepted: "
                           "(knob=value,knob=value), e.g. classic(black_three_freezes=true)")
        if name not in KNOBS:
            raise BadInput(_unknown_knob_message(name))
        if name in overrides:
            raise BadInput(f"knob {name!r} is given twice: accepted is each knob once")
        overrides[name] = value.strip()
    return overrides


def parse_rules_file(path) -> RuleSet:
    """A :class:`RuleSet` from a TOML file: ``preset = "..."`` (default classic) plus knobs."""
    try:
        import tomllib
    except ModuleNotFoundError:  # Python 3.10
        import tomli as tomllib
    import stat

    try:
        mode = os.stat(path).st_mode
    except OSError:
        mode = None
    if mode is not None and not stat.S_ISREG(mode):
        kind = "a directory" if stat.S_ISDIR(mode) else "not a regular file"
        raise BadInput(f"rule file {path!r} is {kind}: accepted are a preset name, a "
                       "canonical string or a regular .toml file")
    try:
        with open(path, "rb") as handle:
            data = tomllib.load(handle)
    except UnicodeDecodeError as exc:
        raise BadInput(f"rule file {path!r} is not UTF-8 text (byte {exc.start}): accepted: a "
                       "UTF-8 .toml file") from None
    except FileNotFoundError:
        raise BadInput(f"rule file {path!r} does not exist: accepted are a preset name, a "
                       "canonical string or an existing .toml file") from None
    except OSError as exc:
        raise BadInput(f"cannot read rule file {path!r}: {exc.strerror}") from None
    except tomllib.TOMLDecodeError as exc:
        message = str(exc).splitlines()[0]
        raise BadInput(f"rule file {path!r} is not valid TOML: {message}") from None
    preset = data.pop("preset", "classic")
    if not isinstance(preset, str):
        raise BadInput(f"preset={_q(preset)} in {path!r} is not text: accepted presets are "
                       f"{', '.join(PRESETS)}")
    for name in data:
        if name not in KNOBS:
            raise BadInput(f"{_unknown_knob_message(name)} (in {path!r})")
    return RuleSet.from_preset(preset, **data)


def knob_table() -> list:
    """Rows (knob, classic default as canonical text) for help texts and docs."""
    classic = preset_rules("classic")
    return [(name, KNOBS[name].format(getattr(classic, name))) for name in KNOBS]


def replace(rules: RuleSet, **changes: Any) -> RuleSet:
    """A copy of ``rules`` with some knobs changed (validated, same preset)."""
    unknown = sorted(set(changes) - set(KNOBS) - {"preset"})
    if unknown:
        raise BadInput(_unknown_knob_message(unknown[0]))
    return dataclasses.replace(rules, **changes)
