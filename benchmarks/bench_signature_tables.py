"""Benchmark: Samuel's signature tables (Samuel (1973 note); issue 17 targets ≥ 5 M position-move updates/s of
count training and ≥ 2 M positions/s evaluated through all 13 tables).

Rates are per second of this process's CPU time (one thread), with the wall-clock rate beside it.

Plain script, not a timed test:  .venv/bin/python benchmarks/bench_signature_tables.py [--rows N]
"""

from __future__ import annotations

import argparse

from tdbook.experiments.signature_tables import speeds


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rows", type=int, default=5_000_000, help="random position-move rows")
    a = ap.parse_args()
    r = speeds(a.rows)
    for name, label, target in (
        ("count_per_s", "count training, stagewise fit of all 13 tables (rows/s)", 5e6),
        ("first_level_per_s", "count training, first-level pass (rows/s)", 5e6),
        ("eval_per_s", "evaluation through all 13 tables (positions/s)", 2e6),
    ):
        ok = "met" if r[name] >= target else "MISSED"
        print(f"{label:60s} {r[name]:14,.0f} cpu  {r[name + '_wall']:14,.0f} wall   target {target:,.0f}: {ok}")


if __name__ == "__main__":
    main()
