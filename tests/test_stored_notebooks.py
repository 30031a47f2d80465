"""The notebooks in notebooks/ are stored with their standard-profile outputs (issue 20): what they show agrees
with the committed results and figures, holds nothing that changes from run to run, and stays light."""

from __future__ import annotations

import json
import re
from html.parser import HTMLParser

import pytest

from tdbook import results, stored
from tdbook.catalog import discover
from tests.conftest import ROOT

STORED = [p for p in discover() if any(c.get("outputs") for c in json.loads(p.read_text())["cells"])]
SAVED = re.compile(r"figures/([0-9]{2}_\w+)/([\w.-]+)\.png")


class _Tables(HTMLParser):
    """Rows of every <table> in an HTML string, cell texts only."""

    def __init__(self) -> None:
        super().__init__()
        self.tables: list[list[list[str]]] = []
        self._cell: list[str] | None = None

    def handle_starttag(self, tag, attrs):
        if tag == "table":
            self.tables.append([])
        elif tag == "tr":
            self.tables[-1].append([])
        elif tag in ("td", "th"):
            self._cell = []

    def handle_endtag(self, tag):
        if tag in ("td", "th") and self._cell is not None:
            self.tables[-1][-1].append("".join(self._cell))
            self._cell = None

    def handle_data(self, data):
        if self._cell is not None:
            self._cell.append(data)


def _outputs(nb: dict) -> list[dict]:
    return [o for c in nb["cells"] if c["cell_type"] == "code" for o in c.get("outputs", [])]


def _text(o: dict) -> str:
    if "text" in o:
        return "".join(o["text"])
    data = o.get("data", {})
    return "".join(data.get("text/plain", "")) + "".join(data.get("text/html", ""))


def test_a_clone_shows_every_notebook_with_its_outputs():
    assert {p.stem for p in STORED} == {p.stem for p in discover()}, "run `make figures` and commit notebooks/"


@pytest.mark.parametrize("path", STORED, ids=lambda p: p.stem)
def test_the_stored_claims_table_is_the_committed_results_file(path):
    nb = json.loads(path.read_text())
    assert stored.clean(nb) == nb
    if path.stem.startswith("00"):
        return
    res = json.loads((ROOT / "data" / "results" / f"{path.stem}.json").read_text())
    tables = []
    for o in _outputs(nb):
        html = "".join(o.get("data", {}).get("text/html", ""))
        if "<table>" in html:
            parser = _Tables()
            parser.feed(html)
            tables += [t for t in parser.tables if t and t[0] == results.CLAIM_COLUMNS]
    assert tables, f"{path.stem} shows no claims table (results.claims_table())"
    shown = tables[-1][1:]
    col = {name: i for i, name in enumerate(results.CLAIM_COLUMNS)}
    assert [r[col["claim"]] for r in shown] == [c["id"] for c in res["claims"]]
    for row, c in zip(shown, res["claims"]):
        assert row[col["verdict"]] == c["verdict"], c["id"]
        assert row[col["ours"]] == results.fmt(c["ours"]), c["id"]
        assert row[col["paper"]] == results.fmt(c["paper"]), c["id"]


@pytest.mark.parametrize("path", STORED, ids=lambda p: p.stem)
def test_every_figure_the_notebook_saves_is_in_figures(path):
    nb = json.loads(path.read_text())
    saved = {m.groups() for o in _outputs(nb) for m in SAVED.finditer(_text(o))}
    on_disk = {(path.stem, p.stem) for p in (ROOT / "figures" / path.stem).glob("*.png")}
    assert {s for s in saved if s[0] == path.stem} <= on_disk, "a figure the notebook saved is missing"
    assert all(s[0] == path.stem for s in saved), "a notebook saves its figures under its own name"


def test_notebooks_stay_light():
    total = sum(p.stat().st_size for p in (ROOT / "notebooks").glob("*.ipynb"))
    assert total < 15 * 2**20, f"notebooks/ holds {total / 2**20:.1f} MB; the README promises < 15 MB"
    for p in STORED:
        for o in _outputs(json.loads(p.read_text())):
            assert "image/svg+xml" not in o.get("data", {}), f"{p.stem}: PNG only inline"


@pytest.mark.parametrize("path", STORED, ids=lambda p: p.stem)
def test_stored_outputs_hold_no_path_of_this_machine(path):
    text = "".join(_text(o) for o in _outputs(json.loads(path.read_text())))
    for local in (str(ROOT), "/tmp/", "/home/", "PosixPath("):
        assert local not in text, f"{path.stem} shows {local!r}: outputs must read the same on every machine"


def test_a_timing_cell_is_stored_with_a_note_instead_of_its_timings():
    table = {"data": {"text/html": ["<table>1,058 games/s</table>"]}, "metadata": {}, "output_type": "display_data"}
    nb = {
        "cells": [
            {"cell_type": "code", "metadata": {"tags": ["timing"]}, "outputs": [table], "source": "speed()"},
            {"cell_type": "code", "metadata": {}, "outputs": [table], "source": "other()"},
        ],
        "metadata": {},
    }
    once = stored.clean(nb)
    assert once["cells"][0]["outputs"] == [{"name": "stdout", "output_type": "stream", "text": [stored.TIMING_NOTE]}]
    assert once["cells"][1]["outputs"] == [table]  # only the tagged cell
    assert stored.clean(once) == once


def test_a_widget_cell_is_stored_with_a_note_where_the_widget_would_be():
    view = {
        "data": {"application/vnd.jupyter.widget-view+json": {"model_id": "abc"}, "text/plain": ["Panel(…)"]},
        "metadata": {},
        "output_type": "display_data",
    }
    text = {"name": "stdout", "output_type": "stream", "text": ["loaded\n"]}
    nb = {
        "cells": [
            {"cell_type": "code", "execution_count": 9, "metadata": {"tags": ["widget"]}, "outputs": [text, view]},
            {"cell_type": "code", "execution_count": 10, "metadata": {}, "outputs": [text, view]},  # a progress bar
            {"cell_type": "code", "execution_count": None, "metadata": {"tags": ["widget"]}, "outputs": []},
        ],
        "metadata": {},
    }
    once = stored.clean(nb)
    note = once["cells"][0]["outputs"][-1]
    assert once["cells"][0]["outputs"][0] == text and stored.WIDGET_NOTE in "".join(note["data"]["text/plain"])
    assert "make lab" in "".join(note["data"]["text/markdown"])
    assert once["cells"][1]["outputs"] == [text]  # untagged: the live widget goes, no note
    assert once["cells"][2]["outputs"] == []  # never run: nothing to stand in for
    assert stored.clean(once) == once


@pytest.mark.parametrize("path", discover(), ids=lambda p: p.stem)
def test_every_widget_cell_is_tagged_so_its_stored_copy_says_what_would_be_there(path):
    """A cell that shows a widget of :mod:`tdbook.widgets` (a panel, a board, a picker) carries the tag
    ``widget``, and its stored outputs end with the note (a stored file cannot hold the live widget)."""
    nb = json.loads(path.read_text())
    imports = "\n".join("".join(c["source"]) for c in nb["cells"] if c["cell_type"] == "code")
    names = [
        n.strip().split(" as ")[-1]
        for group in re.findall(r"^from tdbook\.widgets[\w.]* import ([\w ,]+)$", imports, re.M)
        for n in group.split(",")
    ]
    names += re.findall(r"^from tdbook import widgets as (\w+)$", imports, re.M)
    alternatives = "|".join(map(re.escape, names))
    shown = re.compile(rf"^({alternatives})(\.\w+)?\(", re.M) if names else None
    for cell in nb["cells"]:
        src = "".join(cell["source"])
        # a top-level call of a widgets name (not one inside display(...) in a loop: a static picture, a figure)
        if cell["cell_type"] != "code" or shown is None or not shown.search(src):
            continue
        assert stored.WIDGET_TAG in cell["metadata"].get("tags", []), f"{path.stem}: untagged widget cell {src[:60]!r}"
        if cell.get("execution_count") is not None:
            assert stored.WIDGET_NOTE in "".join(cell["outputs"][-1]["data"]["text/plain"])


def test_speeds_are_shown_only_in_timing_cells():
    """A speed printed anywhere else would make the stored notebook differ between two runs of the same seed."""
    # any rate unit outside a timing cell, but Powell's "3 × 10^9 nodes/s" quoted in a claim's source
    speed = re.compile(r"(?<!10\^9 )\b(games|nodes|rows|moves|positions|episodes|hands)/s\b")
    for path in STORED:
        for cell in json.loads(path.read_text())["cells"]:
            if cell["cell_type"] != "code" or stored.TIMING_TAG in cell["metadata"].get("tags", []):
                continue
            for o in cell.get("outputs", []):
                assert not speed.search(_text(o)), f"{path.stem}: a timing outside a 'timing' cell: {_text(o)[:200]}"
