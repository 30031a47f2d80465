"""What a chapter found: three to six lines under its title, generated from the record, never typed.

Each chapter's entry module names its headline findings — what a reader should take away, honest misses
included — as ``FINDINGS = {claim id: statement}``: the statement is the document's (or our aim's) claim in a few
words; the values, the verdict and the link come from the notebook's results file.  A finding is a result: a claim
of the kinds in :data:`KINDS` (the document's results, our aims, our own measurements); a specification check, a
setting, a fit, a transcription, a fact about the game or an uninformative statement stays in its section's table
and is refused here (:func:`check_kinds`, by the kind the claims data gives it now).  Under the title, the
markdown cell tagged ``findings`` holds the block :func:`block` writes::

    ## What we found

    - **reproduced** · TD(0) learns faster than constant-α MC (Powell (2000) §4.3 Fig. 4.3): the document yes;
      ours yes → <a href="#claim-fig4.3-td-consistently-better">3. Fig. 4.3: TD(0) vs constant-α Monte Carlo</a>

Each line links to the row of the check cell's table that recorded the claim (:func:`tdbook.results.anchor`,
written by :func:`tdbook.results.check_all`), named by the section heading above that cell (the record's
``cell`` is the cell's execution count).  The anchor is plain ASCII, so the same link works in JupyterLab (which
finds a fragment by its encoded text) and in the book (where the check cell's HTML output keeps its ids).

- ``python -m tdbook run`` fills the block of every notebook it executes from the results file that run wrote,
  and fails the run when a finding's claim was not recorded or its row is not shown (:func:`fill_file`);
- ``python -m tdbook.findings --write`` refills the stored notebooks from ``data/results/`` (``--check``: exit 1
  if one is stale); ``tests/test_findings.py`` checks every stored block is what the record gives.
"""

from __future__ import annotations

import importlib
import json
import re
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

from . import claims, results
from .catalog import discover, entry_modules
from .core.paths import record_results_dir
from .stored import dumps

#: The tag of the markdown cell that holds a chapter's findings.
TAG = "findings"
#: The block's heading.
HEADING = "## What we found"
#: How many findings a chapter shows.
LEAST, MOST = 3, 6
#: The kinds of claim a finding may be: the document's results (reproduced or not), our aims, our own measurements.
KINDS = ("paper", "aim", "beyond")
#: Verdicts shown as a miss (the rest as a result that held).
MISSES = (
    "differs",
    "not-as-specified",
    "aim-missed",
    "setting-error",
    "fit-failed",
    "transcription-error",
    "contradicted",
)


class FindingsError(ValueError):
    """A chapter's findings cannot be generated: a claim not recorded, not located, or a selection malformed."""


def entry_module(path: Path) -> ModuleType:
    """The entry module of stored notebook ``path`` (``tdbook/experiments/<game>/<name>.py``), imported."""
    code = entry_modules(path)
    if not code or Path(code[0]).stem != Path(path).stem[3:]:
        raise FindingsError(f"{Path(path).name}: no entry module {Path(path).stem[3:]}.py among its imports")
    return importlib.import_module(code[0][: -len(".py")].replace("/", "."))


def selection(module: ModuleType) -> dict[str, str]:
    """``module.FINDINGS``, checked: :data:`LEAST` to :data:`MOST` claim ids, each with a one-line statement."""
    chosen = getattr(module, "FINDINGS", None)
    name = module.__name__
    if not isinstance(chosen, dict):
        raise FindingsError(f"{name} has no FINDINGS dict (claim id → statement) for its chapter's findings")
    if not LEAST <= len(chosen) <= MOST:
        raise FindingsError(f"{name}.FINDINGS names {len(chosen)} claims; a chapter shows {LEAST} to {MOST}")
    for cid, statement in chosen.items():
        if not isinstance(cid, str) or not isinstance(statement, str) or not statement.strip() or "\n" in statement:
            raise FindingsError(f"{name}.FINDINGS[{cid!r}] must be a one-line statement, got {statement!r}")
    return dict(chosen)


def check_kinds(notebook: str, chosen: dict[str, str]) -> None:
    """FindingsError unless every chosen claim is one of ``notebook``'s claims (``tdbook/claims/*.toml``) of a kind in
    :data:`KINDS`: a chapter leads with its results, not with its specification checks."""
    bad = []
    for cid in chosen:
        try:
            kind = claims.get(notebook, cid).kind
        except claims.ClaimError as e:
            raise FindingsError(f"{notebook}: finding {cid!r}: {e}") from None
        if kind not in KINDS:
            bad.append(f"{cid!r} ({kind})")
    if bad:
        raise FindingsError(
            f"{notebook}: findings {', '.join(bad)} are not results: a finding is a claim of kind "
            f"{', '.join(KINDS)} (a specification check, setting, fit, transcription, reference or uninformative "
            "claim stays in its section's table)"
        )


def _source(cell: dict[str, Any]) -> str:
    src = cell.get("source", "")
    return "".join(src) if isinstance(src, list) else src


_HEADING = re.compile(r"^(#{1,4})\s+(.+?)\s*#*\s*$")


def headings(nb: dict[str, Any]) -> list[tuple[int, str]]:
    """``(cell index, heading text)`` of every level 1–4 ATX heading of ``nb``'s markdown cells, fenced code skipped."""
    out = []
    for i, cell in enumerate(nb.get("cells", [])):
        if cell.get("cell_type") != "markdown":
            continue
        fenced = False
        for line in _source(cell).splitlines():
            if line.lstrip().startswith(("```", "~~~")):
                fenced = not fenced
            m = None if fenced else _HEADING.match(line)
            if m:
                out.append((i, m.group(2)))
    return out


def section_of(nb: dict[str, Any], record: dict[str, Any], where: str) -> str:
    """The heading of the section whose code cell checked ``record`` (its ``cell`` is the execution count)."""
    cid = record["id"]
    n = record.get("cell")
    if n is None:
        raise FindingsError(f"{where}: claim {cid!r} has no 'cell' in its record (not checked in a kernel): rerun it")
    cells = enumerate(nb.get("cells", []))
    index = next((i for i, c in cells if c.get("cell_type") == "code" and c.get("execution_count") == n), None)
    if index is None:
        raise FindingsError(f"{where}: claim {cid!r} was checked in cell In [{n}], which the notebook does not have")
    above = [title for i, title in headings(nb) if i < index]
    if not above:
        raise FindingsError(f"{where}: claim {cid!r} is checked before the notebook's first heading")
    return above[-1]


_MARKDOWN = re.compile(r"([\\`*_<>$])")


def _md(text: str) -> str:
    """``text`` shown literally in Markdown (JupyterLab's and the book's MyST with dollar math)."""
    return _MARKDOWN.sub(r"\\\1", str(text)).replace("\n", " ")


#: The longest value a finding shows in full (a printed listing or table is shortened: the link shows it whole).
SHORT = 60


def _value(x: Any) -> str:
    text = results.fmt(x)
    return _md(text if len(text) <= SHORT else text[: SHORT - 1].rstrip(" ,;") + "…")


def line(record: dict[str, Any], statement: str, section: str) -> str:
    """One finding: the verdict, the statement and its source, the document's value and ours, the link."""
    kind = record.get("kind", "")
    ours = _value(record["ours"])
    if kind == "beyond" or record.get("paper") is None:
        values = f"ours {ours}"
    else:
        printed = "aim" if kind == "aim" else "the document"
        paper = _value(record["paper"])
        values = f"{printed} {paper}; ours " + ("the same" if ours == paper else ours)
    link = f'<a href="#{results.anchor(record["id"])}">{section}</a>'
    mark = "✗" if record["verdict"] in MISSES else "✓"
    return f"- {mark} **{record['verdict']}** · {statement} ({_md(record['source'])}): {values} → {link}"


def block(nb: dict[str, Any], record_file: dict[str, Any], chosen: dict[str, str], where: str = "notebook") -> str:
    """The findings cell's Markdown for notebook ``nb`` (as JSON) from its results file and its selection."""
    by_id = {c["id"]: c for c in record_file.get("claims", [])}
    missing = [cid for cid in chosen if cid not in by_id]
    if missing:
        raise FindingsError(f"{where}: findings {missing} are not in the results file (ids of checked claims only)")
    lines = [line(by_id[cid], statement, section_of(nb, by_id[cid], where)) for cid, statement in chosen.items()]
    profile = record_file.get("profile", "")
    folder = "data/results" if profile == "standard" else f"build/{profile}/data/results"
    note = (
        f"*Generated from the record of the {profile} run (`{folder}/{record_file['notebook']}.json`); each line "
        "links to the check that recorded it.*"
    )
    return "\n".join([HEADING, "", *lines, "", note])


def findings_cell(nb: dict[str, Any]) -> dict[str, Any] | None:
    """The markdown cell tagged :data:`TAG`, or None; FindingsError when there are several."""
    cells = [c for c in nb.get("cells", []) if TAG in c.get("metadata", {}).get("tags", [])]
    if len(cells) > 1:
        raise FindingsError(f"{len(cells)} cells are tagged {TAG!r}; a chapter has one findings block")
    if cells and cells[0].get("cell_type") != "markdown":
        raise FindingsError(f"the cell tagged {TAG!r} must be a markdown cell")
    return cells[0] if cells else None


def missing_rows(nb: dict[str, Any], chosen: dict[str, str]) -> list[str]:
    """The chosen claims whose anchored row (:func:`tdbook.results.check_all`) no output of ``nb`` shows."""
    html = "".join(
        "".join(o.get("data", {}).get("text/html", ""))
        for c in nb.get("cells", [])
        if c.get("cell_type") == "code"
        for o in c.get("outputs", [])
    )
    return [cid for cid in chosen if f"id='{results.anchor(cid)}'" not in html]


def fill(nb: dict[str, Any], record_file: dict[str, Any], chosen: dict[str, str], where: str = "notebook") -> bool:
    """Write the findings block into ``nb``'s findings cell (in place); True when its text changed."""
    cell = findings_cell(nb)
    if cell is None:
        raise FindingsError(f"{where}: no markdown cell tagged {TAG!r} under the title")
    text = block(nb, record_file, chosen, where)
    old = _source(cell)
    cell["source"] = text.splitlines(keepends=True)
    return old != text


def fill_file(path: Path, results_file: Path) -> bool:
    """Fill the findings of the executed notebook ``path`` from ``results_file`` (the run's own), rewriting it when
    they changed; FindingsError when a chosen claim is not recorded or no check cell shows its row.  A notebook
    without a findings cell is left alone (False)."""
    nb = json.loads(Path(path).read_text(encoding="utf-8"))
    if findings_cell(nb) is None:
        return False
    chosen = selection(entry_module(path))
    check_kinds(Path(path).stem, chosen)
    record_file = results.load(results_file)
    unshown = missing_rows(nb, chosen)
    if unshown:
        raise FindingsError(
            f"{Path(path).stem}: findings {unshown} have no row in a check cell's table (check them with "
            "results.check_all, whose rows the findings link to)"
        )
    changed = fill(nb, record_file, chosen, where=Path(path).stem)
    if changed:
        Path(path).write_bytes(dumps(nb))
    return changed


def write(check: bool = False, profile: str = "standard") -> list[str]:
    """Refill the findings of every stored notebook that has a findings cell from its committed results file; the
    notebooks whose block was stale (with ``check``, nothing is written)."""
    stale = []
    for path in discover():
        nb = json.loads(path.read_text(encoding="utf-8"))
        if findings_cell(nb) is None:
            continue
        record_file = results.load(record_results_dir(profile) / f"{path.stem}.json")
        chosen = selection(entry_module(path))
        check_kinds(path.stem, chosen)
        if fill(nb, record_file, chosen, where=path.stem):
            stale.append(f"notebooks/{path.name}")
            if not check:
                path.write_bytes(dumps(nb))
    return stale


def main(argv: list[str] | None = None) -> int:
    """``python -m tdbook.findings --write | --check``."""
    args = sys.argv[1:] if argv is None else argv
    if args not in (["--write"], ["--check"]):
        print("usage: python -m tdbook.findings --write | --check", file=sys.stderr)
        return 2
    try:
        stale = write(check=args == ["--check"])
    except FindingsError as e:
        print(f"findings: {e}", file=sys.stderr)
        return 1
    for f in stale:
        print(f"{'wrote' if args == ['--write'] else 'stale'}: {f}")
    return 1 if stale and args == ["--check"] else 0


if __name__ == "__main__":  # python -m tdbook.findings --write | --check
    sys.exit(main())
