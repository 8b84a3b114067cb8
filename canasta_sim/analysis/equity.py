"""The game equity table: the chance that a side wins the game from each pair of cumulative
scores (docs/analysis.md), so that deal points become game-win chances.

Games are played to the target with the chosen policies; every deal's two side scores are
kept with the initial-meld minimums the sides faced (R27: the minimum depends on the
cumulative score, so a side at 1,500 or 3,000 scores differently).  The table then follows
from those deal scores by value iteration on a grid of scores: a side at ``a`` against one
at ``b`` wins with the mean, over the deals played at the same pair of minimums, of its
chance after the deal (1 or 0 once a side has reached the target, R59; an exact tie at the
top counts a half; between grid points by bilinear interpolation).  Each deal enters from
both sides' points of view.  The dealer's side is a dimension: the side that deals plays
second in the deal (R10: the dealer's left begins), and the deal passes to the other side
each time, so ``win_dealer[0]`` (this side deals the next deal) and ``win_dealer[1]`` (the
other side deals it) are solved together, each from the deals played that way round
(``win_dealer[0][i][j] + win_dealer[1][j][i] = 1``); ``win`` is their mean, the chance when
the dealer is not known (a game's first deal, whose dealer is drawn).  The 95% intervals
come from resampling the games (bootstrap).

Modern American (``--rules modern-american``): the same, from the family's games to 8,500
with its minimums by score (A24: 125, 155 from 3,000, 180 from 5,000); a deal a Dream Hand
ended wins its side the game (A53, A54, :func:`dream_hands_win`).
"""
from __future__ import annotations

import json
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import numpy as np

from canasta_sim.errors import BadInput

BOOTSTRAP = 20
LOW = -1000          # the grid's lowest score; lower scores are read as LOW
MIN_PAIR_DEALS = 200  # fewer deals at a pair of minimums: the deals of every pair are used
BIN = 10             # deal scores are grouped to this many points
DREAM_SCORE = 2      # Modern American: a Dream Hand's deal score, in spans LOW..target (A53)


def minimum_level(table, score) -> int:
    """R27: the row of the initial-meld table a cumulative score falls in."""
    level = 0
    for i, (lo, _) in enumerate(table):
        if lo is None or score >= lo:                     # None: minus infinity
            level = i
    return level


def play_games(rules, policies, games, seed, threads) -> tuple:
    """Play ``games`` whole games on ``threads`` threads: the rule set and the
    ``runner.GameRows`` of the games, in order."""
    from canasta_sim.runner import GameRows, available_cores, play_game_range, prepare

    if not isinstance(games, int) or games < 10:
        raise BadInput(f"--games {games}: accepted: an integer of at least 10")
    plan = prepare(seed=seed, rules=rules, policies=policies, games=games)
    if plan.rules.num_sides != 2:
        raise BadInput(f"rules {plan.rules.canonical()}: accepted: rule sets with two sides")
    threads = threads or available_cores()
    bounds = [games * i // threads for i in range(threads + 1)]

    def run(i):
        return play_game_range(plan, bounds[i], bounds[i + 1] - bounds[i])

    with ThreadPoolExecutor(threads) as pool:
        parts = [p for p in pool.map(run, range(threads))]
    return plan.rules, GameRows.concat(parts)


def play_deal_scores(rules, policies, games, seed, threads):
    """Every deal of ``games`` games: (game, cumulative scores before, deal scores, the side
    that dealt), as int64 arrays (sides 0 and 1)."""
    from canasta_sim.kernels.game import layout

    ruleset, rows = play_games(rules, policies, games, seed, threads)
    game = rows.extras[:, layout.D_GAME]
    before = rows.extras[:, layout.D_CUM_BEFORE:layout.D_CUM_BEFORE + 2]
    score = rows.deals[:, [layout.SIDE_BASE + layout.SIDE_STRIDE * k + layout.S_SCORE
                           for k in (0, 1)]]
    dealer = rows.deals[:, layout.COL_DEALER] % 2
    if ruleset.american:
        score = dream_hands_win(score, rows.deals, ruleset.game_target)
    return ruleset, game, before, score, dealer


def dream_hands_win(score, deals, target):
    """Modern American: a deal a Dream Hand ended (A53, A54: its side wins the game at once,
    whatever the scores) gets, for the Dream Hand's side, a deal score that reaches the
    target from any grid score and stays above the other side's: ``DREAM_SCORE`` times the
    span from LOW to the target."""
    from canasta_sim.kernels.game import layout

    score = score.copy()
    over = np.flatnonzero(deals[:, layout.COL_MAC_GAME_OVER] == 1)
    side = deals[over, layout.COL_MAC_SPECIAL_SEAT] % 2
    score[over, side] = np.maximum(score[over, side], DREAM_SCORE * (target - LOW))
    return score


def _distributions(table, before, score, dealer, nlevels):
    """Per pair of minimum levels (mine, other's) and who deals (0 my side, 1 the other):
    the deal scores (mine, other's) grouped to BIN points, with their weights; both sides'
    views of every deal.  A pair seen in fewer than MIN_PAIR_DEALS deals that way round
    uses the deals of every pair dealt that way round."""
    lv = np.vectorize(lambda s: minimum_level(table, s))(before) if len(before) else before
    mine = np.concatenate([score, score[:, ::-1]])
    levels = np.concatenate([lv, lv[:, ::-1]])
    deals = np.concatenate([dealer, 1 - dealer])      # 0: the viewing side dealt
    dists = {}
    for d in (0, 1):
        pooled = _grouped(mine[deals == d])
        for a in range(nlevels):
            for b in range(nlevels):
                pick = (levels[:, 0] == a) & (levels[:, 1] == b) & (deals == d)
                dists[a, b, d] = _grouped(mine[pick]) if pick.sum() >= MIN_PAIR_DEALS \
                    else pooled
    return dists


def _grouped(pairs):
    """Unique deal-score pairs (to BIN points) and their weights."""
    if len(pairs) == 0:
        return np.zeros((1, 2)), np.ones(1)
    keys, counts = np.unique(np.round(pairs / BIN) * BIN, axis=0, return_counts=True)
    return keys, counts / counts.sum()


class EquityTable:
    """A solved table: ``scores`` (the grid), ``win[i][j]`` (a side at scores[i] against one
    at scores[j], dealer unknown), ``win_dealer[d][i][j]`` (the same when this side, d = 0,
    or the other, d = 1, deals the next deal; None in a table written before it) and the
    game's target; :meth:`win_array` reads it at any scores."""

    def __init__(self, scores, win, target, win_dealer=None):
        self.scores = np.asarray(scores, np.float64)
        self.win = np.asarray(win, np.float64)
        self.target = float(target)
        self.win_dealer = None if win_dealer is None else np.asarray(win_dealer, np.float64)

    def win_array(self, a, b, deals=None):
        """The chance that a side at ``a`` beats one at ``b`` (arrays of equal shape):
        1, 0 or a half once a side has reached the target (R59), else the table,
        interpolated; ``deals`` 0 (this side deals next) or 1 (the other side does) reads
        ``win_dealer`` (when the table has it), None the mean ``win``."""
        a = np.asarray(a, np.float64)
        b = np.asarray(b, np.float64)
        over = np.maximum(a, b) >= self.target
        done = np.where(a > b, 1.0, np.where(a < b, 0.0, 0.5))
        w = self.win if deals is None or self.win_dealer is None else self.win_dealer[deals]
        return np.where(over, done, self._interpolate(a, b, w))

    def _interpolate(self, a, b, w):
        s = self.scores
        fa = np.clip((np.clip(a, s[0], s[-1]) - s[0]) / (s[1] - s[0]), 0, len(s) - 1)
        fb = np.clip((np.clip(b, s[0], s[-1]) - s[0]) / (s[1] - s[0]), 0, len(s) - 1)
        ia = np.minimum(np.floor(fa).astype(int), len(s) - 2)
        ib = np.minimum(np.floor(fb).astype(int), len(s) - 2)
        ta, tb = fa - ia, fb - ib
        return ((1 - ta) * (1 - tb) * w[ia, ib] + ta * (1 - tb) * w[ia + 1, ib]
                + (1 - ta) * tb * w[ia, ib + 1] + ta * tb * w[ia + 1, ib + 1])


def solve(grid, target, levels, dists, iterations=500, tol=1e-7):
    """Value iteration of the win chance on ``grid`` (module docstring), a block of grid
    points per pair of minimum levels and dealer at a time: a deal dealt by one side is
    followed by one dealt by the other."""
    n = len(grid)
    table = EquityTable(grid, np.full((n, n), 0.5), target, np.full((2, n, n), 0.5))
    lv = np.array([levels(g) for g in grid])
    blocks = [(np.flatnonzero(lv == a), np.flatnonzero(lv == b), d, dists[a, b, d])
              for a in np.unique(lv) for b in np.unique(lv) for d in (0, 1)]
    for _ in range(iterations):
        new = np.empty((2, n, n))
        for rows, cols, d, (keys, w) in blocks:
            a = grid[rows][:, None, None] + keys[None, None, :, 0]
            b = grid[cols][None, :, None] + keys[None, None, :, 1]
            new[d][np.ix_(rows, cols)] = table.win_array(a, b, 1 - d) @ w
        new = 0.5 * (new + 1 - new[::-1].transpose(0, 2, 1))   # both views of a pair agree
        change = float(np.max(np.abs(new - table.win_dealer)))
        table.win_dealer = new
        if change < tol:
            break
    table.win = table.win_dealer.mean(axis=0)
    return table


def build_table(rules, policies="expert", games=2000, step=250, seed=0, threads=None) -> dict:
    """Play the games and solve the table, with bootstrap intervals: a dict with ``scores``,
    ``win``, ``ci_low``, ``ci_high`` and how it was made."""
    if not isinstance(step, int) or step < 50 or step % 5:
        raise BadInput(f"--step {step}: accepted: a multiple of 5, at least 50")
    ruleset, game, before, score, dealer = play_deal_scores(rules, policies, games, seed,
                                                            threads)
    target = ruleset.game_target
    meld_table = list(ruleset.initial_meld_table)
    grid = np.arange(LOW, target, step, dtype=np.float64)
    nlevels = len(meld_table)

    def levels(g):
        return minimum_level(meld_table, g)

    table = solve(grid, target, levels,
                  _distributions(meld_table, before, score, dealer, nlevels))
    rng = np.random.default_rng(seed)
    ids = np.unique(game)
    boot = []
    for _ in range(BOOTSTRAP):
        pick = rng.choice(ids, len(ids))
        rows = np.concatenate([np.flatnonzero(game == g) for g in pick])
        t = solve(grid, target, levels,
                  _distributions(meld_table, before[rows], score[rows], dealer[rows], nlevels),
                  iterations=200, tol=1e-5)
        boot.append(np.concatenate([t.win[None], t.win_dealer]))
    boot = np.array(boot)
    low = np.round(np.quantile(boot, 0.025, axis=0), 5)
    high = np.round(np.quantile(boot, 0.975, axis=0), 5)
    return {"rules": ruleset.canonical(), "policies": policies, "games": games,
            "deals": int(len(game)), "seed": seed, "target": target, "step": step,
            "scores": grid.astype(int).tolist(), "win": np.round(table.win, 5).tolist(),
            "ci_low": low[0].tolist(), "ci_high": high[0].tolist(),
            "win_dealer": np.round(table.win_dealer, 5).tolist(),
            "ci_low_dealer": low[1:].tolist(), "ci_high_dealer": high[1:].tolist(),
            "bootstrap": BOOTSTRAP}


def check_against_games(table: EquityTable, rules, policies="expert", games=1000, seed=2,
                        threads=None) -> tuple:
    """The table set against played games: at the start of every deal of ``games`` games,
    the table's chance that side 0 wins the game (at the scores before the deal, for the
    side that deals it) and whether side 0 won it (1, 0, or a half for a drawn game).
    Returns the two arrays (predicted, observed), one entry per deal."""
    from canasta_sim.kernels.game import layout

    ruleset, rows = play_games(rules, policies, games, seed, threads)
    before = rows.extras[:, layout.D_CUM_BEFORE:layout.D_CUM_BEFORE + 2]
    dealer = rows.deals[:, layout.COL_DEALER] % 2
    first = int(rows.extras[:, layout.D_GAME].min()) if len(rows.extras) else 0
    winner = rows.games[rows.extras[:, layout.D_GAME] - first, layout.G_WINNER]
    # win_dealer[d]: the chance when side d (0: this side) deals the deal about to be played
    predicted = np.array([table.win_array(a, b, int(d))
                          for (a, b), d in zip(before, dealer)], np.float64)
    observed = np.where(winner == 0, 1.0, np.where(winner == 1, 0.0, 0.5))
    return predicted, observed


def calibration_rows(predicted, observed, bins=10) -> list:
    """By tenths of the prediction: (low, high, deals, mean predicted, observed)."""
    rows = []
    edges = np.linspace(0.0, 1.0, bins + 1)
    for lo, hi in zip(edges[:-1], edges[1:]):
        pick = (predicted >= lo) & ((predicted < hi) | (hi == 1.0))
        if pick.any():
            rows.append((float(lo), float(hi), int(pick.sum()),
                         float(predicted[pick].mean()), float(observed[pick].mean())))
    return rows


def write_table(table: dict, out) -> list:
    """Write the table as JSON to ``out`` and its heatmap beside it (.png, if matplotlib is
    installed); returns the paths written."""
    path = Path(out)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(table), encoding="utf-8")
    paths = [path]
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return paths
    s = table["scores"]
    extent = (s[0], s[-1] + table["step"], s[0], s[-1] + table["step"])
    win = np.array(table["win_dealer"])
    panels = [("this side deals next", win[0], "RdBu", 0, 1),
              ("the other side deals next", win[1], "RdBu", 0, 1),
              ("difference (this side deals less the other)", win[0] - win[1], "PuOr",
               -0.03, 0.03)]
    fig, axes = plt.subplots(1, 3, figsize=(19, 6))
    for ax, (title, data, cmap, lo, hi) in zip(axes, panels):
        im = ax.imshow(data, origin="lower", cmap=cmap, vmin=lo, vmax=hi, extent=extent)
        ax.set_xlabel("the other side's score")
        ax.set_ylabel("this side's score")
        ax.set_title(title)
        fig.colorbar(im, ax=ax)
    fig.suptitle(f"chance to win the game ({table['rules']}, {table['games']} games)")
    png = path.with_suffix(".png")
    fig.savefig(png, dpi=90, bbox_inches="tight")
    plt.close(fig)
    return paths + [png]


def load_table(path) -> EquityTable:
    """An equity table written by :func:`write_table`."""
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
        return EquityTable(data["scores"], data["win"], data["target"],
                           data.get("win_dealer"))
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise BadInput(f"--equity {path}: cannot read an equity table ({exc}): accepted: a "
                       "file written by 'canasta-sim equity-table'") from None
