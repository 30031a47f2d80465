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
