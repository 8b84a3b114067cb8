"""The metric catalogue: every metric a study can report, with its kind, unit and meaning.

One row per metric: its ``name`` (as in ``summary.json``), its ``kind``, the ``unit`` of its
values, its ``words`` (the metric in plain words, as the report's sentences name it) and how
it is ``computed`` from the stored rows (by :mod:`canasta_sim.study.metrics`).  The summary,
the report and the plots read kinds, units and words from here and nowhere else; a name
that is not catalogued raises :class:`UnknownMetric` (tests/test_metric_catalogue.py checks
that every metric the engine emits is here).

Kinds:

* ``points``: a number of points (deal scores, bonuses, margins);
* ``share``: the mean of 0/1 events (a draw counting half where said), 0..1, written as a
  percentage and its differences in percentage points;
* ``count``: a number of things per unit (turns, cards, canastas, deals).
"""
from __future__ import annotations

from typing import NamedTuple

from canasta_sim.kernels.game import layout

KINDS = ("points", "share", "count")
DEAL_SCALARS = ("turns", "stock_left", "upcards_turned", "concealed")
DERIVED = ("score_diff", "total_score", "total_pile_takes", "went_out", "special_end",
           "first_player_advantage", "first_player_wins_deal")
GAME_SCALARS = ("win_rate", "deals_per_game", "final_margin", "first_player_won_game",
                "lead_changes")
LEADER_K = (1, 2, 3, 4)
KEY_METRICS = ("score_diff", "s0_score", "s1_score", "went_out", "turns",
               "first_player_advantage", "win_rate", "deals_per_game")
"""The metrics a summary names as its key metrics (``study.key_metrics``), those a study has."""
RULE_EFFECTS = ("total_score", "turns", "total_pile_takes", "went_out",
                "first_player_advantage")
"""The effects that matter for a rule change, in this order on a tie: the answer of a study
of rule arms ranks them by relative size (score_diff joins them only when the arms treat the
sides differently)."""


class Metric(NamedTuple):
    """One metric of the catalogue."""

    name: str
    kind: str        # points, share or count (see the module's docstring)
    unit: str        # the unit of its values: points, %, turns, cards, ... ('' for none)
    words: str       # the metric in plain words, as sentences of the report name it
    computed: str    # how it is computed from the stored rows


class UnknownMetric(KeyError):
    """A metric name that the catalogue does not hold."""


_UNIT_OF_KIND = {"points": "points", "share": "%"}

# name -> (kind, count unit, words, how computed)
_DEAL = {
    "score_diff": ("points", "", "the deal-score difference (side 0 minus side 1)",
                   "s0_score minus s1_score of each deal"),
    "total_score": ("points", "", "all sides' points per deal together",
                    "the sum of every side's deal score (s0_score + s1_score + ...)"),
    "total_pile_takes": ("count", "takes", "pile takes per deal (all sides)",
                         "the sum of every side's pile takes in the deal"),
    "went_out": ("share", "", "the share of deals ended by going out",
                 "1 if the deal ended by a player going out (R39), 0 if the stock ran out "
                 "(or, in Modern American, a special hand ended it)"),
    "special_end": ("share", "", "the share of deals ended by a special hand",
                    "1 if a special hand ended the deal (Modern American, A52; always 0 in "
                    "classic)"),
    "first_player_advantage": (
        "points", "", "the first player's advantage in deal score",
        "the deal score of the first player's side (the seat left of the dealer, R10) "
        "minus the mean of the other sides' scores"),
    "first_player_wins_deal": (
        "share", "", "the share of deals won by the first player's side",
        "1 if the first player's side scored strictly more than every other side"),
    "turns": ("count", "turns", "turns per deal", "the deal's turns column"),
    "stock_left": ("count", "cards", "the cards left in the stock",
                   "the deal's stock_left column"),
    "upcards_turned": ("count", "cards", "the upcards turned",
                       "the deal's upcards_turned column"),
    "concealed": ("share", "", "the share of deals ended by going out concealed",
                  "the deal's concealed column (1 if the player went out concealed)"),
}
# side field -> (kind, count unit, words after "side k's")
_SIDE = {
    "score": ("points", "", "deal score"), "melds": ("points", "", "meld points"),
    "natural": ("count", "canastas", "natural canastas"),
    "mixed": ("count", "canastas", "mixed canastas"),
    "canasta_bonus": ("points", "", "canasta bonus"), "red3": ("count", "cards", "red threes"),
    "red3_dealt": ("count", "cards", "red threes dealt"),
    "red3_points": ("points", "", "red-three points"),
    "out_bonus": ("points", "", "going-out bonus"), "hand": ("points", "", "hand penalty"),
    "melded": ("share", "", "share of deals with a meld"),
    "pile_takes": ("count", "takes", "pile takes"),
    "final": ("points", "", "final score"),
}
_GAME = {
    "win_rate": ("share", "", "side 0's game win rate",
                 "1 if side 0 won the game, 0.5 if it was drawn or cut off, 0 if lost"),
    "deals_per_game": ("count", "deals", "deals per game", "the game's deals column"),
    "final_margin": ("points", "", "the final margin (winner minus runner-up)",
                     "the highest final score minus the second highest"),
    "first_player_won_game": (
        "share", "", "the share of games won by the first player's side",
        "1 if the side of the game's first player won, 0.5 if drawn or cut off, else 0"),
    "lead_changes": ("count", "", "lead changes per game",
                     "times the strict leader after a deal changed within the game "
                     "(a tie keeps the previous leader)"),
    "comeback": ("share", "", "the share of decided games won from behind",
                 "1 if the winner was strictly behind another side after some deal; over "
                 "decided games only"),
    "points_per_deal": ("points", "", "points per deal",
                        "duplicate designs: lineup 0's deal score minus the mean of the "
                        "other sides' scores, whichever side it sits on"),
}


def side_metrics(num_sides: int) -> list:
    """``s{k}_{field}`` for every side and field."""
    return [f"s{k}_{f}" for k in range(num_sides) for f in layout.SIDE_FIELDS]


def deal_metric_names(num_sides: int = layout.MAX_SIDES) -> list:
    """The per-deal metrics of a rule set with ``num_sides`` sides."""
    return list(DERIVED) + list(DEAL_SCALARS) + side_metrics(num_sides)


def game_metric_names(num_sides: int = layout.MAX_SIDES) -> list:
    """The per-game metrics of a game study."""
    return (list(GAME_SCALARS) + [f"s{k}_final" for k in range(num_sides)]
            + ["comeback"] + [f"leader_wins_k{k}" for k in LEADER_K])


def metric_names(games: bool, num_sides: int = layout.MAX_SIDES) -> list:
    """Every metric of a deal study, or of a game study (per-game, then per-deal)."""
    if games:
        return game_metric_names(num_sides) + deal_metric_names(num_sides)
    return deal_metric_names(num_sides)


def _row(name: str, kind: str, count_unit: str, words: str, computed: str) -> Metric:
    """A catalogue row; the unit follows the kind (a count has its own)."""
    assert kind in KINDS, kind
    return Metric(name, kind, _UNIT_OF_KIND.get(kind, count_unit), words, computed)


def _build() -> dict:
    """name -> Metric for every metric a study can report."""
    rows = [_row(name, *entry) for name, entry in {**_DEAL, **_GAME}.items()]
    for k in range(layout.MAX_SIDES):
        for field in (*layout.SIDE_FIELDS, "final"):
            kind, unit, words = _SIDE[field]
            rows.append(_row(f"s{k}_{field}", kind, unit, f"side {k}'s {words}",
                             f"the s{k}_{field} column of each "
                             f"{'game' if field == 'final' else 'deal'}"))
    for k in LEADER_K:
        rows.append(_row(f"leader_wins_k{k}", "share", "", f"leader wins k{k}",
                         f"1 if the strict leader after deal {k} won the game; over games "
                         f"that lasted more than {k} deals and were decided"))
    return {row.name: row for row in rows}


CATALOGUE = _build()
"""name -> :class:`Metric`, every metric a study can report."""


def metric(name: str) -> Metric:
    """The catalogue row of ``name``; UnknownMetric if it is not catalogued."""
    try:
        return CATALOGUE[name]
    except (KeyError, TypeError):
        raise UnknownMetric(f"metric {name!r} is not in the catalogue "
                            "(canasta_sim/study/catalogue.py)") from None


def metric_kind(name: str) -> str:
    """The kind of a metric: 'points', 'share' (0..1) or 'count'."""
    return metric(name).kind


def metric_unit(name: str, diff: bool = False) -> str:
    """The unit of a metric's values for axis labels ('points', '%', 'turns', ...); a
    difference of shares is in percentage points ('pp')."""
    row = metric(name)
    return "pp" if diff and row.kind == "share" else row.unit


def metric_label(name: str) -> str:
    """The metric in words, for sentences."""
    return metric(name).words
