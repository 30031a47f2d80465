"""The reproduction scoreboard: each notebook's claims, paper value vs ours, with a computed verdict.

The documents' numbers live in :mod:`tdbook.claims` (one TOML file per document); a notebook checks
them by id::

    results.start("05_random_walk", profile=PROFILE, seed=SEED, title=..., document=...)
    results.check("initial-rms", ours=rms0)                  # paper value, tolerance, source: from the data
    results.check("appc-final", ours=Spread.of(many_runs), note=f"at the {pct:.0f}th percentile")
    ...
    results.claims_table()
    results.finish()

writes ``data/results/05_random_walk.json`` (under ``build/<profile>/`` for quick and full).
Verdicts are computed, never typed (see :mod:`tdbook.claims` for the kinds and verdicts).
Every write is atomic (temporary file + rename), and the file carries no clock time, so the same
seed and profile give byte-identical files.
"""

from __future__ import annotations

import json
import math
import os
import re
import sys
from collections.abc import Iterable, Sequence
from dataclasses import fields
from html import escape
from pathlib import Path
from typing import Any

import numpy as np

from . import __version__, claims
from .claims import Bound, Estimate, Prediction, Range, Spread
from .core.paths import (
    check_profile,
    interactive,
    output_root,
    record_results_dir,
    record_root,
    repo_root,
    results_dir,
)
from .core.storage import atomic_write_bytes

#: The verdicts every results file and the scoreboard count: all of them, always, so that a row's counts add up to its
#: claims and a reader sees how much of the whole is a reproduced result.
VERDICTS: tuple[str, ...] = claims.VERDICTS

# ----------------------------------------------------------------------------- values


def _plain(x: Any) -> Any:
    """A JSON-ready copy of ``x`` (numpy → Python, non-finite floats → strings)."""
    if isinstance(x, Range):
        return {"range": [_plain(x.lo), _plain(x.hi)]}
    if isinstance(x, (Spread, Prediction)):  # {"spread": {median, lo, hi, coverage, n}}, {"prediction": {mean, …}}
        return {type(x).__name__.lower(): {f.name: _plain(getattr(x, f.name)) for f in fields(x)}}
    if isinstance(x, Estimate):
        return {"estimate": {"mean": _plain(x.mean), "stderr": _plain(x.stderr), "n": x.n}}
    if isinstance(x, Bound):
        return {"above" if x.above else "below": _plain(x.value)}
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


#: Significant digits of every float we store as ``ours`` (a claim may ask for more with ``digits`` in its data):
#: more than any measurement here resolves, fewer than the last-bit noise that differs between machines (a SIMD
#: or threaded sum reordered), so the committed record is the same bytes on every machine.
DIGITS = 6


def rounded(x: Any, digits: int = DIGITS) -> Any:
    """``x`` with every float rounded to ``digits`` significant digits (same structure; numpy → Python)."""
    if not isinstance(digits, int) or isinstance(digits, bool) or not 1 <= digits <= 17:
        raise ValueError(f"digits must be an int in 1..17, got {digits!r}")
    if isinstance(x, Spread):
        return Spread(*(rounded(v, digits) for v in (x.median, x.lo, x.hi)), x.coverage, x.n)
    if isinstance(x, Prediction):
        return Prediction(*(rounded(v, digits) for v in (x.mean, x.lo, x.hi)), x.coverage, x.n)
    if isinstance(x, Estimate):
        return Estimate(rounded(x.mean, digits), rounded(x.stderr, digits), x.n)
    if isinstance(x, (bool, np.bool_, int, np.integer, str)) or x is None:
        return x
    if isinstance(x, (float, np.floating)):
        x = float(x)
        return x if not math.isfinite(x) or x == 0.0 else float(f"{x:.{digits}g}")
    if isinstance(x, np.ndarray):
        return [rounded(v, digits) for v in x.tolist()]
    if isinstance(x, (list, tuple)):
        return [rounded(v, digits) for v in x]
    return x


def verdict(paper: Any, ours: Any, tolerance: Any = None, *, beyond: bool = False) -> str:
    """The verdict for one claim given inline (see :func:`tdbook.claims.verdict_of`)."""
    return claims.verdict_of("beyond" if beyond else "paper", paper, ours, tolerance)


# ----------------------------------------------------------------------------- session


class Session:
    """One notebook run's claim file."""

    def __init__(
        self,
        notebook: str,
        profile: str,
        seed: int,
        title: str,
        document: str,
        parameters: dict[str, Any] | None = None,
    ) -> None:
        self.notebook = notebook
        self.parameters = dict(parameters or {})
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
            **({"parameters": self.parameters} if self.parameters else {}),
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
    """Begin ``notebook``'s claim file (empty, marked incomplete until :func:`finish`)."""
    global _current
    if not notebook or "/" in notebook or notebook.startswith("."):
        raise ValueError(f"notebook name must be a plain file stem like '05_random_walk', got {notebook!r}")
    if not isinstance(seed, (int, np.integer)) or isinstance(seed, bool):
        raise ValueError(f"seed must be an int, got {seed!r}")
    _current = Session(notebook, profile, int(seed), title, document, overrides())
    if interactive(profile):
        where = output_root(profile)
        try:
            where = where.relative_to(repo_root())
        except ValueError:
            pass
        print(
            f"An interactive run: figures and results go to {where}/, not the committed record "
            f"(`make figures` or `python -m tdbook run {notebook[:2]}` writes that)."
        )
    _current.write()
    return _current


OVERRIDES_ENV = "TDBOOK_PARAMETERS"


def overrides() -> dict[str, Any]:
    """The ``-p NAME VALUE`` parameters ``tdbook run`` set for this run (recorded next to profile and seed)."""
    raw = os.environ.get(OVERRIDES_ENV)
    if not raw:
        return {}
    try:
        got = json.loads(raw)
    except ValueError:
        raise ValueError(f"{OVERRIDES_ENV} is not a JSON object: {raw!r}") from None
    if not isinstance(got, dict):
        raise ValueError(f"{OVERRIDES_ENV} is not a JSON object: {raw!r}")
    return got


def current() -> Session:
    """The session :func:`start` opened; RuntimeError if none."""
    if _current is None:
        raise RuntimeError("no notebook session: call tdbook.results.start(notebook, profile=..., seed=...) first")
    return _current


def check(claim_id: str, ours: Any, note: str | None = None, *, take: int | None = None) -> dict[str, Any]:
    """Check our value against claim ``claim_id`` of the current notebook's document and record it.

    Paper value, tolerance, kind and source come from the claims data (:mod:`tdbook.claims`);
    ``note`` (measured context) replaces the data file's static note when given.  ``take`` compares
    only the first ``take`` printed values of a list (when how far a printed table is matched is
    itself measured).  Raises :class:`~tdbook.claims.ClaimError` for an id the data does not have.
    In a Jupyter kernel the record also carries ``cell``, the execution count of the cell that ran the check
    (:func:`running_cell`), which the book turns into a link from the scoreboard to that cell's section.
    """
    s = current()
    c = claims.get(s.notebook, claim_id)
    paper = c.paper
    if take is not None:
        if not isinstance(paper, list):
            raise claims.ClaimError(f"claim {claim_id!r}: take= needs a list paper value, got {paper!r}")
        if not isinstance(take, (int, np.integer)) or not 0 < take <= len(paper):
            raise claims.ClaimError(f"claim {claim_id!r}: take must be 1..{len(paper)}, got {take!r}")
        paper = paper[: int(take)]
    ours = rounded(ours, c.digits or DIGITS)  # what is stored is what is judged
    v = claims.verdict(c, ours, paper)
    claim = {
        "id": c.id,
        "kind": c.kind,
        "source": c.source,
        **({"quote": c.quote} if c.quote else {}),
        "paper": _plain(paper),
        "ours": _plain(ours),
        "tolerance": _plain(c.tolerance),
        "reason": c.reason,
        "verdict": v,
        "note": c.note if note is None else note,
    }
    cell = running_cell()
    if cell is not None:
        claim["cell"] = cell
    s.claims[c.id] = claim
    s.write()
    return claim


def running_cell() -> int | None:
    """The execution count (``In [n]``) of the notebook cell running now, or None outside a Jupyter kernel.

    Read from the shell's current execution result: during a cell IPython 9 has already advanced
    ``get_ipython().execution_count`` to the next cell's number.  A fresh kernel numbers cells 1, 2, … the same
    way every run, and stored notebooks keep these numbers, so the count names the stored cell.
    """
    if "IPython" not in sys.modules:  # never imported: certainly not in a kernel
        return None
    ip = sys.modules["IPython"].get_ipython()
    if ip is None or getattr(ip, "kernel", None) is None:
        return None
    result = getattr(getattr(ip, "displayhook", None), "exec_result", None)
    count = getattr(result, "execution_count", None)
    return count if isinstance(count, int) else None


def finish() -> Path:
    """Mark the notebook's claim file complete and write it."""
    s = current()
    s.complete = True
    return s.write()


def counts(records: Iterable[dict[str, Any]]) -> dict[str, int]:
    """Claims per verdict, every verdict of :data:`VERDICTS` (in that order, zeros included)."""
    records = list(records)
    seen = {c["verdict"] for c in records}
    unknown = seen - set(claims.VERDICTS)
    if unknown:
        raise ValueError(f"unknown verdicts {sorted(unknown)}; verdicts are: {', '.join(claims.VERDICTS)}")
    out = {v: 0 for v in VERDICTS}
    for c in records:
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
        return (
            f"{fmt(d['median'], digits)} (median; {d['coverage']:.0%} of {d['n']} runs in "
            f"{fmt(d['lo'], digits)}–{fmt(d['hi'], digits)})"
        )
    if isinstance(x, dict) and "prediction" in x:
        d = x["prediction"]
        return f"{_plus_minus(d, digits)} (mean of {d['n']} runs ± the {d['coverage']:.0%} interval of one more)"
    if isinstance(x, dict) and "estimate" in x:
        d = x["estimate"]
        return f"{fmt(d['mean'], digits)} ± {fmt(d['stderr'], 2)} (s.e., n = {d['n']:,})"
    if isinstance(x, dict) and ("above" in x or "below" in x):
        return f"> {fmt(x['above'], digits)}" if "above" in x else f"< {fmt(x['below'], digits)}"
    if isinstance(x, bool):
        return "yes" if x else "no"
    if isinstance(x, float):
        return f"{x:.{digits}g}"
    if isinstance(x, list) and x and all(isinstance(v, dict) and "prediction" in v for v in x):
        d = [v["prediction"] for v in x]  # cell by cell, each with its own interval (the cells first: they matter)
        cells = ", ".join(_plus_minus(e, digits) for e in d[:8]) + (f", … ({len(d)} values)" if len(d) > 8 else "")
        return f"[{cells}] (means of {d[0]['n']} runs ± the {d[0]['coverage']:.0%} interval of one more)"
    if isinstance(x, list):
        if len(x) > 8:
            return "[" + ", ".join(fmt(v, digits) for v in x[:6]) + f", … ({len(x)} values)]"
        return "[" + ", ".join(fmt(v, digits) for v in x) + "]"
    return str(x)


def _plus_minus(d: dict[str, Any], digits: int) -> str:
    """A recorded Prediction's mean ± half its interval, e.g. ``51.51 ± 0.21``."""
    return f"{fmt(d['mean'], digits)} ± {fmt((d['hi'] - d['lo']) / 2, 2)}"


class Table:
    """A small table that renders as HTML in Jupyter and as aligned text in a terminal.

    ``anchors`` (one per row, or None) gives rows an HTML ``id`` (:func:`anchor`): the rows of a check cell carry
    their claim's, so a chapter's findings (:mod:`tdbook.findings`) link to the row that checked each claim."""

    def __init__(
        self,
        header: Sequence[str],
        rows: Sequence[Sequence[str]],
        caption: str = "",
        anchors: Sequence[str | None] | None = None,
    ) -> None:
        self.header = list(header)
        self.rows = [list(map(str, r)) for r in rows]
        self.caption = caption
        self.anchors = list(anchors) if anchors is not None else [None] * len(self.rows)
        if len(self.anchors) != len(self.rows):
            raise ValueError(f"a table of {len(self.rows)} rows was given {len(self.anchors)} anchors")

    def _repr_html_(self) -> str:
        cap = f"<caption>{escape(self.caption)}</caption>" if self.caption else ""
        head = "".join(f"<th style='text-align:left'>{escape(h)}</th>" for h in self.header)
        body = "".join(
            (f"<tr id='{a}'>" if a else "<tr>")
            + "".join(f"<td style='text-align:left'>{escape(c)}</td>" for c in r)
            + "</tr>"
            for r, a in zip(self.rows, self.anchors)
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


def anchor(claim_id: str) -> str:
    """The HTML id of the row of a check cell's table that shows claim ``claim_id``: ``claim-`` and the id, every
    character but ASCII letters, digits, ``.`` and ``-`` written as ``_`` and its hex code point.  Plain ASCII and
    one id per claim, so that a link to it works alike in JupyterLab (which looks a fragment up by its
    percent-encoded text) and in the book."""
    return "claim-" + re.sub(r"[^A-Za-z0-9.-]", lambda m: f"_{ord(m.group()):x}", claim_id)


def claims_table(
    claims: Iterable[dict[str, Any]] | None = None, columns: Sequence[str] | None = None, *, anchored: bool = False
) -> Table:
    """Paper vs ours for the current notebook (or the given claims); ``columns`` picks some of :data:`CLAIM_COLUMNS`;
    ``anchored`` gives each row its claim's :func:`anchor` (the check cells' tables, :func:`check_all`)."""
    cl = list(current().claims.values()) if claims is None else list(claims)
    cols = _columns(columns)
    keep = [CLAIM_COLUMNS.index(c) for c in cols]
    rows = [
        [
            c["id"],
            c.get("kind", ""),
            c["source"],
            fmt(c["paper"]),
            fmt(c["ours"]),
            _tolerance(c),
            c["verdict"],
            c["note"],
        ]
        for c in cl
    ]
    anchors = [anchor(c["id"]) for c in cl] if anchored else None
    return Table(cols, [[r[i] for i in keep] for r in rows], anchors=anchors)


def _columns(columns: Sequence[str] | None) -> list[str]:
    """``columns`` (all of :data:`CLAIM_COLUMNS` when None), refused when one is not a claims-table column."""
    cols = list(CLAIM_COLUMNS if columns is None else columns)
    unknown = [c for c in cols if c not in CLAIM_COLUMNS]
    if unknown:
        raise ValueError(f"claims table: unknown columns {unknown}; the columns are {CLAIM_COLUMNS}")
    return cols


def check_all(measured: dict[str, dict[str, Any]], *, columns: Sequence[str] | None = None) -> Table:
    """Check each measured claim by id with :func:`check` and show the rows: the one way a notebook checks claims.

    A check cell reads ``results.check_all(<entry module or its claims module>.<topic>_claims(<measurements>))``:
    ``measured`` maps a claim id to the keyword arguments of :func:`check` (``ours``, ``note``, ``take``), built
    beside the entry module from what it measured, never typed in a cell.  The rows carry their claim's
    :func:`anchor` (the chapter's findings link there).  ``columns`` picks some of :data:`CLAIM_COLUMNS`
    (notebook 03 shows :data:`BRIEF_COLUMNS`); all of them by default.  Bad input is refused before any claim is
    recorded.
    """
    _columns(columns)
    if not isinstance(measured, dict):
        raise ValueError(f"check_all: give a dict of claim id → keyword arguments, got {type(measured).__name__}")
    allowed = {"ours", "note", "take"}
    bad = [cid for cid, m in measured.items() if not isinstance(m, dict) or "ours" not in m or set(m) - allowed]
    if bad:
        raise ValueError(
            f"check_all: claims {bad} are not dicts of check()'s keyword arguments (ours, and optionally note, take)"
        )
    checked = [check(cid, **m) for cid, m in measured.items()]
    return claims_table(checked, columns, anchored=True)


#: The columns of :func:`claims_table` (tests read stored notebooks' tables by these names).
CLAIM_COLUMNS = ["claim", "kind", "source", "paper", "ours", "tolerance", "verdict", "note"]
#: The shorter claims table of notebook 03 (:func:`check_all` with ``columns=BRIEF_COLUMNS``).
BRIEF_COLUMNS = ["claim", "paper", "ours", "verdict", "note"]


def _tolerance(c: dict[str, Any]) -> str:
    """A claim's tolerance with its reason, e.g. '5e-05 (half a unit in the printed 4th decimal)'."""
    if c["tolerance"] is None and c["paper"] is not None:
        tol = "our interval only" if _interval(c["ours"]) else "exact"
    else:
        tol = fmt(c["tolerance"])
    return f"{tol} ({c['reason']})" if c.get("reason") else tol


#: The keys of a recorded value that carries its own interval (a Spread, a Prediction, an Estimate).
INTERVALS = ("spread", "prediction", "estimate")


def _interval(x: Any) -> bool:
    """Is the recorded value ``x`` an interval (or a list of them)?"""
    if isinstance(x, list):
        return bool(x) and all(_interval(v) for v in x)
    return isinstance(x, dict) and any(k in x for k in INTERVALS)


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
    d = record_results_dir(profile)
    if not d.is_dir():
        return []
    return [load(p) for p in sorted(d.glob("[0-9]*.json")) if not p.stem.startswith("00_")]


def scoreboard(profile: str = "standard") -> tuple[Table, Table]:
    """(per-notebook counts, every claim) across the collection."""
    files = load_all(profile)
    summary_rows, claim_rows = [], []
    cols = tuple(counts(cl for f in files for cl in f["claims"]))
    total = {v: 0 for v in cols}
    for f in files:
        c = counts(f["claims"])
        for k in c:
            total[k] += c[k]
        state = "" if f.get("complete") else " (incomplete run)"
        summary_rows.append(
            [f["notebook"] + state, f.get("document", ""), f.get("profile", ""), str(f.get("seed", ""))]
            + [str(c.get(v, 0)) for v in cols]
            + [str(len(f["claims"]))]
        )
        for cl in f["claims"]:
            claim_rows.append(
                [
                    f["notebook"],
                    cl["id"],
                    cl.get("kind", ""),
                    cl["source"],
                    fmt(cl["paper"]),
                    fmt(cl["ours"]),
                    cl["verdict"],
                ]
            )
    summary_rows.append(["all", "", "", ""] + [str(total[v]) for v in cols] + [str(sum(total.values()))])
    summary = Table(["notebook", "document", "profile", "seed", *cols, "claims"], summary_rows)
    every = Table(["notebook", "claim", "kind", "source", "paper", "ours", "verdict"], claim_rows)
    return summary, every


def kinds(profile: str = "standard") -> Table:
    """Claims per kind across the collection, with how many of each kind got each verdict: results (``paper``
    claims) first, then the specification checks, then what is shown and counted apart."""
    records = [cl for f in load_all(profile) for cl in f["claims"]]
    rows = []
    for kind in claims.KINDS:
        mine = [c for c in records if c.get("kind") == kind]
        if not mine:
            continue
        by = counts(mine)
        rows.append([kind, str(len(mine)), ", ".join(f"{n} {v}" for v, n in by.items() if n)])
    rows.append(["all", str(len(records)), ""])
    return Table(["kind", "claims", "verdicts"], rows)


#: The headline's groups: a label and the verdicts it counts, each with the word it is counted by.  Every verdict of
#: :data:`claims.VERDICTS` is in exactly one group (a test checks it), so the parts add up to the total.
HEADLINE_GROUPS: tuple[tuple[str, tuple[tuple[str, str], ...]], ...] = (
    ("results", (("reproduced", "reproduced"), ("differs", "differ"), ("not-in-paper", "stated without a value"))),
    ("specification checks", (("as-specified", "pass"), ("not-as-specified", "fail"))),
    ("settings", (("setting", ""), ("setting-error", "not as stated"))),
    ("fitted values", (("fitted", ""), ("fit-failed", "fit failed"))),
    ("aims", (("aim-met", "met"), ("aim-missed", "missed"))),
    ("transcriptions", (("transcription", ""), ("transcription-error", "inconsistent"))),
    ("references", (("confirmed", "confirmed"), ("contradicted", "contradicted"))),
    ("uninformative", (("uninformative", ""),)),
    ("beyond the documents", (("beyond", ""),)),
)


def headline_parts(records: Iterable[dict[str, Any]]) -> list[tuple[str, list[tuple[int, str]]]]:
    """The headline's groups for ``records``: (label, [(count, word), …]).  Results and specification checks always
    show their two verdicts; the other groups show their verdicts that have claims, and are left out when none has."""
    by = counts(records)
    out = []
    for i, (label, parts) in enumerate(HEADLINE_GROUPS):
        shown = [(by[v], word) for j, (v, word) in enumerate(parts) if by[v] or (i < 2 and j < 2)]
        if shown:
            out.append((label, shown))
    return out


def headline_of(records: Iterable[dict[str, Any]]) -> str:
    """One sentence: how many claims, and every verdict among them by group — results reproduced (only ``paper``
    claims) apart from specification checks and the kinds shown but counted apart.  Its parts add up to its total."""
    records = list(records)
    groups = "; ".join(
        f"{label}: " + ", ".join(f"{n} {word}".strip() for n, word in parts) for label, parts in headline_parts(records)
    )
    return f"{len(records)} claims — {groups}."


def headline(profile: str = "standard") -> str:
    """:func:`headline_of` the collection's results files for ``profile``."""
    return headline_of(cl for f in load_all(profile) for cl in f["claims"])


def write_scoreboard(profile: str = "standard") -> Path:
    """Write ``SCOREBOARD.md`` next to the results files (atomically) and return its path."""
    summary, claims = scoreboard(profile)
    text = (
        "# tdbook reproduction scoreboard\n\n"
        f"Generated from `data/results/*.json` (profile `{profile}`) by `python -m tdbook scoreboard --write`.\n"
        "Each claim is data (`tdbook/claims/<document>.toml`: the value as printed, its source, a tolerance and its "
        "reason, a kind); its verdict is computed from the paper value, our value and the tolerance. "
        "**Results**: `paper` claims — a result the document reports that a wrong implementation would fail — are "
        "`reproduced` or `differ` (`not-in-paper`: the document states the claim without a number). "
        "**Specification checks** (`specification`): our code follows the document's description — a worked example "
        "recomputed, a stated rule read back through probe positions, an identity of a construction; kept as tests of "
        "the implementation and counted apart from results (`as-specified` / `not-as-specified`). "
        "Counted apart as well: `setting`, a number the document states and our code takes as an input; `fitted`, a "
        "value we chose so that our output matches a printed number; `aim-met` / `aim-missed`, a target we set; "
        "`transcription`, a document's table checked against itself; `confirmed` / `contradicted` (`reference`), a "
        "fact about the game checked with another engine; `uninformative`, a printed statement no plausible result "
        "could fail or our measurement cannot inform (the reason is in the data); `beyond`, our own measurement. "
        "A printed single run must lie in the central 95 % of our seeded runs, or, with only a few runs, in their "
        "prediction interval for one more; against a band, an estimate's whole 95 % interval must lie inside it "
        "(CONTRIBUTING, 'Tolerances').\n\n"
        f"**{headline(profile)}**\n\n"
        "## Per kind\n\n" + kinds(profile).to_markdown() + "\n\n"
        "## Per notebook\n\n" + summary.to_markdown() + "\n\n## Every claim\n\n" + claims.to_markdown() + "\n"
    )
    path = results_dir(profile) / "SCOREBOARD.md"  # the record's own, or build/interactive's copy
    atomic_write_bytes(path, text.encode("utf-8"))
    if profile == "standard" and not interactive(profile):
        write_readme_headline(profile)
    return path


#: The README's copy of :func:`headline`, between these two lines (written with the scoreboard).
README_MARKS = ("<!-- headline: written by python -m tdbook scoreboard --write -->", "<!-- /headline -->")


def readme_headline(text: str) -> str | None:
    """The headline block of a README's ``text`` (None when it has no block)."""
    start, end = README_MARKS
    if start not in text or end not in text:
        return None
    return text.split(start, 1)[1].split(end, 1)[0].strip()


def write_readme_headline(profile: str = "standard") -> Path | None:
    """Put :func:`headline` into the block of ``README.md`` at the record root (atomically, the rest of the file
    untouched); the path written, or None for a root without a README or without the block."""
    readme = record_root(profile) / "README.md"
    if not readme.is_file():
        return None
    text = readme.read_text(encoding="utf-8")
    if readme_headline(text) is None:
        return None
    start, end = README_MARKS
    head, rest = text.split(start, 1)
    tail = rest.split(end, 1)[1]
    new = f"{head}{start}\n**{headline(profile)}**\n{end}{tail}"
    if new != text:
        atomic_write_bytes(readme, new.encode("utf-8"))
    return readme
