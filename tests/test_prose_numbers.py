"""The numbers a chapter's prose quotes come from the record: every number in a notebook's markdown is accounted for,
and each measured one is checked against the committed results file, so a rerun that changes it fails here until
the prose is updated (issue 48 §4).

Each notebook has ``tests/data/prose/<stem>.toml`` with three tables, each keyed by a piece of the prose as it
stands (the number with enough words around it to be found; every occurrence of the piece is covered):

- ``[measured]`` piece = claim id: every number in the piece must equal, at the precision it is printed with, a
  number of that claim's record in ``data/results/<stem>.json`` — its ``ours`` (means, standard errors, bands,
  list entries) or a number its note quotes; a percentage may be the record's share × 100, ``2.2 million`` is
  2,200,000 to two digits, and the sign is free ("trails by 0.025" is −0.0245);
- ``[printed]`` pieces = [...]: the document's own numbers — each must occur in the document's claims data
  (``tdbook/claims/<document>.toml`` or its transcribed tables);
- ``[fixed]`` piece = why: a setting, a count of the data, arithmetic, a number not measured by this run (said so).

The test finds the numbers itself — decimals, percentages and integers from 10 up, outside code, math, links,
quoted words, headings' section numbers and references (§, Fig., Table, App., eq., p., a year) — and fails on any
it cannot account for, and on any piece that no longer occurs in the prose.  One-digit integers are left out (they
are the "TD(0)", "λ = 1", "4 decimals" of the prose); a measured one is written out or shown in an output.

``python -m tests.test_prose_numbers NN`` prints the numbers of notebook NN that its file does not account for,
each with the claims whose record holds it.
"""

from __future__ import annotations

import json
import math
import re
import sys
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from tdbook import catalog, claims
from tests.conftest import ROOT

PROSE = ROOT / "tests" / "data" / "prose"
CHAPTERS = [p for p in catalog.discover() if not p.stem.startswith("00")]

#: a number: optional sign, digits with thousands commas, optional decimals, an optional percent sign
NUMBER = re.compile(r"(?<![\w.,§/\-−+^])(?:[−+\-](?=\d))?(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?(?!\d)(?:\s?%)?")
#: what makes the number after it a reference, not a value
REFERENCE = re.compile(
    r"(?:§|¶|\bFigs?\.?|\bFigures?|\bTables?|\bApp\.|\bAppendix|\b[Ee]qs?\.|\bEqs|\bCodes?|\bpp?\.|\bch\.|"
    r"\bchapters?|\bnotebooks?|\b[Ss]ections?|\brows?|\bissues?|\bListings?|\bExample|\bBoxe?s?|\bSystems?|"
    r"\bv|\bversion|\bseeds?|\bseed set)\s*(?:\d[\d.]*\s*(?:–|-|,|and|&|or|to)\s*)*$"
)
SCALES = {"million": 1e6, "M": 1e6, "billion": 1e9}


@dataclass(frozen=True)
class Number:
    """One number of the prose: its text, the markdown cell and offset it stands at, and the cell's text."""

    text: str
    cell: int
    start: int
    end: int
    context: str


def _blank(pattern: str, text: str, flags: int = 0) -> str:
    return re.sub(pattern, lambda m: " " * len(m.group()), text, flags=flags)


def prose_cells(nb: dict[str, Any]) -> list[tuple[int, str]]:
    """The markdown cells a reader reads as prose (the generated findings block left out), as ``(index, text)``."""
    out = []
    for i, c in enumerate(nb["cells"]):
        if c["cell_type"] == "markdown" and "findings" not in c.get("metadata", {}).get("tags", []):
            out.append((i, "".join(c["source"]) if isinstance(c["source"], list) else c["source"]))
    return out


def _values_only(text: str) -> str:
    """``text`` with what holds no value blanked (same length): code, math, link targets, HTML tags, quotations,
    the section numbers of headings and of a "Sections:" line."""
    text = _blank(r"```.*?```", text, re.S)
    text = _blank(r"`[^`\n]*`", text)
    text = _blank(r"\$\$.*?\$\$|\$[^$\n]*\$", text, re.S)
    text = _blank(r"\]\([^)\s]*\)", text)
    text = _blank(r"<[^>\n]*>", text)
    text = _blank(r"\"[^\"]{0,800}\"|“[^”]{0,800}”", text)
    text = _blank(r"(?m)^#+\s+[\d.]+", text)
    text = _blank(r"(?ms)^Sections:.*?(?=\n\s*\n|\Z)", text)
    return text


def numbers(nb: dict[str, Any]) -> list[Number]:
    """Every value-like number of ``nb``'s prose (module docstring)."""
    found = []
    for i, raw in prose_cells(nb):
        text = _values_only(raw)
        for m in NUMBER.finditer(text):
            v = m.group()
            digits = v.rstrip("% ").lstrip("+-−").replace(",", "")
            if "." not in digits and "%" not in v and int(digits) < 10:
                continue
            if re.fullmatch(r"(1[5-9]|20)\d\d", digits):  # a year
                continue
            if REFERENCE.search(text[max(0, m.start() - 40) : m.start()]):
                continue
            context = raw[max(0, m.start() - 50) : m.end() + 30].replace("\n", " ")
            found.append(Number(v, i, m.start(), m.end(), context))
    return found


def occurrences(nb: dict[str, Any], piece: str) -> list[tuple[int, int, int]]:
    """``(cell, start, end)`` of every occurrence of ``piece`` in the prose cells (any run of white space matching
    any other: a piece may span a line break)."""
    pattern = re.compile(r"\s+".join(re.escape(word) for word in piece.split()))
    return [(i, m.start(), m.end()) for i, text in prose_cells(nb) for m in pattern.finditer(text)]


# ----------------------------------------------------------------------------- the record's numbers


def _leaves(x: Any) -> list[float]:
    if isinstance(x, bool) or x is None:
        return []
    if isinstance(x, (int, float)):
        return [float(x)]
    if isinstance(x, dict):
        return [v for k, y in x.items() if k not in ("n", "coverage") for v in _leaves(y)]
    if isinstance(x, list):
        return [v for y in x for v in _leaves(y)]
    return []


def record_numbers(record: dict[str, Any]) -> list[float]:
    """The numbers of one claim's record: its ``ours`` (every leaf, counts of runs excepted) and those its note
    quotes."""
    out = _leaves(record.get("ours"))
    for m in NUMBER.finditer(str(record.get("note") or "")):
        out.append(parse(m.group())[0])
    return out


def parse(text: str) -> tuple[float, int, bool]:
    """``(value, decimals, percent)`` of a number as printed."""
    t = text.replace("−", "-").replace(",", "").strip()
    percent = t.endswith("%")
    t = t.rstrip("% ")
    decimals = len(t.split(".")[1]) if "." in t else 0
    return float(t), decimals, percent


def matches(printed: str, candidates: list[float], scale: float = 1.0) -> bool:
    """Whether ``printed`` (a number as the prose prints it) is one of ``candidates`` at its precision: as is, × 100
    (a share printed as a percentage) or / ``scale`` (``2.2 million``); the sign is free."""
    value, decimals, _ = parse(printed)
    want = f"{abs(value):.{decimals}f}"
    for c in candidates:
        if not math.isfinite(c):
            continue
        for f in (1.0, 100.0, 1.0 / scale):
            if f"{abs(c) * f:.{decimals}f}" == want:
                return True
    return False


def _scale_after(text: str, end: int) -> float:
    m = re.match(r"\s*(million|billion|M)\b", text[end:])
    return SCALES[m.group(1)] if m else 1.0


# ----------------------------------------------------------------------------- one chapter


@dataclass
class Account:
    """What a chapter's prose-number file says and what the prose holds."""

    path: Path
    measured: dict[str, str]
    printed: list[str]
    fixed: dict[str, str]


def account(stem: str) -> Account:
    f = PROSE / f"{stem}.toml"
    data = tomllib.loads(f.read_text(encoding="utf-8")) if f.is_file() else {}
    unknown = set(data) - {"measured", "printed", "fixed"}
    assert not unknown, f"{f.name}: unknown tables {sorted(unknown)}"
    return Account(
        f, dict(data.get("measured", {})), list(data.get("printed", {}).get("texts", [])), data.get("fixed", {})
    )


def unaccounted(nb: dict[str, Any], acc: Account) -> list[Number]:
    """The numbers of the prose that no piece of the file covers."""
    covered: set[tuple[int, int]] = set()
    for piece in [*acc.measured, *acc.printed, *acc.fixed]:
        for cell, start, end in occurrences(nb, piece):
            covered.update((cell, k) for k in range(start, end))
    return [n for n in numbers(nb) if not all((n.cell, k) in covered for k in range(n.start, n.end))]


def document_text(stem: str) -> str:
    """The claims data of the chapter's document and its transcribed tables, as text."""
    key = catalog.entry_for(stem).document
    parts = [(claims.HERE / f"{key}.toml").read_text(encoding="utf-8")]
    parts += [p.read_text(encoding="utf-8") for p in sorted((claims.HERE / "tables").glob(f"{key}_*.tsv"))]
    return "\n".join(parts)


def _load(stem: str) -> tuple[dict[str, Any], dict[str, Any]]:
    nb = json.loads((ROOT / "notebooks" / f"{stem}.ipynb").read_text(encoding="utf-8"))
    res = json.loads((ROOT / "data" / "results" / f"{stem}.json").read_text(encoding="utf-8"))
    return nb, res


# ----------------------------------------------------------------------------- the tests


@pytest.mark.parametrize("path", CHAPTERS, ids=lambda p: p.stem)
def test_every_number_of_the_prose_is_accounted_for(path):
    nb, _ = _load(path.stem)
    acc = account(path.stem)
    assert acc.path.is_file(), (
        f"no {acc.path.relative_to(ROOT)}: run `python -m tests.test_prose_numbers {path.stem[:2]}`"
    )
    missing = unaccounted(nb, acc)
    assert not missing, f"{acc.path.name}: numbers of the prose not accounted for:\n" + "\n".join(
        f"  {n.text!r} in cell {n.cell}: …{n.context}…" for n in missing
    )


@pytest.mark.parametrize("path", CHAPTERS, ids=lambda p: p.stem)
def test_every_piece_of_the_account_is_in_the_prose(path):
    nb, _ = _load(path.stem)
    acc = account(path.stem)
    gone = [p for p in [*acc.measured, *acc.printed, *acc.fixed] if not occurrences(nb, p)]
    assert not gone, f"{acc.path.name}: pieces no longer in the prose (update the file): {gone}"
    empty = [p for p in [*acc.measured, *acc.printed] if not NUMBER.search(_values_only(p))]
    assert not empty, f"{acc.path.name}: pieces without a number: {empty}"
    bare = [p for p, why in acc.fixed.items() if not str(why).strip()]
    assert not bare, f"{acc.path.name}: fixed numbers need a reason: {bare}"


@pytest.mark.parametrize("path", CHAPTERS, ids=lambda p: p.stem)
def test_every_measured_number_of_the_prose_is_the_records(path):
    """A rerun that changes a quoted number fails here until the prose (and the file) say the new one."""
    nb, res = _load(path.stem)
    acc = account(path.stem)
    records = {c["id"]: c for c in res["claims"]}
    wrong = []
    for piece, cid in acc.measured.items():
        assert cid in records, f"{acc.path.name}: {piece!r} names claim {cid!r}, which the results file does not hold"
        candidates = record_numbers(records[cid])
        text = _values_only(piece)
        for m in NUMBER.finditer(text):
            if REFERENCE.search(text[max(0, m.start() - 40) : m.start()]):
                continue
            if not matches(m.group(), candidates, _scale_after(text, m.end())):
                wrong.append(f"{piece!r}: {m.group()} is not in the record of {cid!r} ({results_fmt(records[cid])})")
    assert not wrong, f"{acc.path.name}: the prose quotes numbers the record does not hold:\n  " + "\n  ".join(wrong)


@pytest.mark.parametrize("path", CHAPTERS, ids=lambda p: p.stem)
def test_every_printed_number_is_the_documents(path):
    acc = account(path.stem)
    doc = document_text(path.stem)
    absent = [
        (piece, m.group())
        for piece in acc.printed
        for m in NUMBER.finditer(_values_only(piece))
        if m.group().rstrip("% ").lstrip("+-−") not in doc
    ]
    assert not absent, f"{acc.path.name}: 'printed' numbers not in the document's claims data: {absent}"


def results_fmt(record: dict[str, Any]) -> str:
    from tdbook.results import fmt

    return f"ours {fmt(record.get('ours'))}; note: {str(record.get('note') or '')[:160]}"


def test_the_check_finds_numbers_and_can_fail():
    """The scanner sees the numbers a chapter would quote, skips references, and a changed record fails the match."""
    nb = {
        "cells": [
            {"cell_type": "markdown", "metadata": {}, "source": "## 3. Fig. 4.3 (Powell (2000) §4.3, 1998)\n"},
            {"cell_type": "markdown", "metadata": {}, "source": 'C 0.316 [0.310, 0.321], 44.0 % ± 0.7, "0.5", `0.9`'},
            {"cell_type": "markdown", "metadata": {"tags": ["findings"]}, "source": "ours 0.123"},
        ]
    }
    assert [n.text for n in numbers(nb)] == ["0.316", "0.310", "0.321", "44.0 %", "0.7"]
    rec = {"ours": {"spread": {"median": 0.31584, "lo": 0.309659, "hi": 0.321448, "n": 1000}}, "note": "top-1 0.272"}
    assert all(matches(x, record_numbers(rec)) for x in ("0.316", "0.310", "0.321", "0.272"))
    assert matches("44.0 %", [0.440021]) and matches("0.7", [0.00741031]) and matches("2.2", [2195380], 1e6)
    assert not matches("0.317", record_numbers(rec)) and not matches("44.1 %", [0.440021])
    acc = Account(Path("x.toml"), {"C 0.316 [0.310, 0.321]": "c"}, [], {"44.0 % ± 0.7": "a test"})
    assert unaccounted(nb, acc) == []
    acc.fixed = {}
    assert [n.text for n in unaccounted(nb, acc)] == ["44.0 %", "0.7"]


# ----------------------------------------------------------------------------- drafting a file


def draft(stem: str) -> str:
    """The unaccounted numbers of notebook ``stem`` with the claims whose record holds each (to write its file)."""
    nb, res = _load(stem)
    acc = account(stem)
    doc = document_text(stem)
    lines = []
    for n in unaccounted(nb, acc):
        hits = [c["id"] for c in res["claims"] if matches(n.text, record_numbers(c))]
        printed = n.text.rstrip("% ") in doc
        lines.append(f"{n.text!r:>12} cell {n.cell:>3} printed={printed!s:<5} claims={hits[:4]} …{n.context}…")
    return "\n".join(lines)


if __name__ == "__main__":  # python -m tests.test_prose_numbers NN
    for num in sys.argv[1:]:
        stem = next(p.stem for p in CHAPTERS if p.stem.startswith(num))
        print(f"== {stem}")
        print(draft(stem))
