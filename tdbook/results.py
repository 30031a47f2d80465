"""The reproduction scoreboard: each notebook's claims, paper value vs ours, with a computed verdict.

Inside a notebook::

    results.start("05_random_walk", profile=PROFILE, seed=SEED, title=..., document="004 …")
    results.record("appc-initial-rms", paper=0.2357, ours=rms0, tolerance=5e-5,
                   source="004 App. C row 1", note="all estimates 0.5")
    ...
    results.finish()

writes ``data/results/05_random_walk.json`` (under ``build/<profile>/`` for quick and
full).  Verdicts are computed, never typed:

- ``reproduced`` — the paper gives a value and ours is within tolerance of it;
- ``differs`` — the paper gives a value and ours is not;
- ``not-in-paper`` — the paper makes the claim but prints no value (e.g. a lost figure);
- ``beyond`` — our own addition, past what the paper measured.

Every write is atomic (temporary file + rename), and the file carries no clock
time, so the same seed and profile give byte-identical files.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from html import escape
from pathlib import Path
from typing import Any, Iterable, Sequence

import numpy as np

from . import __version__
from .paths import atomic_write_bytes, check_profile, results_dir

VERDICTS: tuple[str, ...] = ("reproduced", "differs", "not-in-paper", "beyond")


@dataclass(frozen=True)
class Range:
    """A paper value stated as a band, e.g. 'RMS falls into 0.02–0.10'."""

    lo: float
    hi: float

    def __post_init__(self) -> None:
        if not (self.lo <= self.hi):
            raise ValueError(f"Range needs lo <= hi, got {self.lo!r} > {self.hi!r}")


@dataclass(frozen=True)
class Spread:
    """Our value as the spread of many seeded runs, for a paper value that is *one* run.

    The paper's run is ``reproduced`` when it lies inside the central ``coverage`` of our runs
    (between their ``(1 − coverage)/2`` and ``(1 + coverage)/2`` quantiles, widened by the
    tolerance, e.g. the printing's rounding) — a criterion that can fail, unlike ± a few s.d.
    around a skewed mean.  Build it with :meth:`of`.
    """

    median: float
    lo: float
    hi: float
    coverage: float
    n: int

    @classmethod
    def of(cls, samples: Any, coverage: float = 0.95) -> "Spread":
        x = np.asarray(samples, dtype=float).ravel()
        if x.size < 2 or not np.all(np.isfinite(x)):
            raise ValueError(f"a Spread needs at least two finite samples, got {x.size}")
        if not 0 < coverage < 1:
            raise ValueError(f"coverage must lie in (0, 1), got {coverage!r}")
        lo, med, hi = np.quantile(x, [(1 - coverage) / 2, 0.5, (1 + coverage) / 2])
        return cls(float(med), float(lo), float(hi), float(coverage), int(x.size))

    @staticmethod
    def rank(samples: Any, value: float) -> float:
        """Where ``value`` falls among ``samples``: the percentage of runs below it (ties count half)."""
        x = np.asarray(samples, dtype=float).ravel()
        return float(100.0 * (np.sum(x < value) + 0.5 * np.sum(x == value)) / x.size)


# ----------------------------------------------------------------------------- values


def _plain(x: Any) -> Any:
    """A JSON-ready copy of ``x`` (numpy → Python, non-finite floats → strings)."""
    if isinstance(x, Range):
        return {"range": [_plain(x.lo), _plain(x.hi)]}
    if isinstance(x, Spread):
        return {"spread": {"median": _plain(x.median), "lo": _plain(x.lo), "hi": _plain(x.hi),
                           "coverage": _plain(x.coverage), "n": x.n}}
    if isinstance(x, (bool, np.bool_)):
        return bool(x)
    if isinstance(x, (int, np.integer)):
        return int(x)
    if isinstance(x, (float, np.floating)):
        x = float(x)
        if math.isnan(x):
            return "nan"
        if math.isinf(x):
            return "inf" if x > 0 else "-inf"
        return x
    if isinstance(x, np.ndarray):
        return [_plain(v) for v in x.tolist()]
    if isinstance(x, (list, tuple)):
        return [_plain(v) for v in x]
    if x is None or isinstance(x, str):
        return x
    raise ValueError(f"cannot record a value of type {type(x).__name__}: {x!r}")


def _is_number(x: Any) -> bool:
    return isinstance(x, (int, float, np.integer, np.floating)) and not isinstance(x, (bool, np.bool_))


def _allowed(paper: float, tolerance: Any) -> float:
    if tolerance is None:
        return 0.0
    if isinstance(tolerance, str):
        t = tolerance.strip()
        if not t.endswith("%"):
            raise ValueError(f"tolerance string must look like '10%', got {tolerance!r}")
        try:
            pct = float(t[:-1])
        except ValueError:
            raise ValueError(f"tolerance string must look like '10%', got {tolerance!r}") from None
        if pct < 0:
            raise ValueError(f"tolerance must be >= 0, got {tolerance!r}")
        return abs(float(paper)) * pct / 100.0
    if not _is_number(tolerance) or tolerance < 0 or math.isnan(float(tolerance)):
        raise ValueError(f"tolerance must be a number >= 0 or a string like '10%', got {tolerance!r}")
    return float(tolerance)


def _close(paper: Any, ours: Any, tolerance: Any) -> bool:
    if not _is_number(ours):
        raise ValueError(f"paper value {paper!r} is a number, so ours must be a number, got {ours!r}")
    o = float(ours)
    if math.isnan(o):
        return False
    # tiny slack so that a tolerance equal to a printed rounding step is not defeated by binary fractions
    return abs(o - float(paper)) <= _allowed(paper, tolerance) * (1 + 1e-9) + 1e-12


def verdict(paper: Any, ours: Any, tolerance: Any = None, *, beyond: bool = False) -> str:
    """The verdict for one claim (see module docstring). Raises ValueError on mismatched kinds."""
    if beyond:
        if paper is not None:
            raise ValueError("a 'beyond' claim is our own addition: its paper value must be None")
        return "beyond"
    if paper is None:
        return "not-in-paper"
    if ours is None:
        raise ValueError("ours must be a measured value, got None")
    if isinstance(paper, (bool, np.bool_)):
        if not isinstance(ours, (bool, np.bool_)):
            raise ValueError(f"paper value is a yes/no claim, so ours must be a bool, got {ours!r}")
        return "reproduced" if bool(paper) == bool(ours) else "differs"
    if isinstance(paper, str):
        return "reproduced" if str(ours) == paper else "differs"
    if isinstance(paper, Range):
        if not _is_number(ours):
            raise ValueError(f"paper value is a range, so ours must be a number, got {ours!r}")
        o = float(ours)
        slack = _allowed(max(abs(paper.lo), abs(paper.hi)), tolerance)
        ok = not math.isnan(o) and paper.lo - slack <= o <= paper.hi + slack
        return "reproduced" if ok else "differs"
    if isinstance(ours, Spread):
        if not _is_number(paper):
            raise ValueError(f"ours is a spread of runs, so the paper value must be a number, got {paper!r}")
        slack = _allowed(paper, tolerance)
        ok = ours.lo - slack <= float(paper) <= ours.hi + slack
        return "reproduced" if ok else "differs"
    if _is_number(paper):
        return "reproduced" if _close(paper, ours, tolerance) else "differs"
    if isinstance(paper, (list, tuple, np.ndarray)):
        p = list(np.asarray(paper, dtype=float).ravel()) if isinstance(paper, np.ndarray) else list(paper)
        o = ours.tolist() if isinstance(ours, np.ndarray) else ours
        if not isinstance(o, (list, tuple)):
            raise ValueError(f"paper value is a list, so ours must be a list, got {ours!r}")
        if len(o) != len(p):
            raise ValueError(f"paper list has {len(p)} values but ours has {len(o)}")
        ok = all(_close(a, b, tolerance) for a, b in zip(p, o))
        return "reproduced" if ok else "differs"
    raise ValueError(f"cannot compare a paper value of type {type(paper).__name__}")


# ----------------------------------------------------------------------------- session


class Session:
    """One notebook run's claim file."""

    def __init__(self, notebook: str, profile: str, seed: int, title: str, document: str) -> None:
        self.notebook = notebook
        self.profile = check_profile(profile)
        self.seed = seed
        self.title = title
        self.document = document
        self.claims: dict[str, dict[str, Any]] = {}
        self.complete = False

    @property
    def path(self) -> Path:
        return results_dir(self.profile) / f"{self.notebook}.json"

    def as_dict(self) -> dict[str, Any]:
        claims = list(self.claims.values())
        return {
            "notebook": self.notebook,
            "title": self.title,
            "document": self.document,
            "profile": self.profile,
            "seed": self.seed,
            "tdbook_version": __version__,
            "complete": self.complete,
            "counts": counts(claims),
            "claims": claims,
        }

    def write(self) -> Path:
        text = json.dumps(self.as_dict(), indent=1, ensure_ascii=False, allow_nan=False) + "\n"
        atomic_write_bytes(self.path, text.encode("utf-8"))
        return self.path


_current: Session | None = None


def start(notebook: str, *, profile: str, seed: int, title: str = "", document: str = "") -> Session:
    """Begin ``notebook``'s claim file (empty, marked incomplete until :func:`finish`).

    Also applies the house plotting style, so figures look alike everywhere.
    """
    global _current
    if not notebook or "/" in notebook or notebook.startswith("."):
        raise ValueError(f"notebook name must be a plain file stem like '05_random_walk', got {notebook!r}")
    if not isinstance(seed, (int, np.integer)) or isinstance(seed, bool):
        raise ValueError(f"seed must be an int, got {seed!r}")
    _current = Session(notebook, profile, int(seed), title, document)
    _current.write()
    from . import plotting  # local import: plotting imports results

    plotting.use_style()
    return _current


def current() -> Session:
    """The session :func:`start` opened; RuntimeError if none."""
    if _current is None:
        raise RuntimeError("no notebook session: call tdbook.results.start(notebook, profile=..., seed=...) first")
    return _current


def record(
    claim_id: str,
    paper: Any,
    ours: Any,
    tolerance: Any,
    source: str,
    note: str = "",
    *,
    beyond: bool = False,
) -> dict[str, Any]:
    """Record one claim (replacing an earlier one of the same id) and rewrite the file atomically.

    ``paper``: number, bool, str, list of numbers, :class:`Range`, or None (not stated
    in the paper; with ``beyond=True`` our own addition).  ``ours``: the measured value, or a
    :class:`Spread` of many seeded runs when the paper's number is a single run. ``tolerance``: absolute
    number, or a string like ``"10%"`` relative to the paper value; None means exact.
    ``source``: seed file + section/figure/table, e.g. ``"004 §4.3 Fig. 4.3"``.
    """
    s = current()
    if not isinstance(claim_id, str) or not claim_id.strip():
        raise ValueError(f"claim_id must be a non-empty string, got {claim_id!r}")
    if not isinstance(source, str) or not source.strip():
        raise ValueError(f"claim {claim_id!r}: source must name the seed section, got {source!r}")
    v = verdict(paper, ours, tolerance, beyond=beyond)
    if isinstance(tolerance, str):
        _allowed(1.0, tolerance)  # validate the format even when unused
    claim = {
        "id": claim_id,
        "source": source,
        "paper": _plain(paper),
        "ours": _plain(ours),
        "tolerance": _plain(tolerance),
        "verdict": v,
        "note": note,
    }
    s.claims[claim_id] = claim
    s.write()
    return claim


def finish() -> Path:
    """Mark the notebook's claim file complete and write it."""
    s = current()
    s.complete = True
    return s.write()


def counts(claims: Iterable[dict[str, Any]]) -> dict[str, int]:
    out = {v: 0 for v in VERDICTS}
    for c in claims:
        out[c["verdict"]] += 1
    return out


# ----------------------------------------------------------------------------- display


def fmt(x: Any, digits: int = 4) -> str:
    """Compact text for a recorded value."""
    if x is None:
        return "—"
    if isinstance(x, dict) and "range" in x:
        lo, hi = x["range"]
        return f"{fmt(lo, digits)}–{fmt(hi, digits)}"
    if isinstance(x, dict) and "spread" in x:
        d = x["spread"]
        return (f"{fmt(d['median'], digits)} (median; {d['coverage']:.0%} of {d['n']} runs in "
                f"{fmt(d['lo'], digits)}–{fmt(d['hi'], digits)})")
    if isinstance(x, bool):
        return "yes" if x else "no"
    if isinstance(x, float):
        return f"{x:.{digits}g}"
    if isinstance(x, list):
        if len(x) > 8:
            return "[" + ", ".join(fmt(v, digits) for v in x[:6]) + f", … ({len(x)} values)]"
        return "[" + ", ".join(fmt(v, digits) for v in x) + "]"
    return str(x)


class Table:
    """A small table that renders as HTML in Jupyter and as aligned text in a terminal."""

    def __init__(self, header: Sequence[str], rows: Sequence[Sequence[str]], caption: str = "") -> None:
        self.header = list(header)
        self.rows = [list(map(str, r)) for r in rows]
        self.caption = caption

    def _repr_html_(self) -> str:
        cap = f"<caption>{escape(self.caption)}</caption>" if self.caption else ""
        head = "".join(f"<th style='text-align:left'>{escape(h)}</th>" for h in self.header)
        body = "".join(
            "<tr>" + "".join(f"<td style='text-align:left'>{escape(c)}</td>" for c in r) + "</tr>"
            for r in self.rows
        )
        return f"<table>{cap}<thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"

    def to_markdown(self) -> str:
        def cell(c: str) -> str:
            return c.replace("|", "\\|").replace("\n", " ")

        lines = ["| " + " | ".join(map(cell, self.header)) + " |", "|" + "---|" * len(self.header)]
        lines += ["| " + " | ".join(map(cell, r)) + " |" for r in self.rows]
        return "\n".join(lines)

    def __str__(self) -> str:
        cols = [self.header] + self.rows
        widths = [min(60, max(len(r[i]) for r in cols)) for i in range(len(self.header))]

        def line(r: Sequence[str]) -> str:
            return "  ".join(c[:60].ljust(w) for c, w in zip(r, widths)).rstrip()

        out = [self.caption] if self.caption else []
        out += [line(self.header), line(["-" * w for w in widths])] + [line(r) for r in self.rows]
        return "\n".join(out)

    __repr__ = __str__


def claims_table(claims: Iterable[dict[str, Any]] | None = None) -> Table:
    """Paper vs ours for the current notebook (or the given claims)."""
    cl = list(current().claims.values()) if claims is None else list(claims)
    rows = [
        [c["id"], c["source"], fmt(c["paper"]), fmt(c["ours"]), fmt(c["tolerance"]), c["verdict"], c["note"]]
        for c in cl
    ]
    return Table(["claim", "source", "paper", "ours", "tolerance", "verdict", "note"], rows)


# ----------------------------------------------------------------------------- scoreboard


def load(path: Path) -> dict[str, Any]:
    """Read one claim file; ValueError naming the file if it is not a valid one."""
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError) as e:
        raise ValueError(f"cannot read results file {path}: {e}") from None
    if not isinstance(data, dict) or "claims" not in data or "notebook" not in data:
        raise ValueError(f"{path} is not a tdbook results file (no 'notebook'/'claims')")
    return data


def load_all(profile: str = "standard") -> list[dict[str, Any]]:
    """Every notebook's claim file for ``profile``, in notebook order (the index's own file excluded)."""
    d = results_dir(profile)
    if not d.is_dir():
        return []
    return [load(p) for p in sorted(d.glob("[0-9]*.json")) if not p.stem.startswith("00_")]


def scoreboard(profile: str = "standard") -> tuple[Table, Table]:
    """(per-notebook counts, every claim) across the collection."""
    files = load_all(profile)
    summary_rows, claim_rows = [], []
    total = {v: 0 for v in VERDICTS}
    for f in files:
        c = counts(f["claims"])
        for k in total:
            total[k] += c[k]
        state = "" if f.get("complete") else " (incomplete run)"
        summary_rows.append(
            [f["notebook"] + state, f.get("document", ""), f.get("profile", ""), str(f.get("seed", ""))]
            + [str(c[v]) for v in VERDICTS]
            + [str(len(f["claims"]))]
        )
        for cl in f["claims"]:
            claim_rows.append(
                [f["notebook"], cl["id"], cl["source"], fmt(cl["paper"]), fmt(cl["ours"]), cl["verdict"]]
            )
    summary_rows.append(["all", "", "", ""] + [str(total[v]) for v in VERDICTS] + [str(sum(total.values()))])
    summary = Table(["notebook", "document", "profile", "seed", *VERDICTS, "claims"], summary_rows)
    claims = Table(["notebook", "claim", "source", "paper", "ours", "verdict"], claim_rows)
    return summary, claims


def write_scoreboard(profile: str = "standard") -> Path:
    """Write ``SCOREBOARD.md`` next to the results files (atomically) and return its path."""
    summary, claims = scoreboard(profile)
    text = (
        "# tdbook reproduction scoreboard\n\n"
        f"Generated from `data/results/*.json` (profile `{profile}`) by `python -m tdbook scoreboard --write`.\n"
        "Verdicts are computed from paper value, our value and tolerance: `reproduced`, `differs`, "
        "`not-in-paper` (the paper states the claim without a number), `beyond` (our own addition).\n\n"
        "## Per notebook\n\n" + summary.to_markdown() + "\n\n## Every claim\n\n" + claims.to_markdown() + "\n"
    )
    path = results_dir(profile) / "SCOREBOARD.md"
    atomic_write_bytes(path, text.encode("utf-8"))
    return path
