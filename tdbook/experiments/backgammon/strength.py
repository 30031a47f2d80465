"""One strength figure per shipped backgammon net, measured on dice no choice was ever made on
(Powell (2000) §5.2: TD-Gammon's strength; the ladders of notebooks 08 and 09).

**Two seed sets, disjoint by construction.**  Every match seed below :data:`REPORT_BASE` (2⁶²) belongs
to the *selection* set: the learning curves recorded during training (seed 99), the post-training
ladder of ``train backgammon --ladder-pairs`` (seed 2024), the notebooks' own matches — everything a
person looks at while deciding how long to train, which settings to keep, which net to ship.  Seeds
from :data:`REPORT_BASE` up form the *report* set, used only here, once a net is chosen: the one
number stated for it.  :func:`tdbook.experiments.backgammon.match.evaluate` refuses report seeds, so
no selection can use them.

A figure taken on the dice a net was chosen on is biased upwards (the winner's curse): among
candidates whose measured strength differs partly by luck, the one picked is, on average, one whose
luck was good on those dice.

``python -m tdbook.experiments.backgammon.strength data/td_gammon_80.npz`` measures the net at 1-ply
(cubeless, duplicate dice) against pubeval and each GNU Backgammon level, and writes
``{"strength": {...}}`` into its sidecar with the exact command, the report seed, the code version and,
per opponent, points per game ± 1 standard error (over duplicate pairs) and the number of games;
``--show`` prints what the sidecars hold.  The README and notebook 08 read it from there.
"""

from __future__ import annotations

import argparse
import shlex
import sys
import time
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from ...claims import Estimate
from ...core.storage import add_to_sidecar, code_version, read_sidecar
from ...learners.backgammon_net import TDGammon
from ...learners.backgammon_symmetric import SymmetricGammon
from ...players.backgammon import NetPlayer
from ...players.backgammon_symmetric import SymNetPlayer
from .match import REPORT_BASE, make_opponent, run_match

#: The opponents of the strength figure, in order: pubeval, then gnubg from weakest to strongest.
OPPONENTS = ("pubeval", "gnubg-beginner", "gnubg-intermediate", "gnubg-advanced", "gnubg-expert", "gnubg-worldclass")
#: The opponents of the 2-ply figure (the net's 2-ply search is about 100 times slower than its 1-ply choice).
OPPONENTS_2PLY = ("pubeval", "gnubg-expert")
#: The sidecar key of a 2-ply figure measured on its own (a plan with 2-ply pairs only), beside the 1-ply ladder.
TWO_PLY_KEY = "strength_2ply"


def report_seed(index: int = 0) -> int:
    """The ``index``-th seed of the report set (``REPORT_BASE + index``)."""
    if not isinstance(index, int) or isinstance(index, bool) or not 0 <= index < REPORT_BASE:
        raise ValueError(f"report seed index must be an int in [0, 2**62), got {index!r}")
    return REPORT_BASE + index


@dataclass(frozen=True)
class StrengthPlan:
    """How many duplicate pairs (two games each) against each opponent, and which report seed: at 1-ply
    against every opponent of :data:`OPPONENTS`, and at 2-ply against :data:`OPPONENTS_2PLY`."""

    pubeval_pairs: int = 25_000
    gnubg_pairs: int = 2_500
    worldclass_pairs: int = 250
    two_ply_pairs: int = 0
    seed_index: int = 0

    def pairs(self, opponent: str, plies: int = 1) -> int:
        if plies == 2:
            return self.two_ply_pairs if opponent in OPPONENTS_2PLY else 0
        if opponent == "pubeval":
            return self.pubeval_pairs
        return self.worldclass_pairs if opponent == "gnubg-worldclass" else self.gnubg_pairs

    def command(self, nets: Sequence[str | Path]) -> str:
        """The command line that measures ``nets`` with this plan."""
        args = [str(n) for n in nets]
        d = StrengthPlan()
        for name in ("pubeval_pairs", "gnubg_pairs", "worldclass_pairs", "two_ply_pairs", "seed_index"):
            if getattr(self, name) != getattr(d, name):
                args += [f"--{name.replace('_', '-')}", str(getattr(self, name))]
        return "python -m tdbook.experiments.backgammon.strength " + shlex.join(args)

    def check(self) -> StrengthPlan:
        for name in ("pubeval_pairs", "gnubg_pairs", "worldclass_pairs", "two_ply_pairs", "seed_index"):
            v = getattr(self, name)
            if not isinstance(v, int) or isinstance(v, bool) or v < 0:
                raise ValueError(f"{name} must be an int >= 0, got {v!r}")
        report_seed(self.seed_index)
        return self


def load_net(path: str | Path) -> TDGammon | SymmetricGammon:
    """A shipped backgammon net of either kind: notebook 09's symmetric-gammon nets or notebook 08's
    TD-Gammon nets (ValueError naming the file and the problem for anything else)."""
    try:
        return SymmetricGammon.load(path)
    except ValueError as e:
        if "not a symmetric-gammon weights file" not in str(e):
            raise
    return TDGammon.load(path)


def measure(
    model: TDGammon | SymmetricGammon, plan: StrengthPlan, progress: bool = True
) -> dict[str, dict[str, dict[str, Any]]]:
    """The net against every opponent with pairs in ``plan``, on the report seed: ``{"vs": {opponent:
    {ppg, stderr, games, win_pct, gammon_pct, backgammon_pct}}, "vs_2ply": {…}}`` (1-ply and 2-ply)."""
    plan.check()
    seed = report_seed(plan.seed_index)
    out: dict[str, dict[str, dict[str, Any]]] = {}
    for plies, block in ((1, "vs"), (2, "vs_2ply")):
        if isinstance(model, SymmetricGammon):
            me = SymNetPlayer(model, plies=plies)
        else:
            me = NetPlayer(model, plies)
        for opp in OPPONENTS:
            n = plan.pairs(opp, plies)
            if n:
                r = run_match(me, make_opponent(opp), n, seed=seed, progress=progress)
                out.setdefault(block, {})[opp] = {k: v for k, v in r.to_dict().items() if k not in ("a", "b")}
    return out


def strength(sidecar: dict, opponent: str, plies: int = 1) -> Estimate:
    """The stated strength of a shipped net against ``opponent`` at ``plies``: ppg ± 1 s.e. over its
    games, as :class:`~tdbook.claims.Estimate` (ValueError naming what is missing).  A 2-ply figure measured
    on its own (:data:`TWO_PLY_KEY`) is read first."""
    block = "vs" if plies == 1 else "vs_2ply"
    try:
        if plies == 2 and opponent in sidecar.get(TWO_PLY_KEY, {}).get(block, {}):
            r = sidecar[TWO_PLY_KEY][block][opponent]
        else:
            r = sidecar["strength"][block][opponent]
    except (KeyError, TypeError):
        have = ", ".join(sidecar.get("strength", {}).get(block, {})) or "none"
        raise ValueError(
            f"the sidecar has no {plies}-ply strength figure against {opponent} (has: {have}); "
            f"measure it with python -m tdbook.experiments.backgammon.strength"
        ) from None
    return Estimate(float(r["ppg"]), float(r["stderr"]), int(r["games"]))


def strength_text(sidecar: dict, opponent: str, plies: int = 1) -> str:
    """``"+0.123 ± 0.004"``: the stated strength of :func:`strength`, or ``"—"`` when the sidecar has none."""
    try:
        e = strength(sidecar, opponent, plies)
    except ValueError:
        return "—"
    return f"{e.mean:+.3f} ± {e.stderr:.3f}"


def record(net_path: str | Path, plan: StrengthPlan, command: str, progress: bool = True) -> dict:
    """Measure the net at ``net_path`` and write the figure into its sidecar (kept: everything else).  A plan
    with 2-ply pairs only goes under :data:`TWO_PLY_KEY`, beside the 1-ply ladder it leaves as it was."""
    path = Path(net_path)
    read_sidecar(path)
    model = load_net(path)
    t0 = time.perf_counter()
    measured = measure(model, plan, progress)
    only_2ply = plan.two_ply_pairs and not (plan.pubeval_pairs or plan.gnubg_pairs or plan.worldclass_pairs)
    key = TWO_PLY_KEY if only_2ply else "strength"
    figure = {
        "command": command,
        "what": (
            "1-ply (vs) and 2-ply (vs_2ply), cubeless, duplicate dice (each dice sequence played twice, colours "
            "swapped); "
            "points per game for the net ± 1 standard error over pairs; dice from the report seed set, disjoint "
            "from every seed used to train, watch or choose the net (tdbook.experiments.backgammon.strength)"
        ),
        "seed": report_seed(plan.seed_index),
        "plan": asdict(plan),
        "code_version": code_version(),
        "wall_time_s": round(time.perf_counter() - t0, 1),
        **measured,
    }
    add_to_sidecar(path, key, figure)
    return figure


def table_rows(sidecars: dict[str, dict]) -> list[list[str]]:
    """Rows (net, opponent, ppg ± s.e., wins, games) of the stated strength of each net."""
    rows = []
    for name, side in sidecars.items():
        for plies, block in ((1, "vs"), (2, "vs_2ply")):
            figures = {**side.get("strength", {}).get(block, {}), **side.get(TWO_PLY_KEY, {}).get(block, {})}
            for opp, r in figures.items():
                rows.append(
                    [
                        f"{name} {plies}-ply",
                        opp,
                        f"{r['ppg']:+.3f} ± {r['stderr']:.3f}",
                        f"{r['win_pct']:.1f}% wins",
                        f"{r['games']:,} games",
                    ]
                )
    return rows


def _parser() -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(
        prog="python -m tdbook.experiments.backgammon.strength",
        description="Measure a shipped backgammon net's strength (notebook 08 or 09) on the report seed set (never "
        "used to choose a net) and write it into its sidecar: 1-ply, cubeless, duplicate dice, against pubeval and "
        "each gnubg level.",
    )
    ap.add_argument(
        "nets", nargs="+", metavar="NET", help="weights files (.npz) with a sidecar, e.g. data/td_gammon_80.npz"
    )
    d = StrengthPlan()
    ap.add_argument("--pubeval-pairs", type=int, default=d.pubeval_pairs, help="duplicate pairs against pubeval")
    ap.add_argument(
        "--gnubg-pairs", type=int, default=d.gnubg_pairs, help="duplicate pairs against each 0-ply gnubg level"
    )
    ap.add_argument(
        "--worldclass-pairs",
        type=int,
        default=d.worldclass_pairs,
        help="duplicate pairs against gnubg world class (2-ply, slow)",
    )
    ap.add_argument(
        "--two-ply-pairs",
        type=int,
        default=d.two_ply_pairs,
        help="duplicate pairs at 2-ply vs pubeval and gnubg-expert",
    )
    ap.add_argument("--seed-index", type=int, default=d.seed_index, help="which seed of the report set (default 0)")
    ap.add_argument("--show", action="store_true", help="print the figures the sidecars hold; measure nothing")
    ap.add_argument("--no-progress", action="store_true", help="no progress bars")
    return ap


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    a = _parser().parse_args(argv)
    if a.show:
        try:
            sides = {n: read_sidecar(n) for n in a.nets}
        except ValueError as e:
            print(f"backgammon_strength: error: {e}", file=sys.stderr)
            return 2
        for row in table_rows(sides):
            print("  ".join(row))
        return 0
    try:
        plan = StrengthPlan(a.pubeval_pairs, a.gnubg_pairs, a.worldclass_pairs, a.two_ply_pairs, a.seed_index).check()
        for n in a.nets:
            read_sidecar(n)
            load_net(n)
    except ValueError as e:
        print(f"backgammon_strength: error: {e}", file=sys.stderr)
        return 2
    cmd = "python -m tdbook.experiments.backgammon.strength " + shlex.join(argv)
    for n in a.nets:
        record(n, plan, cmd, progress=not a.no_progress)
        for row in table_rows({n: read_sidecar(n)}):
            print("  ".join(row))
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
