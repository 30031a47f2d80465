"""The training driver shared by notebook 02's learners (Samuel's Alpha/Beta self-play,
:mod:`tdbook.experiments.checkers.samuel`; TD-Leaf(λ), :mod:`tdbook.experiments.checkers.tdleaf`), and the
files they write: atomic checkpoints that resume exactly, and weights files with their sidecars.

**Driver** (:func:`run`): plays game after game of a :class:`Run` (a learner with its settings and state)
with a progress bar, writes a checkpoint every ``checkpoint_every`` games and at the end; a checkpoint that
exists is resumed — its settings must equal the run's (only the number of games may grow) — so rerunning the
same command after an interruption ends with the same weights as an uninterrupted run (game ``g`` depends
only on the state after ``g`` games and on ``g``).  Ctrl-C is taken at the next game boundary: the driver
writes a checkpoint there and raises :class:`Interrupted` naming it.

**Files** are ``.npz`` archives written atomically (temporary file, then rename): a ``meta`` JSON string
(``format``, method, settings, games played, wall time, the games at which it was resumed, command, code
version) plus named arrays.  :func:`read` refuses, naming the file, anything that is not such an archive.
"""

from __future__ import annotations

import io
import json
import shlex
import signal
import sys
import threading
import time
import zipfile
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

import numpy as np
from tqdm.auto import tqdm

from ...core.paths import data_dir, output_root, repo_root
from ...core.storage import atomic_write_bytes, code_version, read_sidecar
from ...learners.checkers_polynomial import N_TERMS, TERMS, Polynomial
from ..common.training_driver import shipped

FORMAT = "tdbook-checkers-1"


class Interrupted(KeyboardInterrupt):
    """Training stopped by Ctrl-C at a game boundary; ``checkpoint`` holds the state after ``games`` games."""

    def __init__(self, checkpoint: Path | None, games: int) -> None:
        super().__init__(f"interrupted after {games:,} games")
        self.checkpoint = checkpoint
        self.games = games


class Run(Protocol):
    """A learner being trained: what :func:`run` needs."""

    method: str

    def settings(self) -> dict[str, Any]:
        """Everything that decides the weights except the number of games (JSON-able)."""

    def play(self, g: int) -> None:
        """Play training game ``g`` (0-based), updating the state and the logs."""

    def arrays(self) -> dict[str, np.ndarray]:
        """The state and the logs of the games played so far (what a checkpoint holds)."""

    def restore(self, data: dict[str, np.ndarray], games: int) -> None:
        """Take the state and logs of a checkpoint made after ``games`` games."""

    def postfix(self) -> dict[str, str]:
        """A few numbers for the progress bar."""


@dataclass
class Log:
    """A run's bookkeeping: games played, wall time (s), the game counts at which it was resumed."""

    games: int = 0
    wall_time: float = 0.0
    resumed_at: list[int] = field(default_factory=list)


# ----------------------------------------------------------------------------- files


def write(path: str | Path, meta: dict[str, Any], arrays: dict[str, np.ndarray]) -> Path:
    """Write a checkers archive atomically (``meta`` as JSON next to the arrays)."""
    path = Path(path)
    buf = io.BytesIO()
    np.savez_compressed(buf, meta=np.array(json.dumps({"format": FORMAT, **meta}, sort_keys=True)), **arrays)
    atomic_write_bytes(path, buf.getvalue())
    return path


def read(path: str | Path, what: str = "checkers weights file") -> tuple[dict[str, Any], dict[str, np.ndarray]]:
    """(meta, arrays) of a checkers archive; ValueError naming the file when it is missing, corrupt or not one."""
    path = Path(path)
    if not path.is_file():
        raise ValueError(f"no {what} {path}")
    try:
        with np.load(path, allow_pickle=False) as z:
            arrays = {k: z[k] for k in z.files}
    except (OSError, ValueError, zipfile.BadZipFile, EOFError) as e:
        raise ValueError(f"{path} is not a readable {what} (corrupt or truncated: {e})") from None
    try:
        meta = json.loads(str(arrays.pop("meta")))
    except (KeyError, ValueError):
        raise ValueError(f"{path} is not a {what}: it has no readable 'meta' record") from None
    if not isinstance(meta, dict) or meta.get("format") != FORMAT:
        raise ValueError(f"{path} is not a {what} (format {meta.get('format') if isinstance(meta, dict) else None!r})")
    return meta, arrays


def load_polynomial(path: str | Path) -> tuple[Polynomial, dict[str, Any]]:
    """The playing polynomial of a weights file written by ``python -m tdbook train checkers`` and its meta;
    ValueError naming the file when it is corrupt or not one."""
    meta, arrays = read(path)
    w = arrays.get("weights")
    pw = meta.get("piece_weight")
    if w is None or w.shape != (N_TERMS,) or w.dtype != np.float64 or not np.all(np.isfinite(w)):
        raise ValueError(f"{path} is not a checkers weights file: 'weights' must be {N_TERMS} finite float64 values")
    try:
        poly = Polynomial(
            {TERMS[k]: float(w[k]) for k in np.flatnonzero(w)}, float(pw), meta.get("construction", "samuel")
        )
    except (TypeError, ValueError) as e:
        raise ValueError(f"{path} is not a usable checkers weights file: {e}") from None
    return poly, meta


def rerun_argv(command: str, head: str, out: Path, progress: bool = True, **options: str) -> list[str]:
    """The options of a shipped file's ``command`` (which must start with ``head``) to run it again into ``out``:
    its ``--out`` and the ``options`` given (``profile="full"`` → ``--profile full``) replaced, ``--force`` and
    ``--no-progress`` dropped (``--no-progress`` added back when not ``progress``)."""
    words, lead = shlex.split(command), shlex.split(head)
    if words[: len(lead)] != lead:
        raise ValueError(f"not a '{head}' command: {command!r}")
    argv = words[len(lead) :]
    for flag in ["--out", *(f"--{k}" for k in options)]:
        if flag in argv:
            i = argv.index(flag)
            argv = argv[:i] + argv[i + 2 :]
    argv = [a for a in argv if a not in ("--force", "--no-progress")] + ["--out", str(out)]
    for k, v in options.items():
        argv += [f"--{k}", v]
    return argv + ([] if progress else ["--no-progress"])


def rerun_shipped(name: str, head: str, main: Callable[[list[str]], int], progress: bool = True) -> Path:
    """The full profile: run the command in the sidecar of the shipped ``data/<name>`` (it starts with ``head``
    and ``main`` runs it) again with ``--profile full``, into ``build/full/data/<name>``; returns that path."""
    out = output_root("full") / "data" / name
    if main(rerun_argv(read_sidecar(data_dir() / name)["command"], head, out, progress, profile="full")) != 0:
        raise RuntimeError(f"running the command of data/{name} again failed")
    return out


def add_file_options(ap, name: str) -> None:
    """The options every command writing a shipped checkers archive ``name`` has: Dask workers, whose weights,
    the output file, ``--force``, ``--no-progress``."""
    ap.add_argument("--workers", type=int, default=1, help="Dask workers (1: no cluster)")
    ap.add_argument("--profile", choices=["standard", "full"], default="standard",
                    help="whose learned weights: the shipped ones, or the full profile's retrained ones")  # fmt: skip
    ap.add_argument("--out", default=None, help=f"output .npz (default build/checkers/{name})")
    ap.add_argument("--force", action="store_true", help="allow overwriting a file in the shipped data/")
    ap.add_argument("--no-progress", action="store_true", help="no progress bars")


def output_file(out: str | None, default: Path, force: bool, prog: str) -> Path | None:
    """The ``--out`` of a command writing a checkers archive: ``default`` when none; None (with the reason on
    stderr, naming ``prog``) when it is not an ``.npz`` or is a shipped file in ``data/`` without ``force``."""
    path = Path(out) if out else default
    if path.suffix != ".npz":
        print(f"{prog}: error: --out must end in .npz, got {path}", file=sys.stderr)
        return None
    if path.exists() and shipped(path) and not force:
        print(f"{prog}: error: {path} is a shipped file in data/; add --force to overwrite it", file=sys.stderr)
        return None
    return path


def default_out(method: str, seed: int, games: int) -> Path:
    """Where ``train checkers`` writes when no ``--out`` is given (never the shipped ``data/``)."""
    return repo_root() / "build" / "checkers" / f"{method}_seed{seed}_games{games}.npz"


# ----------------------------------------------------------------------------- driver


class _StopFlag:
    """Ctrl-C becomes a flag the driver checks between games (a second Ctrl-C interrupts at once)."""

    def __init__(self) -> None:
        self.set = False
        self._old = None

    def __enter__(self) -> _StopFlag:
        if threading.current_thread() is threading.main_thread():
            self._old = signal.getsignal(signal.SIGINT)

            def handler(signum, frame):
                if self.set:
                    raise KeyboardInterrupt
                self.set = True

            signal.signal(signal.SIGINT, handler)
        return self

    def __exit__(self, *exc) -> None:
        if self._old is not None:
            signal.signal(signal.SIGINT, self._old)


def _checkpoint_meta(r: Run, log: Log) -> dict[str, Any]:
    return {
        "method": r.method,
        "settings": r.settings(),
        "games": log.games,
        "wall_time": log.wall_time,
        "resumed_at": log.resumed_at,
        "code_version": code_version(),
    }


def resume(r: Run, checkpoint: Path, games: int) -> Log:
    """Take the state of ``checkpoint`` into ``r`` (ValueError naming it when it does not fit the run)."""
    meta, arrays = read(checkpoint, "checkers training checkpoint")
    if meta.get("method") != r.method or meta.get("settings") != r.settings():
        raise ValueError(
            f"checkpoint {checkpoint} was made by another run ({meta.get('method')}: {meta.get('settings')}); "
            f"use another --checkpoint path or the same settings"
        )
    done = int(meta.get("games", -1))
    if not 0 <= done <= games:
        raise ValueError(f"checkpoint {checkpoint} has played {done:,} games, more than the {games:,} asked")
    try:
        r.restore(arrays, done)
    except (KeyError, ValueError) as e:
        raise ValueError(f"checkpoint {checkpoint} is corrupt: {e}") from None
    return Log(done, float(meta.get("wall_time", 0.0)), list(meta.get("resumed_at", [])))


def run(
    r: Run,
    games: int,
    *,
    checkpoint: str | Path | None = None,
    checkpoint_every: int = 100,
    progress: bool = True,
    stop_after: int | None = None,
    desc: str | None = None,
    on_game: Callable[[int], None] | None = None,
) -> Log:
    """Train ``r`` to ``games`` games (module docstring).  ``stop_after``: stop once that many games are done,
    without writing a checkpoint — what a kill does (for tests).  ``on_game(g)`` is called after each game."""
    if not isinstance(games, (int, np.integer)) or isinstance(games, bool) or games < 1:
        raise ValueError(f"games must be a positive int, got {games!r}")
    if not isinstance(checkpoint_every, (int, np.integer)) or checkpoint_every < 1:
        raise ValueError(f"checkpoint_every must be a positive int, got {checkpoint_every!r}")
    ckpt = Path(checkpoint) if checkpoint is not None else None
    log = Log()
    if ckpt is not None and ckpt.exists():
        log = resume(r, ckpt, games)
        if log.games < games:
            log.resumed_at.append(log.games)

    def save() -> None:
        if ckpt is not None:
            write(ckpt, _checkpoint_meta(r, log), r.arrays())

    bar = tqdm(total=games, initial=log.games, desc=desc or r.method, unit="game", disable=not progress)
    t_last = time.perf_counter()
    try:
        with _StopFlag() as stop:
            while log.games < games:
                if stop_after is not None and log.games >= stop_after:
                    return log
                r.play(log.games)
                log.games += 1
                if on_game is not None:
                    on_game(log.games - 1)
                now = time.perf_counter()
                log.wall_time += now - t_last
                t_last = now
                bar.update(1)
                if log.games % 10 == 0 or log.games == games:
                    bar.set_postfix(r.postfix(), refresh=False)
                if log.games % checkpoint_every == 0 or log.games == games:
                    save()
                if stop.set and log.games < games:
                    save()
                    raise Interrupted(ckpt, log.games)
    finally:
        bar.close()
    return log
