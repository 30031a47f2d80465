"""Where things live: the repository root and the per-profile output root.

The ``standard`` profile writes the committed outputs (``figures/``,
``data/results/``); ``quick`` (CI) and ``full`` write under ``build/quick/`` and
``build/full/`` so tests never overwrite committed outputs.  The environment
variable ``TDBOOK_OUTPUT_ROOT`` overrides the output root (tests use it).
"""

from __future__ import annotations

import os
from pathlib import Path

PROFILES: tuple[str, ...] = ("quick", "standard", "full")


def repo_root() -> Path:
    """The checkout that holds ``notebooks/`` and ``pyproject.toml``.

    ``TDBOOK_ROOT`` wins; then the package's parent (editable install); then the
    nearest ancestor of the working directory that looks like a checkout.
    """
    env = os.environ.get("TDBOOK_ROOT")
    if env:
        return Path(env).resolve()
    here = Path(__file__).resolve().parents[2]
    if (here / "notebooks").is_dir() and (here / "pyproject.toml").is_file():
        return here
    cwd = Path.cwd().resolve()
    for d in (cwd, *cwd.parents):
        if (d / "notebooks").is_dir() and (d / "pyproject.toml").is_file():
            return d
    return cwd


def check_profile(profile: str) -> str:
    """Return ``profile`` or raise ValueError naming the valid choices."""
    if profile not in PROFILES:
        raise ValueError(f"unknown profile {profile!r}; choose one of: {', '.join(PROFILES)}")
    return profile


def output_root(profile: str) -> Path:
    """Root under which a run of ``profile`` writes ``figures/``, ``data/results/``, ``notebooks/``."""
    check_profile(profile)
    env = os.environ.get("TDBOOK_OUTPUT_ROOT")
    if env:
        return Path(env).resolve()
    root = repo_root()
    return root if profile == "standard" else root / "build" / profile


def results_dir(profile: str) -> Path:
    return output_root(profile) / "data" / "results"


def figures_dir(profile: str, notebook: str) -> Path:
    return output_root(profile) / "figures" / notebook


def executed_dir(profile: str) -> Path:
    """Executed copies of notebooks (``build/notebooks`` for standard)."""
    root = output_root(profile)
    return (root / "build" / "notebooks") if root == repo_root() else (root / "notebooks")


def data_dir() -> Path:
    """Shipped data (trained weights, tables) — always the repository's ``data/``."""
    return repo_root() / "data"
