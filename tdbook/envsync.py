"""Mirror the pins of ``pyproject.toml`` (the one source of truth) into ``environment.yml``.

``python -m tdbook.envsync --write`` regenerates the file (``make env``);
``--check`` exits 1 when it disagrees.  conda-forge gets every pin it carries; the
pip section holds only what conda-forge lacks, plus the package itself.
"""

from __future__ import annotations

import argparse
import re
import sys
import tomllib
from pathlib import Path

from .core.paths import repo_root

#: Pinned packages that conda-forge does not carry: installed by pip inside the conda env.
CONDA_MISSING: frozenset[str] = frozenset({"pokerkit", "gnubg", "pydraughts"})
#: PyPI name → conda-forge name where they differ.
CONDA_NAMES: dict[str, str] = {"dask[distributed]": "dask"}  # conda-forge's dask includes distributed


def pins(pyproject: Path | None = None) -> list[tuple[str, str]]:
    """(name, version) for every runtime and dev pin, in file order."""
    data = tomllib.loads((pyproject or repo_root() / "pyproject.toml").read_text())
    proj = data["project"]
    reqs = list(proj["dependencies"]) + [r for group in proj.get("optional-dependencies", {}).values() for r in group]
    out = []
    for r in reqs:
        m = re.fullmatch(r"\s*([A-Za-z0-9_.\-\[\]]+?)\s*==\s*([^\s;]+)\s*", r)
        if not m:
            raise ValueError(f"pyproject dependency {r!r} is not pinned with ==")
        out.append((m.group(1).lower(), m.group(2)))
    return out


def render(pyproject: Path | None = None) -> str:
    data = tomllib.loads((pyproject or repo_root() / "pyproject.toml").read_text())
    py = data["project"]["requires-python"].removeprefix(">=")
    conda, pip = [], []
    for name, ver in pins(pyproject):
        if name in CONDA_MISSING:
            pip.append(f"      - {name}=={ver}")
        else:
            conda.append(f"  - {CONDA_NAMES.get(name, name)}={ver}")
    lines = [
        "# Generated from pyproject.toml by `make env` (python -m tdbook.envsync --write); do not edit by hand.",
        "# conda env create -f environment.yml && conda activate tdbook",
        "name: tdbook",
        "channels:",
        "  - conda-forge",
        "dependencies:",
        f"  - python={py}",
        *conda,
        "  - pip",
        "  - pip:",
        *pip,
        "      - -e .",
    ]
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m tdbook.envsync", description=__doc__.splitlines()[0])
    g = ap.add_mutually_exclusive_group(required=True)
    g.add_argument("--write", action="store_true", help="rewrite environment.yml")
    g.add_argument("--check", action="store_true", help="exit 1 if environment.yml disagrees with pyproject.toml")
    a = ap.parse_args(argv)
    path = repo_root() / "environment.yml"
    text = render()
    if a.write:
        path.write_text(text)
        print(f"wrote {path}")
        return 0
    ok = path.exists() and path.read_text() == text
    print("environment.yml agrees with pyproject.toml" if ok else "environment.yml is out of date: run `make env`")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
