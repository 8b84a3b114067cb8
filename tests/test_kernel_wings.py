"""The kernels' floor plan (docs/architecture.md): three wings that import in one direction,
a switch that is the only place testing a policy id, and a map that declares every slot of the
deal state once."""
import ast
import re
from pathlib import Path

import numpy as np
from canasta_sim.kernels.game import slots, state

KERNELS = Path(__file__).resolve().parents[1] / "kernels"
WINGS = ("game", "players", "play")


def _imported_wings(path):
    """The wings (and top-level modules) a kernel file imports, by its relative imports."""
    tree = ast.parse(path.read_text())
    here = path.relative_to(KERNELS).parent.parts
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.level > 0:
            base = list(here[:len(here) - (node.level - 1)]) if node.level > 1 else list(here)
            target = base + (node.module.split(".") if node.module else [])
            found.add(target[0] if target else "")
    return found


def test_the_wings_import_in_one_direction():
    allowed = {"game": {"game", "jit"}, "players": {"game", "players", "jit"},
               "play": {"game", "players", "play", "jit"}}
    for wing in WINGS:
        for path in sorted((KERNELS / wing).glob("*.py")):
            bad = _imported_wings(path) - allowed[wing]
            assert not bad, f"{path.relative_to(KERNELS)} imports {sorted(bad)}"


def test_only_the_players_test_a_policy_id():
    """The rules and the loops never name a player: policy ids appear in players/ only (and
    the search players, classic's and Modern American's with its rollouts, which are ones)."""
    search = {"play/search.py", "play/american/search.py", "play/american/rollout.py"}
    for path in sorted(KERNELS.rglob("*.py")):
        rel = path.relative_to(KERNELS).as_posix()
        if rel.startswith("players/") or rel in search:
            continue
        assert not re.search(r"\bPOLICY_[A-Z]+\b", path.read_text()), rel


def test_the_turn_asks_the_switch_for_every_decision():
    """play/turn.py imports no player module but the switch."""
    text = (KERNELS / "play" / "turn.py").read_text()
    players = set(re.findall(r"from \.\.players\.(\w+) import", text))
    assert players == {"switch"}


def _maps():
    return {"st": (slots.ST_SLOTS, slots.NST), "seatv": (slots.SEAT_SLOTS, slots.NSEATV),
            "sidev": (slots.SIDE_SLOTS, slots.NSIDEV), "ws": (slots.WS_SLOTS, slots.WS_ROWS),
            "melds": (slots.MELD_COLUMNS, slots.M_COLS), "wm": (slots.WM_SLOTS, None)}


def test_the_slot_map_sizes_the_state_arrays():
    S = state.new_state()
    assert S.st.shape == (slots.NST,)
    assert S.seatv.shape[1] == slots.NSEATV and S.sidev.shape[1] == slots.NSIDEV
    assert S.ws.shape[0] == slots.WS_ROWS and S.melds.shape[1] == slots.M_COLS
    assert S.wm.shape[0] == len(slots.WM_SLOTS)
    for name, (table, total) in _maps().items():
        widths = sum(s.width for s in table)
        assert total is None or widths == total, name


def test_every_slot_is_declared_once_with_its_meaning():
    seen = set()
    for name, (table, _) in _maps().items():
        at = 0
        for slot in table:
            if slot.name is not None:
                assert slot.name not in seen, slot.name
                seen.add(slot.name)
                assert getattr(slots, slot.name) == at, slot.name
                assert slot.meaning and "\n" not in slot.meaning, slot.name
            at += slot.width
    # every slot constant the kernels use is in the map
    used = set()
    for path in KERNELS.rglob("*.py"):
        used |= set(re.findall(r"\b((?:ST|SEAT|SIDE|WS|WM|M)_[A-Z0-9_]+)\b", path.read_text()))
    totals = {"NST", "NSEATV", "NSIDEV", "WS_ROWS", "M_COLS", "WS_COLS"}
    maps = {"ST_SLOTS", "SEAT_SLOTS", "SIDE_SLOTS", "WS_SLOTS", "WM_SLOTS", "MELD_COLUMNS"}
    state_like = {u for u in used if u.startswith(("ST_", "SEAT_", "WS_", "WM_", "M_"))
                  or (u.startswith("SIDE_") and hasattr(slots, u))}
    assert state_like - seen - totals - maps == set()


def test_a_named_state_is_the_tuple_numba_sees():
    S = state.new_state_nb()
    assert isinstance(S, state.DealState)
    assert S._fields == ("hands", "melds", "deck", "pile", "st", "seatv", "sidev", "rng",
                         "ws", "wm")
    copy = state.copy_state(S)
    assert isinstance(copy, state.DealState)
    assert all(a is not b and np.array_equal(a, b) for a, b in zip(S, copy))
