"""The book's scoreboard page: every claim of every results file, each linked to the section that checks it.

The counts and headline are :mod:`tdbook.results`' own (the same as ``data/results/SCOREBOARD.md``); each
claim's link is generated from where the claim was checked (:mod:`tdbook.book.anchors`), never typed.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .. import results
from .anchors import Location, locate

#: Where the book's source tree keeps the chapters (the stored notebooks), relative to its root.
CHAPTERS = "notebooks"

_PUNCT = re.compile(r"([!-/:-@\[-`{-~])")


def md_escape(text: str) -> str:
    """``text`` shown literally in a MyST table cell: every ASCII punctuation backslash-escaped, lines joined."""
    return _PUNCT.sub(r"\\\1", str(text)).replace("\n", " ")


def md_table(header: Sequence[str], rows: Sequence[Sequence[str]], raw: Sequence[int] = ()) -> str:
    """A Markdown table (in a ``tdbook-table`` container, set small by ``book/_static/tdbook.css``); cells are escaped
    except in the ``raw`` columns (which hold Markdown already)."""

    def cell(i: int, c: str) -> str:
        return c.replace("\n", " ") if i in raw else md_escape(c)

    lines = [
        "```{container} tdbook-table",
        "| " + " | ".join(md_escape(h) for h in header) + " |",
        "|" + "---|" * len(header),
    ]
    lines += ["| " + " | ".join(cell(i, c) for i, c in enumerate(r)) + " |" for r in rows]
    return "\n".join(lines + ["```"])


@dataclass
class Located:
    """Every claim's location, keyed by (notebook stem, claim id)."""

    where: dict[tuple[str, str], Location] = field(default_factory=dict)


def locate_all(files: list[dict[str, Any]], notebooks: Path) -> Located:
    """Locate every claim of ``files`` (results files) in its stored notebook under ``notebooks``.

    Raises :class:`~tdbook.book.anchors.ClaimNotLocated` for the first claim that cannot be located, and
    FileNotFoundError for a results file whose notebook is not stored.
    """
    out = Located()
    for f in files:
        stem = f["notebook"]
        path = notebooks / f"{stem}.ipynb"
        if not path.is_file():
            raise FileNotFoundError(f"data/results/{stem}.json has claims but notebooks/{stem}.ipynb is missing")
        nb = json.loads(path.read_text(encoding="utf-8"))
        for record in f["claims"]:
            loc = locate(nb, record, where=f"notebooks/{stem}.ipynb")
            out.where[stem, record["id"]] = loc
    return out


def link(stem: str, loc: Location) -> str:
    """The MyST link from the scoreboard page to the section of chapter ``stem`` where ``loc``'s claim is checked."""
    return f"[{md_escape(loc.claim)}]({CHAPTERS}/{stem}.ipynb#{loc.heading.anchor})"


def page(files: list[dict[str, Any]], located: Located, profile: str = "standard") -> str:
    """The MyST source of the scoreboard page for ``files`` (results files, in notebook order)."""
    out = [
        "# Scoreboard\n",
        "Every claim the notebooks check: the document's value, ours, and the verdict computed from them with the "
        "claim's tolerance (`tdbook/claims/<document>.toml` holds the values, sources, tolerances and kinds; "
        "{doc}`the chapter on adding a notebook <guide/adding-a-notebook>` says how a claim is recorded). "
        "Each claim links to the section of its chapter that checks it. Only `paper` claims — results the document "
        "reports — can be `reproduced` or `differ`; `specification` checks (our code follows the document's "
        "description) pass or fail apart from them, and the other kinds are shown and counted apart.\n",
        f"**{results.headline(profile)}**\n",
        "## Per kind\n",
        md_table(*_table(results.kinds(profile))) + "\n",
        "## Per notebook\n",
        _per_notebook(files, profile) + "\n",
    ]
    header = ["claim", "verdict", "kind", "paper", "ours", "source", "checked in"]
    for f in files:
        stem = f["notebook"]
        title = f.get("title") or stem
        out.append(f"## {md_escape(stem[:2])} · {md_escape(title)}\n")
        out.append(f"{{doc}}`The chapter <{CHAPTERS}/{stem}>`; {len(f['claims'])} claims.\n")
        rows = []
        for cl in f["claims"]:
            loc = located.where[stem, cl["id"]]
            rows.append(
                [
                    link(stem, loc),
                    cl["verdict"],
                    cl.get("kind", ""),
                    results.fmt(cl["paper"]),
                    results.fmt(cl["ours"]),
                    cl["source"],
                    loc.heading.title,
                ]
            )
        out.append(md_table(header, rows, raw=(0,)) + "\n")
    return "\n".join(out)


def _table(t: results.Table) -> tuple[list[str], list[list[str]]]:
    return t.header, t.rows


def _per_notebook(files: list[dict[str, Any]], profile: str) -> str:
    """:func:`tdbook.results.scoreboard`'s per-notebook counts, each notebook's name a link to its chapter."""
    t = results.scoreboard(profile)[0]
    rows = [list(r) for r in t.rows]
    for row, f in zip(rows, files):  # one row per file, in the same order, then the total
        row[0] = f"[{md_escape(row[0])}]({CHAPTERS}/{f['notebook']}.ipynb)"
    return md_table(t.header, rows, raw=(0,))
