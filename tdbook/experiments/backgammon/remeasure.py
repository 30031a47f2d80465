"""Re-measure any shipped net of notebook 09 (Symmetric gammon post (2011); notebook 09 §4 and its appendix).

Notebook 09's ladder and budget tables read each net's figures from its sidecar.  A reader who sees a row there
picks that net here by the same label, plays it against pubeval or a GNU Backgammon level on dice of the
*selection* seed set (the report set stays reserved for the stated figures,
:mod:`~tdbook.experiments.backgammon.strength`), and sees the new figure beside the one its sidecar states.
Every shipped symmetric-gammon file is therefore loadable from the notebook that reports it.
"""

from __future__ import annotations

from dataclasses import dataclass

from ...claims import Estimate
from ...core.storage import read_sidecar
from ...players.backgammon_symmetric import SymNetPlayer
from .match import MatchResult, make_opponent, run_match, selection_seed
from .strength import strength
from .symmetric_gammon import load_shipped
from .symmetric_gammon_nets import LABELS, NETS, RIVAL_NETS, net_path

#: The opponents a reader can pick (gnubg levels are 0-ply with graded noise, as in the ladder).
OPPONENTS = ("pubeval", "gnubg-beginner", "gnubg-intermediate", "gnubg-advanced", "gnubg-expert")


def shipped_nets() -> dict[str, str]:
    """Every shipped net of notebook 09, label → name (the labels of the notebook's tables), in table order."""
    return {LABELS.get(k, k): k for k in NETS}


@dataclass(frozen=True)
class Remeasured:
    """A fresh match of a shipped net, and what its sidecar states against the same opponent (None: nothing)."""

    net: str
    label: str
    opponent: str
    plies: int
    match: MatchResult
    stated: Estimate | None

    def _repr_markdown_(self) -> str:
        m = self.match
        now = f"{m.ppg:+.3f} ± {m.stderr:.3f} ppg over {m.games:,} games (win {m.win_pct:.1f} %)"
        if self.stated is None:
            then = "its sidecar states no figure against this opponent"
        else:
            s = self.stated
            then = f"its sidecar states {s.mean:+.3f} ± {s.stderr:.3f} over {s.n:,} games (report seed set)"
        return f"**{self.label}** ({self.plies}-ply) against {self.opponent}: {now}; {then}."


def remeasure_check(
    net: str = RIVAL_NETS["free"], opponent: str = "pubeval", pairs: int = 200, seed: int = 1, plies: int = 1
) -> str | None:
    """Why these settings cannot run (None when they can), as one sentence naming what to change."""
    if net not in NETS:
        return f"no shipped net {net!r}; pick one of the list"
    if opponent not in OPPONENTS:
        return f"unknown opponent {opponent!r}; choose from: {', '.join(OPPONENTS)}"
    if plies not in (1, 2):
        return f"plies must be 1 or 2, got {plies}"
    if not isinstance(pairs, int) or pairs < 1:
        return f"pairs must be a positive whole number, got {pairs!r}"
    try:
        selection_seed(seed)
    except ValueError as e:
        return str(e)
    return None


def remeasure(
    net: str = RIVAL_NETS["free"],
    opponent: str = "pubeval",
    pairs: int = 200,
    seed: int = 1,
    plies: int = 1,
    progress: bool = True,
) -> Remeasured:
    """Play shipped net ``net`` (its name, the file stem) against ``opponent`` for ``pairs`` duplicate-dice pairs
    on selection seed ``seed``; ValueError naming the problem for settings :func:`remeasure_check` refuses."""
    problem = remeasure_check(net, opponent, pairs, seed, plies)
    if problem:
        raise ValueError(problem)
    model = load_shipped(net)
    match = run_match(SymNetPlayer(model, plies=plies), make_opponent(opponent), pairs, seed=seed, progress=progress)
    side = read_sidecar(net_path(net))
    try:
        stated: Estimate | None = strength(side, opponent, plies)
    except ValueError:
        stated = None
    return Remeasured(net, LABELS.get(net, net), opponent, plies, match, stated)
