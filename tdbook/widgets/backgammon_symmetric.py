"""Notebook 09's position picker: a position from recorded games, each net's five numbers beside gnubg's."""

from __future__ import annotations

from typing import Any

import ipywidgets as W
import matplotlib.pyplot as plt
import numpy as np
from IPython.display import display

from ..experiments.backgammon import symmetric_gammon as sx
from ..results import Table
from . import preparing
from .backgammon import board


@preparing("the position picker")
def position_picker(nets: dict[str, Any], positions: np.ndarray, labels: list[str] | None = None) -> W.Widget:
    """A dropdown of ``positions`` (side on roll's view); on a choice, the board and the table of
    :func:`tdbook.experiments.backgammon.symmetric_gammon.position_rows`."""
    labels = labels or [f"position {i} ({sx.position_class(p)})" for i, p in enumerate(positions)]
    pick = W.Dropdown(options=list(zip(labels, range(len(positions)))), value=0, description="position")
    out = W.Output()

    def show(_=None) -> None:
        pos = positions[pick.value]
        with out:
            out.clear_output(wait=True)
            fig = board(pos, title=labels[pick.value], names=("on roll", "opponent"))
            display(fig)
            plt.close(fig)
            display(Table(sx.POSITION_HEADER, sx.position_rows(nets, pos), caption="side on roll's view"))

    pick.observe(show, names="value")
    show()
    return W.VBox([pick, out])
