"""Which family's analysis a traced deal or a position file belongs to: classic's
(:mod:`.position`, :mod:`.posfile`) or Modern American's (:mod:`.american`,
:mod:`.posfile_american`), read from the rule set it names.  The one place that knows both,
so that neither family's modules import the other's."""
from __future__ import annotations

from canasta_sim.errors import BadInput


def _american(text) -> bool:
    """Whether the rule set ``text`` (a RuleSet or what parse_rules reads) is Modern American."""
    from canasta_sim.rules import parse_rules

    return parse_rules(text).american


def deal_script(events: list, rules=None):
    """The script of a traced deal for its rule set's family: :class:`.position.DealScript`,
    or :class:`.american.MacDealScript` for Modern American."""
    if not events or events[0].get("ev") != "start":
        raise BadInput("a deal must begin with its start line (docs/trace.md)")
    if _american(rules if rules is not None else events[0].get("rules", "classic")):
        from .american import MacDealScript

        return MacDealScript(events, rules)
    from .position import DealScript

    return DealScript(events, rules)


def position_script(data):
    """The script of a position's data for its rule set's family:
    :class:`.posfile.PositionScript`, or :class:`.posfile_american.MacPositionScript`."""
    from canasta_sim.rules import parse_rules

    rules = parse_rules(data.get("rules", "classic")) if isinstance(data, dict) else None
    if rules is not None and rules.american:
        from .posfile_american import MacPositionScript

        return MacPositionScript(data, rules)
    from .posfile import PositionScript

    return PositionScript(data)


def read_position(path):
    """A position file (JSON), checked: the script of its family."""
    from .posfile import read_position_data

    return position_script(read_position_data(path))


def position_of(script, decision) -> dict:
    """The position file of a decision of a traced deal of either family."""
    if getattr(script, "american", False):
        from .posfile_american import position_of as american_position_of

        return american_position_of(script, decision)
    from .posfile import position_of as classic_position_of

    return classic_position_of(script, decision)
