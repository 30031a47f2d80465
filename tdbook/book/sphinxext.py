"""The book's Sphinx extension: the notebooks' prose citations resolved to the bibliography, and its look.

**Citations without markup.**  The notebooks cite as a paper does, by short name: "Powell (2000) §4.3",
"Samuel (1973 note)", "the Kenju thesis".  Every short name is the ``shortname`` field of an entry of
``references.bib`` (generated from ``REFERENCES.md``, :mod:`tdbook.book.references`).  When a page is read,
:func:`cite_short_names` finds each short name (or its possessive, "Sutton & Barto's (1998)") in the page's
prose — never in code, literal text, headings or existing links — and makes it a citation of that entry, as
sphinxcontrib-bibtex's ``{cite:p}`` role would; sphinxcontrib-bibtex resolves it to the bibliography page
(an unknown key is its warning, so an error here), and :class:`KeepCitedText` then puts the prose's own words
back as the link's text.  Text that looks like an author–year citation ("Tesauro (1995)") but is no short
name is an *unresolved citation*: a warning, so the build fails until ``REFERENCES.md`` lists the work.
Pages under ``api/`` (docstrings) are linked but not checked.

**Docstrings** are written as plain text with reST's inline markup (``code``, :func:`roles`), where ``|x|`` is
an absolute value and a lone ``*`` a wildcard: :func:`docstring_as_rest` makes those literal, and shows a
docstring that is still not valid reST verbatim (a note in the build's output says which), so the package
reference never fails on another module's prose while every other warning still does.

**The bibliography** is rendered by the pybtex style ``tdbook``: each entry labelled by its short name and
described as ``REFERENCES.md`` describes it (its ``note``).

**Figures with captions.**  A figure a notebook shows carries its caption and alt text as the metadata of its
PNG output (:mod:`tdbook.plotting`); :func:`figure_captions` finds each image of a chapter by the bytes myst-nb
names it by, gives it that alt text and wraps it in a figure with that caption.  A figure stored before captions
were recorded gets the alt text "A figure of the section …" and no caption (rerun the notebook for its own).

**Math with no network.**  The formulas are typeset in the reader's browser by the copy of MathJax (2.7, HTML-CSS
output with the STIX-Web fonts it ships) that the pinned package ``jupyter-server-mathjax`` ships; :func:`copy_mathjax`
puts the files it needs under ``_static/mathjax/`` of the site, and ``book/conf.py`` points Sphinx at it with
:data:`MATHJAX_CONFIG`.  Nothing of the site is loaded from another host (``tests/test_book.py`` checks).
"""

from __future__ import annotations

import base64
import hashlib
import io
import json
import re
import shutil
import sys
import warnings
from pathlib import Path
from typing import Any

from docutils import nodes
from docutils.frontend import get_default_settings
from docutils.parsers.rst import Parser
from docutils.utils import new_document
from pybtex.database import parse_file
from pybtex.plugin import register_plugin
from pybtex.richtext import Tag, Text
from pybtex.style.formatting import BaseStyle
from pybtex.style.labels import BaseLabelStyle
from pybtex.style.sorting import BaseSortingStyle
from sphinx import addnodes
from sphinx.application import Sphinx
from sphinx.transforms.post_transforms import SphinxPostTransform
from sphinx.util import logging
from sphinxcontrib.bibtex.citation_target import CitationTarget
from sphinxcontrib.bibtex.roles import CitationRef

from .references import note_parts, plain

logger = logging.getLogger(__name__)

#: The page that holds the bibliography (its own text is not scanned for citations).
BIBLIOGRAPHY_DOC = "references"
#: Pages whose prose is linked but not checked for unresolved citations (docstrings).
UNCHECKED_PREFIX = "api/"

#: Text that reads as an author–year citation: capitalised names (``X``, ``X & Y``, ``X, Y & Z``, ``X et al.``),
#: an optional possessive, and a parenthesis opening with a year.
LOOKS_CITED = re.compile(
    r"(?<![\w])[A-Z][\w\-]*(?:(?:, | & | and )[A-Z][\w\-]*)*(?: et al\.)?(?:'s|’s)? \((?:1[5-9]|20)\d\d[^()]*\)"
)
#: Elements whose text is never a citation.
SKIP = (
    nodes.literal,
    nodes.literal_block,
    nodes.FixedTextElement,
    nodes.reference,
    nodes.title,
    nodes.raw,
    nodes.math,
    nodes.math_block,
    nodes.target,
    nodes.citation,
    nodes.label,
    addnodes.pending_xref,
    addnodes.desc_signature,
)


def short_names(bibfile: Path) -> dict[str, str]:
    """{short name as cited: BibTeX key} from ``bibfile``'s ``shortname`` fields."""
    out = {}
    for key, entry in parse_file(str(bibfile), "bibtex").entries.items():
        if "shortname" not in entry.fields:
            raise ValueError(f"{bibfile}: entry {key} has no shortname field (regenerate it: make bib)")
        out[plain(entry.fields["shortname"])] = key
    return out


def citation_pattern(names: dict[str, str]) -> re.Pattern[str]:
    """A regex matching any short name (longest first), or ``Name's (year)`` for ``Name (year)``."""
    alts = []
    for name in sorted(names, key=len, reverse=True):
        m = re.fullmatch(r"(.+?) (\(.+\))", name)
        if m:
            alts.append(re.escape(m.group(1)) + r"(?:'s|’s)? " + re.escape(m.group(2)))
        else:
            alts.append(re.escape(name))
    return re.compile(r"(?<![\w])(" + "|".join(alts) + r")(?![\w])")


def canonical(text: str) -> str:
    """The short name a matched citation stands for (the possessive dropped)."""
    return re.sub(r"(?:'s|’s) \(", " (", text)


def _skipped(node: nodes.Node) -> bool:
    parent = node.parent
    while parent is not None:
        if isinstance(parent, SKIP):
            return True
        parent = parent.parent
    return False


def _citation(app: Sphinx, doctree: nodes.document, text: str, key: str, line: int | None) -> nodes.Node:
    """A sphinxcontrib-bibtex citation of ``key`` (as its ``{cite:p}`` role makes one), shown as ``text``."""
    xref = addnodes.pending_xref(text, refdomain="cite", reftype="p", reftarget=key, refexplicit=True)
    xref += nodes.inline(text, text)
    doctree.note_explicit_target(xref, xref)  # an id, for the bibliography's back-references
    domain = app.env.get_domain("cite")
    domain.citation_refs.append(  # type: ignore[attr-defined]
        CitationRef(xref["ids"][0], app.env.docname, line or 0, [CitationTarget(key, "", "")])
    )
    return nodes.inline("", "", xref, classes=["tdbook-cite"], tdbook_text=text)


def cite_short_names(app: Sphinx, doctree: nodes.document) -> None:
    """Turn every short name in the page's prose into a citation; warn on text that looks cited but is not."""
    docname = app.env.docname
    if docname == BIBLIOGRAPHY_DOC:
        return
    names, pattern = _SHORT_NAMES, _PATTERN[0]
    check = not docname.startswith(UNCHECKED_PREFIX)
    for text_node in list(doctree.findall(nodes.Text)):
        if _skipped(text_node):
            continue
        text = str(text_node)
        pieces: list[nodes.Node] = []
        pos = 0
        for m in pattern.finditer(text):
            if check:
                _unresolved(text[pos : m.start()], text_node)
            if m.start() > pos:
                pieces.append(nodes.Text(text[pos : m.start()]))
            pieces.append(_citation(app, doctree, m.group(0), names[canonical(m.group(0))], text_node.parent.line))
            pos = m.end()
        if check:
            _unresolved(text[pos:], text_node)
        if pieces:
            if pos < len(text):
                pieces.append(nodes.Text(text[pos:]))
            text_node.parent.replace(text_node, pieces)


def _unresolved(text: str, node: nodes.Node) -> None:
    for m in LOOKS_CITED.finditer(text):
        logger.warning(
            f"unresolved citation {m.group(0)!r}: no work in REFERENCES.md has this short name "
            "(add the work there, with this short name, and run `make bib`)",
            location=node.parent,
            type="tdbook",
            subtype="citation",
        )


class KeepCitedText(SphinxPostTransform):
    """After sphinxcontrib-bibtex resolved a prose citation, show the prose's words as the link's text."""

    default_priority = 20  # after ReferencesResolver (10)

    def run(self, **kwargs: Any) -> None:
        for wrapper in list(self.document.findall(nodes.inline)):
            if "tdbook-cite" not in wrapper["classes"]:
                continue
            text = wrapper["tdbook_text"]
            refs = list(wrapper.findall(nodes.reference))
            if refs:
                ref = refs[0]
                ref.children = []
                ref += nodes.Text(text)
                wrapper.children = []
                wrapper += ref
            else:  # unresolved: sphinxcontrib-bibtex has warned; keep the words
                wrapper.children = [nodes.Text(text)]


# ----------------------------------------------------------------------------- docstrings

_INLINE_LITERAL = re.compile(r"(``.+?``|:\w+:`[^`]*`)")
_TABLE_BORDER = re.compile(r"^\s*=+(\s+=+)+\s*$")


def _word(ch: str) -> bool:
    return ch.isalnum() or ch == "_"


def _literal_marks(line: str) -> str:
    """``line`` with ``|`` and lone ``*`` escaped outside inline literals and roles.  A ``*`` is kept when it is
    markup: next to another ``*`` or after ``\\``, opening emphasis (before a word, not after one), closing it
    (after a word, or after other non-space text while an emphasis of the line is open: ``*V(x)*:``), or the
    bullet of a list item (first on the line, then a space)."""
    parts = _INLINE_LITERAL.split(line)
    emphasis = False
    for i in range(0, len(parts), 2):  # even parts are outside literals
        text, out = parts[i].replace("|", r"\|"), []
        for j, ch in enumerate(text):
            prev, nxt = text[j - 1] if j else "", text[j + 1 : j + 2]
            if ch != "*" or prev in ("*", "\\") or nxt == "*":
                out.append(ch)
            elif _word(nxt) and not _word(prev):
                emphasis = True
                out.append(ch)
            elif _word(prev) or (emphasis and prev and not prev.isspace()):
                emphasis = False
                out.append(ch)
            elif i == 0 and not text[:j].strip() and nxt == " ":
                out.append(ch)
            else:
                out.append(r"\*")
        parts[i] = "".join(out)
    return "".join(parts)


def escape_docstring(lines: list[str]) -> list[str]:
    """The docstring ``lines`` with absolute values and wildcards made literal; literal blocks and simple tables
    (a paragraph that starts with a ``===  ===`` border, whose column widths an escape would break) are kept."""
    out: list[str] = []
    literal_indent: int | None = None
    in_table = False
    for i, line in enumerate(lines):
        indent = len(line) - len(line.lstrip())
        if not line.strip():
            in_table = False
        elif _TABLE_BORDER.match(line) and (i == 0 or not lines[i - 1].strip()):
            in_table = True
        if literal_indent is not None and line.strip() and indent <= literal_indent:
            literal_indent = None
        out.append(line if literal_indent is not None or in_table else _literal_marks(line))
        if line.rstrip().endswith("::"):
            literal_indent = indent
    return out


def rest_problems(text: str, env: Any = None) -> list[str]:
    """The warnings and errors docutils reports parsing ``text`` as reST (inside Sphinx, give its ``env``: the
    roles Sphinx registered are then known)."""
    settings = get_default_settings(Parser)
    settings.report_level, settings.halt_level, settings.warning_stream = 5, 5, io.StringIO()
    settings.env = env
    document = new_document("<docstring>", settings)
    found: list[str] = []
    document.reporter.attach_observer(lambda msg: found.append(msg.astext()) if msg["level"] >= 2 else None)
    Parser().parse(text, document)
    return found


def docstring_as_rest(app: Sphinx, what: str, name: str, obj: Any, options: Any, lines: list[str]) -> None:
    """autodoc's hook: escape ``|`` and lone ``*`` (:func:`escape_docstring`); a docstring that still is not valid
    reST is shown as a literal block, and the build's output names it."""
    home = getattr(obj, "__module__", None) if what != "module" else name
    if not name.startswith("tdbook") or (isinstance(home, str) and not home.startswith("tdbook")):
        return  # another package's object (autodoc reads imported names' docstrings too, then skips them)
    fixed = escape_docstring(lines)
    problems = rest_problems("\n".join(fixed), app.env)
    if problems:
        first = problems[0].splitlines()[0]
        print(f"book: the docstring of {name} is not valid reST ({first}); shown verbatim", file=sys.stderr)
        fixed = ["::", ""] + ["    " + line for line in lines] + [""]
    lines[:] = fixed


# ----------------------------------------------------------------------------- the bibliography's style


class ShortNameLabels(BaseLabelStyle):
    """Each entry labelled by the short name the notebooks cite it by."""

    def format_labels(self, sorted_entries):  # noqa: ANN001, ANN201 (pybtex's interface)
        for entry in sorted_entries:
            yield plain(entry.fields["shortname"])


class FileOrder(BaseSortingStyle):
    """Entries in the .bib's order, which is REFERENCES.md's: the five documents first."""

    def sorting_key(self, entry):  # noqa: ANN001, ANN201 (pybtex's interface)
        order = list(_SHORT_NAMES.values())
        return order.index(entry.key) if entry.key in order else len(order)


class DescriptionStyle(BaseStyle):
    """Each entry as REFERENCES.md describes it: its ``note``, with emphasis and code kept."""

    default_label_style = "tdbook"
    default_sorting_style = "tdbook"

    def format_entry(self, label, entry, bib_data=None):  # noqa: ANN001, ANN201 (pybtex's interface)
        from pybtex.style import FormattedEntry

        parts = [Tag(style, text) if style else Text(text) for style, text in note_parts(entry.fields["note"])]
        return FormattedEntry(entry.key, Text(*parts), label)


#: The bibliography's short names → keys (in the .bib's order) and their pattern, read when the builder starts.
_SHORT_NAMES: dict[str, str] = {}
_PATTERN: list[re.Pattern[str]] = []


def _load(app: Sphinx) -> None:
    names = short_names(Path(app.srcdir) / app.config.bibtex_bibfiles[0])
    _SHORT_NAMES.clear()
    _SHORT_NAMES.update(names)
    _PATTERN[:] = [citation_pattern(names)]


def _quiet(*_: Any) -> None:
    """Hide the deprecation notices of the theme, MyST and ipywidgets (theirs to act on, not ours).  Set again
    after every page, because a module autodoc imports (pydraughts) resets the filters when it loads."""
    warnings.filterwarnings("ignore", category=DeprecationWarning)
    warnings.filterwarnings("ignore", category=PendingDeprecationWarning)


# ----------------------------------------------------------------------------- figures: captions and alt text

#: The prefix of the pages that are notebooks (chapters).
CHAPTER_PREFIX = "notebooks/"


def output_captions(nb: dict[str, Any]) -> dict[str, dict[str, str]]:
    """{SHA-256 of a PNG output's bytes (the name myst-nb gives its file): its ``{"caption", "alt"}`` metadata}."""
    found = {}
    for cell in nb.get("cells", []):
        for out in cell.get("outputs", []):
            png = out.get("data", {}).get("image/png")
            meta = (out.get("metadata") or {}).get("image/png") or {}
            if png is None or not (meta.get("caption") or meta.get("alt")):
                continue
            raw = base64.b64decode("".join(png) if isinstance(png, list) else png)
            found[hashlib.sha256(raw).hexdigest()] = {k: str(meta[k]) for k in ("caption", "alt") if meta.get(k)}
    return found


def _section_title(node: nodes.Node) -> str:
    while node is not None and not isinstance(node, nodes.section):
        node = node.parent
    if node is None:
        return ""
    titles = [c for c in node.children if isinstance(c, nodes.title)]
    return titles[0].astext() if titles else ""


def figure_captions(app: Sphinx, doctree: nodes.document) -> None:
    """Give every image of a chapter its caption and alt text from the notebook's outputs (module docstring)."""
    docname = app.env.docname
    if not docname.startswith(CHAPTER_PREFIX):
        return
    source = Path(app.env.doc2path(docname))
    if source.suffix != ".ipynb":
        return
    known = output_captions(json.loads(source.read_text(encoding="utf-8")))
    for image in list(doctree.findall(nodes.image)):
        if isinstance(image.parent, nodes.figure):
            continue
        meta = known.get(Path(image["uri"]).stem, {})
        where = _section_title(image)
        image["alt"] = meta.get("alt") or meta.get("caption") or f"A figure of the section “{where}”."
        text = meta.get("caption")
        if not text:
            continue
        figure = nodes.figure("", classes=["tdbook-figure"])
        image.replace_self(figure)
        figure += image
        figure += nodes.caption(text, text)
        doctree.set_id(figure, suggested_prefix="figure")  # Sphinx numbers captioned figures by their ids


# ----------------------------------------------------------------------------- math, shipped with the site

#: Where MathJax goes in the site (under ``_static/``) and the script Sphinx loads (``mathjax_path``).
MATHJAX_DIR = "mathjax"
MATHJAX_PATH = f"{MATHJAX_DIR}/MathJax.js"
#: MathJax 2's configuration, as the copy shipped for Jupyter is made to run: its combined configuration file (TeX
#: in; HTML-CSS out with the STIX-Web fonts it ships, so no font is fetched from another host), only the math Sphinx
#: marks (MyST puts ``mathjax_ignore`` on each page and ``math`` on each formula), lines broken to fit a narrow
#: window, MathML beside each formula for screen readers, and no "loading" messages.
MATHJAX_CONFIG: dict[str, Any] = {
    "config": ["TeX-AMS-MML_HTMLorMML-full.js"],
    "extensions": ["AssistiveMML.js"],
    "tex2jax": {
        "inlineMath": [["\\(", "\\)"]],
        "displayMath": [["\\[", "\\]"]],
        "processEscapes": False,
        "processClass": "tex2jax_process|mathjax_process|math|output_area",
        "ignoreClass": "tex2jax_ignore|mathjax_ignore",
    },
    "MMLorHTML": {"prefer": "HTML"},
    "HTML-CSS": {
        "availableFonts": [],
        "webFont": "STIX-Web",
        "imageFont": None,
        "linebreaks": {"automatic": True},
    },
    "messageStyle": "none",
}
#: What that configuration never loads: the SVG output's fonts (the copy has no SVG output), the accessibility
#: explorer's speech maps, the menu's translations other than English.
_MATHJAX_UNUSED = ("jax/output/SVG", "extensions/a11y")


def mathjax_source() -> Path:
    """The MathJax files of the pinned ``jupyter-server-mathjax``."""
    import jupyter_server_mathjax

    return Path(jupyter_server_mathjax.__file__).parent / "static"


def _mathjax_unused(src: Path) -> Any:
    def ignore(folder: str, names: list[str]) -> list[str]:
        rel = Path(folder).relative_to(src).as_posix()
        rel = "" if rel == "." else rel + "/"
        skip = [n for n in names if f"{rel}{n}" in _MATHJAX_UNUSED]
        if rel == "localization/":
            skip += [n for n in names if n != "en"]
        return skip

    return ignore


def copy_mathjax(app: Sphinx, exc: Exception | None) -> None:
    """Copy MathJax into the site's ``_static/mathjax/`` (what is there already is kept)."""
    if exc is not None or app.builder.format != "html":
        return
    src = mathjax_source()
    shutil.copytree(src, Path(app.outdir) / "_static" / MATHJAX_DIR, ignore=_mathjax_unused(src), dirs_exist_ok=True)


def _mathjax2_only(app: Sphinx) -> None:
    """MyST writes its class filter into Sphinx's MathJax 3/4 configuration; the book's MathJax is 2 and gets the
    same filter from :data:`MATHJAX_CONFIG`, so that configuration is dropped (it would be read as MathJax 2's)."""
    for name in ("mathjax3_config", "mathjax4_config"):
        if hasattr(app.config, name):
            setattr(app.config, name, None)


def setup(app: Sphinx) -> dict[str, Any]:
    register_plugin("pybtex.style.labels", "tdbook", ShortNameLabels)
    register_plugin("pybtex.style.sorting", "tdbook", FileOrder)
    register_plugin("pybtex.style.formatting", "tdbook", DescriptionStyle)
    app.connect("builder-inited", _load)
    for event in ("builder-inited", "doctree-read", "env-updated"):
        app.connect(event, _quiet)
    app.connect("doctree-read", cite_short_names)
    app.connect("doctree-read", figure_captions, priority=600)  # after the citations: a caption is not prose
    app.connect("autodoc-process-docstring", docstring_as_rest)
    app.add_post_transform(KeepCitedText)
    app.add_css_file("tdbook.css")
    app.connect("builder-inited", _mathjax2_only, priority=900)  # after MyST's own (priority 500)
    app.connect("build-finished", copy_mathjax)
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}
