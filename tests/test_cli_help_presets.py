"""The --rules help names every preset a playing command accepts."""
from canasta_sim.cli import RULES_HELP
from canasta_sim.rules import PLAYABLE_PRESETS


def test_rules_help_names_every_playable_preset():
    for name in PLAYABLE_PRESETS:
        assert f" {name}," in RULES_HELP or f"({name}," in RULES_HELP or f" {name};" in RULES_HELP, name
