"""Storage that survives interruption: atomic writes, and the sidecar that records how a shipped file was made.

Every file the project writes (results, figures, checkpoints, trained weights) goes through
:func:`atomic_write_bytes` (temporary file, then rename), so an interrupted run never leaves a
half-written file.  A shipped weights file ``data/X.npz`` has a sidecar ``data/X.json`` holding
the exact command that made it and the code version (:func:`code_version`).
"""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

from .paths import data_dir, repo_root


def atomic_write_bytes(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` via a temporary file and ``os.replace`` (never half-written)."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        with open(tmp, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    finally:
        if tmp.exists():
            tmp.unlink()


def code_version() -> str:
    """Package version and git commit of the checkout (``+dirty`` when tracked files differ)."""
    from .. import __version__

    root = repo_root()
    try:
        rev = subprocess.run(
            ["git", "rev-parse", "--short=12", "HEAD"], cwd=root, capture_output=True, text=True, timeout=10
        ).stdout.strip()
        dirty = subprocess.run(
            ["git", "status", "--porcelain", "--untracked-files=no", "--", "tdbook"],
            cwd=root,
            capture_output=True,
            text=True,
            timeout=10,
        ).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        rev, dirty = "", ""
    return f"tdbook {__version__}" + (f" git {rev}" + ("+dirty" if dirty else "") if rev else "")


def sidecar_path(net_path: str | Path) -> Path:
    """``data/X.npz`` → ``data/X.json``."""
    return Path(net_path).with_suffix(".json")


def read_sidecar(net_path: str | Path) -> dict:
    """The sidecar of ``net_path``; ValueError naming the file when it is missing or not JSON."""
    p = sidecar_path(net_path)
    try:
        return json.loads(p.read_text())
    except FileNotFoundError:
        raise ValueError(f"no sidecar {p} next to {net_path}") from None
    except ValueError as e:
        raise ValueError(f"{p} is not valid JSON: {e}") from None


#: Set to 1 to let a sidecar in the shipped ``data/`` record uncommitted code (``+dirty``); see :func:`refuse_dirty`.
ALLOW_DIRTY = "TDBOOK_ALLOW_DIRTY"


class UncommittedCode(ValueError):
    """A file of the shipped ``data/`` would be written by code with uncommitted changes."""


def in_data(path: str | Path) -> bool:
    """Is ``path`` inside the repository's ``data/`` (the shipped record)?"""
    try:
        Path(path).resolve().relative_to(data_dir().resolve())
        return True
    except ValueError:
        return False


def refuse_dirty(paths: list[str | Path] | tuple[str | Path, ...], version: str | None = None) -> None:
    """Sidecars in ``data/`` are written from committed code: :class:`UncommittedCode` naming the first such path
    when the package has uncommitted changes (its :func:`code_version` ends in ``+dirty``), unless the environment
    sets ``TDBOOK_ALLOW_DIRTY=1`` (the sidecar then says ``+dirty``).  Paths outside ``data/`` always pass."""
    inside = [Path(p) for p in paths if in_data(p)]
    if not inside or os.environ.get(ALLOW_DIRTY) == "1":
        return
    version = code_version() if version is None else version
    if version.endswith("+dirty"):
        raise UncommittedCode(
            f"{inside[0]} is in the shipped data/ and the package has uncommitted changes (git status -- tdbook): "
            f"commit them first, so the sidecar names the commit whose code made it, or set {ALLOW_DIRTY}=1"
        )


def add_to_sidecar(net_path: str | Path, key: str, record: dict) -> Path:
    """Set ``key`` of the sidecar of ``net_path`` to ``record``, reading the sidecar again just before writing it
    (:func:`write_sidecar`): a measurement that ran for an hour keeps what another measurement of the same net wrote
    meanwhile, instead of writing back the sidecar as it read it when it started."""
    side = read_sidecar(net_path)
    side[key] = record
    return write_sidecar(net_path, side)


def write_sidecar(net_path: str | Path, data: dict) -> Path:
    """Write ``data`` as the sidecar of ``net_path`` (atomically) and return its path; a sidecar in the shipped
    ``data/`` whose ``code_version`` is ``+dirty`` is refused (:func:`refuse_dirty`) and nothing is written."""
    p = sidecar_path(net_path)
    refuse_dirty([p], data.get("code_version") or None)
    atomic_write_bytes(p, (json.dumps(data, indent=1, sort_keys=False) + "\n").encode())
    return p
