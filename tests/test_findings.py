"""Every chapter opens with what it found, generated from the record (issue 48 §2): the block under the title is what
``data/results/`` and the entry module's FINDINGS give, and each line links to the row of the check that recorded it."""

from __future__ import annotations

import json
import types

import pytest

from tdbook import claims, findings, results
from tdbook.catalog import discover
from tests.conftest import ROOT

#: Chapters being rewritten by another session: their findings come with the rewrite.  Remove a name here when its
#: notebook has its findings cell.
NOT_YET: set[str] = set()
CHAPTERS = [p for p in discover() if not p.stem.startswith("00") and p.stem not in NOT_YET]


def _nb(path):
    return json.loads(path.read_text(encoding="utf-8"))


@pytest.mark.parametrize("path", CHAPTERS, ids=lambda p: p.stem)
def test_every_chapter_opens_with_its_findings_from_the_record(path):
    nb = _nb(path)
    cell = findings.findings_cell(nb)
    assert cell is not None, f"{path.stem}: no markdown cell tagged 'findings'"
    assert nb["cells"].index(cell) == 1, "the findings come right under the title (and the document it reproduces)"
    chosen = findings.selection(findings.entry_module(path))
    record = results.load(path.parent.parent / "data" / "results" / f"{path.stem}.json")
    expected = findings.block(nb, record, chosen, where=path.stem)
    assert "".join(cell["source"]) == expected, "stale findings: run `python -m tdbook.findings --write`"
    assert len(chosen) == sum(1 for line in expected.splitlines() if line.startswith("- "))


@pytest.mark.parametrize("path", CHAPTERS, ids=lambda p: p.stem)
def test_every_chapter_leads_with_results_not_with_specification_checks(path):
    """A finding is a result (issue 50): the document's claims we reproduced or could not, our aims, our own
    measurements — by the kind the claims data gives each claim now, whatever a stale record says."""
    chosen = findings.selection(findings.entry_module(path))
    findings.check_kinds(path.stem, chosen)
    kinds = {cid: claims.get(path.stem, cid).kind for cid in chosen}
    assert set(kinds.values()) <= set(findings.KINDS), kinds
    own = any(c.kind == "paper" for c in claims.of_notebook(path.stem))  # 09's post claims are all specification now
    assert "paper" in kinds.values() or not own, f"{path.stem}: no finding is one of the document's own results"


def test_a_finding_that_is_not_a_result_is_refused_naming_it_and_its_kind(tmp_path, monkeypatch):
    good = {"quantization-loss": "x", "superior-to-linear": "y"}
    findings.check_kinds("01_signature_tables", good)
    for cid, kind in [("output-rule", "specification"), ("input-terms", "setting"), ("storage-343", "fitted")]:
        with pytest.raises(findings.FindingsError, match=f"'{cid}' \\({kind}\\)"):
            findings.check_kinds("01_signature_tables", good | {cid: "z"})
    with pytest.raises(findings.FindingsError, match="'no-such-claim'.*no claim"):
        findings.check_kinds("01_signature_tables", good | {"no-such-claim": "z"})
    # the runner refuses it before it reads the record (the file given does not exist)
    module = findings.entry_module(ROOT / "notebooks" / "05_random_walk.ipynb")
    monkeypatch.setattr(
        module, "FINDINGS", {"true-values": "a", "fig4.3-td-consistently-better": "b", "appc-final": "c"}
    )
    path = tmp_path / "05_random_walk.ipynb"
    nb = _notebook()
    nb["cells"][3]["source"] = ["from tdbook.experiments.random_walk import random_walk\n"]
    path.write_text(json.dumps(nb))
    with pytest.raises(findings.FindingsError, match="'true-values' \\(specification\\)"):
        findings.fill_file(path, tmp_path / "absent.json")


def test_every_stored_findings_line_links_to_a_row_its_notebook_shows():
    """The links need the anchored rows of check_all: stored outputs made before the rows were anchored have none,
    so this holds once the notebooks are rerun (`make figures`)."""
    missing = {}
    for path in CHAPTERS:
        nb = _nb(path)
        gone = findings.missing_rows(nb, findings.selection(findings.entry_module(path)))
        if gone:
            missing[path.stem] = gone
    assert not missing, f"findings whose check row the stored notebook does not show (rerun them): {missing}"


def _notebook(with_row=True):
    row = results.claims_table(
        [
            {"id": "a", "kind": "paper", "source": "S §1", "paper": 1, "ours": 1, "tolerance": None, "reason": ""}
            | {"verdict": "reproduced", "note": ""}
        ],
        anchored=with_row,
    )
    nb = {
        "cells": [
            {"cell_type": "markdown", "metadata": {}, "source": ["# 99 · A test\n"]},
            {"cell_type": "markdown", "metadata": {"tags": ["findings"]}, "source": ["old"]},
            {"cell_type": "markdown", "metadata": {}, "source": ["## 1. The `first` section\n"]},
            {
                "cell_type": "code",
                "execution_count": 3,
                "metadata": {},
                "outputs": [{"output_type": "display_data", "data": {"text/html": row._repr_html_()}, "metadata": {}}],
                "source": ["results.check_all(x)"],
            },
        ]
    }
    return nb


def _record(**kw):
    claim = {"id": "a", "kind": "paper", "source": "Doc (2000) §1", "paper": 0.5, "ours": 0.25, "verdict": "differs"}
    return {"notebook": "99_test", "profile": "standard", "claims": [claim | {"cell": 3} | kw]}


def test_a_finding_says_the_statement_both_values_the_verdict_and_links_to_its_check(tmp_path):
    nb = _notebook()
    assert findings.fill(nb, _record(), {"a": "the statement"}) is True
    text = "".join(nb["cells"][1]["source"])
    assert text.startswith(findings.HEADING)
    line = next(x for x in text.splitlines() if x.startswith("- "))
    assert "**differs**" in line and "the statement" in line and "Doc (2000) §1" in line
    assert "the document 0.5; ours 0.25" in line
    assert f'<a href="#{results.anchor("a")}">1. The `first` section</a>' in line
    assert findings.fill(nb, _record(), {"a": "the statement"}) is False  # the same record: nothing changes
    assert findings.missing_rows(nb, {"a": ""}) == []
    assert findings.missing_rows(_notebook(with_row=False), {"a": ""}) == ["a"]


def test_findings_refuse_what_the_record_cannot_give(tmp_path):
    nb = _notebook()
    with pytest.raises(findings.FindingsError, match="'b'"):
        findings.fill(nb, _record(), {"b": "not recorded"})
    with pytest.raises(findings.FindingsError, match="In \\[7\\]"):
        findings.fill(nb, _record(cell=7), {"a": "checked in a cell the notebook lacks"})
    with pytest.raises(findings.FindingsError, match="no 'cell'"):
        findings.fill(nb, _record(cell=None), {"a": "checked outside a kernel"})
    del nb["cells"][1]["metadata"]["tags"]
    with pytest.raises(findings.FindingsError, match="no markdown cell tagged"):
        findings.fill(nb, _record(), {"a": "x"})


@pytest.mark.parametrize(
    "chosen, match",
    [
        (None, "no FINDINGS"),
        ({"a": "x", "b": "y"}, "names 2 claims"),
        ({f"c{i}": "x" for i in range(7)}, "names 7 claims"),
        ({"a": "x", "b": "two\nlines", "c": "z"}, "one-line statement"),
    ],
)
def test_a_malformed_selection_is_refused_naming_the_module(chosen, match):
    module = types.ModuleType("tdbook.experiments.x.y")
    if chosen is not None:
        module.FINDINGS = chosen
    with pytest.raises(findings.FindingsError, match=match):
        findings.selection(module)


def test_the_runner_fills_the_findings_of_an_executed_notebook_and_fails_a_run_whose_rows_are_missing(tmp_path):
    path = tmp_path / "05_random_walk.ipynb"  # notebook 05's entry module chooses the findings
    nb = _notebook()
    nb["cells"][3]["source"] = ["from tdbook.experiments.random_walk import random_walk\n"]
    path.write_text(json.dumps(nb))
    chosen = findings.selection(findings.entry_module(path))
    claims = [
        {"id": c, "kind": "paper", "source": "S", "paper": True, "ours": True, "verdict": "reproduced"} for c in chosen
    ]
    record = tmp_path / "r.json"
    record.write_text(
        json.dumps({"notebook": path.stem, "profile": "quick", "claims": [c | {"cell": 3} for c in claims]})
    )
    rows = "".join(f"<tr id='{results.anchor(cid)}'></tr>" for cid in chosen)
    nb["cells"][3]["outputs"][0]["data"]["text/html"] = rows
    path.write_text(json.dumps(nb))
    assert findings.fill_file(path, record) is True
    text = "".join(_nb(path)["cells"][1]["source"])
    assert all(results.anchor(cid) in text for cid in chosen) and "build/quick/data/results" in text
    nb["cells"][3]["outputs"] = []
    path.write_text(json.dumps(nb))
    with pytest.raises(findings.FindingsError, match="no row in a check cell"):
        findings.fill_file(path, record)
