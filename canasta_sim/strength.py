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

Three sides (three-player, six-player-3x2, cutthroat).  A match is A on one side against B on
the two others: each game seed is played once per rotation of the sides, so A sits once in
each position (the study's duplicate design, played by :func:`canasta_sim.arms.play_rotations`
with the per-seed units ``compare`` computes).  ``games`` must be a multiple of 3.  A's win
share (a draw counting half, as in ``compare``) has a fair value of 1/3, not 1/2; its interval
rests on the seeds, each seed's value being A's mean result over its three rotations
(``PairedSums.share_a``).  Points per deal are A's deal score less the mean of the two B
sides', a ratio over each seed's deals with its delta-method interval.  There is no Elo and no
rating ladder at three sides: Elo's logistic curve turns the score of one player against one
opponent into a rating difference, and a seat against two seats has no such difference
without a model of three-way games (Plackett-Luce or the like) that the data here do not
test; the win share is compared with the fair share instead (:attr:`RotationMatch.significant`).
A against B + B and B against A + A are different matches; the table plays A (the earlier
policy of the list) as the lone side.
"""
from __future__ import annotations

import itertools
from typing import NamedTuple

from canasta_sim.arms import (
    pair_counts,
    plan_arms,
    play_arms,
    seats_for,
    side_results,
    whole_seed_games,
)
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


class RotationMatch(NamedTuple):
    """The result of A (one side) against B (every other side) over ``games`` games: three
    sides, each game seed played in every rotation."""

    a: str
    b: str
    games: int
    sides: int
    a_wins: int
    b_wins: int               # games won by a B side
    draws: int
    cut: int
    deals: int
    out_share: float
    stock_share: float
    a_deal_score: float       # A's mean deal score
    b_deal_score: float       # the mean over the deals of the B sides' mean deal score
    share: object             # Estimate: A's win share over the seeds (a draw counting half)
    points: object            # Estimate: A's deal score less the B sides' mean, per deal

    @property
    def fair_share(self) -> float:
        """The win share of A if it played exactly as well as B: 1 / sides."""
        return 1 / self.sides

    @property
    def seeds(self) -> int:
        """Game seeds the intervals rest on (games / sides)."""
        return self.games // self.sides

    @property
    def a_rate(self) -> float:
        """A's win share, a draw counting half."""
        return self.share.estimate

    @property
    def interval(self) -> tuple:
        """The 95% interval of A's win share; (None, None) without one."""
        return self.share.ci_low, self.share.ci_high

    @property
    def significant(self) -> bool:
        """Whether the interval excludes the fair share 1 / sides."""
        low, high = self.interval
        return low is not None and (low > self.fair_share or high < self.fair_share)


def check_games(games, rules) -> None:
    """BadInput unless ``games`` splits into whole seeds at three sides: a multiple of 3 (one
    game per rotation).  At two sides any count >= 1 plays (the last seed of an odd count
    has no partner)."""
    if rules.num_sides > 2:
        whole_seed_games(games, "--games", rules.num_sides)


def a_results(table, a_side: int):
    """A's result per game seed of a games table (1 win, 0.5 draw, 0 loss, NaN cut off)."""
    return side_results(table, a_side, 0, len(table))[0]


def play_match(a: str, b: str, games: int, seed: int = 0, rules="classic",
               threads=None) -> Match:
    """A against B in ``games`` games (half each way round, on the same game seeds); at
    three sides a :class:`RotationMatch` (:func:`play_rotation_match`)."""
    import numpy as np

    from canasta_sim.rules import parse_rules
    from canasta_sim.runner import rows_tables

    r = parse_rules(rules)
    if r.num_sides > 2:
        return play_rotation_match(a, b, games, seed, r, threads)
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


def play_rotation_match(a: str, b: str, games: int, seed: int, rules,
                        threads=None) -> RotationMatch:
    """A on one side against B on the others in ``games`` games (a multiple of the sides):
    games / sides seeds, each in every rotation (canasta_sim.arms.play_rotations)."""
    import numpy as np

    from canasta_sim.arms import play_rotations
    from canasta_sim.stats import PairedSums
    from canasta_sim.study.metrics import lineup_side

    check_games(games, rules)
    played = play_rotations(a, b, rules, seed, 0, games // rules.num_sides, threads)
    points = PairedSums(False)
    per_deal = played.units["points_per_deal"]
    points.add(per_deal.y, per_deal.n)
    winner = played.games["winner"].to_numpy()
    ended = played.games["ended"].to_pandas().astype(str).to_numpy()
    a_side = lineup_side(played.games["rotation"].to_numpy(), rules.num_sides)
    a_wins = int(((winner == a_side) & (ended == "target")).sum())
    b_wins = int(((winner != a_side) & (ended == "target")).sum())
    own, others = played.lineup_columns(played.deals, "score")
    reasons = played.deals["end_reason"].to_pandas().astype(str).to_numpy()
    deals = len(reasons)
    return RotationMatch(a, b, games, rules.num_sides, a_wins, b_wins,
                         int((ended == "draw").sum()), int((ended == "cut").sum()), deals,
                         float((reasons == "out").sum()) / max(deals, 1),
                         float((reasons == "stock").sum()) / max(deals, 1),
                         float(np.mean(own)) if deals else 0.0,
                         float(np.mean(others)) if deals else 0.0,
                         played.stats().win_rate(), points.mean_a())


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


HEADER_ROTATIONS = (
    "| A | B + B | games | A wins | B wins | draws | A win share (95% CI; fair 33.3%) | "
    "deals ended by going out | by the stock | A mean deal score | B mean deal score | "
    "points per deal A - mean(B) (95% CI) |\n"
    "|---|---|---|---|---|---|---|---|---|---|---|---|")
"""The table at three sides: each row one side of A against two sides of B."""


def header(num_sides: int) -> str:
    """The Markdown table header for a rule set with ``num_sides`` sides."""
    return HEADER if num_sides == 2 else HEADER_ROTATIONS


def format_row(m) -> str:
    """One Markdown table row (of a Match or a RotationMatch)."""
    if isinstance(m, RotationMatch):
        return format_rotation_row(m)
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


def format_rotation_row(m: RotationMatch) -> str:
    """One Markdown row of a match at three sides, e.g. '... | 54.7% (52.3-57.0) | ...'."""
    low, high = m.interval
    interval = "" if low is None else f" ({100 * low:.1f}-{100 * high:.1f})"
    mark = "" if low is None or m.significant else " (n.s.)"
    p = m.points
    points = "n/a" if p.estimate is None else f"{p.estimate:+.1f}" + (
        "" if p.ci_low is None else f" ({p.ci_low:+.1f}, {p.ci_high:+.1f})")
    share = "n/a" if m.a_rate is None else f"{100 * m.a_rate:.1f}%{interval}{mark}"
    return (f"| {m.a} | {m.b} | {m.games} | {m.a_wins} | {m.b_wins} | {m.draws} | {share} | "
            f"{100 * m.out_share:.1f}% | {100 * m.stock_share:.1f}% | {m.a_deal_score:.0f} | "
            f"{m.b_deal_score:.0f} | {points} |")


def games_words(games: int, num_sides: int = 2) -> str:
    """``--games`` in words: '4000 games per match (2000 game pairs, each game seed played
    both ways round)', the unpaired last game named; at three sides '1500 games per match
    (500 game seeds, each played in the 3 seat rotations: A in one seat, B in two)'."""
    if num_sides > 2:
        return (f"{games} games per match ({games // num_sides} game seeds, each played in "
                f"the {num_sides} rotations of the sides: A on one side against B on the "
                f"other {num_sides - 1}; A's fair win share is {100 / num_sides:.1f}%)")
    pairs = games // 2
    text = f"{games} games per match ({pairs} game pairs, each game seed played both ways round"
    return text + (", and 1 game without its pair)" if games % 2 else ")")


NO_ELO = ("no Elo and no rating ladder at three sides: Elo turns one player's score against "
          "one opponent into a rating difference, and a side against two sides has none "
          "without a model of three-way games; each row compares A's win share with the "
          "fair share instead. Each row is one match, A against B + B; B against A + A is "
          "another (list B first to play it)")
"""What the strength command says instead of the ladder at three sides."""


def ladder_line(matches: list) -> str:
    """Three policies or more: one joint Elo ladder fitted to every match at once
    (canasta_sim.study.answer.rating_ladder), e.g. 'rating ladder (Elo, ...): expert +120
    (+104 to +136), careful ...'; '' for two policies or a match without an interval; at
    three sides :data:`NO_ELO`, why there is none."""
    from canasta_sim.study.answer import rating_ladder

    if any(isinstance(m, RotationMatch) for m in matches):
        return NO_ELO
    rows = [{"a": m.a, "b": m.b, "elo": m.elo.to_dict()} for m in matches]
    ladder = rating_ladder(rows)
    if ladder is None:
        return ""
    steps = [f"{r['policy']} {r['rating']:+.0f} ({r['ci_low']:+.0f} to {r['ci_high']:+.0f})"
             for r in ladder["ratings"]]
    return (f"rating ladder (Elo, one joint fit of {len(matches)} matches, ratings add up to "
            "0, 95% CI): " + ", ".join(steps))


def ordering_holds(matches: list, order) -> bool:
    """Whether each policy of ``order`` beats the next one significantly: a win rate above
    50% (at three sides a win share above the fair 1/3) with an interval that excludes it."""
    by_pair = {(m.a, m.b): m for m in matches}
    for better, worse in zip(order, order[1:]):
        m = by_pair.get((better, worse))
        if m is None or not (m.significant and m.a_rate > _fair_share(m)):
            return False
    return True


def _fair_share(m) -> float:
    """A's win share when A plays as well as B: 1/2, or 1 / sides at three sides."""
    return m.fair_share if isinstance(m, RotationMatch) else 0.5


def _rounded(x, digits):
    """x rounded, or '' for None."""
    return "" if x is None else round(x, digits)


CSV_COMMON = ("a", "b", "games", "a_wins", "b_wins", "draws", "cut", "a_win_rate", "ci_low",
              "ci_high", "deals", "out_share", "stock_share", "a_mean_deal_score",
              "b_mean_deal_score")
CSV_TWO_SIDES = ("elo", "elo_low", "elo_high", *(f"pairs_{t}" for t in PAIR_TOTALS))
CSV_THREE_SIDES = ("fair_share", "points_per_deal", "points_low", "points_high")
CSV_MADE = ("seed", "rules", "canasta_sim_version", "kernels_hash", "numba_version")


def _csv_values(m) -> list:
    """A match's CSV fields before the provenance: the common ones, then Elo and the game
    pairs (two sides) or the fair share and the points per deal (three sides)."""
    low, high = m.interval
    values = [m.a, m.b, m.games, m.a_wins, m.b_wins, m.draws, m.cut, _rounded(m.a_rate, 4),
              _rounded(low, 4), _rounded(high, 4), m.deals, round(m.out_share, 4),
              round(m.stock_share, 4), round(m.a_deal_score, 1), round(m.b_deal_score, 1)]
    if isinstance(m, RotationMatch):
        p = m.points
        return values + [round(m.fair_share, 4), _rounded(p.estimate, 1),
                         _rounded(p.ci_low, 1), _rounded(p.ci_high, 1)]
    elo = m.elo
    return values + [_rounded(elo.estimate, 1), _rounded(elo.ci_low, 1),
                     _rounded(elo.ci_high, 1), *m.pentanomial]


def write_csv(matches: list, path, seed: int, rules: str) -> None:
    """Every match with its interval and how it was made (written atomically).

    ``ci_low``/``ci_high`` are the interval of ``a_win_rate``.  Two sides: the pentanomial
    interval; ``elo``, ``elo_low``, ``elo_high`` the Elo difference; ``pairs_0`` ..
    ``pairs_2`` the game pairs by A's total.  Three sides: ``a_win_rate`` is A's win share
    over the seeds, ``fair_share`` 1/3, ``points_per_deal`` (``points_low``,
    ``points_high``) A's deal score less the B sides' mean with its interval.  An empty
    field has no value (a match without a game pair)."""
    import csv
    import io
    from importlib.metadata import version

    from canasta_sim import __version__
    from canasta_sim._cache import current_kernels_hash
    from canasta_sim.results import write_text

    made = [seed, rules, __version__, current_kernels_hash(), version("numba")]
    three = any(isinstance(m, RotationMatch) for m in matches)
    text = io.StringIO()
    writer = csv.writer(text)
    writer.writerow([*CSV_COMMON, *(CSV_THREE_SIDES if three else CSV_TWO_SIDES), *CSV_MADE])
    for m in matches:
        writer.writerow(_csv_values(m) + made)
    write_text(text.getvalue(), path)
