"""The documents' numbers as data: one TOML file per source document, checked by the notebooks by id.

Each file (``tdbook/claims/<document>.toml``) opens with a ``[document]`` table (its short
citation, title, kind and the notebooks that check it) followed by one ``[[claim]]`` table per
number the project compares with that document::

    [[claim]]
    id = "initial-rms"                 # unique within its notebook
    notebook = "05_random_walk"        # the one notebook that checks it (standard profile)
    kind = "paper"                     # paper | specification | setting | fitted | beyond | aim | transcription
                                       # | reference | uninformative
    source = "Powell (2000) App. C row 1"
    quote = "initial estimates ... RMS error of 0.2357"   # paper claims: the printed words the claim rests on
    paper = 0.2357                     # the value as printed (number, bool, string, list, a table
                                       # selection, {range = [lo, hi]}, {above = x} or {below = x})
    tolerance = 5e-5                   # absolute, or "10%"; absent means exact
    reason = "half a unit in the printed 4th decimal"
    note = "all estimates 0.5"         # optional static note
    exact = "why our plain value may stand for its interval"   # a band claim judged on a plain value (below)

Kinds and their verdicts (computed, never typed):

- ``paper`` — a result the document reports (an outcome of learning, play, search or sampling that its description
  does not fix by itself) which a wrong implementation of what the document describes would fail: ``reproduced`` /
  ``differs``, or ``not-in-paper`` when the document makes the claim without printing a value.  Its ``source`` is in
  its own document and its ``quote`` gives the printed words; one printed statement is one claim;
- ``specification`` — a check that our code follows the document's description: a worked example recomputed from
  the printed inputs, a stated rule read back through probe positions, an identity of a construction.  A wrong
  implementation fails it, but a right one learns nothing the text did not already say: kept as a test of the
  implementation and counted apart from results: ``as-specified`` / ``not-as-specified``;
- ``setting`` — a number the document states that our code takes as an input or a design choice (the number
  of terms, a table's size, a limit): shown with its source, never counted as reproduction: ``setting`` when
  the code uses the stated value, ``setting-error`` when it does not;
- ``fitted`` — a value we chose so that our output matches a printed number (a reading of an ambiguous
  passage, a parameter picked from a sweep): ``fitted`` when the fit lands within the tolerance,
  ``fit-failed`` when it does not; never counted as reproduction (``reason`` says what was fitted);
- ``beyond`` — our own measurement with no printed counterpart: ``beyond``;
- ``aim`` — a target the project set itself (``source`` says who set it): ``aim-met`` / ``aim-missed``;
- ``transcription`` — the document checked against itself (a printed column recomputed from printed
  columns): ``transcription`` when consistent, ``transcription-error`` when not;
- ``reference`` — a fact about the game itself or about another program that the document states (tic-tac-toe's
  number of positions, backgammon's moves per roll, GNU Backgammon's opening probabilities): not a result of the
  document's method, checked by exhaustive search, by counting with our engine or with another engine, and counted
  apart: ``confirmed`` / ``contradicted``;
- ``uninformative`` — a printed value no plausible result could miss, or a statement our measurement cannot
  inform (about human players we do not have, a proxy that builds the result in, a check a random player passes);
  shown with its reason and counted apart: ``uninformative``.

Our value may be a plain value, a :class:`Spread` of many seeded runs (for a printed single run: their central
quantiles), a :class:`Prediction` of a few (for a printed single run when our runs are too few for quantiles: the
prediction interval of one more run, t·s·√(1 + 1/n)), or an :class:`Estimate` (mean ± standard error); a printed
list is judged element by element, so a list of Predictions (:meth:`Prediction.each`) gives each cell the tolerance
its own measured spread allows.  Against a band (``{range = …}``, ``{above = …}``, ``{below = …}``) an estimate is
judged by its interval, not its mean: the band holds when the whole ``z`` interval lies inside it (a spread or a
prediction: its interval).  A band claim judged on a plain value says in ``exact`` why that value may stand
for its interval: it has no sampling error (a deterministic evaluation, a count over every case), or its error is
far smaller than its distance from the band.  Transcribed tables live in ``tables/<document>_<name>.tsv``.
"""

from __future__ import annotations

import math
import os
import tomllib
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np

HERE = Path(__file__).resolve().parent

KINDS: tuple[str, ...] = (
    "paper",
    "specification",
    "setting",
    "fitted",
    "beyond",
    "aim",
    "transcription",
    "reference",
    "uninformative",
)
VERDICTS: tuple[str, ...] = (
    "reproduced",
    "differs",
    "not-in-paper",
    "as-specified",
    "not-as-specified",
    "aim-met",
    "aim-missed",
    "setting",
    "setting-error",
    "fitted",
    "fit-failed",
    "transcription",
    "transcription-error",
    "confirmed",
    "contradicted",
    "uninformative",
    "beyond",
)
#: The verdicts of each kind (the first is the one a claim gets when ours agrees with the printed value).
KIND_VERDICTS: dict[str, tuple[str, ...]] = {
    "paper": ("reproduced", "differs", "not-in-paper"),
    "specification": ("as-specified", "not-as-specified"),
    "setting": ("setting", "setting-error"),
    "fitted": ("fitted", "fit-failed"),
    "beyond": ("beyond",),
    "aim": ("aim-met", "aim-missed"),
    "transcription": ("transcription", "transcription-error"),
    "reference": ("confirmed", "contradicted"),
    "uninformative": ("uninformative",),
}
#: The kinds whose verdicts say whether the document holds (results, specification checks, references): a band
#: claim of these kinds is judged on the interval of our value, or says in ``exact`` why its plain value may stand
#: for one (``tests/test_claims.py`` checks every committed record).
JUDGED_KINDS: tuple[str, ...] = ("paper", "specification", "reference")
CLAIM_KEYS: frozenset[str] = frozenset(
    {
        "id",
        "notebook",
        "kind",
        "source",
        "quote",
        "paper",
        "printed",
        "tolerance",
        "reason",
        "note",
        "paper_stderr",
        "z",
        "digits",
        "exact",
    }
)


class ClaimError(ValueError):
    """A claims data file, or a check against it, that does not make sense; the message names the claim."""


# ----------------------------------------------------------------------------- value types


@dataclass(frozen=True)
class Range:
    """A paper value stated as a band, e.g. 'RMS falls into 0.02–0.10'."""

    lo: float
    hi: float

    def __post_init__(self) -> None:
        if not (self.lo <= self.hi):
            raise ValueError(f"Range needs lo <= hi, got {self.lo!r} > {self.hi!r}")


@dataclass(frozen=True)
class Bound:
    """A one-sided statement: our value lies above (or below) ``value`` — at the stated confidence
    when ours is an :class:`Estimate` (its lower/upper confidence limit) or a :class:`Spread`
    (its lower/upper quantile)."""

    value: float
    above: bool


def _runs(samples: Any, coverage: float, what: str) -> np.ndarray:
    """``samples`` as a flat float array of at least two finite runs, ``coverage`` in (0, 1); ValueError naming
    ``what`` otherwise."""
    x = np.asarray(samples, dtype=float).ravel()
    if x.size < 2 or not np.all(np.isfinite(x)):
        raise ValueError(f"{what} needs at least two finite samples, got {x.size}")
    if not 0 < coverage < 1:
        raise ValueError(f"coverage must lie in (0, 1), got {coverage!r}")
    return x


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
    def of(cls, samples: Any, coverage: float = 0.95) -> Spread:
        x = _runs(samples, coverage, "a Spread")
        lo, med, hi = np.quantile(x, [(1 - coverage) / 2, 0.5, (1 + coverage) / 2])
        return cls(float(med), float(lo), float(hi), float(coverage), int(x.size))

    @staticmethod
    def rank(samples: Any, value: float) -> float:
        """Where ``value`` falls among ``samples``: the percentage of runs below it (ties count half)."""
        x = np.asarray(samples, dtype=float).ravel()
        return float(100.0 * (np.sum(x < value) + 0.5 * np.sum(x == value)) / x.size)


@dataclass(frozen=True)
class Prediction:
    """Our value as the mean of a few seeded runs with the interval one more run falls in, for a paper value that is
    *one* run when our runs are too few for their quantiles (five 1.5 M-game tic-tac-toe runs).

    The interval is the prediction interval of a single run, ``mean ± t·s·√(1 + 1/n)`` (``t`` Student's quantile
    at ``(1 + coverage)/2`` with ``n − 1`` degrees of freedom, ``s`` the runs' standard deviation): the document's
    run is ``reproduced`` when it lies inside it, widened only by the tolerance (the printing's rounding) — a
    measured difference is never swallowed by a fixed floor wider than our runs' spread.  Build it with :meth:`of`;
    :meth:`each` gives one per column (a printed win/draw/loss row judged cell by cell).
    """

    mean: float
    lo: float
    hi: float
    coverage: float
    n: int

    @classmethod
    def of(cls, samples: Any, coverage: float = 0.95) -> Prediction:
        x = _runs(samples, coverage, "a Prediction")
        from scipy.stats import t as student

        mean = float(x.mean())
        half = float(student.ppf((1 + coverage) / 2, x.size - 1) * x.std(ddof=1) * math.sqrt(1 + 1 / x.size))
        return cls(mean, mean - half, mean + half, float(coverage), int(x.size))

    @classmethod
    def each(cls, samples: Any, coverage: float = 0.95) -> list[Prediction]:
        """One :class:`Prediction` per column of ``samples`` (runs × values): per-element intervals for a list."""
        x = np.asarray(samples, dtype=float)
        if x.ndim != 2:
            raise ValueError(f"Prediction.each needs a 2-d array (runs × values), got shape {x.shape}")
        return [cls.of(x[:, k], coverage) for k in range(x.shape[1])]

    @property
    def half(self) -> float:
        """Half the interval's width: t·s·√(1 + 1/n)."""
        return (self.hi - self.lo) / 2


#: Our values judged by an interval of runs: a printed single run lies in it or not.
RUNS = (Spread, Prediction)


@dataclass(frozen=True)
class Estimate:
    """Our value as a mean with its standard error (e.g. points per game ± s.e. over duplicate pairs).

    Against a printed number: ``reproduced`` when the number lies within ``z`` combined standard
    errors of the mean (ours and, when the claim gives one, the document's own ``paper_stderr``),
    plus the tolerance.  Against a :class:`Bound`: the one-sided ``z`` confidence limit decides.
    """

    mean: float
    stderr: float
    n: int

    def __post_init__(self) -> None:
        if not (math.isfinite(self.mean) and math.isfinite(self.stderr) and self.stderr >= 0):
            raise ValueError(f"an Estimate needs a finite mean and a finite stderr >= 0, got {self!r}")

    @classmethod
    def of(cls, samples: Any) -> Estimate:
        """The mean of ``samples`` with its standard error (``s / √n``; 0 for a single sample) and ``n``."""
        x = np.asarray(samples, dtype=float).ravel()
        se = float(x.std(ddof=1) / math.sqrt(x.size)) if x.size > 1 else 0.0
        return cls(float(x.mean()), se, int(x.size))


# ----------------------------------------------------------------------------- the data files


@dataclass(frozen=True)
class Document:
    key: str
    citation: str
    title: str
    kind: str
    notebooks: tuple[str, ...]
    path: Path


@dataclass(frozen=True)
class Claim:
    """One claim of a document, as its data file states it (``paper`` already parsed)."""

    id: str
    notebook: str
    kind: str
    source: str
    document: str
    paper: Any = None
    quote: str = ""
    printed: str | None = None
    tolerance: Any = None
    reason: str = ""
    note: str = ""
    paper_stderr: float | None = None
    z: float = 1.96
    digits: int | None = None
    exact: str = ""
    extra: dict[str, Any] = field(default_factory=dict, compare=False, repr=False)


def table_path(document: str, name: str) -> Path:
    """Path of the transcribed table ``name`` of ``document`` (``tables/<document>_<name>.tsv``)."""
    p = HERE / "tables" / f"{document}_{name}.tsv"
    if not p.is_file():
        have = sorted(q.stem for q in (HERE / "tables").glob("*.tsv"))
        raise ClaimError(f"no transcribed table {p.name}; tables are: {', '.join(have)}")
    return p


def table(document: str, name: str) -> tuple[list[str], np.ndarray]:
    """(column names, rows) of a transcribed table; '#' lines are comments, the first other line the header."""
    p = table_path(document, name)
    lines = [ln for ln in p.read_text(encoding="utf-8").splitlines() if ln.strip() and not ln.startswith("#")]
    header = lines[0].split("\t")
    try:
        rows = np.array([[float(v) for v in ln.split("\t")] for ln in lines[1:]], dtype=float)
    except ValueError as e:
        raise ClaimError(f"{p} is corrupt: {e}") from None
    if rows.ndim != 2 or rows.shape[1] != len(header):
        raise ClaimError(f"{p} is corrupt: every row needs {len(header)} tab-separated numbers")
    return header, rows


def text_table(document: str, name: str) -> tuple[list[str], list[list[str]]]:
    """(column names, rows of strings) of a transcribed table whose cells are text (cards, actions): '#' lines are
    comments, the first other line the header; every row needs one tab-separated cell per column."""
    p = table_path(document, name)
    lines = [ln for ln in p.read_text(encoding="utf-8").splitlines() if ln.strip() and not ln.startswith("#")]
    header = lines[0].split("\t")
    rows = [ln.split("\t") for ln in lines[1:]]
    bad = [i + 2 for i, r in enumerate(rows) if len(r) != len(header)]
    if bad:
        raise ClaimError(f"{p} is corrupt: rows {bad[:5]} need {len(header)} tab-separated cells")
    return header, rows


def _selection(doc: str, cid: str, spec: dict[str, Any]) -> list[float]:
    """``{table = NAME, rows = [first, last], columns = [...]}`` → the selected printed values, row-major."""
    unknown = set(spec) - {"table", "rows", "columns", "column"}
    if unknown:
        raise ClaimError(f"claim {cid!r}: unknown table-selection keys {sorted(unknown)}")
    header, rows = table(doc, spec["table"])
    cols = spec.get("columns", [spec["column"]] if "column" in spec else header)
    idx = []
    for c in cols:
        if c not in header:
            raise ClaimError(f"claim {cid!r}: table {spec['table']!r} has no column {c!r}; columns: {header}")
        idx.append(header.index(c))
    first, last = spec.get("rows", [1, rows.shape[0]])
    if not 1 <= first <= last <= rows.shape[0]:
        raise ClaimError(f"claim {cid!r}: rows {first}–{last} outside the table's 1–{rows.shape[0]}")
    return [float(v) for v in rows[first - 1 : last][:, idx].ravel()]


def _parse_paper(doc: str, cid: str, value: Any) -> Any:
    if isinstance(value, dict):
        if "range" in value and len(value) == 1:
            lo, hi = value["range"]
            return Range(float(lo), float(hi))
        if set(value) == {"above"} or set(value) == {"below"}:
            ((k, v),) = value.items()
            return Bound(float(v), k == "above")
        if "table" in value:
            return _selection(doc, cid, value)
        raise ClaimError(
            f"claim {cid!r}: a paper value table must be {{range=[lo, hi]}}, {{above=x}}, "
            f"{{below=x}} or a table selection, got {value!r}"
        )
    return value


def _parse_file(path: Path) -> tuple[Document, list[Claim]]:
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, tomllib.TOMLDecodeError) as e:
        raise ClaimError(f"cannot read claims file {path}: {e}") from None
    d = data.get("document")
    if not isinstance(d, dict) or "citation" not in d:
        raise ClaimError(f"{path} has no [document] table with a citation")
    doc = Document(path.stem, d["citation"], d.get("title", ""), d.get("kind", ""), tuple(d.get("notebooks", ())), path)
    out = []
    for raw in data.get("claim", []):
        cid = raw.get("id")
        if not isinstance(cid, str) or not cid.strip():
            raise ClaimError(f"{path}: a claim without an id: {raw!r}")
        unknown = set(raw) - CLAIM_KEYS
        if unknown:
            raise ClaimError(f"{path}: claim {cid!r} has unknown keys {sorted(unknown)}")
        for key in ("notebook", "kind", "source"):
            if not isinstance(raw.get(key), str) or not raw[key].strip():
                raise ClaimError(f"{path}: claim {cid!r} needs a non-empty {key!r}")
        kind = raw["kind"]
        if kind not in KINDS:
            raise ClaimError(f"{path}: claim {cid!r} has kind {kind!r}; kinds are: {', '.join(KINDS)}")
        if doc.notebooks and raw["notebook"] not in doc.notebooks:
            raise ClaimError(f"{path}: claim {cid!r} names notebook {raw['notebook']!r}, not one of {doc.notebooks}")
        paper = _parse_paper(doc.key, cid, raw.get("paper"))
        tol = raw.get("tolerance")
        if kind == "beyond" and (paper is not None or tol is not None):
            raise ClaimError(
                f"{path}: claim {cid!r} is 'beyond' (our own measurement): it has no paper value or tolerance"
            )
        if kind in ("aim", "transcription", "uninformative", "setting", "fitted", "specification", "reference") and (
            paper is None
        ):
            raise ClaimError(f"{path}: claim {cid!r} of kind {kind!r} needs a paper (or target) value")
        if kind in ("setting", "fitted") and not raw.get("reason"):
            what = "where our code takes it" if kind == "setting" else "what we chose to match it"
            raise ClaimError(f"{path}: claim {cid!r} is {kind!r}: say {what} in 'reason'")
        quote = raw.get("quote", "")
        if not isinstance(quote, str):
            raise ClaimError(f"{path}: claim {cid!r}: 'quote' must be a string (the printed words)")
        if kind != "beyond" and paper is not None and tol is not None and not raw.get("reason"):
            raise ClaimError(f"{path}: claim {cid!r} has a tolerance without a reason")
        if kind in ("uninformative", "specification", "reference") and not raw.get("reason"):
            what = {"uninformative": "why", "specification": "what description the check follows",
                    "reference": "how the fact is checked"}[kind]  # fmt: skip
            raise ClaimError(f"{path}: claim {cid!r} is {kind!r}: say {what} in 'reason'")
        exact = raw.get("exact", "")
        if not isinstance(exact, str) or ("exact" in raw and not exact.strip()):
            raise ClaimError(f"{path}: claim {cid!r}: 'exact' must say why our plain value may stand for its interval")
        if tol is not None:
            allowed(1.0, tol)  # validates the form
        out.append(
            Claim(
                cid,
                raw["notebook"],
                kind,
                raw["source"],
                doc.key,
                paper,
                quote.strip(),
                raw.get("printed"),
                tol,
                raw.get("reason", ""),
                raw.get("note", ""),
                raw.get("paper_stderr"),
                float(raw.get("z", 1.96)),
                raw.get("digits"),
                exact.strip(),
            )
        )
    return doc, out


PATH_ENV = "TDBOOK_CLAIMS_PATH"


def data_files() -> list[Path]:
    """The claims files: the package's, then those in the directories of ``TDBOOK_CLAIMS_PATH`` (a notebook
    collection of your own beside this one; the tests use it)."""
    dirs = [HERE] + [Path(d) for d in os.environ.get(PATH_ENV, "").split(os.pathsep) if d]
    return [p for d in dirs for p in sorted(d.glob("*.toml"))]


@lru_cache(maxsize=1)
def _load() -> tuple[dict[str, Document], dict[tuple[str, str], Claim]]:
    docs, claims = {}, {}
    for path in data_files():
        doc, cl = _parse_file(path)
        docs[doc.key] = doc
        for c in cl:
            key = (c.notebook, c.id)
            if key in claims:
                raise ClaimError(
                    f"claim {c.id!r} of notebook {c.notebook} is stated twice ({claims[key].document} and {c.document})"
                )
            claims[key] = c
    return docs, claims


def reload() -> None:
    """Forget the cached data files (after editing one, or changing ``TDBOOK_CLAIMS_PATH``)."""
    _load.cache_clear()


def documents() -> dict[str, Document]:
    """Every source document with a claims file, by key (e.g. ``powell2000``)."""
    return dict(_load()[0])


def all_claims() -> list[Claim]:
    """Every claim of every document."""
    return list(_load()[1].values())


def of_notebook(notebook: str) -> list[Claim]:
    """The claims ``notebook`` checks, in data-file order."""
    return [c for c in _load()[1].values() if c.notebook == notebook]


def get(notebook: str, claim_id: str) -> Claim:
    """The claim ``claim_id`` of ``notebook``; :class:`ClaimError` naming the close ids when absent."""
    try:
        return _load()[1][(notebook, claim_id)]
    except KeyError:
        import difflib

        ids = [c.id for c in of_notebook(notebook)]
        near = difflib.get_close_matches(claim_id, ids, n=3)
        hint = f"; did you mean {', '.join(near)}?" if near else ""
        raise ClaimError(f"no claim {claim_id!r} for notebook {notebook} in tdbook/claims/*.toml{hint}") from None


# ----------------------------------------------------------------------------- verdicts


def is_number(x: Any) -> bool:
    return isinstance(x, (int, float, np.integer, np.floating)) and not isinstance(x, (bool, np.bool_))


def allowed(paper: float, tolerance: Any) -> float:
    """The absolute slack a tolerance (number, or a string like ``'10%'`` of ``paper``) allows."""
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
    if not is_number(tolerance) or tolerance < 0 or math.isnan(float(tolerance)):
        raise ValueError(f"tolerance must be a number >= 0 or a string like '10%', got {tolerance!r}")
    return float(tolerance)


def _close(paper: Any, ours: Any, tolerance: Any) -> bool:
    if not is_number(ours):
        raise ValueError(f"paper value {paper!r} is a number, so ours must be a number, got {ours!r}")
    o = float(ours)
    if math.isnan(o):
        return False
    # tiny slack so that a tolerance equal to a printed rounding step is not defeated by binary fractions
    return abs(o - float(paper)) <= allowed(paper, tolerance) * (1 + 1e-9) + 1e-12


def agrees(paper: Any, ours: Any, tolerance: Any = None, *, paper_stderr: float | None = None, z: float = 1.96) -> bool:
    """Does ``ours`` agree with the printed ``paper`` value?  ValueError on mismatched kinds."""
    if ours is None:
        raise ValueError("ours must be a measured value, got None")
    if isinstance(paper, (bool, np.bool_)):
        if not isinstance(ours, (bool, np.bool_)):
            raise ValueError(f"paper value is a yes/no claim, so ours must be a bool, got {ours!r}")
        return bool(paper) == bool(ours)
    if isinstance(paper, str):
        return str(ours) == paper
    if isinstance(paper, Bound):
        if isinstance(ours, Estimate):
            limit = ours.mean - z * ours.stderr if paper.above else ours.mean + z * ours.stderr
        elif isinstance(ours, RUNS):
            limit = ours.lo if paper.above else ours.hi
        elif is_number(ours):
            limit = float(ours)
        else:
            raise ValueError(
                f"paper value is a bound, so ours must be a number, Estimate, Spread or Prediction, got {ours!r}"
            )
        return limit > paper.value if paper.above else limit < paper.value
    if isinstance(paper, Range):
        slack = allowed(max(abs(paper.lo), abs(paper.hi)), tolerance)
        if isinstance(ours, Estimate):  # the interval, not the mean, must lie in the band
            lo, hi = ours.mean - z * ours.stderr, ours.mean + z * ours.stderr
        elif isinstance(ours, RUNS):
            lo, hi = ours.lo, ours.hi
        elif is_number(ours):
            lo = hi = float(ours)
        else:
            raise ValueError(
                f"paper value is a range, so ours must be a number, Estimate, Spread or Prediction, got {ours!r}"
            )
        return not math.isnan(lo + hi) and paper.lo - slack <= lo and hi <= paper.hi + slack
    if isinstance(ours, RUNS):
        if not is_number(paper):
            raise ValueError(f"ours is an interval of runs, so the paper value must be a number, got {paper!r}")
        slack = allowed(paper, tolerance)
        return ours.lo - slack <= float(paper) <= ours.hi + slack
    if isinstance(ours, Estimate):
        if not is_number(paper):
            raise ValueError(f"ours is an estimate, so the paper value must be a number, got {paper!r}")
        se = math.hypot(ours.stderr, paper_stderr or 0.0)
        return abs(ours.mean - float(paper)) <= z * se + allowed(paper, tolerance)
    if is_number(paper):
        return _close(paper, ours, tolerance)
    if isinstance(paper, (list, tuple, np.ndarray)):
        p = list(np.asarray(paper, dtype=float).ravel()) if isinstance(paper, np.ndarray) else list(paper)
        o = ours.tolist() if isinstance(ours, np.ndarray) else ours
        if not isinstance(o, (list, tuple)):
            raise ValueError(f"paper value is a list, so ours must be a list, got {ours!r}")
        if len(o) != len(p):
            raise ValueError(f"paper list has {len(p)} values but ours has {len(o)}")
        # element by element: a plain value within the tolerance, an interval (a Prediction per cell) holding its
        # printed value, widened by the tolerance — per-element tolerances from the measured spread
        return all(
            agrees(a, b, tolerance, z=z) if isinstance(b, (*RUNS, Estimate)) else _close(a, b, tolerance)
            for a, b in zip(p, o)
        )
    raise ValueError(f"cannot compare a paper value of type {type(paper).__name__}")


def verdict_of(
    kind: str, paper: Any, ours: Any, tolerance: Any = None, *, paper_stderr: float | None = None, z: float = 1.96
) -> str:
    """The verdict of a claim of ``kind`` (see the module docstring); ValueError on mismatched kinds."""
    if kind not in KINDS:
        raise ValueError(f"unknown claim kind {kind!r}; kinds are: {', '.join(KINDS)}")
    if kind == "beyond":
        if paper is not None:
            raise ValueError("a 'beyond' claim is our own addition: its paper value must be None")
        return "beyond"
    if paper is None:
        return "not-in-paper"
    ok = agrees(paper, ours, tolerance, paper_stderr=paper_stderr, z=z)  # validates the kinds in every case
    if kind == "uninformative":
        return "uninformative"
    good, bad = KIND_VERDICTS[kind][:2]
    return good if ok else bad


def verdict(claim: Claim, ours: Any, paper: Any = None) -> str:
    """The verdict of ``claim`` for our value ``ours`` (``paper`` overrides the stated value, e.g. a truncation)."""
    p = claim.paper if paper is None else paper
    return verdict_of(claim.kind, p, ours, claim.tolerance, paper_stderr=claim.paper_stderr, z=claim.z)
