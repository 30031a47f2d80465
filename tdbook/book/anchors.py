"""Where each claim is checked: a stored notebook's cell → the section heading above it → that heading's anchor.

A claim record carries ``cell``, the execution count of the cell whose :func:`tdbook.results.check` recorded it
(``In [n]`` of the stored notebook; the stored notebooks keep their execution counts).  The book links every
claim on its scoreboard page to the section that checks it: the nearest heading before that cell, by the
anchor MyST gives the heading (:data:`HEADING_ANCHORS`, GitHub-style slugs made unique within the notebook,
computed by ``myst_parser.slugs`` itself so the link and the rendered anchor cannot disagree).

Records written before ``cell`` existed are located by the cell whose source holds ``check("<id>"``, else by the
first cell whose stored claims table lists the claim (:func:`locate` says which way it went).  A claim that none
of these finds stops the build with :class:`ClaimNotLocated`.
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass
from typing import Any

from markdown_it import MarkdownIt
from myst_parser.slugs import github_slugify, unique_slug

from ..results import CLAIM_COLUMNS

#: Heading levels that get an anchor (``myst_heading_anchors`` in ``book/conf.py`` reads this).
HEADING_ANCHORS = 4
#: MyST syntax extensions the book enables (``myst_enable_extensions``); headings are parsed with the same ones.
MYST_EXTENSIONS = ("dollarmath",)

#: How a claim was located, best first.
BY_CELL, BY_SOURCE, BY_TABLE = "cell", "source", "table"


class ClaimNotLocated(ValueError):
    """A scoreboard claim whose check cannot be found in its stored notebook."""


@dataclass(frozen=True)
class Heading:
    """One heading of a stored notebook: its level, text, anchor and the index of the markdown cell holding it."""

    level: int
    title: str
    anchor: str
    cell: int


@dataclass(frozen=True)
class Location:
    """Where a claim is checked: the code cell (index in the notebook), its section heading and how it was found."""

    claim: str
    cell: int
    heading: Heading
    how: str


def _parser() -> MarkdownIt:
    from mdit_py_plugins.dollarmath import dollarmath_plugin

    md = MarkdownIt("commonmark").enable("table")
    if "dollarmath" in MYST_EXTENSIONS:
        md = md.use(dollarmath_plugin, double_inline=True)
    return md


def _source(cell: dict[str, Any]) -> str:
    src = cell.get("source", "")
    return "".join(src) if isinstance(src, list) else src


def headings(nb: dict[str, Any]) -> list[Heading]:
    """Every heading of ``nb``'s markdown cells (levels 1..:data:`HEADING_ANCHORS`), with MyST's anchor for it.

    The title that is slugged is the heading's text and inline-code children, as MyST takes it; slugs are made
    unique across the whole notebook (``x``, ``x-1``, …) in document order, as MyST does for one document.
    """
    md = _parser()
    seen: set[str] = set()
    out: list[Heading] = []
    for i, cell in enumerate(nb.get("cells", [])):
        if cell.get("cell_type") != "markdown":
            continue
        tokens = md.parse(_source(cell))
        for j, tok in enumerate(tokens):
            if tok.type != "heading_open":
                continue
            level = int(tok.tag[1:])
            if level > HEADING_ANCHORS:
                continue
            inline = tokens[j + 1]
            title = "".join(c.content for c in inline.children or [] if c.type in ("text", "code_inline"))
            slug = unique_slug(github_slugify(title), seen)
            if not slug:  # MyST gives such a heading no anchor
                continue
            seen.add(slug)
            out.append(Heading(level, inline.content, slug, i))
    return out


_ROW_ID = re.compile(r"<tr><td[^>]*>(.*?)</td>", re.S)
_TABLE_HEAD = "".join(f"<th style='text-align:left'>{h}</th>" for h in CLAIM_COLUMNS)


def table_claims(cell: dict[str, Any]) -> list[str]:
    """The claim ids listed by the claims tables (:func:`tdbook.results.claims_table`) among ``cell``'s outputs."""
    ids: list[str] = []
    for out in cell.get("outputs", []):
        page = out.get("data", {}).get("text/html")
        if page is None:
            continue
        page = "".join(page) if isinstance(page, list) else page
        if _TABLE_HEAD in page:
            ids += [html.unescape(m) for m in _ROW_ID.findall(page)]
    return ids


def _check_cell(nb: dict[str, Any], record: dict[str, Any], where: str) -> tuple[int, str]:
    cells = nb.get("cells", [])
    cid = record["id"]
    if "cell" in record:
        n = record["cell"]
        for i, cell in enumerate(cells):
            if cell.get("cell_type") == "code" and cell.get("execution_count") == n:
                return i, BY_CELL
        raise ClaimNotLocated(
            f"{where}: claim {cid!r} was checked in cell In [{n}], which the stored notebook does not have "
            "(the results file and the notebook come from different runs: rerun it with `python -m tdbook run`)"
        )
    calls = (f'check("{cid}"', f"check('{cid}'")
    for i, cell in enumerate(cells):
        if cell.get("cell_type") == "code" and any(c in _source(cell) for c in calls):
            return i, BY_SOURCE
    for i, cell in enumerate(cells):
        if cell.get("cell_type") == "code" and cid in table_claims(cell):
            return i, BY_TABLE
    raise ClaimNotLocated(
        f"{where}: cannot locate the check of claim {cid!r}: its record has no 'cell' (a run before results "
        f"recorded it), no code cell calls check({cid!r}, …) literally and no stored claims table lists it. "
        "Rerun the notebook (`python -m tdbook run NN`) so the record says which cell checked it."
    )


def locate(nb: dict[str, Any], record: dict[str, Any], where: str = "notebook") -> Location:
    """The section of ``nb`` (a stored notebook as JSON) that checks the claim ``record`` (from its results file).

    ``where`` names the notebook in the error a claim that cannot be located raises (:class:`ClaimNotLocated`).
    """
    index, how = _check_cell(nb, record, where)
    above = [h for h in headings(nb) if h.cell < index]
    if not above:
        raise ClaimNotLocated(f"{where}: claim {record['id']!r} is checked in cell {index}, before any heading")
    return Location(record["id"], index, above[-1], how)
