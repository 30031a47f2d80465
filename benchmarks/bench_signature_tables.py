"""Benchmark: Samuel's signature tables (Samuel (1973 note)) — counting the ACF master archive into the tables.

Prints positions/s of counting the whole training archive (289,986 positions, 2.2 million position-moves) into
Samuel's 13 tables from scratch (three stagewise passes, equal-frequency thresholds from the counts in between),
with and without quantizing the 27 terms first; and, on random input levels, position-moves/s of the count
training and positions/s of evaluation through all 13 tables.  Rates are per second of this process's CPU time
(one thread), with the wall-clock rate beside it.

Plain script, not a timed test:  .venv/bin/python benchmarks/bench_signature_tables.py [--rows N] [--games N]
"""

from __future__ import annotations

import argparse

from tdbook.experiments.checkers.signature_tables import archive_speed, speeds
from tdbook.experiments.checkers.signature_tables_master import fit_models, master


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rows", type=int, default=5_000_000, help="random position-move rows")
    ap.add_argument("--games", type=int, default=0, help="training games of the archive (0 = all 7,502)")
    a = ap.parse_args()
    train, _ = master(a.games, 1)
    models = fit_models(train, 0)
    s = archive_speed(train, models.tables)
    print(f"counting the training archive ({s['positions']:,} positions, {s['rows']:,} position-moves) into all "
          f"13 tables: {s['seconds']:.2f} s CPU ({s['wall']:.2f} s wall)")  # fmt: skip
    print(f"{'  positions/s (counting)':60s} {s['positions_per_s']:14,.0f} cpu")
    print(f"{'  position-moves/s (counting)':60s} {s['rows_per_s']:14,.0f} cpu")
    print(f"{'  positions/s (quantizing the 27 terms, then counting)':60s} {s['with_quantization_per_s']:14,.0f} cpu")
    r = speeds(a.rows)
    for name, label in (
        ("count_per_s", "count training, stagewise fit of all 13 tables (rows/s)"),
        ("first_level_per_s", "count training, first-level pass (rows/s)"),
        ("eval_per_s", "evaluation through all 13 tables (positions/s)"),
    ):
        print(f"{label:60s} {r[name]:14,.0f} cpu  {r[name + '_wall']:14,.0f} wall")


if __name__ == "__main__":
    main()
