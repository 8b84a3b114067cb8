"""The balance of Modern American Canasta (docs/american.md, "Balance"), from a games run.

    python examples/american_balance.py [--games 3000] [--policies expert]
                                        [--rules modern-american] [--seed 1]

Per deal: how deals end (going out, the stock, a special hand); the first player's edge (the
mean deal score of the side that plays first, at the dealer's left, less the other side's);
how often a special hand is laid, which ones, what they pay and how often its side then wins
the deal; talons; canastas by kind; incomplete-meld penalties.  Per game: deals per game, and
how often the side that plays first in the game's first deal wins the game.

Intervals are 95%: a normal interval for a mean over independent deals (every deal has its
own random streams), Wilson's (via canasta_sim.stats.proportion) for a share.  The games'
deals are independent deals too, so the per-deal figures are means over every deal played.
"""
from __future__ import annotations

import argparse

import numpy as np

import canasta_sim
from canasta_sim import stats


def _mean(values) -> tuple:
    """(mean, low, high) of a normal 95% interval for the mean of independent values."""
    values = np.asarray(values, dtype=np.float64)
    se = values.std(ddof=1) / np.sqrt(len(values)) if len(values) > 1 else float("nan")
    low, high = stats.normal_interval(values.mean(), se)
    return float(values.mean()), float(low), float(high)


def _share(hits: int, n: int) -> tuple:
    """(share, low, high): Wilson's 95% interval."""
    est = stats.proportion(hits, n)
    return float(est.estimate), float(est.ci_low), float(est.ci_high)


def balance(games, deals) -> dict:
    """The figures of the module docstring from a games table and its deals table (pandas)."""
    n = len(deals)
    s0 = deals.s0_score.to_numpy(np.int64)
    s1 = deals.s1_score.to_numpy(np.int64)
    first = (deals.dealer.to_numpy(np.int64) + 1) % 2          # A8: the dealer's left
    edge = np.where(first == 0, s0 - s1, s1 - s0)
    end = deals.end_reason.astype(str)
    special = deals.special_hand.astype(str)
    laid = special != "none"
    seat = deals.special_seat.to_numpy(np.int64)
    special_side = np.where(seat >= 0, seat % 2, 0)
    special_margin = np.where(special_side == 0, s0 - s1, s1 - s0)[laid.to_numpy()]
    out = {"games": len(games), "deals": n,
           "ends_out": _share(int((end == "out").sum()), n),
           "ends_stock": _share(int((end == "stock").sum()), n),
           "ends_special": _share(int(laid.sum()), n),
           "first_player_edge": _mean(edge),
           "special_points_mean": float(deals.s0_special.add(deals.s1_special)[laid].mean())
           if laid.any() else float("nan"),
           "special_side_wins_deal": _share(int((special_margin > 0).sum()), int(laid.sum()))
           if laid.any() else (float("nan"),) * 3,
           "talon_per_side": _mean(np.concatenate([(deals.s0_talon > 0).to_numpy(),
                                                   (deals.s1_talon > 0).to_numpy()])),
           "incomplete_penalty_per_side": _mean(np.concatenate(
               [deals.s0_incomplete.to_numpy(), deals.s1_incomplete.to_numpy()]))}
    for kind in ("clean", "dirty", "aces", "sevens", "wild"):
        both = deals[f"s0_{kind}_canastas"].add(deals[f"s1_{kind}_canastas"])
        out[f"{kind}_canastas_per_deal"] = float(both.mean())
    for name, count in special[laid].value_counts().items():
        out[f"special {name}"] = int(count)
    out["deals_per_game"] = float(games.deals.mean())
    opener = deals[deals.deal_in_game == 0].set_index("game")
    first_side = (opener.dealer.astype(np.int64) + 1) % 2
    won = games.set_index("game").winner.reindex(first_side.index)
    decided = won >= 0
    out["first_side_wins_game"] = _share(int((won[decided] == first_side[decided]).sum()),
                                         int(decided.sum()))
    return out


def _format(name, value) -> str:
    if isinstance(value, tuple):
        return f"{name:30s} {value[0]:10.3f}  ({value[1]:.3f} .. {value[2]:.3f})"
    if isinstance(value, float):
        return f"{name:30s} {value:10.3f}"
    return f"{name:30s} {value:10d}"


def main():
    """Play the games and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=3000)
    parser.add_argument("--policies", default="expert")
    parser.add_argument("--rules", default="modern-american")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    games, deals = canasta_sim.simulate(games=args.games, seed=args.seed, rules=args.rules,
                                        policies=args.policies)
    figures = balance(canasta_sim.to_pandas(games), canasta_sim.to_pandas(deals))
    for name, value in figures.items():
        print(_format(name, value))


if __name__ == "__main__":
    main()
