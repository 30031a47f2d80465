"""Every notebook runs end to end in its quick profile (< 2 minutes each) and follows the house conventions."""

from __future__ import annotations

import json
import time

import pytest

from tdbook import claims, stored
from tdbook.book.anchors import locate
from tdbook.catalog import DOCUMENTS, discover, entry_for
from tdbook.runner import notebook_parameters, run_notebook
from tests.conftest import ROOT

NOTEBOOKS = discover()
QUICK_LIMIT_S = 120.0


def _cells(path):
    nb = json.loads(path.read_text())
    return nb, [("".join(c["source"]) if isinstance(c["source"], list) else c["source"], c) for c in nb["cells"]]


@pytest.mark.parametrize("path", NOTEBOOKS + [ROOT / "notebooks" / "_template.ipynb"], ids=lambda p: p.stem)
def test_conventions(path):
    nb, cells = _cells(path)
    code = [c for c in cells if c[1]["cell_type"] == "code"]
    assert "parameters" in code[0][1]["metadata"].get("tags", []), "first code cell must be tagged 'parameters'"
    params = notebook_parameters(path)
    assert params["PROFILE"]["default"] == '"standard"', "the stored notebook's own default is the standard profile"
    assert stored.clean(nb) == nb, "stored outputs hold nothing that changes from run to run (tdbook.stored)"
    assert nb["metadata"]["kernelspec"]["name"] == "tdbook"
    if path.stem.startswith("00"):
        return
    assert "SEED" in params, "every experiment takes a seed"
    text = "\n".join(s for s, _ in cells)
    assert "results.start(" in text and "results.finish()" in text and "claims_table()" in text
    assert "panel(" in code[-1][0] or "panel(" in code[-2][0], "end with a widget panel"
    first_md = next(s for s, c in cells if c["cell_type"] == "markdown")
    entry = entry_for(path.stem)
    if entry is not None:
        citation = DOCUMENTS[entry.document].citation
        assert citation in first_md and ("§" in first_md or "Fig." in first_md), f"cite {citation} with sections"
    outside = ".." + "/shared"  # spelt so that this file does not contain it
    assert outside not in json.dumps(nb) and ".txt`" not in first_md, "cite documents, not files outside the repo"


@pytest.mark.notebook
@pytest.mark.parametrize("path", NOTEBOOKS + [ROOT / "notebooks" / "_template.ipynb"], ids=lambda p: p.stem)
def test_quick_profile_runs(path, out_root):
    t0 = time.perf_counter()
    r = run_notebook(path, "quick", {"PROFILE": "quick"})
    wall = time.perf_counter() - t0
    assert r.status == "ok", r.error
    assert wall < QUICK_LIMIT_S, f"{path.stem} took {wall:.0f} s in the quick profile"
    res = json.loads((out_root / "data" / "results" / f"{path.stem}.json").read_text())
    assert res["complete"] and res["profile"] == "quick"
    if not path.stem.startswith("00"):
        assert res["claims"], "a notebook records its claims"
        assert all(c["verdict"] in claims.VERDICTS for c in res["claims"])
        # each claim says which cell checked it, and that cell is in the executed notebook (the book's links)
        executed = stored.clean(json.loads((out_root / "notebooks" / path.name).read_text()))
        for c in res["claims"]:
            locate(executed, c, where=path.stem)  # raises ClaimNotLocated unless the record's cell is there


@pytest.mark.notebook
def test_same_seed_and_profile_give_identical_bytes(tmp_path, monkeypatch):
    """Issue 2: the random-walk notebook run twice (quick profile, same seed) writes byte-identical
    results and figures — and the executed notebook, in the form tdbook.stored keeps in notebooks/, is the
    same bytes too (issue 20)."""
    path = ROOT / "notebooks" / "05_random_walk.ipynb"
    trees = []
    for k in range(2):
        root = tmp_path / f"run{k}"
        monkeypatch.setenv("TDBOOK_OUTPUT_ROOT", str(root))
        r = run_notebook(path, "quick", {"PROFILE": "quick", "SEED": 11})
        assert r.status == "ok", r.error
        files = sorted(p for sub in ("data", "figures") for p in (root / sub).rglob("*") if p.is_file())
        tree = {p.relative_to(root).as_posix(): p.read_bytes() for p in files}
        executed = json.loads((root / "notebooks" / path.name).read_text())
        tree["stored notebook"] = stored.dumps(stored.clean(executed))
        assert any(c.get("outputs") for c in executed["cells"] if c["cell_type"] == "code")
        trees.append(tree)
    assert any(k.endswith(".png") for k in trees[0]) and any(k.endswith(".json") for k in trees[0])
    assert trees[0].keys() == trees[1].keys()
    differ = [k for k in trees[0] if trees[0][k] != trees[1][k]]
    assert not differ, f"not byte-identical across two runs: {differ}"
