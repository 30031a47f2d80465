"""The TD-Gammon nets shipped in ``data/`` (``td_gammon_<hidden>.npz``) and their sidecars (Powell (2000)
§5.2: 40 and 80 hidden units): the exact training command, seed, games, wall time, code version and
learning curve of each, and :func:`retrain` — the same run from scratch with its recorded spec."""

from __future__ import annotations

from dataclasses import asdict, dataclass
from pathlib import Path

from ...core.paths import data_dir
from ...core.storage import code_version, read_sidecar, write_sidecar
from ...learners.backgammon_net import TDGammon
from .spec import CurvePoint, TrainSpec
from .training import Schedule, train

SIZES = (40, 80)


def net_path(hidden: int) -> Path:
    return data_dir() / f"td_gammon_{hidden}.npz"


@dataclass
class Shipped:
    """A trained net with its sidecar (training command, seed, games, wall time, code version,
    learning curve, and its strength figure: :mod:`.backgammon_strength`)."""

    hidden: int
    model: TDGammon
    sidecar: dict
    path: Path

    @property
    def spec(self) -> TrainSpec:
        return TrainSpec(**self.sidecar["spec"])

    @property
    def curve(self) -> list[CurvePoint]:
        return [CurvePoint(**c) for c in self.sidecar.get("learning_curve", [])]


def load_shipped(hidden: int) -> Shipped:
    """The shipped ``data/td_gammon_<hidden>.npz`` and its sidecar (ValueError naming what is wrong)."""
    p = net_path(hidden)
    model = TDGammon.load(p, hidden=hidden)
    return Shipped(hidden, model, read_sidecar(p), p)


def retrain(shipped: Shipped, root: Path, progress: bool = True) -> Shipped:
    """Retrain a shipped net from scratch with its recorded spec (checkpointed under ``root``)."""
    s = shipped.sidecar
    spec = shipped.spec
    out = Path(root) / f"td_gammon_{shipped.hidden}.npz"
    model, log = train(
        spec,
        Schedule(eval_every=s.get("eval_every", 10_000), eval_pairs=s.get("eval_pairs", 500)),
        checkpoint=Path(root) / f"td_gammon_{shipped.hidden}.ckpt.npz",
        progress=progress,
    )
    side = {
        **s,
        "games": log.games_done,
        "wall_time_s": round(log.wall_time, 1),
        "code_version": code_version(),
        "learning_curve": [asdict(c) for c in log.curve],
        "resumed_at": log.resumed_at,
    }
    for k in ("strength", "selection_ladder", "selection_ladder_note", "selection_ladder_raw_final", "snapshot_ladder"):
        side.pop(k, None)  # measured on the shipped weights, not on these
    model.save(out, log=log.to_dict(), command=s["command"])
    write_sidecar(out, side)
    return Shipped(shipped.hidden, model, side, out)
