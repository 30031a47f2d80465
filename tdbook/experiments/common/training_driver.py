"""The one driver behind ``python -m tdbook train GAME …``: every trainer goes through :func:`main`, so every
trainer keeps the same rules, and none of them can damage the committed record.

A trainer (:class:`Trainer`) supplies only its options, the run its options describe, and how to train, read a
checkpoint and write its result.  The driver does the rest, in this order, before the first game:

1. **Options.**  Parse them (:class:`Parser`: a bad option is one line, exit code 2); ``--checkpoint-every``
   must be ≥ 1; an option the chosen method ignores is refused (:meth:`Trainer.ignored`); a bad value found by
   the trainer's own checks is reported with the option names the user typed (:func:`as_options`), not the
   internal parameter names.
2. **The write plan** (:func:`check_plan`): every file the run will write — the weights, the ``.json`` sidecar
   beside them, the checkpoint, anything else the trainer names — has the right suffix, is not a directory, is
   in a directory that exists or can be made and is writable, and is no other file of the plan; the weights and
   their sidecar lie inside the repository's ``data/`` (the shipped record) only with ``--force`` and from
   committed code (:func:`~tdbook.core.storage.refuse_dirty`: a shipped sidecar names the commit that made it),
   a checkpoint (or any other working file) never.
3. **A lock on the checkpoint** (:class:`CheckpointLock`): a second run on the same checkpoint is refused,
   naming the process that holds it; the lock of a process that has died is taken over.
4. **The checkpoint**, when it exists, is read by the trainer; any file that is not a checkpoint of this run —
   empty, not an ``.npz``, another trainer's, another run's — is one message naming the file and what it holds
   (:func:`read_checkpoint`).  ``--restart`` discards it instead and starts from scratch.

Then the trainer trains (checkpointing atomically as it goes).  Ctrl-C ends with one line naming the last
checkpoint and the exact command that resumes it (exit code 130).  The weights are written atomically
(:mod:`tdbook.core.storage`) with Ctrl-C held off, then whatever the trainer measures of them (a ladder), then
the sidecar — once, atomically.  Every message goes to stderr with one prefix, ``tdbook train:``; only the
closing summary of a run that finished goes to stdout.

**A finished run leaves nothing that blocks the next one.**  When the sidecar is written the run is complete and
its checkpoint is marked finished (:func:`finished_marker`).  A later run meeting a finished checkpoint at the
default place (:func:`meet_checkpoint`) trains from scratch when the checkpoint already holds as many games as it
asks for (the same command again: the same weights) or is another run's (its result was written, so nothing is
lost); with more games than it holds, it continues from it where the trainer allows that (``train
symmetric-gammon --games 150`` after a finished run of 100).  A checkpoint named with ``--checkpoint`` is read by
the trainer, finished or not; an *unfinished* checkpoint of other settings is refused, naming the file
(``--restart`` discards it).  The checkpoint goes beside ``--out`` by default (in the
trainer's place under ``build/`` when ``--out`` is not given; under ``build/`` with ``.data`` in its name when
``--out`` is in ``data/``), so a run to another folder never meets another run's checkpoint.
"""

from __future__ import annotations

import argparse
import contextlib
import errno
import fcntl
import json
import os
import re
import shlex
import signal
import sys
import tempfile
import zipfile
from abc import ABC, abstractmethod
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NoReturn

from ...core.storage import UncommittedCode, atomic_write_bytes, in_data, refuse_dirty, sidecar_path, write_sidecar

#: Every message of ``python -m tdbook train`` starts with this.
PREFIX = "tdbook train"
#: Exit code of a bad request (nothing was written) and of a run ended by Ctrl-C (128 + SIGINT).
USAGE, INTERRUPTED = 2, 130


class UsageError(ValueError):
    """A bad request, found before the first game; nothing has been written."""


def say(message: str) -> None:
    """One line on stderr with the driver's prefix."""
    print(f"{PREFIX}: {message}", file=sys.stderr, flush=True)


class Parser(argparse.ArgumentParser):
    """argparse whose errors are the driver's: one ``tdbook train: error: …`` line, exit code 2."""

    def error(self, message: str) -> NoReturn:
        say(f"error: {message} (`{self.prog} --help` lists the options)")
        raise SystemExit(USAGE)


# ----------------------------------------------------------------------------- option names


def option_names(ap: argparse.ArgumentParser) -> dict[str, str]:
    """``dest`` → the long option the user types (``lam`` → ``--lambda``), for every option of ``ap``."""
    out = {}
    for act in ap._actions:  # argparse keeps no public list of its actions
        longs = [s for s in act.option_strings if s.startswith("--")]
        if longs and act.dest != "help":
            out[act.dest] = longs[0]
    return out


def as_options(message: str, names: dict[str, str]) -> str:
    """``message`` with every internal parameter name of ``names`` (``checkpoint_every``, ``lam``) replaced by
    the option the user typed (``--checkpoint-every``, ``--lambda``)."""
    # a plain word (games, seed) is replaced only where it starts the message: elsewhere it may be just a word
    first = re.match(r"\w+", message)
    words = sorted((d for d, o in names.items() if o != f"--{d}" or (first and first.group() == d)), key=len)[::-1]
    if not words:
        return message
    pattern = re.compile(r"(?<![-\w])(" + "|".join(re.escape(w) for w in words) + r")(?![\w-])")
    return pattern.sub(lambda m: names[m.group(1)], message)


def given(argv: Sequence[str], ap: argparse.ArgumentParser, dest: str) -> bool:
    """Did the user type the option whose ``dest`` is ``dest`` (in any of its spellings, ``--x v`` or ``--x=v``)?"""
    strings = [s for act in ap._actions if act.dest == dest for s in act.option_strings]
    return any(arg == s or arg.startswith(s + "=") for arg in argv for s in strings if s.startswith("--"))


# ----------------------------------------------------------------------------- the write plan


@dataclass(frozen=True)
class Target:
    """One file a run will write: the option that names it, its path, its suffix, whether a ``.json`` sidecar
    goes beside it, and whether it is a result that may go into the shipped ``data/`` (with ``--force``) or a
    working file (a checkpoint, a snapshot) that never does."""

    option: str
    path: Path
    suffix: str = ".npz"
    sidecar: bool = False
    result: bool = False

    def files(self) -> list[Path]:
        return [self.path, sidecar_path(self.path)] if self.sidecar else [self.path]


shipped = in_data  # is a path inside the repository's data/ (the shipped record)?


def _writable_dir(option: str, path: Path) -> None:
    parent = path.parent
    try:
        parent.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise UsageError(f"{option} {path}: cannot create the directory {parent} ({e.strerror or e})") from None
    try:
        with tempfile.NamedTemporaryFile(dir=parent, prefix=".tdbook-write-test-"):
            pass
    except OSError as e:
        raise UsageError(f"{option} {path}: the directory {parent} is not writable ({e.strerror or e})") from None


def check_plan(targets: Sequence[Target], force: bool) -> None:
    """Check every file of the plan before the first game (module docstring, point 2); UsageError naming the
    option and the problem otherwise."""
    seen: dict[Path, str] = {}
    for t in targets:
        if t.path.suffix != t.suffix:
            beside = f" (its sidecar {sidecar_path(t.path).name} goes beside it)" if t.sidecar else ""
            raise UsageError(f"{t.option} {t.path} must end in {t.suffix}{beside}")
        for f in t.files():
            what = t.option if f == t.path else f"{t.option}'s sidecar"
            if f.is_dir():
                raise UsageError(f"{what} {f} is a directory; give a file name")
            key = f.resolve()
            if key in seen:
                raise UsageError(f"{what} and {seen[key]} are the same file {f}; give them different names")
            seen[key] = what
        inside = [f for f in t.files() if shipped(f)]
        if inside and not t.result:
            raise UsageError(f"{t.option} {t.path} is inside the shipped data/: working files go under build/")
        if inside and not force:
            existing = [str(f) for f in inside if f.exists()]
            hit = f"would overwrite the shipped {' and '.join(existing)}" if existing else "is inside the shipped data/"
            raise UsageError(f"{t.option} {t.path} {hit}; write elsewhere (under build/) or add --force")
        try:
            refuse_dirty(inside)
        except UncommittedCode as e:
            raise UsageError(f"{t.option}: {e}") from None
        _writable_dir(t.option, t.path)
        for f in t.files():
            if f.exists() and not os.access(f, os.W_OK):
                raise UsageError(f"{t.option} {f} exists and is not writable")


# ----------------------------------------------------------------------------- the checkpoint lock


class CheckpointLock:
    """An exclusive lock on a checkpoint (``<checkpoint>.lock``, holding the owner's process id): a second run on
    the same checkpoint is refused naming the first one's process.  The lock is the kernel's (``flock``), so it
    ends with its process however that ends: the file a killed run leaves behind is taken over."""

    def __init__(self, checkpoint: Path) -> None:
        self.checkpoint = Path(checkpoint)
        self.path = self.checkpoint.with_name(self.checkpoint.name + ".lock")
        self._fd: int | None = None

    def __enter__(self) -> CheckpointLock:
        while True:
            fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError as e:
                os.close(fd)
                if e.errno not in (errno.EAGAIN, errno.EACCES, errno.EWOULDBLOCK):
                    raise
                raise UsageError(
                    f"--checkpoint {self.checkpoint} is in use by another run (process {self.owner()}, lock file "
                    f"{self.path}); wait for it to end, or give this run another --checkpoint"
                ) from None
            try:  # the file we locked may have been removed by its owner in the meantime: lock the one in place
                same = os.path.samestat(os.fstat(fd), os.stat(self.path))
            except FileNotFoundError:
                same = False
            if same:
                break
            os.close(fd)
        os.ftruncate(fd, 0)
        os.write(fd, f"{os.getpid()}\n".encode())
        self._fd = fd
        return self

    def owner(self) -> str:
        """The process id written in the lock file (``?`` when unreadable)."""
        try:
            return self.path.read_text().strip() or "?"
        except OSError:
            return "?"

    def __exit__(self, *exc: object) -> None:
        if self._fd is not None:
            with contextlib.suppress(OSError):
                self.path.unlink()
            os.close(self._fd)
            self._fd = None


# ----------------------------------------------------------------------------- checkpoints


def _contents(path: Path) -> str:
    """What an ``.npz`` holds, for a message: its array names."""
    try:
        with zipfile.ZipFile(path) as z:
            names = [n.removesuffix(".npy") for n in z.namelist()]
    except (OSError, zipfile.BadZipFile):
        return "its arrays cannot be read"
    return "it holds " + (", ".join(names[:8]) + (", …" if len(names) > 8 else "") if names else "no arrays")


def read_checkpoint(path: Path, game: str, read: Any) -> Any:
    """``read(path)`` — the trainer reading its checkpoint — with every failure turned into one UsageError naming
    the file and what it holds: empty, not an ``.npz`` archive, another trainer's file, another run's."""
    expected = f"expected a checkpoint of `python -m tdbook train {game}` with these settings"
    advice = "add --restart to start from scratch (it is discarded), or give another --checkpoint"
    try:
        size = path.stat().st_size
    except OSError as e:
        raise UsageError(f"--checkpoint {path} cannot be read ({e.strerror or e})") from None
    if size == 0:
        raise UsageError(f"--checkpoint {path} is empty (0 bytes); {expected}; {advice}")
    if not zipfile.is_zipfile(path):
        raise UsageError(f"--checkpoint {path} is not a zip archive (.npz) but {size:,} bytes of something else; "
                         f"{expected}; {advice}")  # fmt: skip
    try:
        return read(path)
    except UsageError:
        raise
    except KeyboardInterrupt:
        raise
    except Exception as e:  # whatever a damaged or foreign file makes the reader raise, one message
        reason = str(e) if isinstance(e, ValueError) else f"{type(e).__name__}: {e}"
        reason = reason.replace(f"checkpoint {path}", "it").replace(str(path), "it")  # named once, below
        raise UsageError(f"--checkpoint {path} ({_contents(path)}): {reason}; {expected}; {advice}") from None


@contextlib.contextmanager
def ctrl_c_deferred() -> Iterator[None]:
    """No Ctrl-C between the weights and their sidecar: SIGINT is ignored while both are written."""
    try:
        old = signal.signal(signal.SIGINT, signal.SIG_IGN)
    except ValueError:  # not the main thread: nothing to defer
        yield
        return
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, old)


# ----------------------------------------------------------------------------- the trainer's part


@dataclass
class Plan:
    """Where a run writes: the weights (with their sidecar), the checkpoint, and any other file."""

    out: Path
    checkpoint: Path
    extra: list[Target] = field(default_factory=list)

    def targets(self) -> list[Target]:
        return [
            Target("--out", self.out, ".npz", sidecar=True, result=True),
            Target("--checkpoint", self.checkpoint, ".npz"),
            *self.extra,
        ]


class Trainer(ABC):
    """What one game's trainer supplies to :func:`main`: its options, the run they describe, and its steps.

    ``game`` is the word after ``train``; ``checkpoint_every`` the default of ``--checkpoint-every`` and
    ``unit`` what it counts (games, positions)."""

    game: str = ""
    description: str = ""
    epilog: str | None = None
    checkpoint_every: int = 1000
    unit: str = "games"
    out_help: str = "weights file (.npz; its .json sidecar goes beside it)"

    def options(self, ap: argparse.ArgumentParser) -> None:
        """Add the trainer's own options (the driver adds --out, --force, --checkpoint, --checkpoint-every,
        --no-progress); none by default."""
        return None

    def ignored(self, a: argparse.Namespace) -> list[str]:
        """The ``dest`` of every option these settings ignore (refused when the user typed one)."""
        return []

    @abstractmethod
    def prepare(self, a: argparse.Namespace) -> Any:
        """The run the options describe; ValueError (in parameter or option names) for a bad value."""

    @abstractmethod
    def default_out(self, a: argparse.Namespace) -> Path:
        """Where the weights go without ``--out`` (under ``build/``)."""

    @abstractmethod
    def default_checkpoint(self, a: argparse.Namespace, out: Path) -> Path:
        """Where the checkpoint goes without ``--checkpoint`` (under ``build/``)."""

    def extra_targets(self, a: argparse.Namespace, out: Path, checkpoint: Path) -> list[Target]:
        """Other files the run writes (snapshots), checked like the rest."""
        return []

    @abstractmethod
    def read_checkpoint(self, a: argparse.Namespace, run: Any, path: Path) -> None:
        """Read the checkpoint at ``path`` and check it fits ``run`` (any exception: :func:`read_checkpoint`)."""

    def done(self, path: Path) -> int | None:
        """How many games (``unit``) the checkpoint at ``path`` holds; None when it holds none we can read."""
        return None

    def command(self, a: argparse.Namespace, argv: Sequence[str]) -> str:
        """The command recorded in the sidecar: exactly as given."""
        return f"python -m tdbook train {self.game} " + shlex.join(argv)

    @abstractmethod
    def train(self, a: argparse.Namespace, run: Any, plan: Plan, command: str) -> Any:
        """Train (resuming from ``plan.checkpoint`` when it exists), checkpointing atomically as it goes."""

    @abstractmethod
    def write(self, a: argparse.Namespace, run: Any, plan: Plan, result: Any, command: str) -> dict:
        """Write the weights to ``plan.out`` (atomically) and return the sidecar (the driver writes it)."""

    def finish(self, a: argparse.Namespace, run: Any, plan: Plan, result: Any, side: dict) -> dict:
        """After the weights: slow measurements that go into the sidecar (a ladder); the sidecar to write."""
        return side

    def summary(self, a: argparse.Namespace, plan: Plan, result: Any, side: dict) -> str:
        """The closing line (stdout)."""
        return f"wrote {plan.out} and {sidecar_path(plan.out)}"


def parser(t: Trainer) -> Parser:
    """The trainer's options and the driver's file options."""
    # no abbreviated options: the command recorded in a sidecar spells every option out, and an ignored option
    # is recognised by its name (:func:`given`)
    ap = Parser(prog=f"python -m tdbook train {t.game}", description=t.description, epilog=t.epilog, allow_abbrev=False)
    t.options(ap)
    f = ap.add_argument_group("files")
    f.add_argument("--out", default=None, help=t.out_help)
    f.add_argument("--force", action="store_true", help="allow writing inside the shipped data/ (any file of the run)")
    f.add_argument(
        "--checkpoint",
        default=None,
        help="checkpoint (.npz; default beside --out, or under build/ when --out is not given or is in data/); the "
        "same command resumes an unfinished run from it, and trains a finished one again from scratch",
    )
    f.add_argument(
        "--restart",
        action="store_true",
        help="start from scratch whatever --checkpoint holds (it is discarded)",
    )
    f.add_argument(
        "--checkpoint-every",
        type=int,
        default=t.checkpoint_every,
        help=f"{t.unit} between checkpoints (default {t.checkpoint_every:,})",
    )
    f.add_argument("--no-progress", action="store_true", help="no progress bar")
    return ap


def _interrupted(t: Trainer, plan: Plan, command: str) -> str:
    ckpt = plan.checkpoint
    n = t.done(ckpt) if ckpt.exists() else None
    if n is None:
        return f"interrupted before the first checkpoint ({ckpt}); start again with: {command}"
    return f"interrupted; the last checkpoint is {ckpt} ({n:,} {t.unit}); resume with: {command}"


def default_checkpoint(t: Trainer, a: argparse.Namespace, out: Path) -> Path:
    """Where the checkpoint goes without ``--checkpoint``: beside ``--out`` (``w.npz`` → ``w.ckpt.npz``), so runs to
    different folders never share one; the trainer's place under ``build/`` when ``--out`` was not given, and that
    place with ``.data`` in the name when ``--out`` is in the shipped ``data/`` (where a checkpoint never goes), so
    that rebuilding a shipped file never meets the checkpoint of a run with the default ``--out``."""
    if not a.out:
        return t.default_checkpoint(a, out)
    if shipped(out):
        return t.default_checkpoint(a, out).with_name(f"{out.stem}.data.ckpt.npz")
    return out.with_name(f"{out.stem}.ckpt.npz")


def finished_marker(checkpoint: Path) -> Path:
    """The file beside a checkpoint saying that its run finished (its weights and sidecar were written)."""
    return checkpoint.with_name(checkpoint.name + ".finished")


def _discard(checkpoint: Path, why: str) -> None:
    checkpoint.unlink(missing_ok=True)
    finished_marker(checkpoint).unlink(missing_ok=True)
    say(why)


def meet_checkpoint(t: Trainer, a: argparse.Namespace, run: Any, checkpoint: Path, named: bool) -> None:
    """What an existing checkpoint means for this run (module docstring): discarded (``--restart``; at the default
    place, a finished run that holds as many games as this one asks for, or one of other settings), continued (the
    trainer's reader accepts it), or refused with a UsageError naming the file.  ``named``: the user gave
    ``--checkpoint``; such a checkpoint is the trainer's to read whether its run finished or not (a finished run
    with more games, or averaged over its snapshots, goes on from it)."""
    marker = finished_marker(checkpoint)
    if not checkpoint.exists():
        marker.unlink(missing_ok=True)
        return
    if a.restart:
        _discard(checkpoint, f"--restart: discarded the checkpoint {checkpoint}; training from scratch")
        return
    if named or not marker.is_file():  # the user's own checkpoint, or an unfinished run: resumed, or refused
        read_checkpoint(checkpoint, t.game, lambda p: t.read_checkpoint(a, run, p))
        marker.unlink(missing_ok=True)  # continued: unfinished until this run ends
        return
    total, done = getattr(a, t.unit, None), t.done(checkpoint)
    if isinstance(total, int) and done is not None and done >= total:
        _discard(checkpoint, f"{checkpoint} holds a finished run of {done:,} {t.unit}: training again from scratch")
        return
    try:
        read_checkpoint(checkpoint, t.game, lambda p: t.read_checkpoint(a, run, p))
    except UsageError:
        _discard(checkpoint, f"{checkpoint} holds a finished run of other settings: training from scratch")
        return
    marker.unlink()  # continued: unfinished until this run ends
    if done is not None:
        say(f"continuing the finished run in {checkpoint} from {done:,} {t.unit}")


def finished(checkpoint: Path, out: Path) -> None:
    """The run is complete (weights and sidecar written): its checkpoint, if it wrote one, is marked finished."""
    if checkpoint.exists():
        atomic_write_bytes(finished_marker(checkpoint), (json.dumps({"out": str(out)}) + "\n").encode())


def main(t: Trainer, argv: Sequence[str] | None = None) -> int:
    """``python -m tdbook train GAME …`` for trainer ``t``: check everything, lock, train, write (module
    docstring).  Returns the exit code: 0, 2 (a bad request: nothing written) or 130 (Ctrl-C)."""
    argv = list(sys.argv[1:] if argv is None else argv)
    try:
        return _main(t, argv)
    except SystemExit as e:  # a bad option (Parser.error) or --help: its exit code, returned like the others
        return e.code if isinstance(e.code, int) else USAGE


def _main(t: Trainer, argv: list[str]) -> int:
    ap = parser(t)
    a = ap.parse_args(argv)
    names = option_names(ap)
    if a.checkpoint_every < 1:
        ap.error(f"--checkpoint-every must be >= 1 ({t.unit} between checkpoints), got {a.checkpoint_every}")
    typed = [d for d in t.ignored(a) if given(argv, ap, d)]
    if typed:
        opts = ", ".join(names[d] for d in typed)
        ap.error(f"{opts} {'does' if len(typed) == 1 else 'do'} nothing with these settings; leave {opts} out")
    try:
        run = t.prepare(a)
    except UsageError as e:
        ap.error(str(e))
    except ValueError as e:
        ap.error(as_options(str(e), names))
    kept = [x for x in argv if x != "--restart"]  # a resumed run must not discard its checkpoint again
    command = t.command(a, kept)
    again = f"python -m tdbook train {t.game} " + shlex.join(kept)  # the same command resumes
    try:
        out = Path(a.out) if a.out else t.default_out(a)
        ckpt = Path(a.checkpoint) if a.checkpoint else default_checkpoint(t, a, out)
        plan = Plan(out, ckpt, t.extra_targets(a, out, ckpt))
        check_plan(plan.targets(), a.force)
        with CheckpointLock(ckpt):
            meet_checkpoint(t, a, run, ckpt, named=bool(a.checkpoint))
            try:
                result = t.train(a, run, plan, command)
                with ctrl_c_deferred():
                    side = t.write(a, run, plan, result, command)
                side = t.finish(a, run, plan, result, side)
            except KeyboardInterrupt:
                say(_interrupted(t, plan, again))
                return INTERRUPTED
            with ctrl_c_deferred():
                write_sidecar(plan.out, side)
            finished(plan.checkpoint, plan.out)
    except (ValueError, FloatingPointError) as e:
        say(f"error: {e}")
        return USAGE
    except OSError as e:  # a disk that fills or a directory that vanishes during the run
        say(f"error: {e.strerror or e} writing {e.filename or 'a file'}; the files written before are intact")
        return 1
    print(t.summary(a, plan, result, side))
    return 0
