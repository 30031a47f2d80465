"""Command line: ``python -m tdbook run …`` and ``python -m tdbook scoreboard``."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from .core.paths import PROFILES


def _parser() -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(
        prog="python -m tdbook",
        description="Run the tdbook notebooks and show the reproduction scoreboard.",
    )
    sub = ap.add_subparsers(dest="command", required=True, metavar="{run,scoreboard,list,train}")

    r = sub.add_parser(
        "run",
        help="execute notebooks with papermill",
        description=(
            "Execute notebooks with papermill. NAME is a number (5 or 05), a file stem (05_random_walk) "
            "or a name (random_walk); no NAME runs every notebook, the index (00) last. "
            "Executed copies go to build/notebooks/ (standard) or build/<profile>/notebooks/."
        ),
    )
    r.add_argument("names", nargs="*", metavar="NAME", help="notebooks to run (default: all)")
    r.add_argument(
        "--profile",
        default="standard",
        choices=PROFILES,
        help="quick (CI, minutes), standard (make figures), full (papers' scale, hours)",
    )
    r.add_argument(
        "-p",
        "--parameter",
        nargs=2,
        action="append",
        default=[],
        metavar=("KEY", "VALUE"),
        help="set a notebook parameter, e.g. -p RUNS 200 (repeatable)",
    )
    r.add_argument("--kernel", default="tdbook", help="Jupyter kernel name (default: tdbook)")

    s = sub.add_parser(
        "scoreboard",
        help="print the reproduction scoreboard",
        description="Print every notebook's claims: paper value, ours, verdict.",
    )
    s.add_argument("--profile", default="standard", choices=PROFILES, help="whose results to read")
    s.add_argument("--claims", action="store_true", help="also list every claim")
    s.add_argument("--write", action="store_true", help="write data/results/SCOREBOARD.md too")

    sub.add_parser(
        "list",
        help="list the notebooks and the documents they reproduce",
        description="List the notebooks and the documents they reproduce.",
    )

    t = sub.add_parser(
        "train",
        help="train a learner from scratch (checkpointed, resumable)",
        add_help=False,
        description="Train a learner; GAME picks the trainer, whose own options follow "
        "(python -m tdbook train GAME --help).",
    )
    t.add_argument("game", metavar="GAME", help=f"one of: {', '.join(TRAINERS)}")
    t.add_argument("options", nargs=argparse.REMAINDER, help="the trainer's options")
    return ap


#: ``python -m tdbook train GAME …`` → ``module:function(argv) -> exit code``
TRAINERS: dict[str, str] = {
    "backgammon": "tdbook.experiments.backgammon_cli:train_main",
    "tictactoe-net": "tdbook.experiments.tictactoe_net:train_main",
}


def main(argv: Sequence[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    if args.command == "run":
        from .runner import UsageError, run

        try:
            results = run(args.names, args.profile, [tuple(p) for p in args.parameter], kernel=args.kernel)
        except UsageError as e:
            print(f"tdbook run: error: {e}", file=sys.stderr)
            return 2
        return 0 if all(r.status == "ok" for r in results) else 1
    if args.command == "scoreboard":
        from .results import scoreboard, write_scoreboard

        summary, claims = scoreboard(args.profile)
        print(summary)
        if args.claims:
            print()
            print(claims)
        if args.write:
            print(f"\nwrote {write_scoreboard(args.profile)}")
        return 0
    if args.command == "train":
        if args.game not in TRAINERS:
            print(
                f"tdbook train: error: unknown game {args.game!r}; choose from: {', '.join(TRAINERS)}", file=sys.stderr
            )
            return 2
        import importlib

        mod, fn = TRAINERS[args.game].split(":")
        return int(getattr(importlib.import_module(mod), fn)(args.options) or 0)
    if args.command == "list":
        from .catalog import SEEDS, discover, entry_for

        for p in discover():
            e = entry_for(p.stem)
            doc = SEEDS.get(e.document, "") if e else ""
            print(f"{p.stem:<32} {e.title if e else ''}" + (f"\n{'':<32} seed {doc} ({e.sections})" if doc else ""))
        return 0
    return 2  # pragma: no cover - argparse enforces the choices


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
