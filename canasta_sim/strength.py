"""Head-to-head strength of policies in full games (``canasta-sim strength``).

For each pair of policies A, B, both seats of a side play the same policy.  Half the
games put A on side 0 and B on side 1, the other half swap the sides, on the very same
game seeds (common random numbers: every game is played once each way round), so neither
seat position nor the cards favour a policy.  A's win rate counts a draw as half a win;
its 95% confidence interval is the Wilson score interval.  Per-deal figures come from
every deal of those games: the share of deals ended by going out and by the stock
running out, and each policy's mean deal score.
"""
from __future__ import annotations

import itertools
import math
from typing import NamedTuple

Z95 = 1.959963984540054


class Match(NamedTuple):
    """The result of A against B over ``games`` games."""

    a: str
    b: str
    games: int
    a_wins: int
    b_wins: int
    draws: int                # tied games (tie_policy=draw)
    cut: int                  # games cut off unfinished (never in practice); not counted
    deals: int
    out_share: float          # deals ended by a player going out
    stock_share: float        # deals ended by the stock running out
    a_deal_score: float       # A's mean deal score
    b_deal_score: float

    @property
    def decided(self) -> int:
        """Games that ended (won or drawn); cut-off games are left out of the rate."""
        return self.games - self.cut

    @property
    def a_rate(self) -> float:
        """A's win rate over the games that ended, a draw counting half."""
        return (self.a_wins + 0.5 * self.draws) / max(self.decided, 1)

    @property
    def interval(self) -> tuple:
        """The Wilson 95% interval of A's win rate."""
        return wilson(self.a_rate, self.decided)

    @property
    def significant(self) -> bool:
        """Whether the interval excludes 50%."""
        low, high = self.interval
        return low > 0.5 or high < 0.5


def wilson(rate: float, n: int, z: float = Z95) -> tuple:
    """The Wilson score interval of a proportion ``rate`` observed in ``n`` trials."""
    if n == 0:
        return 0.0, 1.0
    centre = (rate + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(rate * (1 - rate) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return centre - half, centre + half


def check_two_sides(rules):
    """BadInput unless the rule set has two sides: a head-to-head needs one side each."""
    from canasta_sim.errors import BadInput

    if rules.num_sides != 2:
        raise BadInput(f"rules={rules.canonical()!r} has {rules.num_sides} sides: accepted: a "
                       "rule set with two sides (classic, two-player, six-player, ...) for a "
                       "head-to-head of two policies")


def seats_for(a: str, b: str, num_players: int, num_sides: int) -> str:
    """Policies of every seat with A on side 0 and B on side 1 (two sides)."""
    return ",".join(a if seat % num_sides == 0 else b for seat in range(num_players))


def play_match(a: str, b: str, games: int, seed: int = 0, rules="classic",
               threads=None) -> Match:
    """A against B in ``games`` games (half each way round, on the same game seeds)."""
    import numpy as np

    from canasta_sim.rules import parse_rules
    from canasta_sim.runner import simulate

    r = parse_rules(rules)
    check_two_sides(r)
    first_half = games - games // 2
    wins = np.zeros(2, np.int64)
    draws = cut = deals = outs = stocks = 0
    score_sums = np.zeros(2)
    for a_side, count in ((0, first_half), (1, games // 2)):
        if count == 0:
            continue
        first, second = (a, b) if a_side == 0 else (b, a)
        table, per_deal = simulate(games=count, seed=seed, rules=r, threads=threads,
                                   policies=seats_for(first, second, r.num_players,
                                                      r.num_sides))
        winner = table["winner"].to_numpy()
        ended = table["ended"].to_pandas().astype(str).to_numpy()
        wins += [int((winner == a_side).sum()), int((winner == 1 - a_side).sum())]
        draws += int((ended == "draw").sum())
        cut += int((ended == "cut").sum())
        d = per_deal.to_pandas()
        deals += len(d)
        outs += int((d.end_reason == "out").sum())
        stocks += int((d.end_reason == "stock").sum())
        score_sums += [d[f"s{a_side}_score"].sum(), d[f"s{1 - a_side}_score"].sum()]
    return Match(a, b, games, int(wins[0]), int(wins[1]), draws, cut, deals,
                 outs / max(deals, 1),
                 stocks / max(deals, 1), score_sums[0] / max(deals, 1),
                 score_sums[1] / max(deals, 1))


def play_all(policies, games: int, seed: int = 0, rules="classic", threads=None,
             say=None) -> list:
    """Every pair of ``policies`` (in the order given: A is the earlier one)."""
    matches = []
    for a, b in itertools.combinations(policies, 2):
        match = play_match(a, b, games, seed, rules, threads)
        matches.append(match)
        if say is not None:
            say(format_row(match))
    return matches


HEADER = ("| A | B | games | A wins | B wins | draws | A win rate (95% CI) | deals ended by "
          "going out | by the stock | A mean deal score | B mean deal score |\n"
          "|---|---|---|---|---|---|---|---|---|---|---|")


def format_row(m: Match) -> str:
    """One Markdown table row."""
    low, high = m.interval
    mark = "" if m.significant else " (n.s.)"
    return (f"| {m.a} | {m.b} | {m.games} | {m.a_wins} | {m.b_wins} | {m.draws} | "
            f"{100 * m.a_rate:.1f}% ({100 * low:.1f}-{100 * high:.1f}){mark} | "
            f"{100 * m.out_share:.1f}% | {100 * m.stock_share:.1f}% | {m.a_deal_score:.0f} | "
            f"{m.b_deal_score:.0f} |")


def ordering_holds(matches: list, order) -> bool:
    """Whether each policy of ``order`` beats the next one significantly."""
    by_pair = {(m.a, m.b): m for m in matches}
    for better, worse in zip(order, order[1:]):
        m = by_pair.get((better, worse))
        if m is None or not (m.significant and m.a_rate > 0.5):
            return False
    return True


def write_csv(matches: list, path, seed: int, rules: str) -> None:
    """Every match with its interval and how it was made (written atomically)."""
    import csv
    import io
    from importlib.metadata import version

    from canasta_sim import __version__
    from canasta_sim._cache import kernels_dir, kernels_hash
    from canasta_sim.results import write_text

    made = [seed, rules, __version__, kernels_hash(kernels_dir()), version("numba")]
    text = io.StringIO()
    writer = csv.writer(text)
    writer.writerow(["a", "b", "games", "a_wins", "b_wins", "draws", "cut", "a_win_rate",
                     "ci_low", "ci_high", "deals", "out_share", "stock_share",
                     "a_mean_deal_score", "b_mean_deal_score", "seed", "rules",
                     "canasta_sim_version", "kernels_hash", "numba_version"])
    for m in matches:
        low, high = m.interval
        writer.writerow([m.a, m.b, m.games, m.a_wins, m.b_wins, m.draws, m.cut,
                         round(m.a_rate, 4), round(low, 4), round(high, 4), m.deals,
                         round(m.out_share, 4), round(m.stock_share, 4),
                         round(m.a_deal_score, 1), round(m.b_deal_score, 1), *made])
    write_text(text.getvalue(), path)
