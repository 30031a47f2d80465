"""The labelled set of notebook 01 — our stand-in for Samuel's book games (Samuel (1973 note): "Count A is
incremented when the current input vector represents a prefered move").

Samuel trained his signature tables on master ("book") games; no such collection ships with anything this
project can depend on, so the preferred move comes from a **teacher**: a much deeper α-β search than the
players of notebook 01 use, run over positions from varied games.

**Positions.**  Self-play games from every ACF 3-move ballot (:func:`tdbook.games.checkers.ballots`),
``games_per_ballot`` games each, by a shallow searcher (fixed depth ``play_depth``, the teacher's evaluation)
that plays a uniformly random legal move with probability ``noise`` (seeded per game); a game ends at the
end of play, by the 80-ply quiet rule, or after ``max_plies``.  Every position reached with at least two legal
moves is a candidate (a forced move carries no information); repeated positions
are kept once; ``positions`` of them are drawn at random (seeded).

**The teacher.**  α-β with plausibility ordering under Samuel's ply rules with the minimum look-ahead raised
to ``depth`` plies (rules 2–4 of the 1959 rules then continue every line while a jump is pending, up to
``depth + 12`` plies), and to ``endgame_depth`` plies when at most ``endgame_pieces`` pieces are left (a node
budget of ``endgame_nodes``; past it the position is searched to ``depth``).  Its evaluation: Samuel's fixed
piece advantage plus the terms of his 1959 42-game polynomial that need no trial moves (KCENT, MOVE, ADV,
BACK, CNTR, with his printed coefficients) — the best evaluation main holds that is fast enough for deep
search; they break the many ties of a material-only search among moves of equal material outcome.

**The file** (``data/signature_book.npz``, sidecar ``.json`` with the exact command, via
:mod:`tdbook.core.storage`): ``words`` uint32[n, 4] (bm, bk, wm, wk), ``side`` uint8, ``game`` uint16 (the
game a position came from: train/test splits are by game), ``ply`` uint16, ``n_moves`` uint8, ``preferred``
uint8 (the teacher's move, an index into :func:`tdbook.games.checkers.moves_of` order), ``depth`` uint8 (the
minimum look-ahead used) and ``nodes`` uint32.  :func:`load_book` refuses a file that is not such a set with a
message naming the problem.  Generation checkpoints atomically and resumes
(``python -m tdbook train signature-book``).
"""

from __future__ import annotations

import argparse
import io
import time
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from pathlib import Path

import numpy as np
from tqdm.auto import tqdm

from ...core.paths import data_dir, repo_root
from ...core.storage import atomic_write_bytes, code_version, read_sidecar, write_sidecar
from ...games.checkers import Checkers, CheckersState, ballots, check_words, moves_of, position_key
from ...learners.checkers_polynomial import SAMUEL_42_GAMES, Polynomial
from ...players.checkers_search import Searcher, SearchRules
from ..common import training_driver as driver

#: the terms of Samuel's 42-game polynomial that need no trial moves (fast enough for a deep search)
TEACHER_TERMS = ("KCENT", "MOVE", "ADV", "BACK", "CNTR")
FIELDS = {
    "words": (np.uint32, 2),
    "side": (np.uint8, 1),
    "game": (np.uint16, 1),
    "ply": (np.uint16, 1),
    "n_moves": (np.uint8, 1),
    "preferred": (np.uint8, 1),
    "depth": (np.uint8, 1),
    "nodes": (np.uint32, 1),
}
BOOK_FILE = "signature_book.npz"


def teacher_polynomial() -> Polynomial:
    """Piece advantage + Samuel's 42-game coefficients of :data:`TEACHER_TERMS` (1959, table of 12 terms)."""
    return Polynomial({k: SAMUEL_42_GAMES[k] for k in TEACHER_TERMS})


@dataclass(frozen=True)
class BookSpec:
    """How the labelled set is made (see the module docstring)."""

    seed: int = 1967
    positions: int = 16_000
    games_per_ballot: int = 5
    noise: float = 0.15
    play_depth: int = 4
    max_plies: int = 120
    depth: int = 8
    endgame_pieces: int = 6
    endgame_depth: int = 10
    endgame_nodes: int = 300_000

    def check(self) -> None:
        for name in ("positions", "games_per_ballot", "play_depth", "max_plies", "depth", "endgame_nodes"):
            v = getattr(self, name)
            if not isinstance(v, int) or isinstance(v, bool) or v < 1:
                raise ValueError(f"{name} must be a positive int, got {v!r}")
        if not 0.0 <= self.noise <= 1.0:
            raise ValueError(f"noise must be a probability in [0, 1], got {self.noise!r}")
        if not self.depth <= self.endgame_depth <= 40:
            raise ValueError(f"need depth <= endgame_depth <= 40, got {self.depth} and {self.endgame_depth}")
        if not 2 <= self.endgame_pieces <= 24:
            raise ValueError(f"endgame_pieces must be in 2..24, got {self.endgame_pieces!r}")

    def rules(self, depth: int) -> SearchRules:
        """Samuel's ply rules with the minimum look-ahead raised to ``depth``."""
        return SearchRules.samuel(min_ply=depth, second_ply=depth, ahead_ply=depth + 3, hard_ply=min(depth + 12, 60))


# ----------------------------------------------------------------------------- positions


def game_positions(spec: BookSpec, progress: bool = False) -> list[tuple[CheckersState, int]]:
    """Every position with ≥ 2 legal moves of the noisy self-play games (first occurrence, with its game)."""
    g = Checkers()
    player = Searcher(teacher_polynomial(), SearchRules.fixed(spec.play_depth))
    seen: set = set()
    out = []
    starts = [s for _, s in ballots()]
    jobs = [(b, k) for k in range(spec.games_per_ballot) for b in range(len(starts))]
    for gi, (b, _k) in enumerate(tqdm(jobs, desc="self-play games", disable=not progress)):
        rng = np.random.default_rng([spec.seed, gi])
        s = starts[b]
        last_jump = False
        for _ in range(spec.max_plies):
            if g.is_terminal(s):
                break
            moves = moves_of(s)
            key = position_key(s)
            if len(moves) >= 2 and key not in seen:
                seen.add(key)
                out.append((s, gi))
            if rng.random() < spec.noise:
                i = int(rng.integers(len(moves)))
            else:
                i = player(s.words, s.side, last_jump).best
            last_jump = moves[i].is_capture
            s = g.apply(s, moves[i].text)
    return out


def draw_positions(spec: BookSpec, progress: bool = False) -> list[tuple[CheckersState, int]]:
    """``spec.positions`` candidates drawn without replacement (seeded), in the order they were played."""
    cands = game_positions(spec, progress)
    if len(cands) < spec.positions:
        raise ValueError(
            f"the self-play games gave {len(cands)} distinct positions, fewer than positions={spec.positions}: "
            "raise games_per_ballot"
        )
    pick = np.sort(np.random.default_rng([spec.seed, 1 << 20]).choice(len(cands), spec.positions, replace=False))
    return [cands[i] for i in pick]


# ----------------------------------------------------------------------------- the teacher


def teach(state: CheckersState, spec: BookSpec, searcher: Searcher | None = None) -> tuple[int, int, int]:
    """The teacher's preferred move in ``state``: (index in ``moves_of`` order, minimum depth used, nodes)."""
    s = searcher if searcher is not None else Searcher(teacher_polynomial())
    pieces = sum(bin(w).count("1") for w in state.words)
    nodes = 0
    if pieces <= spec.endgame_pieces and spec.endgame_depth > spec.depth:
        r = s(state.words, state.side, node_limit=spec.endgame_nodes, rules=spec.rules(spec.endgame_depth))
        nodes += r.nodes
        if not r.aborted and r.best >= 0:
            return r.best, spec.endgame_depth, nodes
    r = s(state.words, state.side, rules=spec.rules(spec.depth))
    return r.best, spec.depth, nodes + r.nodes


def _arrays(rows: list[tuple]) -> dict[str, np.ndarray]:
    out = {
        "words": np.array([r[0] for r in rows], dtype=np.uint32).reshape(-1, 4),
        "side": np.array([r[1] for r in rows], dtype=np.uint8),
        "game": np.array([r[2] for r in rows], dtype=np.uint16),
        "ply": np.array([r[3] for r in rows], dtype=np.uint16),
        "n_moves": np.array([r[4] for r in rows], dtype=np.uint8),
        "preferred": np.array([r[5] for r in rows], dtype=np.uint8),
        "depth": np.array([r[6] for r in rows], dtype=np.uint8),
        "nodes": np.array([r[7] for r in rows], dtype=np.uint32),
    }
    return out


def _npz_bytes(arrays: dict[str, np.ndarray]) -> bytes:
    buf = io.BytesIO()
    np.savez_compressed(buf, **arrays)
    return buf.getvalue()


def make_book(
    spec: BookSpec, checkpoint: Path | None = None, checkpoint_every: int = 250, progress: bool = False
) -> tuple[dict[str, np.ndarray], dict]:
    """Generate the labelled set (resuming from ``checkpoint`` when it holds a run of the same spec)."""
    spec.check()
    t0 = time.perf_counter()
    todo = draw_positions(spec, progress)
    rows: list[tuple] = []
    if checkpoint is not None and Path(checkpoint).is_file():
        rows = read_checkpoint(Path(checkpoint), spec)
    searcher = Searcher(teacher_polynomial())
    bar = tqdm(total=len(todo), initial=len(rows), desc="teacher", disable=not progress)
    for i in range(len(rows), len(todo)):
        s, gi = todo[i]
        best, depth, nodes = teach(s, spec, searcher)
        rows.append((list(s.words), s.side, gi, s.ply, len(moves_of(s)), best, depth, nodes))
        bar.update(1)
        if checkpoint is not None and (len(rows) % checkpoint_every == 0 or len(rows) == len(todo)):
            arr = _arrays(rows)
            atomic_write_bytes(Path(checkpoint), _npz_bytes({**arr, "spec": np.array(repr(spec))}))
    bar.close()
    meta = {"positions": len(rows), "wall_time_s": round(time.perf_counter() - t0, 1)}
    return _arrays(rows), meta


def read_checkpoint(path: Path, spec: BookSpec) -> list[tuple]:
    """The labelled positions of a checkpoint of the run ``spec``; ValueError naming the file when it is not a
    labelled set with its spec, or is another run's."""
    try:
        with np.load(path, allow_pickle=False) as z:
            arrays = {k: z[k] for k in z.files}
    except Exception as e:  # zip, pickle or format errors: not a checkpoint
        raise ValueError(f"checkpoint {path} is not a readable .npz archive ({type(e).__name__}: {e})") from None
    missing = [k for k in ("spec", *FIELDS) if k not in arrays]
    if missing:
        raise ValueError(
            f"checkpoint {path} holds the arrays {', '.join(arrays) or 'none'}, not a labelled set being made "
            f"(it lacks {', '.join(missing)})"
        )
    if str(arrays["spec"]) != repr(spec):
        raise ValueError(
            f"checkpoint {path} was made by another run ({arrays['spec']}); use another --checkpoint or the same "
            "settings"
        )
    done = {k: arrays[k] for k in FIELDS}
    return [tuple(done[k][i].tolist() for k in FIELDS) for i in range(len(done["side"]))]


def save_book(path: Path, arrays: dict[str, np.ndarray], sidecar: dict) -> None:
    """Write the labelled set and its sidecar atomically."""
    atomic_write_bytes(Path(path), _npz_bytes(arrays))
    write_sidecar(path, sidecar)


def load_book(path: Path | None = None, check_moves: bool = True) -> dict[str, np.ndarray]:
    """The labelled set at ``path`` (default ``data/signature_book.npz``) as arrays; ValueError naming the
    problem when the file is missing, unreadable, lacks a field, has a field of the wrong type or length, or
    labels a move that is not legal (``check_moves``: every position's legal-move count is recomputed)."""
    p = Path(path) if path is not None else data_dir() / BOOK_FILE
    if not p.is_file():
        raise ValueError(f"no labelled set at {p}: make it with `python -m tdbook train signature-book`")
    try:
        with np.load(p, allow_pickle=False) as z:
            arrays = {k: z[k] for k in z.files}
    except Exception as e:  # zip, pickle or format errors: all mean the file is not a labelled set
        raise ValueError(f"{p} is not a readable labelled set (corrupt or not an .npz file): {e}") from None
    arrays = {k: v for k, v in arrays.items() if k in FIELDS}  # a checkpoint also holds its spec
    missing = [k for k in FIELDS if k not in arrays]
    if missing:
        raise ValueError(f"{p} is corrupt: it lacks the field(s) {missing}")
    n = len(arrays["side"])
    for k, (dt, nd) in FIELDS.items():
        a = arrays[k]
        if a.dtype != dt or a.ndim != nd or a.shape[0] != n or (nd == 2 and a.shape[1] != 4):
            raise ValueError(f"{p} is corrupt: field {k!r} is {a.dtype}{list(a.shape)}, expected {np.dtype(dt)} "
                             f"with {n} rows")  # fmt: skip
    if n == 0:
        raise ValueError(f"{p} is corrupt: it holds no positions")
    if np.any(arrays["side"] > 1):
        raise ValueError(f"{p} is corrupt: a side to move is not 0 or 1")
    if np.any(arrays["preferred"] >= arrays["n_moves"]) or np.any(arrays["n_moves"] < 2):
        raise ValueError(f"{p} is corrupt: a preferred move index is not below its position's move count (≥ 2)")
    if check_moves:
        for i in range(n):
            w = [int(x) for x in arrays["words"][i]]
            try:
                check_words(*w)
            except ValueError as e:
                raise ValueError(f"{p} is corrupt: position {i} is not a checkers position ({e})") from None
            m = len(moves_of(CheckersState(*w, int(arrays["side"][i]))))
            if m != int(arrays["n_moves"][i]):
                raise ValueError(f"{p} is corrupt: position {i} has {m} legal moves, the file says "
                                 f"{int(arrays['n_moves'][i])}")  # fmt: skip
    return arrays


def book_sidecar(path: Path | None = None) -> dict:
    """The sidecar of the labelled set (the command that made it, its spec, wall time)."""
    return read_sidecar(Path(path) if path is not None else data_dir() / BOOK_FILE)


def states(arrays: dict[str, np.ndarray], rows: Sequence[int] | None = None) -> list[CheckersState]:
    """The positions of a labelled set as façade states."""
    idx = range(len(arrays["side"])) if rows is None else rows
    return [CheckersState(*(int(x) for x in arrays["words"][i]), int(arrays["side"][i])) for i in idx]


# ----------------------------------------------------------------------------- the recorded command


class SignatureBook(driver.Trainer):
    game = "signature-book"
    description = (
        "Make notebook 01's labelled set: positions from noisy self-play games from the 3-move ballots, each with "
        "the preferred move of a deep α-β teacher (our stand-in for Samuel's book games)."
    )
    epilog = f"The shipped set is data/{BOOK_FILE}: its sidecar's command with --out data/{BOOK_FILE} --force makes it."
    checkpoint_every = 250
    unit = "positions"
    out_help = "the labelled set (.npz, a .json sidecar beside it; default build/signature_book.npz)"

    def options(self, ap: argparse.ArgumentParser) -> None:
        d = BookSpec()
        ap.add_argument("--seed", type=int, default=d.seed, help=f"seed of the games and the draw (default {d.seed})")
        ap.add_argument("--positions", type=int, default=d.positions, help="labelled positions")
        ap.add_argument("--games-per-ballot", type=int, default=d.games_per_ballot, help="self-play games per ballot")
        ap.add_argument("--noise", type=float, default=d.noise, help="probability of a random move in self-play")
        ap.add_argument("--play-depth", type=int, default=d.play_depth, help="self-play search depth")
        ap.add_argument("--depth", type=int, default=d.depth, help="teacher's minimum look-ahead (plies)")
        ap.add_argument(
            "--endgame-pieces", type=int, default=d.endgame_pieces, help="pieces left for the endgame depth"
        )
        ap.add_argument("--endgame-depth", type=int, default=d.endgame_depth, help="teacher's endgame look-ahead")
        ap.add_argument("--endgame-nodes", type=int, default=d.endgame_nodes, help="node budget of an endgame search")

    def prepare(self, a: argparse.Namespace) -> BookSpec:
        spec = BookSpec(
            seed=a.seed,
            positions=a.positions,
            games_per_ballot=a.games_per_ballot,
            noise=a.noise,
            play_depth=a.play_depth,
            depth=a.depth,
            endgame_pieces=a.endgame_pieces,
            endgame_depth=a.endgame_depth,
            endgame_nodes=a.endgame_nodes,
        )
        spec.check()
        return spec

    def default_out(self, a: argparse.Namespace) -> Path:
        return repo_root() / "build" / BOOK_FILE

    def default_checkpoint(self, a: argparse.Namespace, out: Path) -> Path:
        return repo_root() / "build" / f"{out.stem}.ckpt.npz"

    def read_checkpoint(self, a: argparse.Namespace, spec: BookSpec, path: Path) -> None:
        read_checkpoint(path, spec)

    def done(self, path: Path) -> int | None:
        try:
            with np.load(path, allow_pickle=False) as z:
                return len(z["side"])
        except Exception:  # an unreadable checkpoint holds nothing we can count
            return None

    def train(self, a: argparse.Namespace, spec: BookSpec, plan: driver.Plan, command: str):
        return make_book(spec, plan.checkpoint, checkpoint_every=a.checkpoint_every, progress=not a.no_progress)

    def write(self, a: argparse.Namespace, spec: BookSpec, plan: driver.Plan, result, cmd: str) -> dict:
        arrays, meta = result
        atomic_write_bytes(plan.out, _npz_bytes(arrays))
        return {
            "command": cmd.rstrip(),
            "code_version": code_version(),
            "spec": asdict(spec),
            "teacher": {
                "evaluation": "piece advantage + Samuel 1959 42-game coefficients of " + ", ".join(TEACHER_TERMS),
                "rules": f"Samuel's ply rules, minimum look-ahead {spec.depth} plies ({spec.endgame_depth} with "
                f"<= {spec.endgame_pieces} pieces, budget {spec.endgame_nodes} nodes), jumps followed to "
                f"{spec.depth + 12} plies",
            },
            **meta,
            "note": "wall time of the last (possibly resumed) run",
        }

    def summary(self, a: argparse.Namespace, plan: driver.Plan, result, side: dict) -> str:
        return f"wrote {plan.out} and its sidecar ({side['positions']} positions, {side['wall_time_s']} s)"


def make_main(argv: Sequence[str] | None = None) -> int:
    """``python -m tdbook train signature-book …``: make (or resume) the labelled set and its sidecar."""
    return driver.main(SignatureBook(), argv)
