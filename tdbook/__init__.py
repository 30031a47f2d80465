"""tdbook — re-running classic documents on machine learning in games.

The package behind the notebooks in ``notebooks/``: jitted game engines
(:mod:`tdbook.games`), learners (:mod:`tdbook.learners`), players
(:mod:`tdbook.players`), the runs each notebook calls
(:mod:`tdbook.experiments`), and the scoreboard (:mod:`tdbook.results`).
"""

import hashlib
import os
import shutil
import sys
from importlib.metadata import PackageNotFoundError
from importlib.metadata import version as _version
from pathlib import Path

try:
    __version__ = _version("tdbook")
except PackageNotFoundError:  # running from a source tree that is not installed
    __version__ = "0.1.0"

__all__ = ["__version__"]


def _key_numba_cache_on_the_source() -> None:
    """Point numba's on-disk cache at ``build/numba-cache/<hash of the package's sources>/`` in a source tree.

    Numba reuses a cached kernel while the kernel's own file is unchanged, even when a function or constant
    it uses from another file has changed (a documented limit of ``cache=True``): after a ``git pull`` a
    stale kernel would run silently.  A directory keyed on every source file cannot be stale; the other
    keys' directories are removed when a new one is made.  ``NUMBA_CACHE_DIR`` set by the user wins."""
    if "NUMBA_CACHE_DIR" in os.environ:
        return
    pkg = Path(__file__).resolve().parent
    if not (pkg.parent / "pyproject.toml").is_file():  # an installed copy changes only with a reinstall
        return
    h = hashlib.sha256()
    for p in sorted(pkg.rglob("*.py")):
        h.update(p.relative_to(pkg).as_posix().encode() + b"\0" + p.read_bytes())
    base = pkg.parent / "build" / "numba-cache"
    here = base / h.hexdigest()[:16]
    if not here.is_dir() and base.is_dir():
        for old in base.iterdir():
            shutil.rmtree(old, ignore_errors=True)
    os.environ["NUMBA_CACHE_DIR"] = str(here)
    if "numba" in sys.modules:  # imported before us: its config has read the environment already
        sys.modules["numba"].config.CACHE_DIR = str(here)


_key_numba_cache_on_the_source()

from .core.compile_lock import install_from_environment  # noqa: E402  (after the cache directory is set)

install_from_environment()
