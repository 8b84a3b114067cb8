"""The study spec: what a study plays, read from TOML and validated before anything runs.

A spec names the study, its master seed, how many deals (or games) every arm plays,
the design and the arms::

    [study]
    name = "b3f"
    seed = 1
    deals = 200000          # or: games = 4000
    design = "crn"          # or "duplicate"

    [[arms]]
    name = "classic"
    rules = "classic"
    policies = "greedy"

    [[arms]]
    name = "b3f"
    rules = "classic(black_three_freezes=true)"
    policies = "greedy"
    sweep = ["rules.hand_size=11:13"]     # expands into arms b3f.hand_size-11, -12, -13

``crn`` (common random numbers): every arm plays the same deal (game) seeds.
``duplicate``: every arm also plays each seed with the sides' policies rotated, so each
lineup of policies holds every side's cards once (two sides: swapped).

:func:`load_spec` returns a :class:`Spec` with the sweeps expanded into arms, every rule
set and policy text canonical; :meth:`Spec.spec_hash` identifies it, and
:meth:`Spec.to_toml` writes the frozen form that loads back to the same hash.
"""
from __future__ import annotations

import hashlib
import itertools
import json
import math
import os
import re
from typing import NamedTuple, Optional

from canasta_sim.errors import BadInput

DESIGNS = ("crn", "duplicate")
DEFAULT_DEAL_SHARD = 65536
DEFAULT_GAME_SHARD = 2048
MAX_ARMS = 256
MAX_SHARDS = 200_000
ARM_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.+-]{0,79}$")
ARM_NAME_ACCEPTED = ("accepted: 1-80 letters, digits and _ . + - (starting with a letter or "
                     "digit), e.g. b3f")

STUDY_KEYS = ("name", "seed", "deals", "games", "seeds", "design", "shard_size", "baseline",
              "scores")
ARM_KEYS = ("name", "rules", "policies", "sweep", "swept")
SPRT_KEYS = ("metric", "h0", "h1", "alpha", "beta", "wave", "wave_size")
DEFAULT_SPRT_WAVE_DEALS = 200
DEFAULT_SPRT_WAVE_GAMES = 20
TOP_KEYS = ("study", "arms", "sprt")


class Arm(NamedTuple):
    """One arm: a rule set and a policy per seat (canonical texts), with its swept values."""

    name: str
    rules: str                  # canonical rule-set string
    policies: tuple             # canonical policy text per seat
    swept: tuple = ()           # ((parameter, value), ...) for arms expanded from a sweep

    def policies_text(self) -> str:
        """The policies as one comma-separated text, one per seat."""
        return ",".join(self.policies)

    def rule_set(self):
        """The arm's :class:`~canasta_sim.rules.RuleSet`."""
        from canasta_sim.rules import parse_rules

        return parse_rules(self.rules)

    def rotated(self, rotation: int) -> tuple:
        """Seat policies with the sides rotated: side k plays side (k + rotation)'s lineup."""
        from canasta_sim.arms import rotated

        return rotated(self.policies, rotation)

    def lineups(self) -> list:
        """Per side, the policies of its seats (one name when they agree)."""
        rules = self.rule_set()
        result = []
        for seats in rules.sides():
            names = [self.policies[s] for s in seats]
            result.append(names[0] if len(set(names)) == 1 else ",".join(names))
        return result


class Sprt(NamedTuple):
    """A sequential test: stop once the data decide between h0 and h1 on ``metric``."""

    metric: str
    h0: float
    h1: float
    alpha: float = 0.05
    beta: float = 0.05
    wave: int = 1               # ranges (one shard of every arm each) played between checks
    wave_size: int = DEFAULT_SPRT_WAVE_DEALS   # units (deals, games) between two looks


class Spec(NamedTuple):
    """A validated study: the arms expanded, every text canonical."""

    name: str
    seed: int
    units: int                  # seeds per arm: deals (games) per arm / rotations
    games: bool                 # True: whole games; False: independent deals
    design: str
    shard_size: int
    baseline: str
    arms: tuple
    scores: Optional[tuple] = None   # deals only: each side's score before the deal
    sprt: Optional[Sprt] = None

    @property
    def unit(self) -> str:
        """``deal`` or ``game``."""
        return "game" if self.games else "deal"

    def arm(self, name: str) -> Arm:
        """The arm called ``name``."""
        for arm in self.arms:
            if arm.name == name:
                return arm
        raise KeyError(name)

    def rotations(self, arm: Arm) -> int:
        """How many times each seed is played: 1 (crn) or the number of sides (duplicate)."""
        return arm.rule_set().num_sides if self.design == "duplicate" else 1

    def played(self) -> int:
        """Deals (games) every arm plays: its seeds times the rotations of the design."""
        return self.units * (self.rotations(self.arms[0]) if self.arms else 1)

    def ranges(self) -> list:
        """(first, count) of every shard range, the same for every arm."""
        size = self.shard_size
        return [(first, min(size, self.units - first)) for first in range(0, self.units, size)]

    def to_dict(self) -> dict:
        """The spec as plain data (the frozen form, sweeps expanded)."""
        study = {"name": self.name, "seed": self.seed,
                 ("games" if self.games else "deals"): self.played()}
        if self.design == "duplicate":   # the seeds too: the hash of a count's one meaning
            study["seeds"] = self.units
        study.update({"design": self.design, "shard_size": self.shard_size,
                      "baseline": self.baseline})
        if self.scores is not None:
            study["scores"] = list(self.scores)
        data = {"study": study,
                "arms": [{"name": a.name, "rules": a.rules, "policies": a.policies_text(),
                          **({"swept": dict(a.swept)} if a.swept else {})}
                         for a in self.arms]}
        if self.sprt is not None:
            data["sprt"] = self.sprt._asdict()
        return data

    def spec_hash(self) -> str:
        """A short sha256 of the frozen spec: two specs that play the same rows share it."""
        text = json.dumps(self.to_dict(), sort_keys=True, separators=(",", ":"))
        return hashlib.sha256(text.encode()).hexdigest()[:16]

    def to_toml(self) -> str:
        """The frozen spec as TOML text; :func:`parse_spec` of it gives the same hash."""
        data = self.to_dict()
        lines = ["# Frozen by canasta-sim: the study as played (sweeps expanded).",
                 f"# spec hash {self.spec_hash()}", "", "[study]"]
        lines += [f"{k} = {_toml_value(v)}" for k, v in data["study"].items()]
        if "sprt" in data:
            lines += ["", "[sprt]"] + [f"{k} = {_toml_value(v)}" for k, v in data["sprt"].items()]
        for arm in data["arms"]:
            lines += ["", "[[arms]]"] + [f"{k} = {_toml_value(v)}" for k, v in arm.items()]
        return "\n".join(lines) + "\n"


def _toml_value(value) -> str:
    """A scalar, list or flat table as TOML text."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        return repr(value)
    if isinstance(value, str):
        return toml_string(value)
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(_toml_value(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{toml_string(k)} = {_toml_value(v)}"
                               for k, v in value.items()) + "}"
    raise TypeError(value)


_TOML_ESCAPES = {'"': '\\"', "\\": "\\\\", "\b": "\\b", "\t": "\\t", "\n": "\\n",
                 "\f": "\\f", "\r": "\\r"}
_TOML_MUST_ESCAPE = re.compile('["\\\\\x00-\x1f\x7f]')


def toml_string(text: str) -> str:
    """A TOML basic string: quote, backslash and control characters escaped, every other
    character (an emoji too) as itself.  JSON's escapes are not TOML's: JSON writes a
    character outside the BMP as two surrogate escapes, which TOML refuses."""
    return '"' + _TOML_MUST_ESCAPE.sub(
        lambda m: _TOML_ESCAPES.get(m.group(), f"\\u{ord(m.group()):04x}"), text) + '"'


# --------------------------------------------------------------------------------------------
# Loading and validation
# --------------------------------------------------------------------------------------------

def load_spec(source, frozen: bool = False) -> Spec:
    """A :class:`Spec` from a TOML file path, TOML text, a dict or a Spec; BadInput on error.

    ``frozen``: the source is a study folder's ``study.toml``; one frozen by a version in
    which a duplicate design's ``games`` counted seeds is refused with what to do.
    """
    if isinstance(source, Spec):
        return source
    if isinstance(source, dict):
        return parse_spec(source, frozen)
    if isinstance(source, os.PathLike):
        return load_spec_file(source, frozen)
    if not isinstance(source, str):
        raise BadInput(f"study spec {source!r} is not a file or TOML text: accepted: a path "
                       "to a .toml file")
    if "\n" in source or "[study]" in source:
        _check_size(len(source.encode("utf-8", "surrogatepass")), "the study spec")
        return parse_spec(_parse_toml(source, "the study spec"), frozen)
    return load_spec_file(source, frozen)


def load_spec_file(path, frozen: bool = False) -> Spec:
    """The :class:`Spec` in the TOML file ``path``, whatever characters its name holds (a
    folder name with a newline or ``[study]`` in it is still a path); ``frozen``: see
    :func:`load_spec`."""
    return parse_spec(_read_toml(os.fspath(path)), frozen)


MAX_SPEC_BYTES = 1 << 22
"""A spec file (and the frozen spec) holds at most 4 MiB."""


def _check_size(size: int, where: str) -> None:
    """BadInput if a spec of ``size`` bytes is over :data:`MAX_SPEC_BYTES`."""
    if size > MAX_SPEC_BYTES:
        raise BadInput(f"{where} holds {size:,} bytes: accepted: at most {MAX_SPEC_BYTES:,} "
                       "bytes (4 MiB)")


def check_round_trip(spec: Spec) -> str:
    """The frozen text of ``spec`` after loading it back, or BadInput naming the value that
    does not survive (text that is not Unicode, such as a file name of undecodable bytes,
    or a spec over 4 MiB): called before anything is written, so a study never plays
    into a frozen spec it cannot read."""
    for where, text in _texts(spec.to_dict()):
        try:
            text.encode("utf-8")
        except UnicodeEncodeError:
            raise BadInput(f"{where} {text!r} is not Unicode text (a file name of undecodable "
                           "bytes?) and cannot be frozen into study.toml: accepted: names of "
                           "UTF-8 text") from None
    text = spec.to_toml()
    _check_size(len(text.encode("utf-8")), "the frozen spec")
    try:
        again = parse_spec(_parse_toml(text, "the frozen spec"))
    except BadInput as exc:
        raise BadInput(f"the frozen spec does not load back ({exc}): accepted: names that "
                       "TOML can hold") from None
    if again.spec_hash() != spec.spec_hash():
        raise BadInput(f"the frozen spec loads back as another study (hash "
                       f"{again.spec_hash()}, not {spec.spec_hash()}): accepted: names that "
                       "TOML can hold")
    return text


def _texts(value, where="the spec"):
    """(where, text) of every text (keys too) in the spec data."""
    if isinstance(value, str):
        yield where, value
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from _texts(key, f"{where} key")
            yield from _texts(item, f"{where} {key}" if where != "the spec" else f"[{key}]")
    elif isinstance(value, (list, tuple)):
        for item in value:
            yield from _texts(item, where)


def _toml_module():
    """tomllib (Python 3.11+) or tomli."""
    try:
        import tomllib
    except ModuleNotFoundError:  # Python 3.10
        import tomli as tomllib
    return tomllib


def _read_toml(path: str) -> dict:
    """The TOML file at ``path`` as a dict, or BadInput naming the file."""
    if not os.path.exists(path):
        raise BadInput(f"study spec {path!r} does not exist: accepted: a .toml file with "
                       "[study] and [[arms]] tables (docs/studies.md)")
    if not os.path.isfile(path):
        raise BadInput(f"study spec {path!r} is not a regular file: accepted: a .toml file")
    try:
        with open(path, "rb") as handle:
            raw = handle.read(MAX_SPEC_BYTES + 1)
        _check_size(max(len(raw), os.path.getsize(path)) if len(raw) > MAX_SPEC_BYTES
                    else len(raw), f"study spec {path!r}")
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise BadInput(f"study spec {path!r} is not UTF-8 text: accepted: a .toml file") \
            from None
    except OSError as exc:
        raise BadInput(f"cannot read study spec {path!r}: {exc.strerror}") from None
    return _parse_toml(text, f"study spec {path!r}")


def _parse_toml(text: str, where: str) -> dict:
    """TOML text as a dict, or BadInput with the parser's first line."""
    tomllib = _toml_module()
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise BadInput(f"{where} is not valid TOML: {str(exc).splitlines()[0]}") from None


def _check_keys(table, allowed, where):
    """BadInput for a key of ``table`` not in ``allowed``."""
    if not isinstance(table, dict):
        raise BadInput(f"{where} is not a table: accepted: a TOML table with keys "
                       f"{', '.join(allowed)}")
    for key in table:
        if key not in allowed:
            raise BadInput(f"unknown key {key!r} in {where}: accepted keys are "
                           f"{', '.join(allowed)}")


def parse_spec(data: dict, frozen: bool = False) -> Spec:
    """Validate spec data (as read from TOML) and expand its sweeps into arms.

    ``deals`` (``games``) counts what every arm plays in every design; a duplicate design
    plays each seed once per rotation of the sides, so it takes that count / sides seeds
    (the frozen form writes them as ``seeds``).  ``frozen``: see :func:`load_spec`.
    """
    from canasta_sim import runner

    _check_keys(data, TOP_KEYS, "the study spec")
    study = data.get("study")
    if study is None:
        raise BadInput("the study spec has no [study] table: accepted: [study] with name, "
                       "seed and deals or games, then [[arms]] tables")
    _check_keys(study, STUDY_KEYS, "[study]")
    name = study.get("name", "study")
    if not isinstance(name, str) or not ARM_NAME.match(name):
        raise BadInput(f"[study] name={name!r} is not accepted: {ARM_NAME_ACCEPTED}")
    seed = runner.check_seed(study.get("seed", 0))
    games, units = _units(study)
    design = study.get("design", "crn")
    if design not in DESIGNS:
        raise BadInput(f"[study] design={design!r} is not accepted: accepted designs are "
                       f"{', '.join(DESIGNS)}")
    arms = _arms(data.get("arms"), design)
    units = _seeds(study, design, games, units, arms, frozen)
    shard_size = _shard_size(study, games, units)
    baseline = study.get("baseline", arms[0].name)
    if baseline not in [a.name for a in arms]:
        raise BadInput(f"[study] baseline={baseline!r} is not an arm: accepted arms are "
                       f"{', '.join(a.name for a in arms)}")
    arms = tuple(sorted(arms, key=lambda a: a.name != baseline))  # baseline first
    scores = _scores(study, games, arms)
    sides = min(arm.rule_set().num_sides for arm in arms)
    sprt = parse_sprt(data.get("sprt"), design, games, len(arms), sides) \
        if "sprt" in data else None
    if sprt is not None and "shard_size" not in study:   # stop playing soon after a decision
        shard_size = max(min(shard_size, SPRT_SHARD_WAVES * sprt.wave_size),
                         math.ceil(units / MAX_SHARDS))
    return Spec(name, seed, units, games, design, shard_size, baseline, arms, scores, sprt)


def _units(study) -> tuple:
    """(games?, count) from the [study] table: exactly one of deals and games."""
    from canasta_sim import runner

    if ("deals" in study) == ("games" in study):
        raise BadInput("[study] needs exactly one of deals and games: accepted: e.g. "
                       "deals = 200000 or games = 4000")
    if "games" in study:
        count = runner.check_games(study["games"], name="[study] games")
        games = True
    else:
        count = runner.check_deals(study["deals"], name="[study] deals")
        games = False
    if count < 1:
        raise BadInput(f"[study] {'games' if games else 'deals'}={count} is not accepted: "
                       "accepted: a whole number >= 1")
    return games, count


def _seeds(study, design, games, count, arms, frozen) -> int:
    """Seeds per arm: the count itself (crn), or count / sides (duplicate); BadInput unless
    whole, or when a ``seeds`` key disagrees with it."""
    key = "games" if games else "deals"
    if design != "duplicate":
        if "seeds" in study:
            raise BadInput(f"[study] seeds is given with design={design!r}: accepted: seeds "
                           "only with design = \"duplicate\" (a crn design plays each seed once)")
        return count
    sides = {arm.rule_set().num_sides for arm in arms}
    if len(sides) > 1:
        raise BadInput(f"a duplicate design's arms have {sorted(sides)} sides: accepted: "
                       "arms that all have the same number of sides")
    sides = sides.pop()
    if frozen and "seeds" not in study:
        raise BadInput(f"this study.toml was frozen by an earlier canasta-sim, in which a "
                       f"duplicate design's {key} counted seeds ({count} seeds, "
                       f"{count * sides} {key}): accepted: play it again into a new --out "
                       f"folder with {key} = {count * sides}")
    if count % sides:
        low = max(sides, count - count % sides)
        raise BadInput(f"[study] {key}={count} cannot be split into seeds played once per "
                       f"rotation of the {sides} sides (duplicate design): accepted: a "
                       f"multiple of {sides}, e.g. {key} = {low} or {key} = {low + sides}")
    if "seeds" in study and study["seeds"] != count // sides:
        raise BadInput(f"[study] seeds={study['seeds']!r} does not match {key}={count} at "
                       f"{sides} sides: accepted: seeds = {count // sides}, or no seeds key")
    return count // sides


SPRT_SHARD_WAVES = 10
"""With a sequential test and no shard_size given, a shard holds at most this many waves."""


def _shard_size(study, games, units) -> int:
    """Deals (games) per shard: given, or the default; at most MAX_SHARDS shards per arm."""
    size = study.get("shard_size", DEFAULT_GAME_SHARD if games else DEFAULT_DEAL_SHARD)
    if isinstance(size, bool) or not isinstance(size, int) or size < 1 or size > 1 << 24:
        raise BadInput(f"[study] shard_size={size!r} is not accepted: accepted: a whole "
                       f"number in 1..{1 << 24}, e.g. {DEFAULT_DEAL_SHARD}")
    if math.ceil(units / size) > MAX_SHARDS:
        raise BadInput(f"[study] shard_size={size} gives more than {MAX_SHARDS} shards per arm: "
                       f"accepted: shard_size >= {math.ceil(units / MAX_SHARDS)}")
    return size


def _scores(study, games, arms):
    """The sides' scores before each deal (deals only), checked against every arm."""
    from canasta_sim.runner import parse_scores

    if "scores" not in study:
        return None
    if games:
        raise BadInput("[study] scores is given with games: accepted: no starting scores, "
                       "every game starts at 0 (R58)")
    scores = study["scores"]
    if isinstance(scores, str):
        scores = [int(s) if re.fullmatch(r"\s*-?\d+\s*", s) else s for s in scores.split(",")]
    for arm in arms:
        parse_scores(scores, arm.rule_set().num_sides)
    return tuple(int(s) for s in scores)


def _arms(raw, design) -> tuple:
    """Every [[arms]] table validated, sweeps expanded; BadInput on a duplicate name."""
    if not isinstance(raw, list) or not raw:
        raise BadInput("the study spec has no [[arms]]: accepted: one or more [[arms]] tables "
                       "with name, rules and policies")
    arms = []
    for index, table in enumerate(raw):
        arms.extend(_expand_arm(table, index))
    seen = {}
    for arm in arms:
        other = seen.get(arm.name.lower())
        if other is not None:
            same = "used twice" if other == arm.name else f"the same as {other!r} but for case"
            raise BadInput(f"arm name {arm.name!r} is {same}: accepted: a different name for "
                           "every arm, ignoring case (sweeps add .<parameter>-<value>)")
        seen[arm.name.lower()] = arm.name
    if len(arms) > MAX_ARMS:
        raise BadInput(f"the study has {len(arms)} arms: accepted: at most {MAX_ARMS}")
    return tuple(arms)


def make_arm(name, rules, policies, swept=()) -> Arm:
    """An :class:`Arm` with its rule set and policies validated and made canonical."""
    from canasta_sim.policies import parse_policies
    from canasta_sim.rules import parse_rules

    if not isinstance(name, str) or not ARM_NAME.match(name):
        raise BadInput(f"arm name {name!r} is not accepted: {ARM_NAME_ACCEPTED}")
    rule_set = parse_rules(rules)
    rule_set.play_record()  # rejects unsupported knobs now, not mid-study
    names, _, _ = parse_policies(policies, rule_set.num_players,
                                 rule_set.num_sides)
    if rule_set.american:
        from canasta_sim.runner import check_american_policies

        check_american_policies(names)
    return Arm(name, rule_set.canonical(), tuple(names), tuple(swept))


def _expand_arm(table, index) -> list:
    """One [[arms]] table -> its arm, or one arm per combination of its swept values."""
    where = f"[[arms]] number {index + 1}"
    _check_keys(table, ARM_KEYS, where)
    name = table.get("name")
    if name is None:
        raise BadInput(f"{where} has no name: {ARM_NAME_ACCEPTED}")
    rules = table.get("rules", "classic")
    policies = table.get("policies", "greedy")
    for key, value in (("rules", rules), ("policies", policies)):
        if not isinstance(value, str):
            raise BadInput(f"arm {name!r}: {key}={value!r} is not text: accepted: e.g. "
                           f"{'classic' if key == 'rules' else 'greedy'}")
    sweeps = table.get("sweep", [])
    sweeps = [sweeps] if isinstance(sweeps, str) else sweeps
    if not isinstance(sweeps, list) or not all(isinstance(s, str) for s in sweeps):
        raise BadInput(f"arm {name!r}: sweep={sweeps!r} is not accepted: accepted: a text or "
                       "a list of texts such as rules.hand_size=11:15 or careful.freeze_at=4,8")
    base = make_arm(name, rules, policies, _swept_given(table, name))
    if not sweeps:
        return [base]
    return expand_sweeps(base, sweeps)


def _swept_given(table, name) -> tuple:
    """The ``swept`` record of a frozen spec's arm (expanded from a sweep earlier)."""
    swept = table.get("swept", {})
    if not isinstance(swept, dict) or not all(
            isinstance(v, (bool, int, float, str)) for v in swept.values()):
        raise BadInput(f"arm {name!r}: swept={swept!r} is not accepted: accepted: a flat "
                       "table of numbers, booleans or texts (written by the frozen spec)")
    return tuple(swept.items())


# --------------------------------------------------------------------------------------------
# Sweeps: policy parameters and rule knobs
# --------------------------------------------------------------------------------------------

_RULE_SWEEP = re.compile(r"^\s*rules\.([A-Za-z0-9_]+)\s*=\s*(.+?)\s*$")


def expand_sweeps(base: Arm, texts) -> list:
    """One arm per combination of the swept values, named ``<arm>.<param>-<value>...``."""
    from canasta_sim import sweep as policy_sweep

    axes = []
    for text in texts:
        if _RULE_SWEEP.match(text):
            axes.append(_rule_axis(base, text))
        else:
            one = policy_sweep.parse_sweep(text)
            axes.append((one.name, [(v, None) for v in one.values], one))
    columns = [axis[0] for axis in axes]
    if len(set(columns)) != len(columns):
        raise BadInput(f"arm {base.name!r} sweeps one parameter twice: accepted: each once")
    count = math.prod(len(axis[1]) for axis in axes)
    if count > MAX_ARMS:
        raise BadInput(f"arm {base.name!r}: the sweeps give {count} arms: accepted: at most "
                       f"{MAX_ARMS}")
    arms = []
    for combo in itertools.product(*(axis[1] for axis in axes)):
        arms.append(_swept_arm(base, axes, combo))
    return arms


def _swept_arm(base: Arm, axes, combo) -> Arm:
    """The arm of one combination of swept values."""
    from canasta_sim import sweep as policy_sweep
    from canasta_sim.numbers import format_number

    rules, policies = base.rules, base.policies_text()
    swept, suffix = [], []
    policy_sweeps, policy_values = [], []
    for (column, _, parsed), (value, rule_text) in zip(axes, combo):
        if rule_text is not None:
            rules = rule_text(rules)
            shown = value
        else:
            policy_sweeps.append(parsed)
            policy_values.append(value)
            shown = format_number(value)
        swept.append((column, value))
        suffix.append(f"{column.removeprefix('rules.')}-{_name_part(shown)}")
    if policy_sweeps:
        num_players = _num_players(rules)
        points = policy_sweep.sweep_points(policies, num_players, policy_sweeps)
        wanted = dict(zip([s.column for s in policy_sweeps], policy_values))
        policies = next(text for text, values in points if values == wanted)
    name = ".".join([base.name] + suffix)
    return make_arm(name, rules, policies, swept)


def _num_players(rules_text) -> int:
    """Seats of a rule set given as text."""
    from canasta_sim.rules import parse_rules

    return parse_rules(rules_text).num_players


def _name_part(value) -> str:
    """A swept value as part of an arm name: true, 12, 0.5, le, m1.5 for -1.5."""
    if isinstance(value, bool):
        text = "true" if value else "false"
    elif isinstance(value, float):
        text = f"{value:g}"
    else:
        text = str(value)
    text = text.replace("-", "m")
    return re.sub(r"[^A-Za-z0-9_.+]", "_", text)


def _rule_axis(base: Arm, text: str):
    """(column, [(value, rules transformer)], None) of a ``rules.knob=...`` sweep."""
    from canasta_sim.rules import KNOBS, IntKnob, OptionalIntKnob, parse_rules

    knob, body = _RULE_SWEEP.match(text).groups()
    knob = knob.lower()
    if knob not in KNOBS:
        from canasta_sim.rules import _unknown_knob_message

        raise BadInput(f"sweep {text!r}: {_unknown_knob_message(knob)}")
    kind = KNOBS[knob]
    if ":" in body and isinstance(kind, (IntKnob, OptionalIntKnob)):
        values = _int_range(text, body)
    else:
        values = [v.strip() for v in body.split(",")] if ":" not in body else None
        if not values or not all(values):
            raise BadInput(f"sweep {text!r} is malformed: accepted: rules.knob=v1,v2,... or, "
                           "for a whole-number knob, rules.knob=start:stop[:step]")
    if len(set(map(str, values))) != len(values):
        raise BadInput(f"sweep {text!r} repeats a value: accepted: each value once")
    base_rules = parse_rules(base.rules)
    choices = []
    for value in values:
        rules_text = _with_knob(base_rules, knob, str(value))
        parse_rules(rules_text).play_record()  # validate now: one line naming the knob
        choices.append((_knob_value(parse_rules(rules_text), knob),
                        lambda old, k=knob, v=str(value): _with_knob(parse_rules(old), k, v)))
    return f"rules.{knob}", choices, None


def _knob_value(rules, knob):
    """The knob's value in a JSON/TOML-friendly form (bools, ints, text)."""
    from canasta_sim.rules import KNOBS

    value = getattr(rules, knob)
    if isinstance(value, (bool, int, str)):
        return value
    return KNOBS[knob].format(value)


def _int_range(text, body) -> list:
    """``a:b[:step]`` of whole numbers, b included."""
    parts = body.split(":")
    try:
        numbers = [int(p.strip()) for p in parts]
    except ValueError:
        numbers = []
    if len(numbers) not in (2, 3) or (len(numbers) == 3 and numbers[2] <= 0) \
            or numbers[1] < numbers[0]:
        raise BadInput(f"sweep {text!r} is malformed: accepted: rules.knob=start:stop[:step] "
                       "with whole numbers, start <= stop, step >= 1, e.g. rules.hand_size=11:15")
    step = numbers[2] if len(numbers) == 3 else 1
    if (numbers[1] - numbers[0]) // step >= MAX_ARMS:
        raise BadInput(f"sweep {text!r} has more than {MAX_ARMS} values")
    return list(range(numbers[0], numbers[1] + 1, step))


def _with_knob(rules, knob, value_text) -> str:
    """The canonical text of ``rules`` with ``knob`` set to ``value_text``."""
    from canasta_sim.rules import KNOBS

    diffs = {k: KNOBS[k].format(v) for k, v in rules.differences().items()}
    diffs[knob] = value_text
    body = ",".join(f"{k}={v}" for k, v in sorted(diffs.items()))
    return f"{rules.preset}({body})"


# --------------------------------------------------------------------------------------------
# The sequential test
# --------------------------------------------------------------------------------------------

SPRT_METRICS_DUPLICATE = ("score_diff", "win_rate")


def parse_sprt(table, design, games, num_arms, num_sides=2) -> Sprt:
    """A validated [sprt] table (or the dict the CLI builds from --sprt); ``num_sides``: the
    fewest sides of any arm."""
    _check_keys(table, SPRT_KEYS, "[sprt]")
    accepted = ("accepted: metric, h0 and h1 in the metric's units, e.g. --sprt "
                "score_diff:0,10 or --sprt win_rate:0.50,0.53")
    if "metric" not in table or "h0" not in table or "h1" not in table:
        raise BadInput(f"[sprt] needs metric, h0 and h1: {accepted}")
    metric = table["metric"]
    h0, h1 = table["h0"], table["h1"]
    if not all(isinstance(x, (int, float)) and not isinstance(x, bool) and math.isfinite(x)
               for x in (h0, h1)) or h0 == h1:
        raise BadInput(f"[sprt] h0={h0!r}, h1={h1!r}: {accepted} (two different numbers)")
    alpha, beta = table.get("alpha", 0.05), table.get("beta", 0.05)
    for key, value in (("alpha", alpha), ("beta", beta)):
        if not isinstance(value, (int, float)) or isinstance(value, bool) \
                or not 0 < value < 0.5:
            raise BadInput(f"[sprt] {key}={value!r} is not accepted: accepted: a number "
                           "between 0 and 0.5, e.g. 0.05")
    wave = table.get("wave", 1)
    if isinstance(wave, bool) or not isinstance(wave, int) or wave < 1:
        raise BadInput(f"[sprt] wave={wave!r} is not accepted: accepted: a whole number >= 1 "
                       "(shard ranges played between two checks)")
    wave_size = table.get("wave_size")
    if wave_size is None:
        wave_size = DEFAULT_SPRT_WAVE_GAMES if games else DEFAULT_SPRT_WAVE_DEALS
    if isinstance(wave_size, bool) or not isinstance(wave_size, int) \
            or not 1 <= wave_size <= 1 << 24:
        raise BadInput(f"[sprt] wave_size={wave_size!r} is not accepted: accepted: a whole "
                       f"number in 1..{1 << 24} ({'games' if games else 'deals'} between two "
                       f"looks of the test), e.g. "
                       f"{DEFAULT_SPRT_WAVE_GAMES if games else DEFAULT_SPRT_WAVE_DEALS}")
    _check_sprt_metric(metric, design, games, num_arms, num_sides)
    _check_sprt_share_bounds(metric, design, float(h0), float(h1))
    return Sprt(metric, float(h0), float(h1), float(alpha), float(beta), wave, wave_size)


def _check_sprt_share_bounds(metric, design, h0, h1):
    """BadInput unless h0 and h1 of a share lie strictly inside its possible range: (0, 1)
    for a duplicate win rate, (-1, 1) for a crn effect on a share."""
    from canasta_sim.study.catalogue import metric_kind

    if metric_kind(metric) != "share":
        return
    low, high = (0.0, 1.0) if design == "duplicate" else (-1.0, 1.0)
    if not (low < h0 < high and low < h1 < high):
        raise BadInput(f"[sprt] h0={h0!r}, h1={h1!r} for the share {metric!r}: accepted: "
                       f"two numbers strictly between {low:g} and {high:g} (a share is 0..1, "
                       "an effect on it -1..1), e.g. 0,0.01")


def _check_sprt_metric(metric, design, games, num_arms, num_sides):
    """BadInput unless the test is well defined for this design and these arms."""
    if design == "duplicate":
        # a win rate of 1/2 is the fair share of two sides only
        allowed = SPRT_METRICS_DUPLICATE if games and num_sides == 2 else ("score_diff",)
        if num_arms != 1:
            raise BadInput(f"--sprt with a duplicate design needs exactly one arm (one match), "
                           f"the study has {num_arms}: accepted: one [[arms]] table")
    else:
        from canasta_sim.study.catalogue import metric_names

        allowed = metric_names(games, num_sides)
        if num_arms != 2:
            raise BadInput(f"--sprt with a crn design needs exactly two arms (baseline and one "
                           f"other), the study has {num_arms}")
    if metric not in allowed:
        raise BadInput(f"[sprt] metric={metric!r} is not accepted here: accepted metrics are "
                       f"{', '.join(allowed)}")


def parse_sprt_option(text: str, alpha=0.05, beta=0.05, wave=1, wave_size=None) -> dict:
    """``metric:h0,h1`` (the CLI's --sprt) -> an [sprt] table."""
    match = re.fullmatch(r"\s*([A-Za-z0-9_]+)\s*:\s*([-+0-9.eE]+)\s*,\s*([-+0-9.eE]+)\s*",
                         str(text))
    if match is None:
        raise BadInput(f"--sprt {text!r} is malformed: accepted: METRIC:H0,H1, e.g. "
                       "score_diff:0,10 or win_rate:0.50,0.53")
    try:
        h0, h1 = float(match.group(2)), float(match.group(3))
    except ValueError:
        raise BadInput(f"--sprt {text!r}: H0 and H1 must be numbers, e.g. win_rate:0.50,0.53") \
            from None
    table = {"metric": match.group(1), "h0": h0, "h1": h1, "alpha": alpha, "beta": beta,
             "wave": wave}
    if wave_size is not None:
        table["wave_size"] = wave_size
    return table
