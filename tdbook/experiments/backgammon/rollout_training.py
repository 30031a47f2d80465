"""Training a net on its own rollouts (issue 51): the loop strong open programs use, on two cores.

Each iteration of :func:`run_loop`:

1. **Positions** from the current net's own 1-ply self-play (game ``g`` on the dice of ``(iteration seed, g)``),
   every position met before a roll, distinct; a contact position is always kept, a race or bear-off one with
   probability ``race_share`` (the equity-loss diagnosis puts the loss in contact play), until ``positions`` of them
   are drawn (:func:`sample_positions`).
2. **Rollouts** of each by the current net (:func:`~.rollout_targets.rollout_targets`: truncated, stratified dice,
   optionally the luck of the first plies taken out), in chunks checkpointed as they finish — or, with ``search``
   set, each position's **2-ply value** by the current net (:func:`~.search_targets.search_targets`: targets from
   its own stronger play, without noise).
3. **The signal's learning curve**: before the net sees them, the new positions measure how far the net is from its
   own (truncated) rollouts — the RMS of target − net equity with the rollouts' noise removed (as
   :func:`~.rollout_consistency.consistency_gap` does for full rollouts) and their mean difference.
4. **Supervised fitting** (:meth:`~tdbook.learners.backgammon_symmetric.SymmetricGammon.fit`): ``epochs`` passes,
   in an order drawn from the iteration seed, over the positions of the last ``window`` iterations, step ``alpha``.

Then the loop repeats with the new net.  The iteration seed is ``task_seed(seed, iteration)``
(:func:`~tdbook.core.parallel.task_seed`), so an iteration depends only on the net it starts from and its number.

The checkpoint (one ``.npz``, written atomically after every chunk of rollouts and every fit) holds the net, the
positions and targets of the window, the current iteration's rollouts so far and the log; a killed loop restarted
with the same command ends with the same bytes as one never stopped.  ``python -m tdbook train
symmetric-gammon-rollouts`` runs it from a shipped net (:class:`RolloutTrainer`); the net it writes has the
per-iteration log, the command and the parent's SHA-256 in its sidecar.
"""

from __future__ import annotations

import argparse
import hashlib
import math
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
from tqdm.auto import tqdm

from ...claims import Estimate
from ...core.parallel import local_cluster, task_seed
from ...core.paths import repo_root
from ...core.storage import code_version, sidecar_path
from ...games.backgammon import NSLOT, is_race, make_buffers
from ...learners.backgammon_symmetric import SymmetricGammon, equity
from ...players.backgammon_symmetric import sym_net
from ..common import training_driver as driver
from .rollout_consistency import selfplay_positions
from .rollout_targets import RolloutSpec, rollout_targets
from .search_targets import SearchSpec, search_targets
from .symmetric_gammon_cli import pubeval_record

#: What a checkpoint of the loop says it is.
FORMAT = "tdbook.RolloutLoop/1"
#: What the loop fits each position to (``--targets``): its rollouts, or its 2-ply value.
TARGETS = ("rollouts", "2-ply")


@dataclass(frozen=True)
class LoopSpec:
    """Everything an iteration's result depends on besides the net it starts from (module docstring); with
    ``search`` the targets are the net's 2-ply values and ``rollout`` must be left at its defaults (it is not used)."""

    positions: int = 20_000
    race_share: float = 0.25
    rollout: RolloutSpec = field(default_factory=RolloutSpec)
    epochs: int = 2
    alpha: float = 0.01
    window: int = 3
    seed: int = 1
    search: SearchSpec | None = None

    def check(self) -> LoopSpec:
        for name, low in (("positions", 2), ("epochs", 1), ("window", 1), ("seed", 0)):
            v = getattr(self, name)
            if not isinstance(v, (int, np.integer)) or isinstance(v, bool) or v < low:
                raise ValueError(f"{name} must be an int >= {low}, got {v!r}")
        if not (isinstance(self.race_share, (int, float)) and 0.0 <= self.race_share <= 1.0):
            raise ValueError(f"race_share must be a share in [0, 1], got {self.race_share!r}")
        if not (isinstance(self.alpha, (int, float)) and math.isfinite(self.alpha) and self.alpha > 0):
            raise ValueError(f"alpha must be a number > 0, got {self.alpha!r}")
        self.rollout.check()
        if self.search is not None:
            if not isinstance(self.search, SearchSpec):
                raise ValueError(f"search must be a SearchSpec or None, got {self.search!r}")
            self.search.check()
            if self.rollout != RolloutSpec():
                raise ValueError(f"targets from search take no rollout settings, got {self.rollout}")
        return self

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> LoopSpec:
        search = d.get("search")  # absent from the records of loops before search targets
        return cls(**(d | {"rollout": RolloutSpec(**d["rollout"]), "search": SearchSpec(**search) if search else None}))


def sample_positions(model: SymmetricGammon, n: int, race_share: float, seed: int) -> np.ndarray:
    """``n`` distinct positions (side on roll's view, before its roll) of ``model``'s own 1-ply self-play, games on
    the dice of ``(seed, g)``: every contact position, a race or bear-off position with probability ``race_share``
    (drawn by ``seed``), as many games as it takes; ``(n, 28)`` int8, in the order of a draw by ``seed``.
    ValueError if ``race_share`` is 0 and the games hold too few contact positions after 2**20 games."""
    net = sym_net(model)
    out_pos, out_mv, ws = make_buffers()
    games = max(8, n // 16)
    while True:
        rec = np.zeros((games * 120, NSLOT), np.int8)
        rec = rec[: selfplay_positions(net, games, seed, 1, rec, out_pos, out_mv, ws)]
        distinct = np.unique(rec, axis=0)
        rng = np.random.default_rng(seed)
        race = np.array([is_race(p) for p in distinct], bool)
        keep = ~race | (rng.random(len(distinct)) < race_share)
        pool = distinct[keep]
        if len(pool) >= n:
            return pool[rng.permutation(len(pool))[:n]]
        if games >= 1 << 20:
            raise ValueError(f"{games:,} games hold only {len(pool):,} positions of the kind asked, not {n:,}")
        games *= 2


@dataclass
class LoopState:
    """Where a loop stands: iterations done, the window's positions/targets/iteration numbers, the current
    iteration's positions and rollouts so far (``cur_done`` of them), and one log record per iteration done."""

    iterations: int = 0
    db_pos: np.ndarray = field(default_factory=lambda: np.zeros((0, NSLOT), np.int8))
    db_tgt: np.ndarray | None = None
    db_it: np.ndarray = field(default_factory=lambda: np.zeros(0, np.int64))
    cur_pos: np.ndarray | None = None
    cur_tgt: np.ndarray | None = None
    cur_se: np.ndarray | None = None
    cur_plies: np.ndarray | None = None
    cur_done: int = 0
    cur_seconds: float = 0.0
    log: list[dict[str, Any]] = field(default_factory=list)

    def aux(self) -> dict[str, np.ndarray]:
        out = {"db_pos": self.db_pos, "db_tgt": self.db_tgt, "db_it": self.db_it}
        if self.cur_pos is not None:
            out |= {"cur_pos": self.cur_pos, "cur_tgt": self.cur_tgt, "cur_se": self.cur_se,
                    "cur_plies": self.cur_plies}  # fmt: skip
        return {k: v for k, v in out.items() if v is not None}

    def meta(self) -> dict[str, Any]:
        return {
            "iterations": self.iterations,
            "cur_done": self.cur_done,
            "cur_seconds": self.cur_seconds,
            "log": self.log,
        }

    @classmethod
    def read(cls, meta: dict[str, Any], aux: dict[str, np.ndarray]) -> LoopState:
        def pos(a: np.ndarray) -> np.ndarray:
            return np.asarray(a, np.int64).astype(np.int8).reshape(-1, NSLOT)

        st = cls(
            iterations=int(meta["iterations"]),
            db_pos=pos(aux.get("db_pos", np.zeros((0, NSLOT)))),
            db_tgt=aux.get("db_tgt"),
            db_it=np.asarray(aux.get("db_it", np.zeros(0)), np.int64),
            cur_done=int(meta["cur_done"]),
            cur_seconds=float(meta["cur_seconds"]),
            log=list(meta["log"]),
        )
        if "cur_pos" in aux:
            st.cur_pos, st.cur_tgt = pos(aux["cur_pos"]), aux["cur_tgt"]
            st.cur_se, st.cur_plies = aux["cur_se"], aux["cur_plies"]
        return st


def read_checkpoint(path: str | Path) -> tuple[SymmetricGammon, LoopSpec, LoopState]:
    """The net, spec and state of the loop checkpoint at ``path``; ValueError naming the file when it is not one."""
    model = SymmetricGammon.load(path)
    loop = model.info.get("loop")
    if not isinstance(loop, dict) or loop.get("format") != FORMAT:
        raise ValueError(f"{path}: a symmetric-gammon net, not a checkpoint of the rollout loop ({FORMAT})")
    try:
        spec = LoopSpec.from_dict(loop["spec"]).check()
        state = LoopState.read(loop["state"], model.net.aux)
    except (KeyError, TypeError, ValueError) as e:
        raise ValueError(f"{path}: the rollout loop's record is damaged ({type(e).__name__}: {e})") from None
    model.net.aux = {}
    return model, spec, state


def write_checkpoint(path: str | Path, model: SymmetricGammon, spec: LoopSpec, state: LoopState) -> None:
    """Write the loop's checkpoint: net, spec, state, atomically in one file."""
    model.info["loop"] = {"format": FORMAT, "spec": spec.to_dict(), "state": state.meta()}
    model.save(path, aux=state.aux())


def _equities(model: SymmetricGammon, positions: np.ndarray) -> np.ndarray:
    """The net's equity of each of ``positions`` (side on roll's view)."""
    return np.array([model.equity(p) for p in positions])


def _gap(targets: np.ndarray, se: np.ndarray, net: np.ndarray) -> tuple[Estimate, Estimate]:
    """(gap, bias): the RMS of target − net equity with the targets' noise removed, and the mean of target − net."""
    d = np.array([equity(t) for t in targets]) - net
    sq = Estimate.of(d**2 - se**2)
    g = math.sqrt(sq.mean) if sq.mean > 0 else 0.0
    gap = Estimate(g, sq.stderr / (2 * g) if g > 0 else math.sqrt(sq.stderr), sq.n)
    return gap, Estimate.of(d)


def _record(e: Estimate) -> dict[str, float]:
    return {"mean": float(e.mean), "stderr": float(e.stderr), "n": int(e.n)}


def run_loop(
    model: SymmetricGammon,
    spec: LoopSpec,
    iterations: int,
    state: LoopState | None = None,
    *,
    checkpoint: str | Path | None = None,
    snapshot: Any = None,
    chunk: int = 256,
    progress: bool = True,
    stop_after: int | None = None,
) -> LoopState:
    """Run the loop (module docstring) on ``model`` (trained in place) until ``iterations`` are done, from ``state``
    (a fresh one when None).  ``checkpoint``: written after every ``chunk`` positions rolled out and every fit;
    ``snapshot(model, iteration)``: called after each fit (a copy of the net for learning curves); ``stop_after``:
    stop once this many positions of the current iteration are rolled out, as a kill would (for tests)."""
    spec.check()
    if not isinstance(iterations, (int, np.integer)) or iterations < 1:
        raise ValueError(f"iterations must be an int >= 1, got {iterations!r}")
    if not isinstance(chunk, (int, np.integer)) or chunk < 1:
        raise ValueError(f"chunk must be an int >= 1, got {chunk!r}")
    st = state if state is not None else LoopState()
    n_out = model.outputs
    if st.db_tgt is None:
        st.db_tgt = np.zeros((0, n_out))

    def save() -> None:
        if checkpoint is not None:
            write_checkpoint(checkpoint, model, spec, st)

    while st.iterations < iterations:
        it = st.iterations
        seed = task_seed(spec.seed, it)
        t0 = time.perf_counter()
        if st.cur_pos is None:
            st.cur_pos = sample_positions(model, spec.positions, spec.race_share, seed)
            st.cur_tgt = np.zeros((spec.positions, n_out))
            st.cur_se = np.zeros(spec.positions)
            st.cur_plies = np.zeros(spec.positions)
            st.cur_done = 0
        with tqdm(total=spec.positions, initial=st.cur_done, desc=f"iteration {it + 1}", unit="position",
                  disable=not progress, leave=False) as bar:  # fmt: skip
            while st.cur_done < spec.positions:
                if stop_after is not None and st.cur_done >= stop_after:
                    return st
                a = st.cur_done
                b = min(a + chunk, spec.positions)
                if spec.search is not None:
                    r = search_targets(model, st.cur_pos[a:b], spec.search, progress=False)
                else:
                    r = rollout_targets(model, st.cur_pos[a:b], spec.rollout, seed, first=a, progress=False)
                st.cur_tgt[a:b], st.cur_se[a:b], st.cur_plies[a:b] = r["targets"], r["se"], r["plies"]
                st.cur_done = b
                now = time.perf_counter()
                st.cur_seconds += now - t0
                t0 = now
                save()
                bar.update(b - a)
        net_eq = _equities(model, st.cur_pos)
        contact = np.array([not is_race(p) for p in st.cur_pos], bool)
        gap, bias = _gap(st.cur_tgt, st.cur_se, net_eq)
        gap_c, bias_c = _gap(st.cur_tgt[contact], st.cur_se[contact], net_eq[contact])
        keep = st.db_it > it - spec.window
        st.db_pos = np.concatenate([st.db_pos[keep], st.cur_pos])
        st.db_tgt = np.concatenate([st.db_tgt[keep], st.cur_tgt])
        st.db_it = np.concatenate([st.db_it[keep], np.full(spec.positions, it, np.int64)])
        rng = np.random.default_rng(seed)
        order = np.concatenate([rng.permutation(len(st.db_pos)) for _ in range(spec.epochs)])
        t1 = time.perf_counter()
        sq = model.fit(st.db_pos, st.db_tgt, order, spec.alpha)
        fit_s = time.perf_counter() - t1
        after = _equities(model, st.cur_pos)
        eq_t = np.array([equity(t) for t in st.cur_tgt])
        epoch = len(st.db_pos)
        st.log.append(
            {
                "iteration": it + 1,
                "positions": int(spec.positions),
                "contact_share": float(contact.mean()),
                "mean_plies": float(st.cur_plies.mean()),
                "rollout_se": float(np.sqrt(np.mean(st.cur_se**2))),
                "gap": _record(gap),
                "bias": _record(bias),
                "gap_contact": _record(gap_c),
                "bias_contact": _record(bias_c),
                "fit_positions": int(epoch),
                "fit_rms_first_epoch": float(np.sqrt(sq[:epoch].mean())),
                "fit_rms_last_epoch": float(np.sqrt(sq[-epoch:].mean())),
                "rms_after_fit_new": float(np.sqrt(np.mean((eq_t - after) ** 2))),
                "rollout_seconds": round(st.cur_seconds, 1),
                "fit_seconds": round(fit_s, 1),
            }
        )
        st.iterations += 1
        st.cur_pos = st.cur_tgt = st.cur_se = st.cur_plies = None
        st.cur_done, st.cur_seconds = 0, 0.0
        save()
        if snapshot is not None:
            snapshot(model, st.iterations)
    return st


# ----------------------------------------------------------------------------- the command line


def _options(ap: argparse.ArgumentParser) -> None:
    ap.add_argument("--warm-start", metavar="FILE", required=True, help="the net the loop starts from (a shipped net)")
    ap.add_argument("--iterations", type=int, required=True, help="iterations in all")
    ap.add_argument("--positions", type=int, default=LoopSpec.positions, help="positions rolled out per iteration")
    ap.add_argument("--targets", choices=TARGETS, default="rollouts",
                    help="what each position is fitted to: the net's truncated rollouts, or its 2-ply value (the "
                    "rollout options then do not apply; --fast does)")  # fmt: skip
    ap.add_argument("--keep", type=int, default=SearchSpec.keep,
                    help="with --targets 2-ply: moves of each roll re-valued one ply deeper")  # fmt: skip
    ap.add_argument("--race-share", type=float, default=LoopSpec.race_share,
                    help="probability a race or bear-off position is kept (a contact one always is)")  # fmt: skip
    ap.add_argument("--trials", type=int, default=RolloutSpec.trials, help="play-outs per position")
    ap.add_argument("--truncate", type=int, default=RolloutSpec.truncate, help="plies per play-out (0: to the end)")
    ap.add_argument("--vr-plies", type=int, default=RolloutSpec.vr_plies,
                    help="plies whose luck is taken out of each play-out (21 move choices each)")  # fmt: skip
    ap.add_argument("--no-bearoff-stop", action="store_true",
                    help="play bear-offs out instead of taking the exact one-sided table's value")  # fmt: skip
    ap.add_argument("--fast", action="store_true",
                    help="play-outs with the hidden units' tanh by a rational function within 3e-7 (about "
                    "two-fifths cheaper)")  # fmt: skip
    ap.add_argument("--from-base", action="store_true",
                    help="play-outs valuing each roll's afterstates from a base (only the inputs a move changes "
                    "summed again: about a fifth cheaper; scores within 1e-12)")  # fmt: skip
    ap.add_argument("--epochs", type=int, default=LoopSpec.epochs, help="passes over the window's positions per fit")
    ap.add_argument("--alpha", type=float, default=LoopSpec.alpha, help="step size of the supervised fit")
    ap.add_argument("--window", type=int, default=LoopSpec.window, help="iterations of positions each fit uses")
    ap.add_argument("--seed", type=int, default=LoopSpec.seed, help="positions' games, dice and fitting orders")
    ap.add_argument("--snapshots", action="store_true", help="keep a copy of the net after every iteration")
    ap.add_argument("--pubeval-pairs", type=int, default=1000, help="duplicate pairs of the final pubeval match")
    ap.add_argument("--workers", type=int, default=1,
                    help="roll out on a Dask LocalCluster of this many one-thread workers (1: in this process); "
                    "the same bytes either way")  # fmt: skip


def net_name(parent: str, iterations: int, lever: str = "rollouts") -> str:
    """The loop's net: its parent's name with the lever (``rollouts``, or ``search`` for 2-ply targets) and the
    iterations before the games, ``symgammon_free160_positional_bg_rollouts4_7400k``."""
    head, _, games = parent.rpartition("_")
    return f"{head}_{lever}{iterations}_{games}" if head and games.endswith("k") else f"{parent}_{lever}{iterations}"


class RolloutTrainer(driver.Trainer):
    game = "symmetric-gammon-rollouts"
    description = (
        "Train a notebook 09 net on its own rollouts (issue 51): positions from its self-play, truncated rollouts "
        "with stratified dice, supervised fitting, repeated; checkpointed, resumable."
    )
    checkpoint_every = 256
    unit = "positions"

    def options(self, ap: argparse.ArgumentParser) -> None:
        _options(ap)

    def prepare(self, a: argparse.Namespace) -> dict:
        if a.iterations < 1:
            raise ValueError(f"--iterations must be >= 1, got {a.iterations}")
        if a.pubeval_pairs < 1:
            raise ValueError(f"--pubeval-pairs must be >= 1, got {a.pubeval_pairs}")
        if a.workers < 1:
            raise ValueError(f"--workers must be >= 1, got {a.workers}")
        rollout = RolloutSpec(a.trials, a.truncate, a.vr_plies, not a.no_bearoff_stop, a.fast, a.from_base)
        search = None
        if a.targets == "2-ply":
            d = RolloutSpec()
            keys = ("trials", "truncate", "vr_plies", "from_base")
            given = [f"--{k.replace('_', '-')}" for k in keys if getattr(a, k) != getattr(d, k)]
            given += ["--no-bearoff-stop"] if a.no_bearoff_stop else []
            if given:
                raise ValueError(f"--targets 2-ply takes no rollout options, got {', '.join(given)}")
            rollout, search = RolloutSpec(), SearchSpec(a.keep, a.fast)
        elif a.keep != SearchSpec.keep:
            raise ValueError("--keep is for --targets 2-ply")
        spec = LoopSpec(
            positions=a.positions,
            race_share=a.race_share,
            rollout=rollout,
            search=search,
            epochs=a.epochs,
            alpha=a.alpha,
            window=a.window,
            seed=a.seed,
        ).check()
        path = Path(a.warm_start)
        if not path.is_file():
            raise ValueError(f"--warm-start {path}: no such file")
        a.parent = SymmetricGammon.load(path)
        a.spec = spec
        return {
            "loop": spec.to_dict(),
            "warm_start": {
                "file": path.as_posix(),
                "sha256": hashlib.sha256(path.read_bytes()).hexdigest(),
                "games": int(a.parent.info.get("games_done", 0)),
            },
        }

    def default_out(self, a: argparse.Namespace) -> Path:
        lever = "search" if a.targets == "2-ply" else "rollouts"
        name = net_name(Path(a.warm_start).stem, a.iterations, lever)
        return repo_root() / "build" / "rollout_training" / f"{name}.npz"

    def default_checkpoint(self, a: argparse.Namespace, out: Path) -> Path:
        return out.with_name(f"{out.stem}.ckpt.npz")

    def read_checkpoint(self, a: argparse.Namespace, run: dict, path: Path) -> None:
        model, spec, state = read_checkpoint(path)
        if model.info.get("run") != run or spec != a.spec:
            raise ValueError(f"checkpoint {path} belongs to another run ({model.info.get('run')}), not {run}")
        if state.iterations > a.iterations:
            raise ValueError(f"checkpoint {path} has {state.iterations} iterations done, more than {a.iterations}")

    def done(self, path: Path) -> int | None:
        try:
            _, spec, state = read_checkpoint(path)
        except (ValueError, OSError):
            return None
        return state.iterations * spec.positions + state.cur_done

    def train(self, a: argparse.Namespace, run: dict, plan: driver.Plan, command: str) -> SymmetricGammon:
        ckpt = plan.checkpoint
        if ckpt.exists():
            model, _, state = read_checkpoint(ckpt)
        else:
            model, state = a.parent, None
            model.info = {"spec": model.info.get("spec"), "games_done": model.info.get("games_done", 0)}
        model.info["run"] = run

        def snap(m: SymmetricGammon, it: int) -> None:
            if a.snapshots:
                m.save(plan.out.with_name(f"{plan.out.stem}_it{it}.snap.npz"), aux=None)

        t = time.perf_counter()
        with local_cluster(a.workers):
            state = run_loop(model, a.spec, a.iterations, state, checkpoint=ckpt, snapshot=snap,
                             chunk=a.checkpoint_every, progress=not a.no_progress)  # fmt: skip
        a.state = state
        a.wall = time.perf_counter() - t
        return model

    def write(self, a: argparse.Namespace, run: dict, plan: driver.Plan, model: SymmetricGammon, cmd: str) -> dict:
        model.info.pop("loop", None)
        model.save(plan.out, command=cmd, iterations=a.state.log)
        return {
            "command": cmd,
            "seed": a.seed,
            "games": int(run["warm_start"]["games"]),
            "iterations": a.iterations,
            "code_version": code_version(),
            "net": model.describe(),
            "spec": run,
            "log": a.state.log,
            "rollout_seconds": round(sum(r["rollout_seconds"] for r in a.state.log), 1),
            "fit_seconds": round(sum(r["fit_seconds"] for r in a.state.log), 1),
        }

    def finish(self, a: argparse.Namespace, run: dict, plan: driver.Plan, model: SymmetricGammon, side: dict) -> dict:
        return side | pubeval_record(a, model)

    def summary(self, a: argparse.Namespace, plan: driver.Plan, model: SymmetricGammon, side: dict) -> str:
        return f"wrote {plan.out} and {sidecar_path(plan.out)}: {a.iterations} iterations; {a.vs_pubeval.summary()}"


def train_main(argv: list[str] | None = None) -> int:
    """``python -m tdbook train symmetric-gammon-rollouts …``: run (or resume) the loop, write the net and sidecar."""
    return driver.main(RolloutTrainer(), argv)


def fit_trials(
    model: SymmetricGammon,
    positions: np.ndarray,
    targets: np.ndarray,
    se: np.ndarray,
    settings: list[tuple[float, int]],
    holdout: float = 0.2,
    seed: int = 0,
    hidden: int | None = None,
) -> list[dict[str, Any]]:
    """How well fitting generalises, to choose a loop's ``alpha`` and ``epochs``: for each ``(alpha, epochs)`` of
    ``settings``, a copy of ``model`` fitted to all but a held-out share ``holdout`` of the rolled-out ``positions``
    (an order drawn by ``seed``), and its gap (RMS of target − net equity, the targets' noise ``se`` removed) and bias
    on the held-out positions, before and after, and the gap on the positions it was fitted to (``"train"``);
    ``[{"alpha", "epochs", "hidden", "before", "after", "bias_after", "train"}]``.  ``hidden``: the copy is first
    widened to this many hidden units (:meth:`~SymmetricGammon.with_hidden`, new units drawn by ``seed``) — whether
    the data supports a wider net (issue 51)."""
    rng = np.random.default_rng(seed)
    perm = rng.permutation(len(positions))
    k = int(round(len(positions) * holdout))
    test, train = perm[:k], perm[k:]
    net_before = _equities(model, positions[test])
    before, _ = _gap(targets[test], se[test], net_before)
    out = []
    for alpha, epochs in settings:
        m = SymmetricGammon.averaged([model])  # a copy
        if hidden is not None:
            m = m.with_hidden(hidden, seed=seed)
        order = np.concatenate([train[rng.permutation(len(train))] for _ in range(epochs)])
        m.fit(positions, targets, order, alpha)
        after = _equities(m, positions[test])
        gap, bias = _gap(targets[test], se[test], after)
        fitted, _ = _gap(targets[train], se[train], _equities(m, positions[train]))
        out.append({"alpha": alpha, "epochs": epochs, "hidden": m.hidden, "before": _record(before),
                    "after": _record(gap), "bias_after": _record(bias), "train": _record(fitted)})  # fmt: skip
    return out
