"""The metric catalogue (canasta_sim.study.catalogue) holds every metric the engine emits.

Small studies of every shape (deals and games, crn and duplicate, two and three sides) are
played and read back the way the summary reads them; every metric they yield must be in the
catalogue, with a kind its values fit.  A name that is not catalogued fails loudly, in the
catalogue and in the report.
"""
import numpy as np
import pytest

from canasta_sim.study import catalogue, execute, report, store
from canasta_sim.study.summary import RangeReader

SHAPES = {
    "deals-crn": ('deals = 60', 'design = "crn"', "classic", "greedy"),
    "deals-duplicate": ("deals = 80", 'design = "duplicate"', "classic",
                        "greedy,random,greedy,random"),
    "deals-three-sides": ('deals = 120', 'design = "duplicate"', "three-player",
                          "greedy,random,careful"),
    "games-crn": ('games = 4', 'design = "crn"', "classic", "greedy"),
    "games-duplicate": ('games = 8', 'design = "duplicate"', "two-player", "expert,random"),
    "games-three-sides": ('games = 9', 'design = "duplicate"', "three-player",
                          "greedy,random,careful"),
}


def _spec(name, units, design, rules, policies) -> str:
    """A one-arm study spec."""
    return (f'[study]\nname = "{name}"\nseed = 7\n{units}\n{design}\n\n'
            f'[[arms]]\nname = "a"\nrules = "{rules}"\npolicies = "{policies}"\n')


@pytest.fixture(scope="module")
def emitted(tmp_path_factory):
    """{shape: {metric: Values}} of the first range of every shape's study."""
    found = {}
    for shape, parts in SHAPES.items():
        out = tmp_path_factory.mktemp(shape)
        execute.run(_spec(shape, *parts), str(out / "study"), threads=1, report=False)
        study = store.open_study(str(out / "study"))
        first, count = study.spec.ranges()[0]
        found[shape] = RangeReader(study).units("a", first, count)[0]
    return found


def _metrics(units: dict) -> list:
    """The metric names of a range's units (names starting with _ are not metrics)."""
    return [name for name in units if not name.startswith("_")]


@pytest.mark.parametrize("shape", SHAPES)
def test_every_emitted_metric_is_catalogued(emitted, shape):
    missing = [m for m in _metrics(emitted[shape]) if m not in catalogue.CATALOGUE]
    assert not missing, f"metrics emitted but not catalogued: {missing}"


def test_every_listed_metric_is_catalogued():
    for games in (False, True):
        for sides in (2, 3):
            names = catalogue.metric_names(games, sides)
            assert set(names) <= set(catalogue.CATALOGUE)
    assert set(catalogue.KEY_METRICS) <= set(catalogue.CATALOGUE)


def test_every_catalogued_metric_is_emitted(emitted):
    """No row of the catalogue is dead: each metric comes out of some study shape (sides of
    index 2 only from three-sided rule sets)."""
    seen = {m for units in emitted.values() for m in _metrics(units)}
    assert set(catalogue.CATALOGUE) == seen


@pytest.mark.parametrize("shape", SHAPES)
def test_values_fit_their_kind(emitted, shape):
    """A share's per-unit values lie in 0..1, a count's are not negative."""
    for name, values in emitted[shape].items():
        if name.startswith("_"):
            continue
        y = np.asarray(values.y, dtype=float)
        n = np.ones_like(y) if values.n is None else np.asarray(values.n, dtype=float)
        ratio = y[n > 0] / n[n > 0]
        kind = catalogue.metric_kind(name)
        if kind == "share":
            assert ((ratio >= 0) & (ratio <= 1)).all(), name
        elif kind == "count":
            assert (ratio >= 0).all(), name


def test_rows_are_complete():
    for name, row in catalogue.CATALOGUE.items():
        assert row.name == name
        assert row.kind in catalogue.KINDS
        assert row.words and row.computed
        assert row.unit == {"points": "points", "share": "%"}.get(row.kind, row.unit)
    assert catalogue.metric_unit("went_out", diff=True) == "pp"
    assert catalogue.metric_unit("turns") == "turns"
    assert catalogue.metric_label("s1_score") == "side 1's deal score"


def test_an_unknown_metric_fails_loudly():
    with pytest.raises(catalogue.UnknownMetric, match="not in the catalogue"):
        catalogue.metric("colour_share")
    with pytest.raises(catalogue.UnknownMetric):
        report.metric_kind("wins")
    summary = {"study": {"name": "x", "design": "crn", "unit": "deal", "baseline": "a"},
               "effects": [{"metric": "colour_share", "arm": "b", "baseline": "a",
                            "estimate": 0.1, "ci_low": 0.0, "ci_high": 0.2}]}
    with pytest.raises(catalogue.UnknownMetric):
        report.render_markdown(summary, {})
