"""data/MANIFEST.md (tdbook.manifest): written from the shipped files and their sidecars, every file has its row of
readers, and every reader named there still calls the function it is listed under."""

from __future__ import annotations

import hashlib
import json
import os
import re
import subprocess
import sys

import pytest

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


def test_a_net_s_weights_come_back_by_name_in_a_fresh_clone(tmp_path):
    """Issue 48 §5: a net whose weights left data/ is brought back from git history by its name, in a fresh clone of
    this checkout, checked against the SHA-256 its sidecar holds; a second call finds it there; a bad name, or a
    sidecar whose hash no committed version has, is refused by name and writes nothing."""
    from tdbook.experiments.backgammon.symmetric_gammon_nets import NETS, SHA256_KEY, TRAINED

    root = repo_root()
    if subprocess.run(["git", "rev-parse", "HEAD"], cwd=root, capture_output=True).returncode:
        pytest.skip("not a git checkout: the weights live in its history")
    retired = [n for n in TRAINED if n not in NETS]
    name = min(retired, key=lambda n: json.loads((data_dir() / f"{n}.json").read_text())["games"])
    clone = tmp_path / "clone"
    subprocess.run(["git", "clone", "-q", str(root), str(clone)], check=True, timeout=300)
    env = {**os.environ, "PYTHONPATH": str(clone), "TDBOOK_ROOT": str(clone)}

    def restore(*args):
        cmd = [sys.executable, "-m", "tdbook", "restore", *args]
        return subprocess.run(cmd, cwd=clone, env=env, capture_output=True, text=True, timeout=300)

    target = clone / "data" / f"{name}.npz"
    assert not target.exists()
    r = restore(name)
    assert r.returncode == 0 and "sha256 matches its sidecar" in r.stdout and "from commit" in r.stdout, r.stderr
    want = json.loads((clone / "data" / f"{name}.json").read_text())[SHA256_KEY]
    assert hashlib.sha256(target.read_bytes()).hexdigest() == want
    assert "already there" in restore(name).stdout
    r = restore("symgammon_nope")
    assert r.returncode == 2 and "no sidecar data/symgammon_nope.json" in r.stderr
    other = next(n for n in retired if n != name)
    side_path = clone / "data" / f"{other}.json"
    side_path.write_text(json.dumps({**json.loads(side_path.read_text()), SHA256_KEY: "0" * 64}))
    r = restore(other)
    assert r.returncode == 2 and "has the sidecar's sha256" in r.stderr
    assert not (clone / "data" / f"{other}.npz").exists()
    listed = restore("--list").stdout.split()
    assert other in listed and name not in listed


def test_a_recorded_hash_is_the_file_s_and_another_is_refused(tmp_path):
    (tmp_path / "n.npz").write_bytes(b"weights")
    (tmp_path / "n.json").write_text(json.dumps({"command": "x"}))
    assert manifest.record_sha256(["n"], tmp_path) == ["n"] and manifest.record_sha256(["n"], tmp_path) == []
    (tmp_path / "n.npz").write_bytes(b"other weights")
    with pytest.raises(ValueError, match="its sidecar says sha256"):
        manifest.record_sha256(["n"], tmp_path)
    with pytest.raises(ValueError, match="no weights"):
        manifest.record_sha256(["m"], tmp_path)
