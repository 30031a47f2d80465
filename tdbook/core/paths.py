"""Where things live: the repository root and the per-profile output root.

The committed record (``figures/``, ``data/results/``) is written only by a *recording* run:
``python -m tdbook run`` / ``make figures`` in the ``standard`` profile (the runner sets
``TDBOOK_RECORD=1`` for the kernels it starts).  A standard-profile notebook run any other way
(JupyterLab's Run All, plain papermill) writes under ``build/interactive/`` and says so;
``quick`` (CI) and ``full`` write under ``build/quick/`` and ``build/full/``.  Reading the
scoreboard in the standard profile always reads the committed record.  ``TDBOOK_OUTPUT_ROOT``
overrides both (the tests use it).
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


RECORD_ENV = "TDBOOK_RECORD"


def recording() -> bool:
    """True inside a run that writes the committed record (``tdbook run`` sets ``TDBOOK_RECORD=1``)."""
    return os.environ.get(RECORD_ENV) == "1"


def record_root(profile: str) -> Path:
    """Where the record of ``profile`` lives (and is read from): the checkout for standard, else ``build/<profile>``."""
    check_profile(profile)
    env = os.environ.get("TDBOOK_OUTPUT_ROOT")
    if env:
        return Path(env).resolve()
    root = repo_root()
    return root if profile == "standard" else root / "build" / profile


def output_root(profile: str) -> Path:
    """Root under which a run of ``profile`` writes ``figures/``, ``data/results/``, ``notebooks/``.

    The record root, except for a standard-profile run that is not recording: ``build/interactive``.
    """
    root = record_root(profile)
    if profile == "standard" and not recording() and not os.environ.get("TDBOOK_OUTPUT_ROOT"):
        return repo_root() / "build" / "interactive"
    return root


def interactive(profile: str) -> bool:
    """A standard-profile run outside ``tdbook run``: its outputs go to ``build/interactive``, not the record."""
    return output_root(profile) != record_root(profile)


def results_dir(profile: str) -> Path:
    """Where this run writes its results files."""
    return output_root(profile) / "data" / "results"


def record_results_dir(profile: str) -> Path:
    """Where the record's results files (and the scoreboard) are read from."""
    return record_root(profile) / "data" / "results"


def figures_dir(profile: str, notebook: str) -> Path:
    return output_root(profile) / "figures" / notebook


def executed_dir(profile: str) -> Path:
    """Executed copies of notebooks (``build/notebooks`` for standard)."""
    root = record_root(profile)
    return (root / "build" / "notebooks") if root == repo_root() else (root / "notebooks")


def data_dir() -> Path:
    """Shipped data (trained weights, tables) — always the repository's ``data/``."""
    return repo_root() / "data"
