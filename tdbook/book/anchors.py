"""Where each claim is checked: a stored notebook's cell → the section heading above it → that heading's anchor.

A claim record carries ``cell``, the execution count of the cell whose :func:`tdbook.results.check` recorded it
(``In [n]`` of the stored notebook; the stored notebooks keep their execution counts).  The book links every
claim on its scoreboard page to the section that checks it: the nearest heading before that cell, by the
anchor MyST gives the heading (:data:`HEADING_ANCHORS`, GitHub-style slugs made unique within the notebook,
computed by ``myst_parser.slugs`` itself so the link and the rendered anchor cannot disagree).

A record without ``cell`` (a results file written before :func:`tdbook.results.check` recorded it), or whose cell
the stored notebook does not have (the two come from different runs), stops the build with
:class:`ClaimNotLocated`: the cure is to rerun the notebook, never to guess.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from markdown_it import MarkdownIt
from myst_parser.slugs import github_slugify, unique_slug

#: Heading levels that get an anchor (``myst_heading_anchors`` in ``book/conf.py`` reads this).
HEADING_ANCHORS = 4
#: MyST syntax extensions the book enables (``myst_enable_extensions``); headings are parsed with the same ones.
MYST_EXTENSIONS = ("dollarmath",)


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
    """Where a claim is checked: the code cell (index in the notebook) and its section heading."""

    claim: str
    cell: int
    heading: Heading


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


def _check_cell(nb: dict[str, Any], record: dict[str, Any], where: str) -> int:
    cid = record["id"]
    if "cell" not in record:
        raise ClaimNotLocated(
            f"{where}: cannot locate the check of claim {cid!r}: its record has no 'cell' (a run before results "
            "recorded it). Rerun the notebook (`python -m tdbook run NN`) so the record says which cell checked it."
        )
    n = record["cell"]
    for i, cell in enumerate(nb.get("cells", [])):
        if cell.get("cell_type") == "code" and cell.get("execution_count") == n:
            return i
    raise ClaimNotLocated(
        f"{where}: claim {cid!r} was checked in cell In [{n}], which the stored notebook does not have "
        "(the results file and the notebook come from different runs: rerun it with `python -m tdbook run`)"
    )


def locate(nb: dict[str, Any], record: dict[str, Any], where: str = "notebook") -> Location:
    """The section of ``nb`` (a stored notebook as JSON) that checks the claim ``record`` (from its results file).

    ``where`` names the notebook in the error a claim that cannot be located raises (:class:`ClaimNotLocated`).
    """
    index = _check_cell(nb, record, where)
    above = [h for h in headings(nb) if h.cell < index]
    if not above:
        raise ClaimNotLocated(f"{where}: claim {record['id']!r} is checked in cell {index}, before any heading")
    return Location(record["id"], index, above[-1])
