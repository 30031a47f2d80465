"""The shipped records of notebooks 09 and 10 (issue 52 §2): measurements that take an hour or more are read, in the
standard profile, from a record in ``data/`` made by a recorded command, and a sample of each is measured again.

A record is used only when it was made with exactly the settings asked for (the standard profile's); any other
settings (the full profile, a knob set by hand) measure afresh.  The records and their samples:

- the learning curves of the four rivals at equal budgets (notebook 09 §3; Symmetric gammon post (2011)):
  ``data/symmetric_gammon_rivals.json``, written by ``python -m tdbook.experiments.backgammon.symmetric_gammon_records
  rivals``; the sample is the first points of one rival and seed, trained again from scratch (:func:`check_rivals`);
- the rollout diagnosis (notebook 10): each diagnosed net's positions, equities and rollouts under ``rollouts`` in its
  sidecar, written by ``… symmetric_gammon_records rollouts NET …``; the sample is the positions drawn again (their
  SHA-256) and the first positions played out again (:func:`check_rollouts`);
- the long matches every net's sidecar states (selection match, ladder, learning curve): the sample is the trainer's
  own 4,000-game match against pubeval at the end of training — the first 2,000 pairs of the selection match, on the
  dice the ladder's games are played by the same code on — replayed (:func:`check_trainer_match`), and a learning
  curve's point of a shipped net against gnubg-expert replayed (:func:`check_curve_point`).

A sample that comes out different from its record by more than :data:`LIMIT` standard errors raises
:class:`RecordMismatch` (the record is not what this code makes); a smaller difference (another processor's rounding
can turn a near-tie the other way) is shown, not hidden (:class:`Check`).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import shlex
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from ...core.paths import data_dir
from ...core.storage import add_to_sidecar, atomic_write_bytes, code_version, read_sidecar, refuse_dirty
from ...learners.backgammon_symmetric import N_OUT_BG
from ...players.backgammon_symmetric import SymNetPlayer, sym_net
from .match import SELECTION_SEED, make_opponent, run_match, selection_seed
from .rollout_consistency import _ROLLOUT_STREAMS, contact_positions, rollout_consistency, rollout_results
from .symmetric_gammon_nets import load_shipped, net_path
from .symmetric_gammon_rivals import RIVALS, Curve, train_rival, vs_pubeval

#: The module as ``python -m`` names it.
MODULE = "tdbook.experiments.backgammon.symmetric_gammon_records"
#: The rivals' record in ``data/``.
RIVALS_RECORD = "symmetric_gammon_rivals.json"
#: The sidecar key of a net's rollout record.
ROLLOUTS_KEY = "rollouts"
#: A sample further from its record than this many standard errors is not the record's measurement.
LIMIT = 4.0


class RecordMismatch(ValueError):
    """A sample measured again is not what its record says: the record was made by other code or other weights."""


@dataclass(frozen=True)
class Check:
    """One sample of a record measured again: what, the recorded value, the value now, and the standard error that
    judges a difference (0: the values are exact)."""

    what: str
    recorded: float
    now: float
    stderr: float = 0.0

    @property
    def identical(self) -> bool:
        return self.recorded == self.now

    def row(self) -> list[str]:
        same = "identical" if self.identical else f"differs by {self.now - self.recorded:+.2g}"
        return [self.what, f"{self.recorded:+.6g}", f"{self.now:+.6g}", same]

    def enforce(self) -> Check:
        """The check itself, or :class:`RecordMismatch` when the difference is beyond :data:`LIMIT` standard errors
        (or any difference, for an exact value)."""
        d = abs(self.now - self.recorded)
        if (self.stderr == 0 and d > 1e-9 * max(1.0, abs(self.recorded))) or d > LIMIT * self.stderr:
            raise RecordMismatch(
                f"{self.what}: the record says {self.recorded:+.6g}, measured again {self.now:+.6g} — the record is "
                "not what this code makes; run the record's command again (python -m " + MODULE + " --help)"
            )
        return self


CHECK_HEADER = ["sample measured again", "recorded", "now", "same?"]


def _write_record(path: Path, record: dict) -> None:
    refuse_dirty([path], record.get("code_version"))
    atomic_write_bytes(path, (json.dumps(record, indent=1) + "\n").encode())


# ----------------------------------------------------------------------------- the rivals' learning curves (09 §3)


def rivals_spec(hidden: int, games: int, alpha: float, seed: int, seeds: int, eval_every: int, eval_pairs: int) -> dict:
    """The settings a rivals' record is made with (and matched on)."""
    return {
        "hidden": int(hidden),
        "games": int(games),
        "alpha": float(alpha),
        "seed": int(seed),
        "seeds": int(seeds),
        "eval_every": int(eval_every),
        "eval_pairs": int(eval_pairs),
    }


def train_rivals(spec: dict, progress: bool = True) -> list[Curve]:
    """Every rival of :data:`RIVALS` trained from scratch for each of ``spec["seeds"]`` seeds (``seed``, ``seed`` + 1,
    …) with its learning curve against pubeval (notebook 09 §3)."""
    return [
        train_rival(
            r, spec["hidden"], spec["games"], spec["alpha"], spec["seed"] + s, spec["eval_every"], spec["eval_pairs"],
            progress=progress,
        )[1]
        for s in range(spec["seeds"])
        for r in RIVALS
    ]  # fmt: skip


def record_rivals(spec: dict, command: str, path: Path | None = None, progress: bool = True) -> dict:
    """Train the rivals (:func:`train_rivals`) and write their curves with the command, the settings and the code
    version to ``path`` (``data/``:data:`RIVALS_RECORD`)."""
    path = Path(path) if path is not None else data_dir() / RIVALS_RECORD
    version = code_version()
    refuse_dirty([path], version)
    t0 = time.perf_counter()
    curves = train_rivals(spec, progress)
    record = {
        "command": command,
        "what": "notebook 09 §3: each rival trained from scratch by self-play TD(0) and measured against pubeval along "
        "the way (1-ply, duplicate dice, selection seed 99), curves in the order seed by seed, rival by rival",
        "code_version": version,
        "wall_time_s": round(time.perf_counter() - t0, 1),
        "spec": spec,
        "curves": [c.as_dict() for c in curves],
    }
    _write_record(path, record)
    return record


def recorded_rivals(spec: dict, path: Path | None = None) -> tuple[list[Curve], dict] | None:
    """The curves of the rivals' record and the record, when it was made with ``spec``; None when there is no record
    or it was made with other settings."""
    path = Path(path) if path is not None else data_dir() / RIVALS_RECORD
    if not path.is_file():
        return None
    record = json.loads(path.read_text())
    if record.get("spec") != spec:
        return None
    return [Curve(**c) for c in record["curves"]], record


def check_rivals(curves: list[Curve], spec: dict, rival: str, points: int) -> list[Check]:
    """Train ``rival`` again from scratch on the record's first seed up to its ``points``-th point and compare each
    point with the record (exact: the same seed trains the same net)."""
    if rival not in RIVALS or not 1 <= points <= spec["games"] // spec["eval_every"]:
        raise ValueError(f"rival must be one of {RIVALS} and points 1..{spec['games'] // spec['eval_every']}")
    seed = spec["seed"]
    rec = next(c for c in curves if c.rival == rival and c.seed == seed)
    games = points * spec["eval_every"]
    _, now = train_rival(rival, spec["hidden"], games, spec["alpha"], seed, spec["eval_every"], spec["eval_pairs"])
    return [
        Check(f"rival {rival}, seed {seed}: ppg vs pubeval after {g:,} games", p0, p1, s).enforce()
        for g, p0, p1, s in zip(now.games, rec.ppg, now.ppg, rec.stderr)
    ]


# ----------------------------------------------------------------------------- the rollout diagnosis (10)


def positions_sha256(positions: np.ndarray) -> str:
    """The SHA-256 of a set of positions (int8 rows), the record's fingerprint of the positions it rolled out."""
    return hashlib.sha256(np.ascontiguousarray(positions, np.int8).tobytes()).hexdigest()


def _rollout_settings(n_positions: int, trials: int, seed: int, source: str) -> dict:
    return {"positions": int(n_positions), "trials": int(trials), "seed": int(seed), "source": source}


def record_rollouts(
    names: Sequence[str], n_positions: int, trials: int, seed: int, command: str, source: str = "self", progress=True
) -> None:
    """The rollout diagnosis of each net of ``names`` (:func:`~.rollout_consistency.rollout_consistency`), written into
    its sidecar under :data:`ROLLOUTS_KEY` with the command, settings, code version and every position's values."""
    version = code_version()
    refuse_dirty([net_path(n).with_suffix(".json") for n in names], version)
    for n in names:
        t0 = time.perf_counter()
        res = rollout_consistency(load_shipped(n), n_positions, trials, seed, source, progress=progress)
        add_to_sidecar(
            net_path(n),
            ROLLOUTS_KEY,
            {
                "command": command,
                "what": "contact positions from the net's own 1-ply self-play, each played out by the net against "
                "itself (1-ply, cubeless, fresh dice): its equity, the mean and standard error of the play-outs "
                "(tdbook.experiments.backgammon.rollout_consistency)",
                **_rollout_settings(n_positions, trials, seed, source),
                "code_version": version,
                "wall_time_s": round(time.perf_counter() - t0, 1),
                "positions_sha256": positions_sha256(res["positions"]),
                "net": res["net"].tolist(),
                "rollout": res["rollout"].tolist(),
                "rollout_se": res["rollout_se"].tolist(),
            },
        )


def recorded_rollouts(names: Sequence[str], n_positions: int, trials: int, seed: int, source: str = "self"):
    """``{net: result}`` as :func:`~.rollout_consistency.rollout_consistency` returns it (without the positions), read
    from the sidecars of ``names``, when every one has a record made with these settings; else None."""
    want = _rollout_settings(n_positions, trials, seed, source)
    out = {}
    for n in names:
        rec = read_sidecar(net_path(n)).get(ROLLOUTS_KEY)
        if not rec or {k: rec.get(k) for k in want} != want:
            return None
        out[n] = {
            "net": np.array(rec["net"]),
            "rollout": np.array(rec["rollout"]),
            "rollout_se": np.array(rec["rollout_se"]),
            "trials": rec["trials"],
            "source": rec["source"],
            "positions_sha256": rec["positions_sha256"],
            "command": rec["command"],
        }
    return out


def check_rollouts(results: dict[str, dict[str, Any]], name: str, n_positions: int, seed: int, k: int) -> list[Check]:
    """Draw net ``name``'s positions again (their SHA-256 against the record) and play its first ``k`` positions out
    again with the record's trials and dice: each rollout's mean against the record (exact: the same dice and net)."""
    res = results[name]
    model = load_shipped(name)
    positions = contact_positions(model, n_positions, seed, res["source"])
    sha = positions_sha256(positions)
    if sha != res["positions_sha256"]:
        raise RecordMismatch(
            f"{name}: the positions drawn again (sha256 {sha[:12]}…) are not the record's "
            f"({res['positions_sha256'][:12]}…); run its command again: {res['command']}"
        )
    net, cap, trials = sym_net(model), 3 if model.outputs == N_OUT_BG else 2, int(res["trials"])
    out = np.zeros(trials, np.int64)
    checks = []
    for i in range(min(k, len(positions))):
        rollout_results(net, positions[i], seed, _ROLLOUT_STREAMS + i * trials, out, cap)
        what = f"{name}: position {i}, mean of {trials} play-outs"
        checks.append(Check(what, float(res["rollout"][i]), float(out.mean()), float(res["rollout_se"][i])).enforce())
        checks.append(
            Check(f"{name}: position {i}, the net's equity", float(res["net"][i]), model.equity(positions[i]))
        )
    return [c.enforce() for c in checks]


# ----------------------------------------------------------------------------- the long matches of the sidecars


def check_trainer_match(name: str) -> Check:
    """Replay the match net ``name``'s trainer played against pubeval when it finished (its sidecar's ``vs_pubeval``:
    the first pairs of the selection match, 1-ply, duplicate dice) and compare the points per game (exact)."""
    side = read_sidecar(net_path(name))
    rec = side["vs_pubeval"]
    r = vs_pubeval(load_shipped(name), rec["games"] // 2, seed=SELECTION_SEED)
    what = f"{name}: the trainer's {rec['games']:,} games vs pubeval (selection seed), ppg"
    return Check(what, float(rec["ppg"]), float(r.ppg), float(rec["stderr"])).enforce()


def check_curve_point(name: str, opponent: str = "gnubg-expert") -> Check:
    """Replay net ``name``'s own point of the learning curve in its sidecar (the net at its games) against
    ``opponent`` (pubeval or gnubg-expert, the curve's pairs, selection seed) and compare the points per game."""
    side = read_sidecar(net_path(name))
    curve = side.get("curve")
    if not curve:
        raise ValueError(f"{name}.npz has no learning curve in its sidecar")
    pt = next((p for p in curve["points"] if p["games"] == side["games"]), None)
    if pt is None:
        raise ValueError(f"{name}'s learning curve has no point at its own {side['games']:,} games")
    field = {"pubeval": "vs_pubeval", "gnubg-expert": "vs_gnubg_expert"}[opponent]
    rec, pairs = pt[field], curve["pairs"][opponent]
    model = load_shipped(name)
    if opponent == "pubeval":
        r = vs_pubeval(model, pairs, seed=curve["seed"])
    else:
        r = run_match(SymNetPlayer(model), make_opponent(opponent), pairs, seed=selection_seed(curve["seed"]))
    what = f"{name}: its learning-curve point, {2 * pairs:,} games vs {opponent} (selection seed), ppg"
    return Check(what, float(rec["ppg"]), float(r.ppg), float(rec["stderr"])).enforce()


def check_rows(checks: Sequence[Check]) -> list[list[str]]:
    return [c.row() for c in checks]


# ----------------------------------------------------------------------------- the command line


def _parser() -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(
        prog=f"python -m {MODULE}",
        description="Write the shipped records notebooks 09 and 10 read in their standard profile (from committed "
        "code only).",
    )
    sub = ap.add_subparsers(dest="what", required=True)
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("--no-progress", action="store_true", help="no progress bars")
    r = sub.add_parser(
        "rivals", parents=[common], help="notebook 09 §3: the four rivals' learning curves at equal budgets"
    )
    r.add_argument("--hidden", type=int, required=True)
    r.add_argument("--games", type=int, required=True)
    r.add_argument("--alpha", type=float, required=True)
    r.add_argument("--seed", type=int, required=True)
    r.add_argument("--seeds", type=int, required=True)
    r.add_argument("--eval-every", type=int, required=True)
    r.add_argument("--eval-pairs", type=int, required=True)
    r.add_argument("--out", type=Path, default=None, help=f"default data/{RIVALS_RECORD}")
    o = sub.add_parser(
        "rollouts", parents=[common], help="notebook 10: the rollout diagnosis of shipped nets, into their sidecars"
    )
    o.add_argument("nets", nargs="+", metavar="NET", help="net names (data/NET.npz)")
    o.add_argument("--positions", type=int, required=True)
    o.add_argument("--trials", type=int, required=True)
    o.add_argument("--seed", type=int, required=True)
    return ap


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    a = _parser().parse_args(argv)
    cmd = f"python -m {MODULE} " + shlex.join(argv)
    try:
        if a.what == "rivals":
            spec = rivals_spec(a.hidden, a.games, a.alpha, a.seed, a.seeds, a.eval_every, a.eval_pairs)
            if min(spec["games"], spec["eval_every"], spec["eval_pairs"], spec["seeds"], spec["hidden"]) < 1:
                raise ValueError(f"every setting must be >= 1, got {spec}")
            rec = record_rivals(spec, cmd, a.out, progress=not a.no_progress)
            print(f"wrote {len(rec['curves'])} curves ({rec['wall_time_s']} s)")
        else:
            for n in a.nets:
                load_shipped(n)
            record_rollouts(a.nets, a.positions, a.trials, a.seed, cmd, progress=not a.no_progress)
            print(f"wrote the rollout records of {', '.join(a.nets)}")
    except ValueError as e:
        print(f"symmetric_gammon_records: error: {e}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
