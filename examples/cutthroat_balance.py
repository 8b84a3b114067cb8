"""The balance of three-player Cutthroat (docs/cutthroat.md, "Balance"), from a games run.

    python examples/cutthroat_balance.py [--games 2000] [--policies careful] [--rules cutthroat]
                                         [--seed 1]

Per deal: how the partnership formed, how often the lone hand scores more than each partner
(wins the deal), and the lone hand's mean deal score against a partner's.  Per game: how often
the seat that was the lone hand most often wins the game, and how often the winner was the lone
hand in the game's last deal.  The first taker's edge: the lone hand's mean deal score less a
partner's, over the deals formed by a take.
"""
from __future__ import annotations

import argparse

import numpy as np

import canasta_sim


def balance(games, deals) -> dict:
    """The figures of the module docstring from a games table and its deals table (pandas)."""
    formed = deals.formed_by.astype(str)
    took = deals[formed == "take"]
    scores = np.stack([deals[f"s{k}_score"].to_numpy(np.int64) for k in range(3)], axis=1)
    lone = deals.lone_seat.to_numpy(np.int64)
    has = lone >= 0
    lone_score = scores[has, lone[has]]
    partner_score = np.where(lone[has] == 0, scores[has, 1], scores[has, 0])
    took_rows = (formed == "take").to_numpy()[has]
    out = {"deals": len(deals), "games": len(games),
           "formed_take": float((formed == "take").mean()),
           "formed_going_out": float((formed == "going_out").mean()),
           "formed_none": float((formed == "none").mean()),
           "lone_wins_deal": float((lone_score > partner_score).mean()),
           "lone_mean": float(lone_score.mean()), "partner_mean": float(partner_score.mean()),
           "first_taker_edge": float((lone_score[took_rows] - partner_score[took_rows]).mean()),
           "takes": len(took)}
    most_lone, last_lone = [], []
    for game, group in deals.groupby("game"):
        counts = np.bincount(group.lone_seat[group.lone_seat >= 0].to_numpy(np.int64),
                             minlength=3)
        winner = int(games.loc[games.game == game, "winner"].iloc[0])
        if winner < 0:
            continue
        if counts.max() > 0 and (counts == counts.max()).sum() == 1:
            most_lone.append(winner == int(counts.argmax()))
        last = int(group.sort_values("deal_in_game").lone_seat.iloc[-1])
        if last >= 0:
            last_lone.append(winner == last)
    out["most_often_lone_wins_game"] = float(np.mean(most_lone)) if most_lone else float("nan")
    out["last_deal_lone_wins_game"] = float(np.mean(last_lone)) if last_lone else float("nan")
    return out


def main():
    """Play the games and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--policies", default="careful")
    parser.add_argument("--rules", default="cutthroat")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    games, deals = canasta_sim.simulate(games=args.games, seed=args.seed, rules=args.rules,
                                        policies=args.policies)
    figures = balance(canasta_sim.to_pandas(games), canasta_sim.to_pandas(deals))
    for name, value in figures.items():
        print(f"{name:28s} {value:.3f}" if isinstance(value, float) else f"{name:28s} {value}")


if __name__ == "__main__":
    main()
