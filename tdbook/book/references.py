"""The documents as a bibliography: ``book/references.bib`` generated from ``REFERENCES.md`` (the one source).

``REFERENCES.md`` lists every work the notebooks cite, each under the *short name* they cite it by: the five
documents in its table (``| **Powell (2000)** | description | notebooks | claims data |``), the other works as
bullets (``- **Samuel (1959)**: description``).  :func:`parse` reads those entries, :func:`render_bib` writes
them as BibTeX (``python -m tdbook.book bib --write``, ``make bib``); the description becomes ``note`` (Markdown
``*italic*`` and ``code`` as ``\\emph{}`` and ``\\texttt{}``), the short name ``shortname``, and ``author``,
``title`` and ``year`` are filled in where the description starts the usual way (``Names (year), "Title"`` or
``Names, *Title*``).  :func:`note_text` reads a ``note`` back, so a test checks the round trip.

The book cites by these short names: the notebooks' prose ("Powell (2000) §4.3") needs no markup, because the
book's Sphinx extension (:mod:`tdbook.book.sphinxext`) turns every short name it finds into a citation of the
entry whose ``shortname`` it is.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from pathlib import Path

from ..core.paths import repo_root


class ReferencesError(ValueError):
    """REFERENCES.md does not have the shape the bibliography is generated from."""


@dataclass(frozen=True)
class Reference:
    """One cited work: its BibTeX key, the short name it is cited by, and its description (Markdown)."""

    key: str
    short: str
    description: str
    notebooks: str = ""
    claims: str = ""

    @property
    def year(self) -> str | None:
        m = re.search(r"\((\d{4}(?:–\d{4})?)", self.short)
        return m.group(1) if m else None

    @property
    def author_title(self) -> tuple[str, str] | tuple[None, None]:
        """(authors joined by ``and``, title) when the description starts with them, else (None, None)."""
        name = r"(?:[A-Z][a-z]*\.? )+[A-Z][a-z]+"
        m = re.match(rf"({name}(?:, {name})*)(?: \(\d{{4}}[^)]*\))?, (?:\*([^*]+)\*|\"([^\"]+)\")", self.description)
        if not m:
            return None, None
        return " and ".join(m.group(1).split(", ")), m.group(2) or m.group(3)


def key_for(short: str) -> str:
    """The BibTeX key of a short name: its ASCII letters and digits, lower case (``Powell (2000)`` → ``powell2000``)."""
    ascii_ = unicodedata.normalize("NFKD", short).encode("ascii", "ignore").decode()
    return re.sub(r"[^a-z0-9]", "", ascii_.lower())


def references_path(root: Path | None = None) -> Path:
    return (root or repo_root()) / "REFERENCES.md"


def bib_path(root: Path | None = None) -> Path:
    return (root or repo_root()) / "book" / "references.bib"


_SHORT = re.compile(r"\*\*(.+?)\*\*")


def _cells(line: str) -> list[str]:
    """The cells of a Markdown table row (``\\|`` is a pipe inside a cell)."""
    parts = re.split(r"(?<!\\)\|", line.strip().strip("|"))
    return [p.strip().replace("\\|", "|") for p in parts]


def parse(text: str) -> list[Reference]:
    """Every entry of REFERENCES.md, in its order: table rows whose first cell is a bold short name, then bullets
    starting ``- **short name**:``.  Raises :class:`ReferencesError` on a malformed entry or a repeated key."""
    out: list[Reference] = []
    lines = text.splitlines()
    i = 0
    while i < len(lines):
        line = lines[i]
        if line.startswith("| **"):
            cells = _cells(line)
            m = _SHORT.fullmatch(cells[0])
            if not m or len(cells) != 4:
                raise ReferencesError(f"REFERENCES.md line {i + 1}: a table row needs | **short** | … | … | … |")
            out.append(Reference(key_for(m.group(1)), m.group(1), cells[1], cells[2], cells[3].strip("`")))
        elif line.startswith("- **"):
            body = [line[2:]]
            while i + 1 < len(lines) and lines[i + 1].startswith("  ") and lines[i + 1].strip():
                i += 1
                body.append(lines[i].strip())
            m = re.match(r"\*\*(.+?)\*\*: (.+)", " ".join(body), re.S)
            if not m:
                raise ReferencesError(f"REFERENCES.md line {i + 1}: a bullet needs - **short name**: description")
            out.append(Reference(key_for(m.group(1)), m.group(1), m.group(2)))
        i += 1
    keys = [r.key for r in out]
    dup = sorted({k for k in keys if keys.count(k) > 1})
    if dup:
        raise ReferencesError(f"REFERENCES.md: short names that give the same key {dup}; make them distinct")
    if not out:
        raise ReferencesError("REFERENCES.md has no entries (| **short name** | … rows or - **short name**: bullets)")
    return out


def read(root: Path | None = None) -> list[Reference]:
    return parse(references_path(root).read_text(encoding="utf-8"))


# ----------------------------------------------------------------------------- LaTeX for the .bib

_ESCAPES = {
    "\\": r"\textbackslash{}",
    "{": r"\{",
    "}": r"\}",
    "&": r"\&",
    "%": r"\%",
    "$": r"\$",
    "#": r"\#",
    "_": r"\_",
    "~": r"\textasciitilde{}",
    "^": r"\textasciicircum{}",
}
_MARKUP = re.compile(r"`([^`]+)`|\*([^*]+)\*")


def _escape(s: str) -> str:
    return "".join(_ESCAPES.get(ch, ch) for ch in s)


def latex(markdown: str) -> str:
    """``markdown`` (plain text with ``*emphasis*`` and ``code``) as BibTeX field text."""
    out, pos = [], 0
    for m in _MARKUP.finditer(markdown):
        out.append(_escape(markdown[pos : m.start()]))
        out.append(r"\texttt{" + _escape(m.group(1)) + "}" if m.group(1) else r"\emph{" + _escape(m.group(2)) + "}")
        pos = m.end()
    out.append(_escape(markdown[pos:]))
    return "".join(out)


_UNESCAPE = re.compile("|".join(re.escape(v) for v in sorted(_ESCAPES.values(), key=len, reverse=True)))
_COMMAND = re.compile(r"\\(emph|texttt)\{((?:\\[{}]|[^{}])*)\}")
_BACK = {v: k for k, v in _ESCAPES.items()}


def note_parts(field: str) -> list[tuple[str, str]]:
    """A ``note`` written by :func:`latex` as (style, text) parts; style is ``""``, ``"em"`` or ``"tt"``."""
    parts, pos = [], 0
    for m in _COMMAND.finditer(field):
        if m.start() > pos:
            parts.append(("", _UNESCAPE.sub(lambda e: _BACK[e.group(0)], field[pos : m.start()])))
        parts.append(("em" if m.group(1) == "emph" else "tt", _UNESCAPE.sub(lambda e: _BACK[e.group(0)], m.group(2))))
        pos = m.end()
    if pos < len(field):
        parts.append(("", _UNESCAPE.sub(lambda e: _BACK[e.group(0)], field[pos:])))
    return parts


def plain(field: str) -> str:
    """A field written by :func:`latex` as plain text (markup dropped)."""
    return "".join(text for _, text in note_parts(field))


def note_text(field: str) -> str:
    """A ``note`` field back as the Markdown it was written from (the inverse of :func:`latex`)."""
    mark = {"": "{}", "em": "*{}*", "tt": "`{}`"}
    return "".join(mark[style].format(text) for style, text in note_parts(field))


def render_bib(refs: list[Reference]) -> str:
    """The text of ``book/references.bib`` for ``refs``."""
    blocks = [
        "% Generated from REFERENCES.md by `make bib` (python -m tdbook.book bib --write); do not edit by hand.\n"
        "% shortname: how the notebooks cite the work; note: REFERENCES.md's description of it.\n"
    ]
    for r in refs:
        author, title = r.author_title
        fields = [
            ("shortname", _escape(r.short)),
            ("author", _escape(author) if author else None),
            ("title", _escape(title) if title else None),
            ("year", r.year),
            ("note", latex(r.description)),
            ("notebooks", _escape(r.notebooks) if r.notebooks else None),
            ("claimsdata", _escape(f"tdbook/claims/{r.claims}") if r.claims else None),
        ]
        body = "".join(f"  {k} = {{{v}}},\n" for k, v in fields if v)
        blocks.append(f"@misc{{{r.key},\n{body}}}\n")
    return "\n".join(blocks)


def stale(root: Path | None = None) -> str | None:
    """Why ``book/references.bib`` disagrees with REFERENCES.md (a sentence), or None when it is current."""
    path = bib_path(root)
    want = render_bib(read(root))
    if not path.exists():
        return f"{path} is missing: run `make bib`"
    if path.read_text(encoding="utf-8") != want:
        return f"{path} is out of date with REFERENCES.md: run `make bib` (never edit the .bib by hand)"
    return None


def write_bib(root: Path | None = None) -> Path:
    path = bib_path(root)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(render_bib(read(root)), encoding="utf-8")
    return path
