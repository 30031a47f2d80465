"""The book (issue 32): `make book` builds a static site from the stored notebooks, with warnings as errors.

Unit tests of the generator (where a claim is checked and its anchor, the bibliography from REFERENCES.md, the
package walk, the citation and docstring helpers), small Sphinx builds with the book's own configuration (a
widget note, prose citations; and a build that must fail), a real kernel recording ``cell``, and the whole
book built once from the stored notebooks and checked page by page.
"""

from __future__ import annotations

import hashlib
import html
import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest
from pybtex.database import parse_string

from tdbook import claims, results, stored
from tdbook.book import anchors, api, build, references, scoreboard, sphinxext
from tdbook.book.anchors import ClaimNotLocated
from tdbook.catalog import discover
from tests import browser
from tests.conftest import ROOT

# ----------------------------------------------------------------------------- notebooks for the tests


def _md(text: str) -> dict:
    return {"cell_type": "markdown", "metadata": {}, "source": text}


def _code(source: str, count: int | None, outputs: list | None = None, tags: list | None = None) -> dict:
    meta = {"tags": tags} if tags else {}
    return {"cell_type": "code", "execution_count": count, "metadata": meta, "outputs": outputs or [], "source": source}


def _table_output(ids: list[str]) -> dict:
    rows = [[i, "paper", "Test (2026)", "1", "1", "exact", "reproduced", ""] for i in ids]
    t = results.Table(results.CLAIM_COLUMNS, rows)
    return {"data": {"text/html": t._repr_html_(), "text/plain": str(t)}, "metadata": {}, "output_type": "display_data"}


def _nb() -> dict:
    return {
        "cells": [
            _md("# 99 · A test chapter\n\nIntro."),
            _code('PROFILE = "standard"', 1, tags=["parameters"]),
            _md("## 1. The walk and its `true` values\n\ntext"),
            _code("results.check(cid, ours=1)", 2, [_table_output(["a"])]),
            _md("## Paper vs ours"),
            _code("results.check(\"lit\", 3)\nresults.check('quoted', 3)", 3),
            _md("### Paper vs ours\n\nthe same title again"),
            _code("results.claims_table()", 4, [_table_output(["a", "b", "lit"])]),
        ],
        "metadata": {},
        "nbformat": 4,
        "nbformat_minor": 4,
    }


# ----------------------------------------------------------------------------- where a claim is checked


def test_headings_get_myst_anchors_unique_within_the_notebook():
    hs = anchors.headings(_nb())
    assert [(h.level, h.anchor, h.cell) for h in hs] == [
        (1, "99--a-test-chapter", 0),
        (2, "1-the-walk-and-its-true-values", 2),
        (2, "paper-vs-ours", 4),
        (3, "paper-vs-ours-1", 6),  # MyST's -1 for a repeated title
    ]
    assert hs[1].title == "1. The walk and its `true` values"


def test_a_claim_is_located_by_the_cell_that_checked_it():
    loc = anchors.locate(_nb(), {"id": "a", "cell": 4})
    assert (loc.cell, loc.heading.anchor) == (7, "paper-vs-ours-1")
    loc = anchors.locate(_nb(), {"id": "a", "cell": 2})
    assert (loc.cell, loc.heading.anchor) == (3, "1-the-walk-and-its-true-values")


def test_a_claim_whose_check_cannot_be_located_is_refused_naming_it():
    with pytest.raises(ClaimNotLocated, match=r"nb\.ipynb: cannot locate the check of claim 'nowhere'"):
        anchors.locate(_nb(), {"id": "nowhere"}, where="nb.ipynb")
    with pytest.raises(ClaimNotLocated, match=r"checked in cell In \[17\], which the stored notebook does not have"):
        anchors.locate(_nb(), {"id": "a", "cell": 17})
    nb = _nb()
    nb["cells"] = [_code('results.check("x", 1)', 1)] + nb["cells"]
    with pytest.raises(ClaimNotLocated, match="before any heading"):
        anchors.locate(nb, {"id": "x", "cell": 1})


def test_a_claim_whose_check_cannot_be_located_stops_make_book_naming_it(tmp_path, monkeypatch, capsys):
    stem = discover()[1].stem
    monkeypatch.setattr(results, "load_all", lambda profile: [{"notebook": stem, "claims": [{"id": "no-such"}]}])
    assert build.build(tmp_path) == 1
    err = capsys.readouterr().err
    assert f"make book: notebooks/{stem}.ipynb: cannot locate the check of claim 'no-such'" in err
    assert not (tmp_path / "book").exists()  # Sphinx never ran


def test_locate_all_refuses_a_results_file_without_its_notebook(tmp_path):
    with pytest.raises(FileNotFoundError, match="notebooks/99_x.ipynb is missing"):
        scoreboard.locate_all([{"notebook": "99_x", "claims": []}], tmp_path)


def test_the_scoreboard_links_each_claim_to_its_section(tmp_path, out_root):
    (tmp_path / "99_test.ipynb").write_text(json.dumps(_nb()))
    files = [{"notebook": "99_test", "title": "A test", "claims": [_record("a", 2), _record("b", 4)]}]
    located = scoreboard.locate_all(files, tmp_path)
    page = scoreboard.page(files, located, profile="quick")
    assert "[a](notebooks/99_test.ipynb#1-the-walk-and-its-true-values)" in page
    assert "[b](notebooks/99_test.ipynb#paper-vs-ours-1)" in page
    assert scoreboard.md_escape("a|b *c* $x$ [d]") == r"a\|b \*c\* \$x\$ \[d\]"


def _record(cid: str, cell: int) -> dict:
    return {
        "id": cid,
        "cell": cell,
        "kind": "paper",
        "source": "Test (2026)",
        "paper": 1,
        "ours": 1,
        "verdict": "reproduced",
    }


def test_check_records_the_running_cell_only_inside_a_kernel(session, monkeypatch):
    assert results.running_cell() is None  # pytest is no kernel

    class Shell:
        kernel = object()
        displayhook = type("Hook", (), {"exec_result": type("R", (), {"execution_count": 7})()})()

    fake = type(sys)("IPython")
    fake.get_ipython = lambda: Shell()
    monkeypatch.setitem(sys.modules, "IPython", fake)
    assert results.running_cell() == 7
    Shell.kernel = None  # a terminal IPython: no kernel, no cell
    assert results.running_cell() is None


_KERNEL_CLAIMS = """[document]
citation = "Test (2026)"

[[claim]]
id = "first"
notebook = "99_book"
kind = "beyond"
source = "Test (2026) §1"

[[claim]]
id = "second"
notebook = "99_book"
kind = "beyond"
source = "Test (2026) §2"
"""


def test_a_kernel_run_records_the_cell_that_the_stored_notebook_numbers(tmp_path, out_root, monkeypatch):
    """In a real kernel the recorded ``cell`` is the executed notebook's ``In [n]`` of the checking cell."""
    import papermill

    d = tmp_path / "claims"
    d.mkdir()
    (d / "test2026.toml").write_text(_KERNEL_CLAIMS)
    monkeypatch.setenv(claims.PATH_ENV, str(d))
    nb = nbformat.v4.new_notebook()
    params = nbformat.v4.new_code_cell('PROFILE = "quick"')
    params.metadata["tags"] = ["parameters"]
    nb.cells = [
        nbformat.v4.new_markdown_cell("# 99 · test"),
        params,
        nbformat.v4.new_code_cell('from tdbook import results\nresults.start("99_book", profile=PROFILE, seed=1)'),
        nbformat.v4.new_markdown_cell("## 1. First"),
        nbformat.v4.new_code_cell('results.check("first", 1.0);'),
        nbformat.v4.new_markdown_cell("## 2. Second"),
        nbformat.v4.new_code_cell("x = 2"),
        nbformat.v4.new_code_cell('results.check("second", x); results.finish();'),
    ]
    nb.metadata["kernelspec"] = {"name": "tdbook", "display_name": "Python (tdbook)", "language": "python"}
    src, out = tmp_path / "in.ipynb", tmp_path / "out.ipynb"
    nbformat.write(nb, src)
    papermill.execute_notebook(str(src), str(out), parameters={"PROFILE": "quick"}, progress_bar=False)
    executed = stored.clean(json.loads(out.read_text()))  # as stored: the injected cell dropped, counts kept
    recorded = json.loads((out_root / "data" / "results" / "99_book.json").read_text())["claims"]
    where = {c["id"]: anchors.locate(executed, c) for c in recorded}
    assert {c["id"]: c.get("cell") for c in recorded} == {"first": 4, "second": 6}
    assert where["first"].heading.anchor == "1-first" and where["second"].heading.anchor == "2-second"


# ----------------------------------------------------------------------------- the bibliography


def test_references_bib_is_generated_from_references_md():
    assert references.stale() is None, "run `make bib`"


def test_the_bib_round_trips_every_entry_of_references_md():
    refs = references.read()
    assert {"powell2000", "waterman1968", "kenjuthesis", "samuel1973note", "symmetricgammonpost2011"} <= {
        r.key for r in refs
    }
    db = parse_string(references.render_bib(refs), "bibtex")
    assert list(db.entries) == [r.key for r in refs]
    for r in refs:
        e = db.entries[r.key]
        assert references.note_text(e.fields["note"]) == r.description
        assert references.plain(e.fields["shortname"]) == r.short
    powell = db.entries["powell2000"]
    assert (powell.fields["title"], powell.fields["year"]) == ("Reinforcement Learning in Game Play", "2000")
    assert str(powell.persons["author"][0]) == "Powell, Brian"


def test_markdown_survives_the_latex_of_a_note():
    text = "A *title* with `code_x`, 5% & $3 {braces} \\ back ~ ^ | pipe"
    field = references.latex(text)
    assert r"\emph{title}" in field and r"\texttt{code\_x}" in field and r"5\% \& \$3 \{braces\}" in field
    assert references.note_text(field) == text


def test_malformed_references_are_refused():
    with pytest.raises(references.ReferencesError, match="same key"):
        references.parse("- **Powell (2000)**: one\n- **powell 2000**: two\n")
    with pytest.raises(references.ReferencesError, match="line 1: a bullet needs"):
        references.parse("- **Powell (2000)** one\n")
    with pytest.raises(references.ReferencesError, match="no entries"):
        references.parse("# nothing\n")


# ----------------------------------------------------------------------------- the package reference


def test_every_module_of_the_package_is_on_one_api_page():
    found = api.pages()
    names = [m for ms in found.values() for m in ms]
    assert len(names) == len(set(names))
    expected = {
        ".".join(p.relative_to(ROOT).with_suffix("").parts).removesuffix(".__init__")
        for p in (ROOT / "tdbook").rglob("*.py")
        if p.stem != "__main__"
    }
    assert set(names) | {"tdbook"} == expected  # the package itself is on the reference's front page


def test_a_new_top_level_module_must_be_given_a_page(tmp_path):
    shutil.copytree(ROOT / "tdbook", tmp_path / "tdbook", ignore=shutil.ignore_patterns("__pycache__"))
    (tmp_path / "tdbook" / "newlayer.py").write_text('"""new"""\n')
    with pytest.raises(api.UnplacedModule, match="tdbook.newlayer is on no page"):
        api.pages([str(tmp_path / "tdbook")])


# ----------------------------------------------------------------------------- citations and docstrings


def test_short_names_are_found_in_prose_also_as_possessives():
    names = {"Powell (2000)": "powell2000", "Sutton & Barto (1998)": "sb", "Kenju thesis": "k", "pokerkit": "p"}
    pat = sphinxext.citation_pattern(names)
    text = "Powell (2000) §4.3, Sutton & Barto’s (1998) grid, the Kenju thesis, pokerkits, Powell (2001)"
    assert [m.group(0) for m in pat.finditer(text)] == ["Powell (2000)", "Sutton & Barto’s (1998)", "Kenju thesis"]
    assert sphinxext.canonical("Sutton & Barto’s (1998)") == "Sutton & Barto (1998)"
    looks = [m.group(0) for m in sphinxext.LOOKS_CITED.finditer("as Tesauro (1995) and Baxter et al. (1998) say")]
    assert looks == ["Tesauro (1995)", "Baxter et al. (1998)"]
    assert not sphinxext.LOOKS_CITED.search("TD(λ) at Fig. 4.3 (1000 episodes), 3 (2000)")


def test_docstrings_keep_absolute_values_and_wildcards_literal():
    lines = ["max |w| over (A1, *, C1), ``a|b`` and *emphasis*", "", "::", "", "    |x| kept", "back |y|"]
    assert sphinxext.escape_docstring(lines) == [
        r"max \|w\| over (A1, \*, C1), ``a|b`` and *emphasis*",
        "",
        "::",
        "",
        "    |x| kept",
        r"back \|y\|",
    ]
    table = ["=====  =====", "a      |b|", "=====  ====="]
    assert sphinxext.escape_docstring(table) == table
    assert sphinxext.rest_problems("fine ``code`` *em*") == []
    # markup stars stay markup: emphasis closed after punctuation, a bullet, strong; a wildcard is still escaped
    marked = ["- *the target includes γ·V(x)*: at the end ``next``", '  * ``"thesis"`` — **strong**', "data/*.npz"]
    assert sphinxext.escape_docstring(marked) == marked[:2] + [r"data/\*.npz"]
    assert sphinxext.rest_problems("\n".join(sphinxext.escape_docstring(marked[:2]))) == []
    assert sphinxext.rest_problems("=====  ==\nlonger than  x\n=====  ==")  # a malformed table is reported


# ----------------------------------------------------------------------------- small Sphinx builds


def _mini_book(tmp_path: Path, chapter: dict, others: dict[str, dict] | None = None) -> tuple[int, str, Path]:
    """Build a small book (the chapter, ``others`` by file stem, the bibliography) with the book's configuration;
    (status, stderr, site)."""
    src = tmp_path / "src"
    (src / "notebooks").mkdir(parents=True)
    shutil.copy(ROOT / "book" / "references.bib", src)
    shutil.copy(ROOT / "book" / "references.md", src)
    (src / "notebooks" / "99_test.ipynb").write_text(json.dumps(chapter))
    for stem, nb in (others or {}).items():
        (src / "notebooks" / f"{stem}.ipynb").write_text(json.dumps(nb))
    toc = "".join(f"notebooks/{stem}\n" for stem in others or {})
    (src / "index.md").write_text(f"# Test\n\n```{{toctree}}\nnotebooks/99_test\n{toc}references\n```\n")
    site = tmp_path / "site"
    cmd = [sys.executable, "-m", "sphinx", "-b", "html", "-W", "--keep-going", "-q", "-E"]
    cmd += ["-c", str(ROOT / "book"), "-d", str(tmp_path / "doctrees"), str(src), str(site)]
    done = subprocess.run(cmd, capture_output=True, text=True)
    return done.returncode, done.stderr, site


def _chapter(*cells: dict) -> dict:
    nb = _nb()
    nb["cells"] = [_md("# 99 · A test chapter"), *cells]
    nb["metadata"] = {"kernelspec": {"name": "tdbook", "display_name": "Python (tdbook)", "language": "python"}}
    return nb


def test_a_widget_cell_and_prose_citations_render(tmp_path):
    widget = stored.clean(
        {"cells": [_code("panel(run, show)", 5, [], tags=["widget"])], "metadata": {}, "nbformat": 4}
    )["cells"][0]
    prose = _md("As Powell (2000) §4.3 shows, and Sutton & Barto's (1998) grid; the Kenju thesis.")
    status, err, site = _mini_book(tmp_path, _chapter(prose, widget))
    assert status == 0, err
    page = (site / "notebooks" / "99_test.html").read_text()
    cell = page[page.index('<div class="cell tag_widget') :]
    output = cell[cell.index('<div class="cell_output') : cell.index("</section>")]
    assert "<em>" in output and "_static/tdbook.css" in page  # a visible note, styled as one
    assert " ".join(html.unescape(re.sub(r"<[^>]+>", "", output)).split()) == stored.WIDGET_NOTE.replace("`", "")
    links = re.findall(r'<a class="reference internal" href="\.\./references\.html#([^"]+)"[^>]*>([^<]+)</a>', page)
    assert [html.unescape(t) for _, t in links] == ["Powell (2000)", "Sutton & Barto’s (1998)", "Kenju thesis"]
    bib_ids = set(re.findall(r'id="([^"]+)"', (site / "references.html").read_text()))
    assert all(target in bib_ids for target, _ in links)


#: a 1×1 PNG
_PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg=="


def test_a_markdown_table_output_figures_with_captions_and_math_render(tmp_path):
    """Issue 49 §1, §3, §6 on a small book: a markdown output's table renders, with its link to another chapter's
    ``.ipynb`` made a link to that chapter's page; a figure whose output records a caption shows it, with its alt
    text; one without gets alt text naming its section; math loads the MathJax shipped with the site."""
    import base64

    table = "| # | notebook |\n|---|---|\n| 98 | [The other one](98_other.ipynb) |\n"
    md_out = {"data": {"text/markdown": [table], "text/plain": ["<md>"]}, "metadata": {}, "output_type": "display_data"}
    red = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg=="

    def fig(png: str, meta: dict) -> dict:
        return {"data": {"image/png": png, "text/plain": ["<Figure>"]}, "metadata": meta, "output_type": "display_data"}

    caption = {"image/png": {"caption": "RMS error against α, one line per λ.", "alt": "RMS error against α. Lines."}}
    outputs = [md_out, fig(_PNG, caption), fig(red, {})]
    chapter = _chapter(_md("## Figures\n\nA formula: $x^2$."), _code("show()", 2, outputs))
    other = _chapter(_md("## Elsewhere"))
    other["cells"][0] = _md("# 98 · The other one")
    status, err, site = _mini_book(tmp_path, chapter, {"98_other": other})
    assert status == 0, err
    page = (site / "notebooks" / "99_test.html").read_text()
    assert "<table" in page and "|---|" not in page
    assert re.search(r'<a class="reference internal" href="98_other\.html"', page), page[page.index("<table") :][:800]
    assert "<figcaption>" in page and "RMS error against α, one line per λ." in page
    alts = [html.unescape(a) for a in re.findall(r'<img [^>]*alt="([^"]*)"', page)]
    assert alts == ["RMS error against α. Lines.", "A figure of the section “Figures”."]
    assert sphinxext.output_captions(chapter) == {
        hashlib.sha256(base64.b64decode(_PNG)).hexdigest(): caption["image/png"]
    }
    src = re.search(r'<script[^>]+src="([^"]*MathJax\.js)"', page).group(1)
    assert not src.startswith("http") and (site / "notebooks" / src).resolve().is_file()
    assert (site / "_static" / "mathjax" / "config" / "TeX-AMS-MML_HTMLorMML-full.js").is_file()


def test_a_broken_link_an_unresolved_citation_and_a_missing_image_fail_the_build(tmp_path):
    bad = _md("Tesauro (1995) says so. [A section](99_test.ipynb#no-such-section)\n\n![a figure](missing.png)")
    status, err, _ = _mini_book(tmp_path, _chapter(_md("## 1. Only section"), bad))
    assert status != 0
    assert "unresolved citation 'Tesauro (1995)'" in err
    assert "'no-such-section'" in err and "missing.png" in err


# ----------------------------------------------------------------------------- the whole book


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    """The book built once from the stored notebooks (a couple of minutes on two cores)."""
    out = tmp_path_factory.mktemp("book")
    assert build.build(out) == 0, "make book failed: see the output above"
    return build.site_dir(out)


def _ids(path: Path) -> set[str]:
    """Every id of a page (an output's raw HTML may quote it with ')."""
    return set(re.findall(r"""\bid=["']([^"']+)["']""", path.read_text()))


def test_every_scoreboard_link_reaches_an_anchor_of_the_section_that_checks_the_claim(site):
    page = (site / "scoreboard.html").read_text()
    links = re.findall(r'<a class="reference internal" href="(notebooks/[^"#]+)#([^"]+)"><span[^>]*>([^<]+)<', page)
    files = results.load_all("standard")
    assert len(links) == sum(len(f["claims"]) for f in files) > 0
    ids: dict[str, set[str]] = {}
    for target, anchor, _ in links:
        ids.setdefault(target, _ids(site / target))
        assert html.unescape(anchor) in ids[target], f"{target}#{anchor}"
    assert [html.unescape(t) for *_, t in links] == [c["id"] for f in files for c in f["claims"]]


def test_every_chapter_shows_every_stored_figure(site):
    for path in discover():
        nb = json.loads(path.read_text())
        pngs = sum("image/png" in o.get("data", {}) for c in nb["cells"] for o in c.get("outputs", []))
        page = site / "notebooks" / f"{path.stem}.html"
        imgs = re.findall(r'<img[^>]+src="([^"]+)"', page.read_text())
        assert len(imgs) == pngs, path.stem
        assert all((page.parent / src).is_file() for src in imgs)


def test_the_bibliography_and_the_reference_cover_everything(site):
    bib = (site / "references.html").read_text()
    labels = re.findall(r'<span class="label"><span class="fn-bracket">\[</span>(.*?)<span class="fn-bracket">', bib)
    assert [html.unescape(label) for label in labels] == [r.short for r in references.read()]
    for guide in ("training", "outputs", "adding-a-notebook"):
        assert (site / "guide" / f"{guide}.html").is_file()


# ----------------------------------------------------------------------------- issue 49: the site, offline and whole

#: How a link leaves the site (the crawl does not follow these).
_EXTERNAL = re.compile(r"^(?:[a-z][a-z0-9+.-]*:|//)", re.I)


def _pages(site: Path) -> list[Path]:
    return sorted(p for p in site.rglob("*.html") if not {"_static", "_sources", "_images"} & set(p.parts))


#: The attribute of a tag that names another file.
_REF = re.compile(r"""<(?:a|link|script|img|iframe|source)\b[^>]*?\b(?:href|src)=["']([^"']*)["']""")


def _links(page: str) -> list[str]:
    return [html.unescape(u) for u in _REF.findall(page)]


def test_every_internal_link_of_the_site_resolves(site):
    """Issue 49 §1: the only broken links of the site were chapter 00's nine links to ``0N_*.ipynb``.  Every link and
    asset of every page reaches a file of the site, and every ``#fragment`` an id of its page."""
    ids: dict[Path, set[str]] = {}
    broken, checked = [], 0
    for path in _pages(site):
        for url in _links(path.read_text(encoding="utf-8")):
            if not url or _EXTERNAL.match(url):
                continue
            target, _, fragment = url.split("?")[0].partition("#")
            dest = (path.parent / target).resolve() if target else path
            if dest.is_dir():
                dest = dest / "index.html"
            checked += 1
            if not dest.is_file() or not dest.is_relative_to(site.resolve()):
                broken.append(f"{path.relative_to(site)} → {url}")
            elif fragment and dest.suffix == ".html":
                if dest not in ids:
                    ids[dest] = _ids(dest) | set(re.findall(r"""\bname=["']([^"']+)["']""", dest.read_text()))
                if fragment not in ids[dest]:
                    broken.append(f"{path.relative_to(site)} → {url} (no such anchor)")
    assert checked > 10_000 and not broken, broken[:20]


def test_the_site_loads_nothing_from_another_host_and_ships_its_math_renderer(site):
    """Issue 49 §3: MathJax came from a CDN, so offline the formulas were raw LaTeX.  No page loads a script, style,
    font or image from another host; every page with a formula loads the MathJax copy shipped in ``_static/``, with
    the configuration and the files that configuration asks for."""
    remote = []
    with_math = 0
    for path in _pages(site):
        page = path.read_text(encoding="utf-8")
        tags = re.findall(r"<(?:script|link|img|iframe|source)\b[^>]*>", page)
        remote += [f"{path.relative_to(site)}: {t}" for t in tags if re.search(r'(?:src|href)="(?:https?:)?//', t)]
        if 'class="math' in page:
            with_math += 1
            src = re.search(r'<script[^>]+src="([^"]*mathjax/MathJax\.js)"', page)
            assert src and (path.parent / src.group(1)).is_file(), path
            assert "TeX-AMS-MML_HTMLorMML-full.js" in page and "text/x-mathjax-config" in page, path
    assert not remote, remote[:10]
    assert with_math >= 2  # notebooks 05 and 09 at least
    mj = site / "_static" / sphinxext.MATHJAX_DIR
    for f in ("config/TeX-AMS-MML_HTMLorMML-full.js", "jax/output/HTML-CSS/fonts/STIX-Web/fontdata.js",
              "fonts/HTML-CSS/STIX-Web/woff/STIXMathJax_Main-Regular.woff", "extensions/AssistiveMML.js",
              "jax/element/mml/optable/BasicLatin.js", "localization/en/en.js"):  # fmt: skip
        assert (mj / f).is_file(), f


def test_chapter_00_renders_its_table_with_links_to_the_chapters(site):
    """Issue 49 §1: chapter 00's table of notebooks showed as raw ``| # | notebook |`` text."""
    page = (site / "notebooks" / "00_index.html").read_text(encoding="utf-8")
    assert "| # |" not in page and "|---|" not in page
    table = page[page.index("<table") : page.index("</table>")]
    for path in discover()[1:]:
        assert f'href="{path.stem}.html"' in table, path.stem


def test_every_figure_has_alt_text_that_says_what_it_is(site):
    """Issue 49 §6: a figure's alt text was its hashed file name.  Every image of a chapter has alt text in words:
    its recorded caption and contents, or (a notebook stored before captions were recorded) its section; each
    figure whose output records a caption shows it."""
    for path in discover():
        page = (site / "notebooks" / f"{path.stem}.html").read_text(encoding="utf-8")
        for img in re.findall(r"<img\b[^>]*>", page):
            alt = html.unescape(re.search(r'alt="([^"]*)"', img).group(1))
            src = re.search(r'src="([^"]*)"', img).group(1)
            assert alt and Path(src).stem not in alt and " " in alt, (path.stem, img)
        nb = json.loads(path.read_text(encoding="utf-8"))
        for caption in (c["caption"] for c in sphinxext.output_captions(nb).values() if "caption" in c):
            assert caption in html.unescape(page), (path.stem, caption)  # Sphinx may escape quotes as &quot;


def test_the_reference_has_a_page_per_module_and_a_page_per_layer_listing_them(site):
    for page, names in api.pages().items():
        layer = (site / "api" / f"{page.slug}.html").read_text(encoding="utf-8")
        for name in names:
            assert f'href="{name}.html"' in layer, name
            assert f"module-{name}" in _ids(site / "api" / f"{name}.html"), name


def test_the_guides_are_in_reading_order():
    assert build.guide_order(["adding-a-notebook", "training", "zebra", "running", "outputs", "alpha"]) == [
        "running", "outputs", "training", "adding-a-notebook", "alpha", "zebra"
    ]  # fmt: skip


# ----------------------------------------------------------------------------- issue 49: in a real browser, offline

#: Once MathJax has typeset the page: how many formulas Sphinx marked, how many hold MathJax's rendering (with its
#: glyphs in the shipped web font), and whether any raw TeX delimiter is still on screen.
_MATH_STATE = """new Promise(done => MathJax.Hub.Queue(() => {
  const marked = [...document.querySelectorAll('span.math.notranslate, div.math.notranslate')];
  const shown = marked.filter(e => e.querySelector('.MathJax, .MathJax_Display'));
  const fonts = [...document.fonts].filter(f => f.status === 'loaded').map(f => f.family).join(' ');
  done({marked: marked.length, typeset: shown.length, stix: /STIXMathJax/.test(fonts),
        raw: /\\\\[()[\\]]/.test(document.querySelector('.bd-article').innerText)});
}))"""


@pytest.mark.skipif(browser.chromium() is None, reason="no Chromium here (CI installs none)")
def test_in_a_browser_offline_every_formula_renders_no_page_is_too_wide_and_nothing_fails_to_load(site):
    """Issue 49 §3, §5, §10 in headless Chromium with no network but the loopback (the site served on 127.0.0.1):
    every page loads with no failed request (the favicon included) and no console error; on every page with
    formulas MathJax typesets each of them in the font it ships and no raw ``\\(`` is left; no page is wider than
    the window at 1,400 px or at 390 px (a phone).  Every page but the package's module pages, of which the three
    largest (they share one layout)."""
    problems: list[str] = []
    typeset = 0
    modules = sorted(site.glob("api/tdbook.*.html"), key=lambda p: p.stat().st_size)
    pages = [p for p in _pages(site) if p not in modules] + modules[-3:]  # the module pages share one layout
    with browser.serve(site) as base, browser.Browser() as b:
        for path in pages:
            rel = path.relative_to(site).as_posix()
            b.open(base + rel, width=1400)
            if 'class="math' in path.read_text(encoding="utf-8"):
                b.until("window.MathJax && MathJax.isReady")
                m = b.eval(_MATH_STATE)
                typeset += m["typeset"]
                if m["marked"] == 0 or m["typeset"] != m["marked"] or m["raw"] or not m["stix"]:
                    problems.append(f"{rel}: math {m}")
            b.drain()
            problems += [f"{rel}: {f}" for f in b.failed_requests()]
            problems += [f"{rel}: console: {c}" for c in b.console_errors()]
            for width in (1400, 390):
                b.resize(width)
                sw, cw = b.eval("[document.documentElement.scrollWidth, document.documentElement.clientWidth]")
                if sw > cw:
                    problems.append(f"{rel}: {sw} px wide in a {cw} px window")
    assert typeset > 30 and not problems, problems[:20]
