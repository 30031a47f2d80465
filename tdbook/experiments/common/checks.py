"""Measured claims as :func:`tdbook.results.check_all` takes them — ``{claim id: {"ours": …, "note": …}}`` — built by
each notebook's claims functions beside its entry module (the one way a notebook checks its claims, issue 48 §4)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

#: ``{claim id: keyword arguments of results.check}``: what a claims function returns
Checks = dict[str, dict[str, Any]]


@dataclass(frozen=True)
class Check:
    """Our measured value of one claim (by id) and the note that says how it was measured."""

    id: str
    ours: Any
    note: str | None = None


def as_checks(items: Iterable[Check]) -> Checks:
    """``items`` as :func:`tdbook.results.check_all` takes them, in order; ValueError for an id given twice."""
    out: Checks = {}
    for c in items:
        if c.id in out:
            raise ValueError(f"claim {c.id!r} is measured twice")
        out[c.id] = {"ours": c.ours, "note": c.note}
    return out


def from_pairs(measured: Mapping[str, tuple[Any, str | None]]) -> Checks:
    """``{claim id: (ours, note)}`` as :func:`tdbook.results.check_all` takes them, in order."""
    bad = [cid for cid, m in measured.items() if not (isinstance(m, tuple) and len(m) == 2)]
    if bad:
        raise ValueError(f"claims {bad} are not (ours, note) pairs")
    return {cid: {"ours": ours, "note": note} for cid, (ours, note) in measured.items()}
