"""One house style for every figure, and :func:`save`, which writes them reproducibly.

``save(fig, name)`` writes ``figures/<notebook>/<name>.png`` and ``.svg`` (under
``build/<profile>/`` for the quick and full profiles) with the metadata that would
change from run to run stripped, so identical data gives identical bytes; each file
is written to a temporary name and renamed, so an interrupted run never leaves a
half-written figure.

Every saved figure carries a **caption** (what it shows, in one sentence) and **alt text** to its notebook
output, where the book (and any reader of the stored notebook) finds them: ``save(fig, name, caption=…)``, or by
default the first sentence of the docstring of the ``tdbook.plots`` function that drew it (recorded when the
figure is created: :data:`STYLE`'s ``figure.hooks``), or else the figure's own title.  The alt text is the caption
followed by what the figure holds, read off the figure itself (:func:`describe`: each panel's title, axes and
series).  They travel as the image output's metadata, ``{"image/png": {"caption": …, "alt": …}}``.
"""

from __future__ import annotations

import inspect
import io
import re
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import matplotlib
import matplotlib.pyplot as plt
import numpy as np

from .core.paths import figures_dir, repo_root
from .core.storage import atomic_write_bytes

#: Colour cycle (colour-blind safe, Okabe & Ito) used by every notebook.
PALETTE: tuple[str, ...] = (
    "#0072B2",
    "#D55E00",
    "#009E73",
    "#CC79A7",
    "#E69F00",
    "#56B4E9",
    "#F0E442",
    "#000000",
)

STYLE: dict[str, Any] = {
    "figure.figsize": (6.4, 4.0),
    "figure.dpi": 100,
    "savefig.dpi": 110,
    "savefig.bbox": "tight",
    "font.size": 10,
    "axes.titlesize": 11,
    "axes.labelsize": 10,
    "axes.grid": True,
    "grid.alpha": 0.3,
    "axes.spines.top": False,
    "axes.spines.right": False,
    "axes.prop_cycle": matplotlib.cycler(color=list(PALETTE)),
    "legend.frameon": False,
    "legend.fontsize": 8,
    "lines.linewidth": 1.6,
    "svg.hashsalt": "tdbook",  # deterministic SVG element ids
    "svg.fonttype": "path",
    "image.cmap": "viridis",
    "figure.hooks": ["tdbook.plotting:remember_maker"],  # a figure's caption: the docstring of what drew it
}

NAME_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]*$")


def use_style() -> None:
    """Apply the house style to matplotlib's global settings."""
    matplotlib.rcParams.update(STYLE)


use_style()  # importing the house figure module sets the house style (the notebooks and tdbook.plots do)


def band(
    ax: Any,
    x: Sequence[float],
    mean: Sequence[float],
    halfwidth: Sequence[float] | None = None,
    label: str | None = None,
    **kw: Any,
) -> Any:
    """A line with an optional shaded confidence band (mean ± halfwidth)."""
    (line,) = ax.plot(x, mean, label=label, **kw)
    if halfwidth is not None:
        m, h = np.asarray(mean, float), np.asarray(halfwidth, float)
        ax.fill_between(x, m - h, m + h, color=line.get_color(), alpha=0.2, linewidth=0)
    return line


def _render(fig: Any, fmt: str) -> bytes:
    buf = io.BytesIO()
    meta = {"Software": None} if fmt == "png" else {"Date": None, "Creator": None}
    fig.savefig(buf, format=fmt, metadata=meta)
    return buf.getvalue()


# ----------------------------------------------------------------------------- captions and alt text

#: The attribute of a figure holding the caption it was given (or the docstring of the function that drew it).
CAPTION_ATTR = "_tdbook_caption"
_MARKUP = re.compile(r":\w+(?::\w+)?:`~?([^`<]*?)\s*(?:<[^`]*>)?`|``([^`]*)``|`([^`]*)`|\*\*?([^*]+)\*\*?")


def _plain(text: str) -> str:
    """``text`` with reST inline markup dropped and whitespace collapsed."""
    return " ".join(_MARKUP.sub(lambda m: next(g for g in m.groups() if g is not None), text).split())


def _sentence(text: str) -> str:
    text = text.strip()
    return text if not text or text[-1] in ".!?" else text + "."


#: Abbreviations after which a full stop does not end a sentence (the documents' own: "Fig. 4.3", "App. B").
_ABBREVIATIONS = ("Fig", "Figs", "App", "Tab", "Eq", "Sec", "ch", "cf", "e.g", "i.e", "vs", "No", "al")
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z“\"(`:])")  # the next sentence may open with ``code`` or a role


def first_sentence(text: str) -> str:
    """The first sentence of ``text`` (a full stop after an abbreviation such as "Fig." or "App." ends none)."""
    text = " ".join(text.split())
    for m in _SENTENCE_END.finditer(text):
        before = text[: m.start()]
        word = before.rstrip(".!?").rsplit(" ", 1)[-1].lstrip("(")
        if word not in _ABBREVIATIONS:
            return before
    return text


#: Where a docstring's first sentence goes on to document an argument in line ("…; groups = [(title, …)]").
_ARGUMENT_NOTE = re.compile(r";\s+``?\w+``?\s*=.*$")


def doc_caption(obj: Any) -> str:
    """The first sentence of ``obj``'s docstring, without an argument's note, as a caption ("" when it has none)."""
    doc = inspect.getdoc(obj) or ""
    return _sentence(_plain(_ARGUMENT_NOTE.sub("", first_sentence(doc.split("\n\n")[0]))))


def remember_maker(fig: Any) -> None:
    """matplotlib's ``figure.hooks``, run on every figure pyplot creates: the figure's notebook output will carry its
    caption and alt text (:func:`carry_caption`), and when a public function of ``tdbook.plots`` created it (the
    outermost such function on the stack, the one a notebook called), the caption is the first sentence of that
    function's docstring unless one is given later (:func:`set_caption`, ``save(caption=…)``)."""
    found = None
    frame = sys._getframe(1)
    while frame is not None:
        module, name = frame.f_globals.get("__name__", ""), frame.f_code.co_name
        if module.startswith("tdbook.plots.") and not name.startswith("_"):
            found = frame.f_globals.get(name)
        frame = frame.f_back
    text = doc_caption(found) if found is not None else ""
    if text:
        setattr(fig, CAPTION_ATTR, text)
    carry_caption(fig)


def set_caption(fig: Any, text: str) -> Any:
    """Give ``fig`` its caption (one sentence saying what it shows); returns ``fig``."""
    if not isinstance(text, str) or not text.strip():
        raise ValueError(f"a caption is a sentence, got {text!r}")
    setattr(fig, CAPTION_ATTR, _sentence(_plain(text)))
    return fig


def _titles(fig: Any) -> list[str]:
    sup = getattr(fig, "_suptitle", None)
    found = [sup.get_text()] if sup is not None and sup.get_text().strip() else []
    return found + [ax.get_title() for ax in fig.axes if ax.get_title().strip()]


def describe(fig: Any) -> str:
    """What ``fig`` holds, read off the figure: its title, each panel's title, axes' labels and labelled series."""
    sup = getattr(fig, "_suptitle", None)
    parts = [f"Titled “{sup.get_text().strip()}”"] if sup is not None and sup.get_text().strip() else []
    panels = [ax for ax in fig.axes if ax.get_label() != "<colorbar>" and ax.axison]
    for i, ax in enumerate(panels):
        bits = []
        if ax.get_title().strip():
            bits.append(f"“{ax.get_title().strip()}”")
        x, y = ax.get_xlabel().strip(), ax.get_ylabel().strip()
        if x or y:
            bits.append(f"{y or 'values'} against {x or 'position'}" if y else f"along {x}")
        _, labels = ax.get_legend_handles_labels()
        labels = [lab for lab in labels if lab and not lab.startswith("_")]
        if labels:
            bits.append("series " + ", ".join(labels[:8]) + (", …" if len(labels) > 8 else ""))
        if ax.images:
            bits.append("a colour map")
        if bits:
            where = f"panel {i + 1} of {len(panels)}: " if len(panels) > 1 else ""
            parts.append(where + "; ".join(bits))
    return _sentence(". ".join(p[:1].upper() + p[1:] for p in parts)) if parts else ""


def caption_of(fig: Any, name: str = "") -> str:
    """``fig``'s caption: the one given or recorded (:func:`set_caption`, :func:`remember_maker`), else its title, else
    its file name in words."""
    given = getattr(fig, CAPTION_ATTR, None)
    if given:
        return given
    titles = _titles(fig)
    if titles:
        return _sentence(_plain("; ".join(titles)))
    return _sentence(name.replace("_", " ").strip().capitalize()) if name else "A figure."


#: The attribute of a figure holding the name :func:`save` gave it (the last resort of its caption).
NAME_ATTR = "_tdbook_name"


def caption_metadata(fig: Any) -> dict[str, dict[str, str]]:
    """The metadata of ``fig``'s image output: ``{"image/png": {"caption": …, "alt": …}}``."""
    text = caption_of(fig, getattr(fig, NAME_ATTR, ""))
    return {"image/png": {"caption": text, "alt": _sentence(f"{text} {describe(fig)}".strip())}}


def carry_caption(fig: Any) -> Any:
    """Make IPython's display of ``fig`` (the inline image a notebook shows) carry :func:`caption_metadata` as read
    when it is shown; the image itself is IPython's as before.  Returns ``fig``."""

    def bundle(include: Any = None, exclude: Any = None) -> tuple[dict, dict]:
        return {}, caption_metadata(fig)

    fig._repr_mimebundle_ = bundle
    return fig


def save(fig: Any, name: str, formats: Sequence[str] = ("png", "svg"), *, caption: str | None = None) -> list[Path]:
    """Write ``fig`` as ``figures/<notebook>/<name>.<fmt>`` for the current notebook session.

    ``caption`` (one sentence: what the figure shows) defaults to the docstring of the ``tdbook.plots`` function
    that drew it, else the figure's title; the figure's output in the notebook carries it with alt text (module
    docstring).  Returns the paths written, as a list whose display is one short line (the first file's path relative
    to the checkout, e.g. ``figures/05_random_walk/fig4_3.png (+svg)`` in a recording run and
    ``build/quick/figures/…`` in a quick one; absolute outside the checkout), so a cell that ends with
    ``plotting.save(...)`` shows no list of absolute paths.  The notebook and profile come from
    :func:`tdbook.results.start`.
    """
    from .results import current

    if not isinstance(name, str) or not NAME_RE.match(name):
        raise ValueError(f"figure name must be a plain file stem (letters, digits, _.-), got {name!r}")
    for f in formats:
        if f not in ("png", "svg", "pdf"):
            raise ValueError(f"unknown figure format {f!r}; choose from png, svg, pdf")
    if caption is not None:
        set_caption(fig, caption)
    setattr(fig, NAME_ATTR, name)
    carry_caption(fig)  # also a figure made without pyplot
    s = current()
    out = figures_dir(s.profile, s.notebook)
    paths = Saved(root=repo_root())  # shown relative to the checkout: where the file actually went
    with matplotlib.rc_context({"svg.hashsalt": "tdbook", "path.simplify": True}):
        for f in formats:
            p = out / f"{name}.{f}"
            atomic_write_bytes(p, _render(fig, f))
            paths.append(p)
    return paths


class Saved(list):
    """The files :func:`save` wrote; shown as one short relative path."""

    def __init__(self, *args: Any, root: Path) -> None:
        super().__init__(*args)
        self.root = root

    def __repr__(self) -> str:
        if not self:
            return "(no figure written)"
        first = self[0]
        try:
            first = first.relative_to(self.root)
        except ValueError:
            pass
        more = "".join(f"+{p.suffix[1:]}" for p in self[1:])
        return f"{first}" + (f" ({more})" if more else "")


def close(fig: Any) -> None:
    plt.close(fig)


# ----------------------------------------------------------------------------- the algorithm on the page


class Listing:
    """Package source shown in a chapter: each function (or method) under a line naming its file, as a Python code
    block — Markdown, which JupyterLab highlights and the book renders with the site's code style — and as plain
    text in a terminal.  Read from the running package (:func:`inspect.getsource`), never pasted."""

    def __init__(self, parts: Sequence[tuple[str, str, str]]) -> None:
        self.parts = list(parts)  # (file relative to the package's parent, qualified name, source)

    def _repr_markdown_(self) -> str:
        out = []
        for where, name, code in self.parts:
            fence = "`" * max(3, 1 + max((len(m) for m in re.findall(r"`+", code)), default=0))
            out.append(f"`{name}` — `{where}`\n\n{fence}python\n{code.rstrip()}\n{fence}")
        return "\n\n".join(out)

    def __repr__(self) -> str:
        return "\n\n".join(f"# {name} — {where}\n{code.rstrip()}" for where, name, code in self.parts)


def listing(*objects: Any) -> Listing:
    """The source of ``objects`` — tdbook functions, methods or classes (a jitted kernel shows its Python source) —
    for a chapter to show the rule it is about (:class:`Listing`).  ValueError for an object that is not tdbook's
    or has no source."""
    import inspect
    import textwrap

    if not objects:
        raise ValueError("listing: name at least one function to show")
    package = Path(__file__).resolve().parent
    parts = []
    for obj in objects:
        fn = getattr(obj, "py_func", obj)  # a numba dispatcher: its Python function
        module = getattr(fn, "__module__", None) or ""
        if not module.startswith("tdbook"):
            raise ValueError(f"listing shows tdbook's own code, not {obj!r}")
        try:
            code = textwrap.dedent(inspect.getsource(fn))
            path = Path(inspect.getsourcefile(fn) or "").resolve()
        except (OSError, TypeError) as e:
            raise ValueError(f"listing: no source for {obj!r} ({e})") from None
        parts.append((path.relative_to(package.parent).as_posix(), f"{module}.{fn.__qualname__}", code))
    return Listing(parts)
