"""data/MANIFEST.md (tdbook.manifest): written from the shipped files and their sidecars, every file has its row of
readers, and every reader named there still calls the function it is listed under."""

from __future__ import annotations

import json
import re

from tdbook import manifest
from tdbook.core.paths import data_dir, repo_root


def test_the_committed_manifest_is_a_fresh_one():
    committed = (data_dir() / manifest.MANIFEST).read_text()
    assert committed == manifest.render(), f"data/MANIFEST.md is stale: run `{manifest.COMMAND}` and commit it"


def test_every_shipped_file_has_a_row_and_every_row_a_file():
    files = set(manifest.shipped_files())
    missing, gone = sorted(files - set(manifest.USES)), sorted(set(manifest.USES) - files)
    assert not missing, f"no row in tdbook/manifest.py USES for {missing}: add one, then run `{manifest.COMMAND}`"
    assert not gone, f"rows of tdbook/manifest.py USES without a file in data/: {gone}"


def _code(by: str) -> str:
    if by.isdigit():
        (nb,) = (repo_root() / "notebooks").glob(f"{by}_*.ipynb")
        cells = json.loads(nb.read_text())["cells"]
        return "\n".join("".join(c["source"]) for c in cells if c["cell_type"] == "code")
    return (repo_root() / by).read_text()


def test_every_reader_calls_the_function_it_is_listed_under():
    defined = {
        m.group(1)
        for p in (repo_root() / "tdbook").rglob("*.py")
        for m in re.finditer(r"^def (\w+)\(", p.read_text(), re.M)
    }
    for name, row in manifest.USES.items():
        for u in row.uses:
            assert u.via in defined, f"{name}: {u.via} is defined nowhere in tdbook/"
            assert re.search(rf"\b{u.via}\(", _code(u.by)), f"{name}: {u.by} does not call {u.via}"


def test_a_new_file_is_listed_from_its_sidecar_alone(tmp_path):
    """A file without a row still gets its facts from its sidecar (net, games, step sizes, parent, dirty code)."""
    side = {
        "command": "python -m tdbook train symmetric-gammon --hidden 8 --warm-start data/p.npz --out data/n.npz",
        "code_version": "tdbook 0.1.0 git 0123456789ab+dirty",
        "net": "free 8-8-5",
        "games": 1200,
        "spec": {"alpha": 0.1, "alpha_late": 0.02, "late_after": 200, "seed": 3},
    }
    (tmp_path / "n.npz").write_bytes(b"x" * 10)
    (tmp_path / "n.json").write_text(json.dumps(side))
    (tmp_path / "results").mkdir()
    (tmp_path / "results" / "01.json").write_text("{}")
    assert manifest.shipped_files(tmp_path) == ["n.npz"]
    text = manifest.render(tmp_path)
    assert "**not in `USES`**" in text and "free 8-8-5; 1,200 games; step size α 0.1, 0.02 after 200 games" in text
    assert "- **trained on from:** `p.npz`" in text and "uncommitted changes on top of commit 0123456789ab" in text
    assert f"`{side['command']}`" in text
