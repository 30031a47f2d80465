"""Command line: ``python -m tdbook run …``, ``scoreboard``, ``list``, ``train``, ``lab`` and ``restore``."""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from pathlib import Path

from .core.paths import PROFILES, RECORD_ENV


def _parser() -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(
        prog="python -m tdbook",
        description="Run the tdbook notebooks and show the reproduction scoreboard.",
    )
    sub = ap.add_subparsers(dest="command", required=True, metavar="{run,scoreboard,list,train,lab,restore}")

    r = sub.add_parser(
        "run",
        help="execute notebooks with papermill",
        description=(
            "Execute notebooks with papermill. NAME is a number (5 or 05), a file stem (05_random_walk) "
            "or a name (random_walk); no NAME runs every notebook, the index (00) last. A -p value is checked "
            "by the notebook's own configuration before any kernel starts (a bad one: exit code 2). Executed copies "
            "go to build/notebooks/ (standard; without -p each is also stored, cleaned, back into notebooks/ with the "
            "record's figures/ and data/results/) or build/<profile>/notebooks/ (quick, full; their figures and "
            "results under build/<profile>/ too)."
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
    r.add_argument(
        "--workers",
        type=int,
        default=None,
        metavar="N",
        help="run independent notebooks concurrently on a Dask LocalCluster of N workers "
        "(default: one per core; 1 runs them one after another here)",
    )
    r.add_argument(
        "--scheduler",
        metavar="tcp://HOST:PORT",
        help="send the notebooks to an existing Dask cluster instead (its workers must see this checkout)",
    )

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

    sub.add_parser(
        "restore",
        help="bring a net's weights back from git history by its name, checked against its sidecar's SHA-256",
        add_help=False,
    )
    sub.add_parser(
        "lab",
        help="JupyterLab on working copies of the notebooks (build/lab/); the stored notebooks stay as they are",
        add_help=False,
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
    "backgammon": "tdbook.experiments.backgammon.cli:train_main",
    "checkers": "tdbook.experiments.checkers.cli:train_main",
    "signature-book": "tdbook.experiments.checkers.signature_tables_book:make_main",
    "symmetric-gammon": "tdbook.experiments.backgammon.symmetric_gammon_cli:train_main",
    "symmetric-gammon-rollouts": "tdbook.experiments.backgammon.rollout_training:train_main",
    "tictactoe-net": "tdbook.experiments.tictactoe.net_perfect:train_main",
}


def _quiet_abandoned_tasks() -> None:
    """After Ctrl-C, the notebook client's abandoned asyncio tasks would log their tracebacks when collected:
    collect them now with asyncio's logger off, so the user sees one line, not a wall of tracebacks."""
    import gc
    import logging

    logging.getLogger("asyncio").disabled = True
    gc.collect()


def _trainer(game: str):
    import importlib

    mod, fn = TRAINERS[game].split(":")
    return getattr(importlib.import_module(mod), fn)


def trainers_help() -> str:
    """Every trainer with its own options (each trainer's ``--help``), for ``tdbook train [--help]``."""
    import contextlib
    import io

    parts = [
        "usage: python -m tdbook train GAME [options]",
        "",
        "Train a learner from scratch (progress bar, atomic checkpoints, resumable). GAME is one of:",
    ]
    for game in TRAINERS:
        buf = io.StringIO()
        with contextlib.redirect_stdout(buf), contextlib.suppress(SystemExit):
            _trainer(game)(["--help"])
        parts += ["", f"== {game} " + "=" * max(0, 70 - len(game)), buf.getvalue().rstrip()]
    return "\n".join(parts) + "\n"


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv[:1] == ["lab"]:
        from .lab import main as lab_main

        return lab_main(argv[1:])
    if argv[:1] == ["restore"]:
        from .manifest import restore_main

        return restore_main(argv[1:])
    if argv[:1] == ["train"] and (len(argv) == 1 or argv[1] in ("-h", "--help")):
        text = trainers_help()
        if len(argv) == 1:  # no game: a usage error, but say what the choices are
            print(text + "\ntdbook train: error: name a GAME", file=sys.stderr)
            return 2
        print(text)
        return 0
    args = _parser().parse_args(argv)
    if args.command == "run":
        from .runner import Interrupted, UsageError, run

        try:
            workers = args.workers if args.workers is not None else (os.cpu_count() or 1)
            results = run(
                args.names,
                args.profile,
                [tuple(p) for p in args.parameter],
                kernel=args.kernel,
                workers=workers,
                scheduler=args.scheduler,
            )
        except UsageError as e:
            print(f"tdbook run: error: {e}", file=sys.stderr)
            return 2
        except Interrupted as e:
            _quiet_abandoned_tasks()
            print(f"\ntdbook run: {e}", file=sys.stderr)
            return 130
        except KeyboardInterrupt:
            print("\ntdbook run: interrupted before any notebook started; nothing was written", file=sys.stderr)
            return 130
        return 0 if all(r.status == "ok" for r in results) else 1
    if args.command == "scoreboard":
        from .core.paths import record_results_dir
        from .results import headline, kinds, load_all, scoreboard, write_scoreboard

        if not load_all(args.profile):  # not "0 claims": nothing was run in this profile
            where = record_results_dir(args.profile)
            print(
                f"tdbook scoreboard: no results for the {args.profile} profile in {where}: no notebook has been run in "
                f"it yet (python -m tdbook run --profile {args.profile} [NAME …])",
                file=sys.stderr,
            )
            return 1

        summary, claims = scoreboard(args.profile)
        print(headline(args.profile))
        print()
        print(kinds(args.profile))
        print()
        print(summary)
        if args.claims:
            print()
            print(claims)
        if args.write:  # the scoreboard of the record is written beside the record it counts (and the README's line)
            os.environ[RECORD_ENV] = "1"
            print(f"\nwrote {write_scoreboard(args.profile)}")
        return 0
    if args.command == "train":
        if args.game not in TRAINERS:
            print(
                f"tdbook train: error: unknown game {args.game!r}; choose from: {', '.join(TRAINERS)}", file=sys.stderr
            )
            return 2
        try:
            return int(_trainer(args.game)(args.options) or 0)
        except KeyboardInterrupt:  # a trainer that checkpoints says where itself before this
            print("\ntdbook train: interrupted", file=sys.stderr)
            return 130
    if args.command == "list":
        from .catalog import DOCUMENTS, ENTRIES, claims_file, discover, entry_modules, notebooks_dir

        present = {p.stem[:2]: p.stem for p in discover()}
        for e in ENTRIES:
            stem = present.get(e.number, f"{e.number} (coming)")
            print(f"{stem:<28} {e.title}")
            if e.document:
                d = DOCUMENTS[e.document]
                print(f"{'':<28} reproduces {d.citation}: {d.title} ({d.kind}, {d.year}) — {e.sections}")
                print(f"{'':<28} claims {claims_file(e)}")
            code = entry_modules(notebooks_dir() / f"{present[e.number]}.ipynb") if e.number in present else []
            if code:
                entry = code[0] if Path(code[0]).stem == stem[3:] else ""
                print(f"{'':<28} entry {entry or '(none)'}")
                if code[1:] or not entry:
                    print(f"{'':<28} also {', '.join(code[1:] if entry else code)}")
        return 0
    return 2  # pragma: no cover - argparse enforces the choices


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
