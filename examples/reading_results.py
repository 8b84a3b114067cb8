"""Every step of reading_results.md, on small runs in a temporary folder.

    python examples/reading_results.py
"""
from __future__ import annotations

import subprocess
import sys
import tempfile
from pathlib import Path

import pyarrow.parquet as pq

import canasta_sim


def main():
    """Make two small result files, then read them with pandas and (if installed) DuckDB."""
    with tempfile.TemporaryDirectory(prefix="canasta-sim-example-") as folder:
        cg, games_path = Path(folder) / "cg.parquet", Path(folder) / "games.parquet"
        run = [sys.executable, "-m", "canasta_sim", "simulate", "--quiet", "--seed", "7"]
        subprocess.run(run + ["--deals", "5000", "--policies", "careful,greedy,careful,greedy",
                              "--out", str(cg)], check=True)
        subprocess.run(run + ["--games", "50", "--out", str(games_path)], check=True)

        table = pq.read_table(cg)
        df = canasta_sim.to_pandas(table)
        print(df[["s0_score", "s1_score"]].mean())
        print(df.groupby("end_reason", observed=True)[["s0_score", "s1_score"]].mean())
        print("largest 100 * s0_natural:", (100 * df.s0_natural).max())
        print("s2_score dtype:", df.s2_score.dtype)
        meta = table.schema.metadata
        print("rules", meta[b"canasta_sim.rules"].decode(), "deals",
              meta[b"canasta_sim.first_deal"].decode(), "+", meta[b"canasta_sim.deals"].decode())

        deals_path = Path(folder) / "games.deals.parquet"
        games = canasta_sim.to_pandas(pq.read_table(games_path))
        deals = canasta_sim.to_pandas(pq.read_table(deals_path))
        print(games.winner.value_counts())
        print(deals.groupby("game").deal_in_game.max().describe())

        try:
            import duckdb
        except ImportError:
            print("duckdb is not installed (pip install duckdb): the DuckDB step is skipped")
            return
        duckdb.sql(f"""
            SELECT end_reason, count(*) AS deals, avg(s0_score - s1_score) AS margin
            FROM '{cg}' GROUP BY end_reason ORDER BY deals DESC
        """).show()
        duckdb.sql(f"""
            SELECT g.winner, avg(d.s0_score) AS side0_per_deal, count(*) AS deals
            FROM '{games_path}' g JOIN '{deals_path}' d USING (game)
            GROUP BY g.winner ORDER BY g.winner
        """).show()


if __name__ == "__main__":
    main()
