"""Metrics of a study: the per-unit values that the statistics average and compare.

A *unit* is what is independent across seeds and paired across arms: a deal (deal
studies) or a game (game studies); in a duplicate design a unit is a seed with every
rotation of the sides played on it.  For each unit and metric this module gives a pair
``(y, n)``: the estimate is ``sum(y) / sum(n)``.  Per-unit metrics have ``n = 1``
(``y`` is averaged over the rotations of a duplicate seed); per-deal metrics of a game
study have ``y`` = the sum over the game's deals and ``n`` = its deals (a ratio
estimator clustered by game).

The metrics, their kinds, units and meanings are those of the catalogue
(canasta_sim.study.catalogue); in short (every numeric per-deal column, and):

* ``score_diff``: side 0's deal score minus side 1's;
* ``total_score``: every side's deal score added up (all points of the deal together);
* ``total_pile_takes``: every side's pile takes in the deal added up;
* ``went_out``: 1 if the deal ended by a player going out (R39), 0 if the stock ran out;
* ``special_end``: 1 if a special hand ended the deal (Modern American, A52), else 0;
* ``first_player_advantage``: the deal score of the side of the first player (the seat
  left of the dealer, R10) minus the mean of the other sides;
* ``first_player_wins_deal``: 1 if that side scored strictly more than every other side;
* games: ``win_rate`` (side 0 won; a draw counts half), ``deals_per_game``, ``s{k}_final``,
  ``final_margin`` (winner's final score minus the runner-up's), ``first_player_won_game``
  (the side of the game's first player won), ``lead_changes``, ``comeback`` (the winner
  was strictly behind after some deal; decided games only), ``leader_wins_k{1..4}``
  (the strict leader after deal k won; games that lasted more than k deals).
"""
from __future__ import annotations

from typing import NamedTuple

import numpy as np

from canasta_sim.study.catalogue import DEAL_SCALARS, LEADER_K, side_metrics

LINEUP_BY_ROTATION = "_lineup_by_rotation"   # not a metric: lineup 0's game results


class Values(NamedTuple):
    """A metric over the units of one range: numerators and denominators (None: ones)."""

    y: np.ndarray
    n: object = None


# --------------------------------------------------------------------------------------------
# Columns of the stored rows
# --------------------------------------------------------------------------------------------

def _column(table, name) -> np.ndarray:
    """A numeric column as float64 (booleans as 0/1)."""
    column = table.column(name)
    return np.asarray(column.to_numpy(zero_copy_only=False), dtype=np.float64)


def _end_by(table, reason: str) -> np.ndarray:
    """1.0 where the deal ended for ``reason`` (results.END_REASONS: out, stock, special)."""
    import pyarrow as pa
    import pyarrow.compute as pc

    reasons = pc.cast(table.column("end_reason"), pa.string())
    return np.asarray(pc.equal(reasons, reason).to_numpy(zero_copy_only=False), np.float64)


def deal_columns(table, num_sides: int, num_players: int) -> dict:
    """Every per-deal metric of the rows of ``table`` (one value per row)."""
    values = {name: _column(table, name) for name in DEAL_SCALARS}
    for name in side_metrics(num_sides):
        values[name] = _column(table, name)
    scores = np.stack([values[f"s{k}_score"] for k in range(num_sides)], axis=1)
    values["score_diff"] = scores[:, 0] - scores[:, 1]
    values["total_score"] = scores.sum(axis=1)
    values["total_pile_takes"] = np.sum([values[f"s{k}_pile_takes"]
                                         for k in range(num_sides)], axis=0)
    values["went_out"] = _end_by(table, "out")
    values["special_end"] = _end_by(table, "special")      # Modern American, A52
    first_side = ((_column(table, "dealer").astype(np.int64) + 1) % num_players) % num_sides
    values.update(_first_side_metrics(scores, first_side))
    return values


def _first_side_metrics(scores: np.ndarray, side: np.ndarray) -> dict:
    """The first player's side: its score minus the others' mean; whether it scored most."""
    rows = np.arange(scores.shape[0])
    own = scores[rows, side]
    others = (scores.sum(axis=1) - own) / (scores.shape[1] - 1)
    masked = scores.copy()
    masked[rows, side] = -np.inf
    return {"first_player_advantage": own - others,
            "first_player_wins_deal": (own > masked.max(axis=1)).astype(np.float64)}


def lineup_side(rotation, num_sides: int):
    """The side that holds lineup 0 (side 0 as written) under ``rotation``."""
    return (-np.asarray(rotation)) % num_sides


# --------------------------------------------------------------------------------------------
# Deal studies
# --------------------------------------------------------------------------------------------

def deal_units(table, count: int, rotations: int, num_sides: int, num_players: int) -> dict:
    """{metric: Values} over the ``count`` deal seeds of a deal-study shard.

    Rows are stored rotation after rotation, each in deal order; a duplicate seed's
    value is the mean over its rotations.
    """
    columns = deal_columns(table, num_sides, num_players)
    units = {name: Values(v.reshape(rotations, count).mean(axis=0))
             for name, v in columns.items()}
    if rotations > 1:
        rotation = _column(table, "rotation").astype(np.int64)
        units["points_per_deal"] = Values(
            _lineup_margin(columns, rotation, num_sides).reshape(rotations, count).mean(axis=0))
    return units


def _lineup_margin(columns: dict, rotation: np.ndarray, num_sides: int) -> np.ndarray:
    """Per row: lineup 0's deal score minus the mean of the other sides' scores."""
    scores = np.stack([columns[f"s{k}_score"] for k in range(num_sides)], axis=1)
    side = lineup_side(rotation, num_sides)
    rows = np.arange(scores.shape[0])
    own = scores[rows, side]
    return own - (scores.sum(axis=1) - own) / (num_sides - 1)


# --------------------------------------------------------------------------------------------
# Game studies
# --------------------------------------------------------------------------------------------

def game_units(games, deals, first: int, count: int, rotations: int, num_sides: int,
               num_players: int) -> dict:
    """{metric: Values} over the ``count`` game seeds of a game-study shard.

    Per-game metrics are averaged over a seed's rotations; per-deal metrics are summed
    over the seed's games' deals (y) with the deal count (n).
    """
    g_rot = _column(games, "rotation").astype(np.int64)
    slot, d_slot = _slots(games, first, count), _slots(deals, first, count)
    per_game = _per_game(games, deals, slot, d_slot, g_rot, num_sides, num_players)
    units = {}
    for name, (y, n) in per_game.items():
        y_slots, n_slots = _to_slots(slot, y, n, rotations * count)
        if name == "lineup_result":       # kept per rotation for the duplicate match
            units[LINEUP_BY_ROTATION] = Values(y_slots.reshape(rotations, count))
            continue
        if n is None:
            units[name] = Values(y_slots.reshape(rotations, count).mean(axis=0))
        else:
            units[name] = Values(y_slots.reshape(rotations, count).sum(axis=0),
                                 n_slots.reshape(rotations, count).sum(axis=0))
    columns = deal_columns(deals, num_sides, num_players)
    if rotations > 1:
        columns["points_per_deal"] = _lineup_margin(
            columns, _column(deals, "rotation").astype(np.int64), num_sides)
    n_deals = np.bincount(d_slot, minlength=rotations * count).astype(np.float64)
    n_seed = n_deals.reshape(rotations, count).sum(axis=0)
    for name, values in columns.items():
        y = np.bincount(d_slot, weights=values, minlength=rotations * count)
        units[name] = Values(y.reshape(rotations, count).sum(axis=0), n_seed)
    return units


def _slots(table, first, count) -> np.ndarray:
    """Each row's (rotation, game) slot: rotation * count + game - first."""
    return (_column(table, "rotation").astype(np.int64) * count
            + _column(table, "game").astype(np.int64) - first)


def _to_slots(slot, y, n, size):
    """Scatter per-game values into (rotation, game) slots."""
    y_slots = np.zeros(size)
    y_slots[slot] = y
    if n is None:
        return y_slots, None
    n_slots = np.zeros(size)
    n_slots[slot] = n
    return y_slots, n_slots


def _per_game(games, deals, g_slot, d_slot, g_rot, num_sides, num_players) -> dict:
    """{metric: (y, n or None)} per game row (every rotation)."""
    winner = _column(games, "winner").astype(np.int64)
    ended = _ended(games)
    finals = np.stack([_column(games, f"s{k}_final") for k in range(num_sides)], axis=1)
    draw = ended != "target"
    result = {"win_rate": (np.where(draw, 0.5, (winner == 0).astype(np.float64)), None),
              "deals_per_game": (_column(games, "deals"), None)}
    for k in range(num_sides):
        result[f"s{k}_final"] = (finals[:, k], None)
    ordered = np.sort(finals, axis=1)
    result["final_margin"] = (ordered[:, -1] - ordered[:, -2], None)
    first_side = ((_column(games, "first_dealer").astype(np.int64) + 1) % num_players) \
        % num_sides
    result["first_player_won_game"] = (
        np.where(draw, 0.5, (winner == first_side).astype(np.float64)), None)
    result["lineup_result"] = (_lineup_result(winner, draw, g_rot, num_sides), None)
    result.update(_sequence_metrics(deals, g_slot, d_slot, winner, num_sides))
    return result


def _ended(games) -> np.ndarray:
    """The ``ended`` column as text: target, draw or cut."""
    import pyarrow as pa
    import pyarrow.compute as pc

    return np.asarray(pc.cast(games.column("ended"), pa.string()).to_numpy(
        zero_copy_only=False)).astype(str)


def _lineup_result(winner, draw, rotation, num_sides) -> np.ndarray:
    """Lineup 0's result per game: 1 won, 0.5 drawn (or cut off), 0 lost."""
    side = lineup_side(rotation, num_sides)
    return np.where(draw, 0.5, (winner == side).astype(np.float64))


def _sequence_metrics(deals, g_slot, d_slot, winner, num_sides) -> dict:
    """Lead changes, comebacks and P(leader after deal k wins), per game row (``g_slot``,
    ``d_slot``: the (rotation, game) slot of each game row and deal row)."""
    order = np.lexsort((_column(deals, "deal_in_game"), d_slot))
    d_slot = d_slot[order]
    after = np.stack([_column(deals, f"s{k}_cum_before")[order]
                      + _column(deals, f"s{k}_score")[order] for k in range(num_sides)], axis=1)
    leader = _strict_leader(after)
    size = int(g_slot.max()) + 1 if len(g_slot) else 0
    size = max(size, int(d_slot.max()) + 1 if len(d_slot) else 0)
    win_by_slot = np.full(size, -1, dtype=np.int64)
    win_by_slot[g_slot] = winner
    row_winner = win_by_slot[d_slot]
    held = _carried_leader(leader, d_slot)
    prev_same = np.r_[False, d_slot[1:] == d_slot[:-1]]
    change = prev_same & (held >= 0) & (np.r_[-1, held[:-1]] >= 0) & (held != np.r_[-1, held[:-1]])
    changes = np.bincount(d_slot, weights=change, minlength=size)
    behind = _winner_behind(after, row_winner)
    was_behind = np.bincount(d_slot, weights=behind, minlength=size) > 0
    decided = win_by_slot >= 0
    result = {"lead_changes": (changes[g_slot], None),
              "comeback": ((was_behind & decided)[g_slot].astype(np.float64),
                           decided[g_slot].astype(np.float64))}
    position = _position_in_game(d_slot)
    n_deals = np.bincount(d_slot, minlength=size)
    for k in LEADER_K:
        at_k = position == k - 1
        eligible = at_k & (leader >= 0) & (n_deals[d_slot] > k) & (row_winner >= 0)
        won = eligible & (leader == row_winner)
        result[f"leader_wins_k{k}"] = (
            np.bincount(d_slot, weights=won, minlength=size)[g_slot],
            np.bincount(d_slot, weights=eligible, minlength=size)[g_slot])
    return result


def _strict_leader(after: np.ndarray) -> np.ndarray:
    """The side with the strictly highest cumulative score per row, -1 on a tie."""
    best = after.argmax(axis=1)
    top = after.max(axis=1)
    ties = (after == top[:, None]).sum(axis=1) > 1
    return np.where(ties, -1, best)


def _carried_leader(leader: np.ndarray, slot: np.ndarray) -> np.ndarray:
    """The last strict leader so far within each game (ties keep the previous leader)."""
    index = np.arange(len(leader))
    start = np.r_[True, slot[1:] != slot[:-1]]
    game_start = np.maximum.accumulate(np.where(start, index, 0))
    last = np.maximum.accumulate(np.where(leader >= 0, index, -1))
    return np.where(last >= game_start, leader[np.maximum(last, 0)], -1)


def _winner_behind(after: np.ndarray, row_winner: np.ndarray) -> np.ndarray:
    """1 where the game's eventual winner is strictly behind another side after the deal."""
    rows = np.arange(after.shape[0])
    valid = row_winner >= 0
    own = after[rows, np.maximum(row_winner, 0)]
    masked = after.copy()
    masked[rows, np.maximum(row_winner, 0)] = -np.inf
    return (valid & (own < masked.max(axis=1))).astype(np.float64)


def _position_in_game(slot: np.ndarray) -> np.ndarray:
    """0, 1, 2, ... within each run of equal slots (rows sorted by game, then deal)."""
    index = np.arange(len(slot))
    start = np.r_[True, slot[1:] != slot[:-1]]
    return index - np.maximum.accumulate(np.where(start, index, 0))
