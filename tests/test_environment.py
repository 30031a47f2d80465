"""One source of truth for versions: environment.yml mirrors the pins of pyproject.toml."""

from __future__ import annotations

import tomllib

import yaml

from tdbook import envsync
from tests.conftest import ROOT


def test_every_pin_is_exact():
    names = [n for n, _ in envsync.pins()]
    for required in (
        "numpy",
        "scipy",
        "matplotlib",
        "numba",
        "jupyterlab",
        "ipywidgets",
        "ipykernel",
        "papermill",
        "tqdm",
        "pytest",
        "hypothesis",
        "nbformat",
    ):
        assert required in names


def test_environment_yml_agrees_with_pyproject():
    env = yaml.safe_load((ROOT / "environment.yml").read_text())
    assert env["channels"] == ["conda-forge"]
    conda, pip = {}, {}
    for d in env["dependencies"]:
        if isinstance(d, dict):
            for p in d["pip"]:
                if "==" in p:
                    n, v = p.split("==")
                    pip[n] = v
        elif "=" in d:
            n, v = d.split("=")
            conda[n] = v
    proj = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    assert conda.pop("python") == proj["requires-python"].removeprefix(">=")
    expected = dict(envsync.pins())
    conda = {next((k for k, v in envsync.CONDA_NAMES.items() if v == n), n): v for n, v in conda.items()}
    assert {**conda, **pip} == expected
    assert set(pip) == set(envsync.CONDA_MISSING) & set(expected), "pip section only for what conda-forge lacks"
    assert (ROOT / "environment.yml").read_text() == envsync.render(), "run `make env`"


def _cache_dir(tree, env_extra=None) -> str:
    import os
    import subprocess
    import sys

    env = {k: v for k, v in os.environ.items() if k != "NUMBA_CACHE_DIR"} | (env_extra or {})
    code = "import os, tdbook, numba; print(os.environ['NUMBA_CACHE_DIR']); print(numba.config.CACHE_DIR)"
    out = subprocess.run([sys.executable, "-c", code], cwd=tree, env=env, capture_output=True, text=True, check=True)
    first, second = out.stdout.split()
    assert first == second  # numba, imported after tdbook, reads the same directory
    return first


def test_numba_cache_is_keyed_on_every_source_file(tmp_path):
    """A kernel cached before a change to another file it calls must not be reused: the cache directory is
    named by a hash of all the package's sources, so any edit moves it (and the old one is removed)."""
    import shutil
    from pathlib import Path

    tree = tmp_path / "tree"
    shutil.copytree(ROOT / "tdbook", tree / "tdbook", ignore=shutil.ignore_patterns("__pycache__"))
    (tree / "pyproject.toml").write_text("")
    first = Path(_cache_dir(tree))
    assert first.parent == tree / "build" / "numba-cache" and len(first.name) == 16
    first.mkdir(parents=True)
    assert Path(_cache_dir(tree)) == first  # unchanged sources: the same cache
    enc = tree / "tdbook" / "games" / "backgammon_encoding.py"
    enc.write_text(enc.read_text() + "\n# an edit in a file other kernels call\n")
    second = Path(_cache_dir(tree))
    assert second != first and second.parent == first.parent and not first.exists()
    assert _cache_dir(tree, {"NUMBA_CACHE_DIR": str(tmp_path / "mine")}) == str(tmp_path / "mine")  # the user's wins
