"""``make book``: assemble the book's sources under ``build/book-src/`` and build the site into ``build/book/``.

The stored notebooks are the chapters, rendered as stored (never executed: ``nb_execution_mode = "off"``).
The sources are assembled from

- ``book/`` — the configuration (``conf.py``, read in place), the front page, the bibliography page and its
  ``references.bib`` (generated from ``REFERENCES.md``, :mod:`tdbook.book.references`), the guide pages;
- ``notebooks/NN_*.ipynb`` — the chapters, in number order;
- generated pages — the scoreboard (:mod:`tdbook.book.scoreboard`) and the package reference
  (:mod:`tdbook.book.api`).

Sphinx runs with warnings as errors (``-W``): a broken cross-reference, a missing figure, an unresolved
citation or a scoreboard link to an anchor that is not there fails the build.  Files are rewritten only when
their bytes change, and a file a previous assembly left that is no longer wanted is removed.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import time
from collections.abc import Sequence
from pathlib import Path

from .. import catalog, results
from ..core.paths import repo_root
from . import api, references, scoreboard, training_record

#: Files of ``book/`` that are configuration, read in place rather than copied into the sources.
CONFIG = ("conf.py", "_static")
#: The guides (``book/guide/*.md``) in reading order: how to run before how to extend; a guide not named here
#: follows them, by name.
GUIDES = ("running", "outputs", "training", "adding-a-notebook")


def guide_order(stems: list[str]) -> list[str]:
    """The guides' stems in reading order (:data:`GUIDES` first, then the rest by name)."""
    known = [g for g in GUIDES if g in stems]
    return known + sorted(set(stems) - set(known))


def book_dir() -> Path:
    return repo_root() / "book"


def source_dir(out: Path | None = None) -> Path:
    """The assembled sources (``out`` is the build directory, ``build/`` by default)."""
    return (out or repo_root() / "build") / "book-src"


def site_dir(out: Path | None = None) -> Path:
    """The site."""
    return (out or repo_root() / "build") / "book"


def _put(path: Path, data: bytes, wanted: set[Path]) -> None:
    wanted.add(path)
    if path.is_file() and path.read_bytes() == data:
        return
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)


_IMAGE = re.compile(r"!\[[^\]]*\]\(\s*<?([^)\s>]+)|<img\b[^>]*\bsrc=[\"']([^\"']+)")


def images(nb: dict, here: Path) -> list[Path]:
    """The repository files that ``nb``'s markdown shows as images (``![](../figures/…)``, ``<img src=…>``), that
    exist: the book copies them beside the chapter; one that does not exist is Sphinx's warning (a failed build)."""
    root = repo_root().resolve()
    found = []
    for cell in nb.get("cells", []):
        if cell.get("cell_type") != "markdown":
            continue
        text = "".join(cell["source"]) if isinstance(cell.get("source"), list) else cell.get("source", "")
        for m in _IMAGE.finditer(text):
            ref = m.group(1) or m.group(2)
            if re.match(r"^[a-z][a-z0-9+.-]*:", ref, re.I) or ref.startswith("/"):  # a URL, attachment or data
                continue
            path = (here / ref.split("#")[0]).resolve()
            if path.is_file() and path.is_relative_to(root):
                found.append(path)
    return found


def assemble(out: Path | None = None, profile: str = "standard") -> int:
    """Write the book's source tree; return how many claims were located each way (cell, source, table).

    Raises ValueError (with a sentence saying what to do) when ``book/references.bib`` is stale or a claim's
    check cannot be located, :class:`~tdbook.book.api.UnplacedModule` for a module on no API page, and
    FileNotFoundError for a results file whose notebook is not stored.
    """
    src = source_dir(out)
    wanted: set[Path] = set()
    why = references.stale()
    if why:
        raise ValueError(why)
    book = book_dir()
    for path in sorted(book.rglob("*")):
        rel = path.relative_to(book)
        if path.is_file() and rel.parts[0] not in CONFIG and "__pycache__" not in rel.parts and rel != Path("index.md"):
            _put(src / rel, path.read_bytes(), wanted)

    stored = catalog.discover()
    for path in stored:
        _put(src / scoreboard.CHAPTERS / path.name, path.read_bytes(), wanted)
        for image in images(json.loads(path.read_text(encoding="utf-8")), path.parent):
            _put(src / image.relative_to(repo_root()), image.read_bytes(), wanted)

    files = results.load_all(profile)
    located = scoreboard.locate_all(files, catalog.notebooks_dir())
    _put(src / "scoreboard.md", scoreboard.page(files, located, profile).encode(), wanted)
    _put(src / training_record.PAGE, training_record.page().encode(), wanted)

    index = (book / "index.md").read_text(encoding="utf-8")
    found = api.pages()
    _put(src / "api" / "index.md", api.index_markdown(found).encode(), wanted)
    for page, names in found.items():
        _put(src / "api" / f"{page.slug}.md", api.page_markdown(page, names).encode(), wanted)
        for name in names:
            _put(src / "api" / f"{name}.md", api.module_markdown(name).encode(), wanted)
    guides = guide_order([p.stem for p in (book / "guide").glob("*.md")])
    parts = [
        ("Chapters", "\n".join(f"{scoreboard.CHAPTERS}/{p.stem}" for p in stored)),
        ("The record", "scoreboard\ntraining-record\nreferences"),
        ("Using tdbook", "\n".join(f"guide/{g}" for g in guides)),
        ("Reference", "api/index"),
    ]
    toc = "".join(f"\n```{{toctree}}\n:caption: {cap}\n:maxdepth: 1\n\n{body}\n```\n" for cap, body in parts)
    _put(src / "index.md", (index + toc).encode(), wanted)

    for path in sorted(src.rglob("*"), reverse=True):  # leftovers of an earlier assembly
        if path.is_file() and path not in wanted:
            path.unlink()
        elif path.is_dir() and not any(path.iterdir()):
            path.rmdir()
    return len(located.where)


def sphinx(src: Path, site: Path, *, fresh: bool = True, jobs: str = "1") -> int:
    """Run Sphinx with the book's configuration on the sources ``src`` into ``site`` (warnings are errors, Sphinx's
    saved state next to ``site``); its exit status."""
    cmd = [sys.executable, "-m", "sphinx", "-b", "html", "-W", "--keep-going", "-q", "-j", jobs]
    cmd += ["-c", str(book_dir()), "-d", str(site.parent / f"{site.name}-doctrees")]
    cmd += (["-E"] if fresh else []) + [str(src), str(site)]
    env = dict(os.environ, TDBOOK_ROOT=str(repo_root()))
    return subprocess.run(cmd, env=env).returncode


def build(out: Path | None = None, *, fresh: bool = True, jobs: str = "1") -> int:
    """Assemble and build under ``out`` (``build/``); print what was located and how long it took; 0 on success."""
    t0 = time.perf_counter()
    try:
        n = assemble(out)
    except (ValueError, FileNotFoundError) as e:
        print(f"make book: {e}", file=sys.stderr)
        return 1
    print(f"book: {n} claims located, each by the cell its results record says checked it")
    site = site_dir(out)
    if fresh and site.exists():
        shutil.rmtree(site)
    status = sphinx(source_dir(out), site, fresh=fresh, jobs=jobs)
    took = time.perf_counter() - t0
    where = site / "index.html"
    if status:
        print(f"book: Sphinx failed after {took:.0f} s (warnings are errors; see above)", file=sys.stderr)
        return 1
    print(f"book: built in {took:.0f} s → {where}")
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m tdbook.book", description="Build the book (make book).")
    sub = ap.add_subparsers(dest="command")
    b = sub.add_parser("build", help="assemble build/book-src/ and build the site into build/book/ (the default)")
    b.add_argument(
        "--incremental",
        action="store_true",
        help="reuse Sphinx's saved environment (faster, but a warning of a page that did not change is not repeated)",
    )
    b.add_argument("-j", "--jobs", default="1", help="Sphinx's parallel jobs (default 1)")
    b.add_argument("--out", type=Path, help="build directory (default build/): OUT/book-src, OUT/book")
    g = sub.add_parser("bib", help="book/references.bib from REFERENCES.md")
    how = g.add_mutually_exclusive_group(required=True)
    how.add_argument("--write", action="store_true", help="regenerate book/references.bib")
    how.add_argument("--check", action="store_true", help="exit 1 if it is out of date")
    a = ap.parse_args(argv)
    if a.command == "bib":
        if a.write:
            print(f"wrote {references.write_bib()}")
            return 0
        why = references.stale()
        print(why or "book/references.bib agrees with REFERENCES.md")
        return 1 if why else 0
    return build(getattr(a, "out", None), fresh=not getattr(a, "incremental", False), jobs=getattr(a, "jobs", "1"))
