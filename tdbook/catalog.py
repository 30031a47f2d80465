"""The collection: which notebook re-runs which document (notebook numbers are fixed)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from .core.paths import repo_root


@dataclass(frozen=True)
class Entry:
    number: str
    title: str
    document: str  # seed id
    sections: str  # what of the document the notebook reproduces


SEEDS: dict[str, str] = {
    "000": "000_c3617222dc4bcdcf.txt — Samuel, signature tables for checkers",
    "001": "001_9eb91d6214a1e01f.txt — a backgammon net with board-flip-symmetric gammon outputs",
    "002": "002_d05128c180b2cc52.txt — the Kenju (free-style five-in-a-row) learning player",
    "003": "003_4c485fa80686a2cc.txt — Waterman, Machine Learning of Heuristics (draw poker, 1968)",
    "004": "004_cef981d7b973a94b.txt — Powell, Reinforcement Learning in Game Play (M.S. thesis, 2000)",
}

ENTRIES: tuple[Entry, ...] = (
    Entry("00", "Index and reproduction scoreboard", "", "every notebook's claims"),
    Entry("01", "Samuel's signature tables", "000", "27 quantized terms, 9→3→1 tables, A/D counts"),
    Entry("02", "Samuel's checkers polynomial", "004", "ch. 3, §4.5"),
    Entry("03", "Kenju: RAM nets, line patterns and a teacher", "002", "whole document"),
    Entry("04", "Waterman's production-rule poker player", "003", "ch. 2–5"),
    Entry("05", "Random walk: TD vs Monte Carlo vs TD(λ)", "004", "§4.3–4.4, App. A, App. C"),
    Entry("06", "Tic-tac-toe with TD(λ) tables", "004", "§6.1–6.2, App. B, App. D"),
    Entry("07", "Tic-tac-toe with TD(λ) networks", "004", "§6.3–6.7, App. B.8–B.9"),
    Entry("08", "TD-Gammon", "004", "ch. 5"),
    Entry("09", "Symmetric gammon outputs", "001", "whole document"),
)

BY_NUMBER: dict[str, Entry] = {e.number: e for e in ENTRIES}


def notebooks_dir() -> Path:
    return repo_root() / "notebooks"


def discover() -> list[Path]:
    """The numbered notebooks present in ``notebooks/``, in number order (``_template`` excluded)."""
    return sorted(p for p in notebooks_dir().glob("[0-9][0-9]_*.ipynb"))


def entry_for(stem: str) -> Entry | None:
    return BY_NUMBER.get(stem[:2])


def index_markdown(profile: str = "standard") -> str:
    """The index of the collection: each notebook, the document it reproduces, and its claim counts."""
    from .results import load_all

    files = {f["notebook"]: f for f in load_all(profile)}
    present = {p.stem[:2]: p.stem for p in discover()}
    rows = [
        "| # | notebook | reproduces | claims (reproduced / differs / not-in-paper / beyond) |",
        "|---|---|---|---|",
    ]
    for e in ENTRIES:
        if e.number == "00":
            continue
        stem = present.get(e.number)
        doc = f"seed `{SEEDS[e.document].split(' — ')[0]}` — {SEEDS[e.document].split(' — ')[1]}; {e.sections}"
        if stem is None:
            rows.append(f"| {e.number} | {e.title} *(not yet written)* | {doc} | — |")
            continue
        f = files.get(stem)
        if f is None:
            score = "not run in this profile yet"
        else:
            c = f["counts"]
            score = f"{c['reproduced']} / {c['differs']} / {c['not-in-paper']} / {c['beyond']}"
            if not f.get("complete"):
                score += " (incomplete run)"
        rows.append(f"| {e.number} | [{e.title}]({stem}.ipynb) | {doc} | {score} |")
    return "\n".join(rows)
