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

**Warm kernels.**  The first call of a jitted kernel compiles it (35–50 s for a panel's first run), and numba
keeps what it compiled in ``build/numba-cache/<hash of the code>/``.  Unless that cache was filled for this code
already (``make test`` fills it too) or ``--no-warm`` is given, :func:`warm` fills it in the background while
JupyterLab starts: every notebook's quick run (which calls every kernel its panels and boards call), at low
priority, one notebook at a time, writing under ``build/lab/warm-up/`` (log: ``build/lab/warm-up.log``).  A panel
or board opened before it is done says that it is compiling (:func:`tdbook.widgets.preparing`).

JupyterLab starts without its news feed and update check (no pop-up asking about news on the first start).
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path

from .catalog import discover, notebooks_dir
from .core.paths import repo_root
from .core.storage import atomic_write_bytes

LEDGER = ".stored-hashes.json"
#: In numba's cache directory for this code: the warm-up filled it (:func:`warm`).
WARM_STAMP = ".tdbook-warm"
#: JupyterLab's options that keep a reading session quiet: no news feed (nor the question about it), no update check.
QUIET = (
    "--LabApp.news_url=None",
    "--LabApp.check_for_updates_class=jupyterlab.handlers.announcements.NeverCheckForUpdate",
)


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
    """The JupyterLab command line: rooted at ``build/lab/``, quiet (:data:`QUIET`, unless the caller sets those
    options), plus the caller's own arguments (port, token…)."""
    cmd = [sys.executable, "-m", "jupyter", "lab", f"--ServerApp.root_dir={lab_dir()}"]
    cmd += [q for q in QUIET if not any(a.startswith(q.split("=")[0] + "=") for a in args)]
    if hasattr(os, "getuid") and os.getuid() == 0:  # Jupyter refuses root without it (containers, CI boxes)
        cmd.append("--allow-root")
    return cmd + list(args)


def numba_cache() -> Path | None:
    """numba's cache directory for this code (set when ``tdbook`` is imported), or None."""
    where = os.environ.get("NUMBA_CACHE_DIR")
    return Path(where) if where else None


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except (OSError, ValueError):
        return False
    return True


#: The warm-up process: the notebooks' quick runs, then the stamp (only when every run succeeded).
_WARM_SCRIPT = """
import pathlib, subprocess, sys
rc = subprocess.call([sys.executable, "-m", "tdbook", "run", "--profile", "quick", "--workers", "1"])
if rc == 0:
    pathlib.Path(sys.argv[1]).write_text("filled by the notebooks' quick runs (tdbook lab)\n")
sys.exit(rc)
"""


def warm() -> str:
    """Fill numba's cache for this code in the background unless it is filled or being filled (module docstring);
    a sentence saying which."""
    cache = numba_cache()
    if cache is None:
        return "kernels: NUMBA_CACHE_DIR is not set; a panel's first run compiles its kernels"
    stamp = cache / WARM_STAMP
    if stamp.is_file():
        return "kernels: compiled for this code already (panels and boards start at once)"
    d = lab_dir()
    pid_file = d / "warm-up.pid"
    try:
        running = int(pid_file.read_text().strip())
    except (OSError, ValueError):
        running = 0
    if running and _alive(running):
        return f"kernels: still being compiled in the background (process {running}, log build/lab/warm-up.log)"
    cache.mkdir(parents=True, exist_ok=True)
    env = dict(os.environ, TDBOOK_OUTPUT_ROOT=str(d / "warm-up"))
    nice = ["nice", "-n", "10"] if os.name == "posix" and shutil.which("nice") else []
    with open(d / "warm-up.log", "wb") as log:
        proc = subprocess.Popen(
            [*nice, sys.executable, "-c", _WARM_SCRIPT, str(stamp)],
            cwd=repo_root(),
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,  # not stopped with JupyterLab; it ends by itself
        )
    atomic_write_bytes(pid_file, f"{proc.pid}\n".encode())
    return (
        "kernels: compiling in the background for this code (the notebooks' quick runs, low priority; log "
        "build/lab/warm-up.log); a panel opened before they finish says it is compiling"
    )


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    fresh, warm_up = "--fresh" in argv, "--no-warm" not in argv
    args = [a for a in argv if a not in ("--fresh", "--no-warm")]
    if args[:1] in (["-h"], ["--help"]):
        print(
            "usage: python -m tdbook lab [--fresh] [--no-warm] [JUPYTER LAB OPTIONS…]\n\n"
            "JupyterLab on working copies of the notebooks in build/lab/ (notebooks/ is never written).\n"
            "--fresh replaces edited working copies with the stored notebooks. Unless the compiled kernels for\n"
            "this code are cached already, they are compiled in the background (the notebooks' quick runs, low\n"
            "priority) so that panels start at once; --no-warm skips that. Other options go to jupyter lab,\n"
            "e.g. --port 8899 --IdentityProvider.token=secret --no-browser (make lab LAB_ARGS='…')."
        )
        return 0
    if not _has_jupyterlab():
        print("tdbook lab: error: JupyterLab is not installed here (make venv installs it)", file=sys.stderr)
        return 2
    d = prepare(fresh=fresh)
    print(f"JupyterLab on working copies in {d.relative_to(repo_root())}/ — the stored notebooks stay as they are")
    if warm_up:
        print(warm())
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
