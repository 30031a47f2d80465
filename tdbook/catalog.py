"""The collection: which notebook re-runs which document (notebook numbers are fixed)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from .core.paths import repo_root


@dataclass(frozen=True)
class Document:
    """A source document: its short citation (used everywhere), title, year, kind and where it comes from."""

    key: str  # file stem of its claims data, tdbook/claims/<key>.toml
    citation: str
    title: str
    year: str
    kind: str
    origin: str


@dataclass(frozen=True)
class Entry:
    number: str
    title: str
    document: str  # Document.key
    sections: str  # what of the document the notebook reproduces
    minutes: float = 5.0  # about how long its standard profile runs on one core (orders parallel runs)


#: The five documents the collection re-runs (REFERENCES.md gives the full citations).
DOCUMENTS: dict[str, Document] = {
    d.key: d
    for d in (
        Document(
            "samuel1973",
            "Samuel (1973 note)",
            "a note on the signature tables of Samuel's checkers program",
            "1973",
            "technical note",
            "Stanford AI Laboratory file EXERP[7,ALS], dated 1973-03-28",
        ),
        Document(
            "gammon2011",
            "Symmetric gammon post (2011)",
            "a backgammon net whose gammon outputs respect board-flip symmetry",
            "2011",
            "blog post",
            "a post of a backgammon-programming blog; the text does not name its author",
        ),
        Document(
            "kenju",
            "Kenju thesis",
            "a learning player for Kenju (free-style five-in-a-row) with a teacher",
            "early 1980s",
            "thesis",
            "the text names neither its author nor its institution",
        ),
        Document(
            "waterman1968",
            "Waterman (1968)",
            "Machine Learning of Heuristics",
            "1968",
            "Ph.D. dissertation",
            "Stanford University, Computer Science Dept., report CS 118 / AI Memo 74 (DDC AD 681027)",
        ),
        Document(
            "powell2000",
            "Powell (2000)",
            "Reinforcement Learning in Game Play",
            "2000",
            "M.S. thesis",
            "University of Colorado at Denver, Computer Science",
        ),
    )
}

ENTRIES: tuple[Entry, ...] = (
    Entry("00", "Index and reproduction scoreboard", "", "every notebook's claims", 0.1),
    Entry("01", "Samuel's signature tables", "samuel1973", "the whole note: 27 terms, 9 → 3 → 1 tables, A/D counts", 5),
    Entry("02", "Samuel's checkers polynomial", "powell2000", "ch. 3, §4.1", 10),
    Entry("03", "Kenju: RAM nets, line patterns and a teacher", "kenju", "ch. 2–4, App. A–C", 4),
    Entry("04", "Waterman's production-rule poker player", "waterman1968", "ch. 2–5", 7),
    Entry("05", "Random walk: TD vs Monte Carlo vs TD(λ)", "powell2000", "§4.3–4.4, App. A, App. C", 1.5),
    Entry("06", "Tic-tac-toe with TD(λ) tables", "powell2000", "§6.1–6.2, App. B, App. D", 9),
    Entry("07", "Tic-tac-toe with TD(λ) networks", "powell2000", "§6.3–6.7, App. B.8–B.9", 10),
    Entry("08", "TD-Gammon", "powell2000", "ch. 5", 14),
    Entry("09", "Symmetric gammon outputs", "gammon2011", "the whole post", 2),
    Entry(
        "10",
        "Self-play toward GNU Backgammon's expert",
        "gammon2011",
        "beyond the post: how close TD self-play on two cores gets to gnubg-expert (§16's equity)",
        4,
    ),
)

BY_NUMBER: dict[str, Entry] = {e.number: e for e in ENTRIES}


def expected_minutes(stem: str) -> float:
    """The catalog's estimate of a notebook's standard-profile wall time (minutes, one core)."""
    e = BY_NUMBER.get(stem[:2])
    return e.minutes if e else 5.0


def notebooks_dir() -> Path:
    return repo_root() / "notebooks"


def discover() -> list[Path]:
    """The numbered notebooks present in ``notebooks/``, in number order (``_template`` excluded)."""
    return sorted(p for p in notebooks_dir().glob("[0-9][0-9]_*.ipynb"))


def entry_for(stem: str) -> Entry | None:
    return BY_NUMBER.get(stem[:2])


def index_markdown(profile: str = "standard") -> str:
    """The index of the collection: each notebook, the document it reproduces, and its claim counts."""
    from .results import VERDICTS, load_all

    files = {f["notebook"]: f for f in load_all(profile)}
    present = {p.stem[:2]: p.stem for p in discover()}
    rows = [
        "| # | notebook | reproduces | " + " | ".join(VERDICTS) + " |",
        "|---|---|---|" + "---|" * len(VERDICTS),
    ]
    for e in ENTRIES:
        if e.number == "00":
            continue
        stem = present.get(e.number)
        d = DOCUMENTS[e.document]
        doc = f"{d.citation}, *{d.title}*; {e.sections}"
        if stem is None:
            rows.append(f"| {e.number} | {e.title} *(not yet written)* | {doc} |" + " — |" * len(VERDICTS))
            continue
        f = files.get(stem)
        title = f"[{e.title}]({stem}.ipynb)"
        if f is None:
            cells = ["not run in this profile yet"] + [""] * (len(VERDICTS) - 1)
        else:
            cells = [str(f["counts"].get(v, 0)) for v in VERDICTS]
            if not f.get("complete"):
                title += " (incomplete run)"
        rows.append(f"| {e.number} | {title} | {doc} | " + " | ".join(cells) + " |")
    return "\n".join(rows)


def entry_modules(path: Path) -> list[str]:
    """The experiments modules a notebook's code cells import, as files relative to the repository: the notebook's
    entry module (``tdbook/experiments/<game>/<stem without its number>.py``) first, then the others in the order
    imported.  Reads ``from tdbook.experiments.<game> import a, b as c`` and ``from tdbook.experiments.<game>.a
    import f``."""
    import json
    import re

    cells = json.loads(Path(path).read_text())["cells"]
    code = "\n".join("".join(c["source"]) for c in cells if c["cell_type"] == "code")
    found: list[str] = []
    for m in re.finditer(r"^\s*from tdbook\.experiments\.(\w+)(?:\.(\w+))? import ([^\n]+)", code, re.M):
        game, module, names = m.group(1), m.group(2), m.group(3)
        mods = [module] if module else [n.split(" as ")[0].strip() for n in names.strip("() ").split(",")]
        found += [f for n in mods if (f := f"tdbook/experiments/{game}/{n}.py") not in found]
    entry = [f for f in found if Path(f).stem == Path(path).stem[3:]]
    return entry + [f for f in found if f not in entry]


def claims_file(entry: Entry) -> str:
    """The claims data of a notebook's document, relative to the repository ('' for the index)."""
    return f"tdbook/claims/{entry.document}.toml" if entry.document else ""


#: The line that opens the generated list at the end of an entry module's docstring (:func:`write_uses`).
USES_MARK = "uses this module, section by section (``python -m tdbook.catalog --write`` keeps this list):"


def notebook_uses(path: Path) -> tuple[str, dict[str, list[str]]]:
    """The entry module's name as the notebook's cells import it, and the public names of it the notebook uses,
    by the section (the nearest heading above) of the cell that first uses each one, in notebook order."""
    import json
    import re

    stem = Path(path).stem
    cells = json.loads(Path(path).read_text())["cells"]
    code = "\n".join("".join(c["source"]) for c in cells if c["cell_type"] == "code")
    m = re.search(rf"^\s*from tdbook\.experiments\.\w+ import [^\n]*\b{stem[3:]}\b(?: as (\w+))?", code, re.M)
    if m is None:
        return "", {}
    name = m.group(1) or stem[3:]
    uses: dict[str, list[str]] = {}
    seen: set[str] = set()
    section = "(before the first heading)"
    for c in cells:
        src = "".join(c["source"])
        if c["cell_type"] == "markdown":
            heads = [line.lstrip("#").strip() for line in src.splitlines() if re.match(r"#{1,6} ", line)]
            section = heads[-1] if heads else section
        elif c["cell_type"] == "code":
            for attr in re.findall(rf"(?<![\w.]){name}\.([A-Za-z]\w*)", src):
                if attr not in seen:
                    seen.add(attr)
                    uses.setdefault(section, []).append(attr)
    return name, uses


def uses_block(path: Path) -> str:
    """The generated paragraph for the docstring of notebook ``path``'s entry module ('' without one)."""
    import textwrap

    _, uses = notebook_uses(path)
    if not uses:
        return ""
    lines = [f"Notebook {Path(path).stem[:2]} {USES_MARK}", ""]
    for section, names in uses.items():
        text = f"- {section}: " + ", ".join(f"``{n}``" for n in names)
        lines += textwrap.wrap(text, width=116, subsequent_indent="  ", break_on_hyphens=False)
    return "\n".join(lines)


def write_uses(check: bool = False) -> list[str]:
    """Put :func:`uses_block` at the end of each entry module's docstring (replacing an earlier one); the entry
    modules whose docstring differed (with ``check``, nothing is written)."""
    import ast

    from .core.paths import repo_root

    stale = []
    for path in discover():
        code = entry_modules(path)
        block = uses_block(path)
        if not code or not block or Path(code[0]).stem != path.stem[3:]:
            continue
        f = repo_root() / code[0]
        text = f.read_text(encoding="utf-8")
        doc = ast.get_docstring(ast.parse(text), clean=False)
        if doc is None:
            raise ValueError(f"{code[0]} has no module docstring")
        body = doc.split(f"\n\nNotebook {path.stem[:2]} {USES_MARK}")[0]
        new_doc = body.rstrip() + "\n\n" + block + "\n"
        if new_doc != doc:
            stale.append(code[0])
            if not check:
                start = text.index(doc)
                f.write_text(text[:start] + new_doc + text[start + len(doc) :], encoding="utf-8")
    return stale


if __name__ == "__main__":  # python -m tdbook.catalog --write | --check
    import sys

    stale = write_uses(check="--write" not in sys.argv[1:])
    for f in stale:
        print(f"{'wrote' if '--write' in sys.argv[1:] else 'stale'}: {f}")
    sys.exit(1 if stale and "--write" not in sys.argv[1:] else 0)
