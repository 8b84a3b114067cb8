"""Head-to-head strength of policies in full games (``canasta-sim strength``).

For each pair of policies A, B, both seats of a side play the same policy.  Game seeds
0..h-1 (h = games - games // 2) are played with A on side 0 and B on side 1, and seeds
0..games//2 - 1 again with the sides swapped (common random numbers), so neither seat
position nor the cards favour a policy.  Every seed below games // 2 is thus a *game pair*:
the same cards, once each way round.  The table counts every game (wins, draws, A's win
rate with a draw as half a win, over the games that ended).

A's 95% confidence interval, its significance and the Elo difference come from the game
pairs, not from independent games: each pair is one unit with A's total 0, 0.5, 1, 1.5 or
2 (the pentanomial counts), the win rate is the mean pair total / 2 and its variance that
of the pair totals over the number of pairs (``canasta_sim.stats.MatchStats``,
method ``pentanomial``); the Elo interval is the win-rate interval's ends transformed
(``-400 log10(1/p - 1)``).  Pairing removes the luck of the cards that the two games of a
pair share, so the interval is usually narrower than Wilson's over independent games and,
unlike it, valid although the two games of a seed are not independent.  With an odd number
of games the last seed (h - 1, A on side 0) has no partner: it counts in the table's wins,
draws and win rate but not in the interval, the significance or the Elo.  A pair with a game
cut off unfinished (never in practice) is left out of the pairs too.  A one-game match has
no pair and no interval.

Per-deal figures come from every deal of those games: the share of deals ended by going
out and by the stock running out, and each policy's mean deal score.
"""
from __future__ import annotations

import itertools
from typing import NamedTuple

from canasta_sim.arms import pair_counts, plan_arms, play_arms, seats_for, side_results
from canasta_sim.stats import Z95, MatchStats, elo_text, wilson  # noqa: F401  (wilson: re-exported)

PAIR_TOTALS = ("0", "0.5", "1", "1.5", "2")
"""A's total over a game pair, in the order of :attr:`Match.pentanomial`."""


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
    pentanomial: tuple = (0, 0, 0, 0, 0)   # game pairs by A's total 0, 0.5, 1, 1.5, 2
    trinomial: tuple = (0, 0, 0)           # games of those pairs lost, drawn, won by A

    @property
    def decided(self) -> int:
        """Games that ended (won or drawn); cut-off games are left out of the rate."""
        return self.games - self.cut

    @property
    def a_rate(self) -> float:
        """A's win rate over the games that ended, a draw counting half."""
        return (self.a_wins + 0.5 * self.draws) / max(self.decided, 1)

    @property
    def stats(self) -> MatchStats:
        """The game pairs as a duplicate match (pentanomial statistics)."""
        return MatchStats(self.pentanomial, self.trinomial)

    @property
    def pairs(self) -> int:
        """Game pairs the interval rests on."""
        return int(sum(self.pentanomial))

    @property
    def interval(self) -> tuple:
        """The 95% interval of A's win rate from the game pairs; (None, None) without one."""
        rate = self.stats.win_rate()
        return rate.ci_low, rate.ci_high

    @property
    def elo(self):
        """A's Elo difference over B with its 95% interval (an Estimate)."""
        return self.stats.elo()

    @property
    def significant(self) -> bool:
        """Whether the interval excludes 50%."""
        low, high = self.interval
        return low is not None and (low > 0.5 or high < 0.5)


def check_two_sides(rules):
    """BadInput unless the rule set has two sides: a head-to-head needs one side each."""
    from canasta_sim.errors import BadInput

    if rules.num_sides != 2:
        raise BadInput(f"rules={rules.canonical()!r} has {rules.num_sides} sides: accepted: a "
                       "rule set with two sides (classic, two-player, six-player, ...) for a "
                       "head-to-head of two policies; with three sides (three-player, "
                       "cutthroat) play every seat rotation with 'canasta-sim compare "
                       "--policies A --policies B'")


def a_results(table, a_side: int):
    """A's result per game seed of a games table (1 win, 0.5 draw, 0 loss, NaN cut off)."""
    return side_results(table, a_side, 0, len(table))[0]


def play_match(a: str, b: str, games: int, seed: int = 0, rules="classic",
               threads=None) -> Match:
    """A against B in ``games`` games (half each way round, on the same game seeds)."""
    import numpy as np

    from canasta_sim.rules import parse_rules
    from canasta_sim.runner import rows_tables

    r = parse_rules(rules)
    check_two_sides(r)
    counts = (games - games // 2, games // 2)   # A on side 0, then on side 1
    plans = plan_arms([seats_for(a, b, r.num_players, r.num_sides),
                       seats_for(b, a, r.num_players, r.num_sides)], r, seed=seed,
                      games=counts[0])
    played = play_arms(plans, 0, counts, threads)
    wins = np.zeros(2, np.int64)
    draws = cut = deals = outs = stocks = 0
    score_sums = np.zeros(2)
    results = {0: np.zeros(0), 1: np.zeros(0)}
    for a_side, (plan, count, rows) in enumerate(zip(plans, counts, played)):
        if count == 0:
            continue
        table, per_deal = rows_tables(plan, 0, rows)
        winner = table["winner"].to_numpy()
        ended = table["ended"].to_pandas().astype(str).to_numpy()
        wins += [int((winner == a_side).sum()), int((winner == 1 - a_side).sum())]
        draws += int((ended == "draw").sum())
        cut += int((ended == "cut").sum())
        results[a_side] = a_results(table, a_side)
        d = per_deal.to_pandas()
        deals += len(d)
        outs += int((d.end_reason == "out").sum())
        stocks += int((d.end_reason == "stock").sum())
        score_sums += [d[f"s{a_side}_score"].sum(), d[f"s{1 - a_side}_score"].sum()]
    pairs = pair_counts(results[0], results[1])
    return Match(a, b, games, int(wins[0]), int(wins[1]), draws, cut, deals,
                 outs / max(deals, 1),
                 stocks / max(deals, 1), score_sums[0] / max(deals, 1),
                 score_sums[1] / max(deals, 1), tuple(int(c) for c in pairs.pentanomial),
                 tuple(int(c) for c in pairs.trinomial))


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
          "going out | by the stock | A mean deal score | B mean deal score | "
          "Elo A - B (95% CI) |\n"
          "|---|---|---|---|---|---|---|---|---|---|---|---|")


def format_elo(m: Match) -> str:
    """A's Elo difference and its interval, e.g. ``+35 (+20, +51)``; ``n/a`` without pairs."""
    elo = m.elo
    if elo_text(elo) is not None:
        return elo_text(elo)
    if elo.estimate is None or elo.ci_low is None:
        return "n/a"
    return f"{elo.estimate:+.0f} ({elo.ci_low:+.0f}, {elo.ci_high:+.0f})"


def format_row(m: Match) -> str:
    """One Markdown table row."""
    low, high = m.interval
    if low is None:
        interval = " (no game pair)"
    else:
        mark = "" if m.significant else " (n.s.)"
        interval = f" ({100 * low:.1f}-{100 * high:.1f}){mark}"
    return (f"| {m.a} | {m.b} | {m.games} | {m.a_wins} | {m.b_wins} | {m.draws} | "
            f"{100 * m.a_rate:.1f}%{interval} | "
            f"{100 * m.out_share:.1f}% | {100 * m.stock_share:.1f}% | {m.a_deal_score:.0f} | "
            f"{m.b_deal_score:.0f} | {format_elo(m)} |")


def games_words(games: int) -> str:
    """``--games`` in words: '4000 games per match (2000 game pairs, each game seed played
    both ways round)', the unpaired last game named."""
    pairs = games // 2
    text = f"{games} games per match ({pairs} game pairs, each game seed played both ways round"
    return text + (", and 1 game without its pair)" if games % 2 else ")")


def ladder_line(matches: list) -> str:
    """Three policies or more: one joint Elo ladder fitted to every match at once
    (canasta_sim.study.answer.rating_ladder), e.g. 'rating ladder (Elo, ...): expert +120
    (+104 to +136), careful ...'; '' for two policies or a match without an interval."""
    from canasta_sim.study.answer import rating_ladder

    rows = [{"a": m.a, "b": m.b, "elo": m.elo.to_dict()} for m in matches]
    ladder = rating_ladder(rows)
    if ladder is None:
        return ""
    steps = [f"{r['policy']} {r['rating']:+.0f} ({r['ci_low']:+.0f} to {r['ci_high']:+.0f})"
             for r in ladder["ratings"]]
    return (f"rating ladder (Elo, one joint fit of {len(matches)} matches, ratings add up to "
            "0, 95% CI): " + ", ".join(steps))


def ordering_holds(matches: list, order) -> bool:
    """Whether each policy of ``order`` beats the next one significantly."""
    by_pair = {(m.a, m.b): m for m in matches}
    for better, worse in zip(order, order[1:]):
        m = by_pair.get((better, worse))
        if m is None or not (m.significant and m.a_rate > 0.5):
            return False
    return True


def _rounded(x, digits):
    """x rounded, or '' for None."""
    return "" if x is None else round(x, digits)


def write_csv(matches: list, path, seed: int, rules: str) -> None:
    """Every match with its interval and how it was made (written atomically).

    ``ci_low``/``ci_high`` are the pentanomial interval of ``a_win_rate``; ``elo``,
    ``elo_low``, ``elo_high`` the Elo difference; ``pairs_0`` .. ``pairs_2`` the game pairs
    by A's total; an empty field has no value (a match without a game pair)."""
    import csv
    import io
    from importlib.metadata import version

    from canasta_sim import __version__
    from canasta_sim._cache import current_kernels_hash
    from canasta_sim.results import write_text

    made = [seed, rules, __version__, current_kernels_hash(), version("numba")]
    text = io.StringIO()
    writer = csv.writer(text)
    writer.writerow(["a", "b", "games", "a_wins", "b_wins", "draws", "cut", "a_win_rate",
                     "ci_low", "ci_high", "deals", "out_share", "stock_share",
                     "a_mean_deal_score", "b_mean_deal_score", "elo", "elo_low", "elo_high",
                     *(f"pairs_{t}" for t in PAIR_TOTALS), "seed", "rules",
                     "canasta_sim_version", "kernels_hash", "numba_version"])
    for m in matches:
        low, high = m.interval
        elo = m.elo
        writer.writerow([m.a, m.b, m.games, m.a_wins, m.b_wins, m.draws, m.cut,
                         round(m.a_rate, 4), _rounded(low, 4), _rounded(high, 4), m.deals,
                         round(m.out_share, 4), round(m.stock_share, 4),
                         round(m.a_deal_score, 1), round(m.b_deal_score, 1),
                         _rounded(elo.estimate, 1), _rounded(elo.ci_low, 1),
                         _rounded(elo.ci_high, 1), *m.pentanomial, *made])
    write_text(text.getvalue(), path)
