"""Measurements the standard profile reads from a shipped record instead of running them again (issue 52 §2).

Some cells take minutes of ``make figures`` for numbers that only change when the code does: a sensitivity sweep,
an ablation.  Such a measurement keeps its function; the function also looks in a *record*, ``data/<name>.npz``
with its sidecar, whose entries are keyed by everything the measurement depends on (:func:`key`: the function's
arguments and the notebook's resolved knobs, the profile among them).

- **Reading** (the standard profile): when the record holds the key, the function rebuilds its result from the
  entry's arrays and runs a *sample* of the measurement again — the first run of each group, say — which must give
  the recorded numbers (counts and other integers exactly, floats to :data:`FLOAT_RTOL`, a tolerance the last-bit
  rounding of another processor cannot cross: raw float bytes are never compared), else :class:`RecordMismatch`
  names the entry and the command that remakes the record.
  A run with other knobs (``-p``), the quick and the full profile find no entry and measure, as before.
- **Writing**: ``TDBOOK_RECORDS=write python -m tdbook run NN`` runs the notebook's standard profile with every
  such function measuring and adding its entry to the record (:func:`remember`), so the record holds what the
  notebook asks for, made by the code of the commit in its sidecar.

Every entry is plain arrays: what a record holds is the measurement's numbers, never pickled objects.
"""

from __future__ import annotations

import io
import json
import os
import zipfile
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import numpy as np

from ...core.paths import data_dir
from ...core.storage import atomic_write_bytes, code_version, read_sidecar, sidecar_path, write_sidecar

#: ``TDBOOK_RECORDS=write``: the measurements add their entries to their records in ``data/``.
ENV = "TDBOOK_RECORDS"


#: Relative tolerance of a float in a sample measured again: last-bit rounding (another BLAS kernel, another CPU's
#: instructions) moves a float by ~1e-15 relative; a change of what the code measures moves it by far more.
FLOAT_RTOL = 1e-9


class RecordMismatch(ValueError):
    """A sample measured again does not give the recorded numbers: the code changed what it measures."""


def key(**parts: Any) -> str:
    """The entry's key: ``parts`` as canonical JSON (sorted keys; tuples as lists)."""
    return json.dumps(parts, sort_keys=True, default=lambda o: o.tolist() if hasattr(o, "tolist") else str(o))


def path(name: str) -> Path:
    """The record's file, ``data/<name>.npz``."""
    return data_dir() / f"{name}.npz"


def writing() -> bool:
    """Is this run writing records (``TDBOOK_RECORDS=write``)?"""
    return os.environ.get(ENV) == "write"


def _read(name: str) -> dict[str, dict[str, np.ndarray]]:
    p = path(name)
    if not p.is_file():
        return {}
    keys = read_sidecar(p).get("entries", [])
    try:
        with np.load(p) as z:
            arrays = {f: z[f] for f in z.files}
    except (OSError, ValueError, zipfile.BadZipFile) as e:
        raise ValueError(f"{p} is not a record: {e}") from None
    out: dict[str, dict[str, np.ndarray]] = {k: {} for k in keys}
    for f, a in arrays.items():
        i, _, field = f.partition(".")
        out[keys[int(i[1:])]][field] = a
    return out


def lookup(name: str, entry_key: str, profile: str | None = None) -> dict[str, np.ndarray] | None:
    """The arrays of the entry ``entry_key`` of record ``name`` when a standard run (not writing) may read it; else
    None, and the caller measures.  ``profile`` defaults to the notebook session's (:func:`tdbook.results.start`);
    without a session nothing is read."""
    if profile is None:
        from ...results import current

        try:
            profile = current().profile
        except RuntimeError:
            return None
    if profile != "standard" or writing():
        return None
    return _read(name).get(entry_key)


_written: set[str] = set()  # the records this process has started afresh


def remember(name: str, entry_key: str, arrays: Mapping[str, np.ndarray], command: str) -> None:
    """When writing records, add (or replace) the entry ``entry_key`` of record ``name`` with ``arrays``; the record
    is started afresh by this process's first entry, and its sidecar lists the entries and the ``command`` that
    writes them all (the notebook's run).  Nothing when not writing."""
    if not writing():
        return
    entries = _read(name) if name in _written else {}
    _written.add(name)
    entries[entry_key] = {k: np.asarray(v) for k, v in arrays.items()}
    keys = list(entries)
    buf = io.BytesIO()
    np.savez_compressed(buf, **{f"e{i}.{f}": a for i, k in enumerate(keys) for f, a in entries[k].items()})
    p = path(name)
    atomic_write_bytes(p, buf.getvalue())
    write_sidecar(p, {"command": command, "code_version": code_version(), "entries": keys})


def check_sample(name: str, entry_key: str, what: str, recorded: np.ndarray, again: np.ndarray) -> None:
    """:class:`RecordMismatch` unless the sample measured again (``again``) gives the ``recorded`` numbers: integers
    and booleans exactly, floats to :data:`FLOAT_RTOL` (never their raw bytes)."""
    if not same_numbers(recorded, again):
        side = read_sidecar(path(name)) if sidecar_path(path(name)).is_file() else {}
        raise RecordMismatch(
            f"{what} measured again is not what data/{name}.npz records for {entry_key}: the code changed what it "
            f"measures; remake the record with `{side.get('command', 'TDBOOK_RECORDS=write python -m tdbook run NN')}`"
        )


def same_numbers(recorded: np.ndarray, again: np.ndarray) -> bool:
    """Whether two measurements agree as :func:`check_sample` asks: same shape, integers exactly, floats to
    :data:`FLOAT_RTOL` relative (NaN where the other is NaN)."""
    recorded, again = np.asarray(recorded), np.asarray(again)
    if recorded.shape != again.shape:
        return False
    if recorded.dtype.kind in "fc" or again.dtype.kind in "fc":
        return bool(np.allclose(recorded, again, rtol=FLOAT_RTOL, atol=0.0, equal_nan=True))
    return bool(np.array_equal(recorded, again))
