"""``make lab`` / ``python -m tdbook lab``: JupyterLab on working copies, so reading never changes the record.

The stored notebooks in ``notebooks/`` are the committed record (their outputs are the last recorded
standard run).  JupyterLab saves what a reader does — a quick run, a widget's leftovers — over the file it
opened, autosave included, so opening the stored files themselves would rewrite the record.  This command
copies them into ``build/lab/`` and starts JupyterLab there:

- a working copy is made when absent, and refreshed from ``notebooks/`` when the stored notebook changed
  (a ``git pull``) *and* the reader has not edited the copy; an edited copy is kept and the command says so
  (delete it, or pass ``--fresh``, to start again from the stored notebook);
- ``notebooks/`` is never written.  A notebook run in the lab writes its figures and results under
  ``build/interactive/`` (see :mod:`tdbook.core.paths`), never the committed ``figures/`` or ``data/results/``.
"""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path

from .catalog import discover, notebooks_dir
from .core.paths import repo_root
from .core.storage import atomic_write_bytes

LEDGER = ".stored-hashes.json"


def lab_dir() -> Path:
    return repo_root() / "build" / "lab"


def _digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def prepare(fresh: bool = False) -> Path:
    """Make or refresh the working copies under ``build/lab/`` (see the module docstring); return the folder."""
    d = lab_dir()
    d.mkdir(parents=True, exist_ok=True)
    ledger_path = d / LEDGER
    try:
        ledger = json.loads(ledger_path.read_text(encoding="utf-8"))
        if not isinstance(ledger, dict):
            ledger = {}
    except (OSError, ValueError):
        ledger = {}
    sources = discover() + [notebooks_dir() / "_template.ipynb"]
    for src in sources:
        if not src.is_file():
            continue
        stored = src.read_bytes()
        copy = d / src.name
        if copy.is_file() and not fresh:
            mine = copy.read_bytes()
            if mine == stored:
                ledger[src.name] = _digest(stored)
                continue
            if _digest(mine) != ledger.get(src.name):  # the reader's edits: keep them
                print(f"kept your edited working copy build/lab/{src.name} (delete it to start again)")
                continue
        atomic_write_bytes(copy, stored)
        ledger[src.name] = _digest(stored)
    atomic_write_bytes(ledger_path, (json.dumps(ledger, indent=1, sort_keys=True) + "\n").encode())
    return d


def command(args: Sequence[str] = ()) -> list[str]:
    """The JupyterLab command line: rooted at ``build/lab/``, plus the caller's own arguments (port, token…)."""
    cmd = [sys.executable, "-m", "jupyter", "lab", f"--ServerApp.root_dir={lab_dir()}"]
    if hasattr(os, "getuid") and os.getuid() == 0:  # Jupyter refuses root without it (containers, CI boxes)
        cmd.append("--allow-root")
    return cmd + list(args)


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    fresh = "--fresh" in argv
    args = [a for a in argv if a != "--fresh"]
    if args[:1] in (["-h"], ["--help"]):
        print(
            "usage: python -m tdbook lab [--fresh] [JUPYTER LAB OPTIONS…]\n\n"
            "JupyterLab on working copies of the notebooks in build/lab/ (notebooks/ is never written).\n"
            "--fresh replaces edited working copies with the stored notebooks. Other options go to jupyter lab,\n"
            "e.g. --port 8899 --IdentityProvider.token=secret --no-browser (make lab LAB_ARGS='…')."
        )
        return 0
    if not _has_jupyterlab():
        print("tdbook lab: error: JupyterLab is not installed here (make venv installs it)", file=sys.stderr)
        return 2
    d = prepare(fresh=fresh)
    print(f"JupyterLab on working copies in {d.relative_to(repo_root())}/ — the stored notebooks stay as they are")
    sys.stdout.flush()
    if os.name == "posix":  # JupyterLab takes this process's place, so a signal to it (Ctrl-C, kill) stops the server
        os.execv(sys.executable, command(args))
    try:
        return subprocess.call(command(args))
    except KeyboardInterrupt:
        return 130


def _has_jupyterlab() -> bool:
    import importlib.util

    return importlib.util.find_spec("jupyterlab") is not None
