"""tdbook — re-running classic documents on machine learning in games.

The package behind the notebooks in ``notebooks/``: jitted game engines
(:mod:`tdbook.games`), learners (:mod:`tdbook.learners`), players
(:mod:`tdbook.players`), the runs each notebook calls
(:mod:`tdbook.experiments`), and the scoreboard (:mod:`tdbook.results`).
"""

from importlib.metadata import PackageNotFoundError
from importlib.metadata import version as _version

try:
    __version__ = _version("tdbook")
except PackageNotFoundError:  # running from a source tree that is not installed
    __version__ = "0.1.0"

__all__ = ["__version__"]
