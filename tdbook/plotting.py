"""One house style for every figure, and :func:`save`, which writes them reproducibly.

``save(fig, name)`` writes ``figures/<notebook>/<name>.png`` and ``.svg`` (under
``build/<profile>/`` for the quick and full profiles) with the metadata that would
change from run to run stripped, so identical data gives identical bytes; each file
is written to a temporary name and renamed, so an interrupted run never leaves a
half-written figure.
"""

from __future__ import annotations

import io
import re
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


def save(fig: Any, name: str, formats: Sequence[str] = ("png", "svg")) -> list[Path]:
    """Write ``fig`` as ``figures/<notebook>/<name>.<fmt>`` for the current notebook session.

    Returns the paths written, as a list whose display is one short line (the first file's path relative
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
