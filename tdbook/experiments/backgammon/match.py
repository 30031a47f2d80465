"""Cubeless backgammon matches with duplicate dice (notebook 08's ladder; Powell (2000) ch. 5).

Each *pair* of games replays one dice sequence twice with the colours swapped: in game 1
player A is colour 0, in game 2 player B is; the opening roll and every later roll come
from the same stream ``(seed, 2·pair)`` in both games, so luck largely cancels in the
pair sum.  Results are points per game for A (±1 single, ±2 gammon, ±3 backgammon) with
the standard error over pairs (the independent units), and A's win percentage.

Jitted players (random, pubeval, TD-Gammon nets, notebook 09's symmetric-gammon nets at 1-ply) run in one kernel
(:func:`play_pairs_net`); any other player (gnubg levels) goes through the Python loop, which uses the same dice
streams.
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass
from typing import NamedTuple

import numpy as np
from numba import njit
from tqdm.auto import tqdm

from ...claims import Estimate
from ...core.rng import make_state, seed_state
from ...games.backgammon import (
    MAX_AFTER,
    NSLOT,
    OFF,
    WS_SIZE,
    flip,
    gen_afterstates,
    initial_position,
    make_buffers,
    opening_roll,
    roll,
    set_initial,
    win_multiplier,
)
from ...learners.backgammon_net import Buffers, NetArrays
from ...learners.backgammon_net import make_buffers as net_buffers
from ...players.backgammon import (
    GNUBG_LEVELS,
    KIND_NET,
    KIND_NET2,
    KIND_SYM,
    GnubgPlayer,
    NetPlayer,
    PubevalPlayer,
    RandomPlayer,
    choose,
    choose_net,
)
from ...players.backgammon_symmetric import NO_SYM, SymBuffers, SymNet, choose_sym_1ply, sym_buffers

MAX_PLIES = 100_000  # safety net; real games are a few hundred plies at most

#: The net slot of a player that is not a net (random, pubeval): never read.
NO_NET = NetArrays(np.zeros((2, 1)), np.zeros((2, 1)), 1.0, 0, 0, 0)


class Contestant(NamedTuple):
    """A jitted player of a match: ``kind`` (``KIND_RANDOM``, ``KIND_PUBEVAL``, ``KIND_NET`` 1-ply,
    ``KIND_NET2`` 2-ply over the ``keep`` best 1-ply candidates, ``KIND_SYM`` a symmetric-gammon net of notebook 09
    1-ply) and, for a TD-Gammon net, its arrays (``net``), for a symmetric-gammon net its :class:`SymNet` (``sym``)."""

    kind: int
    net: NetArrays
    keep: int
    sym: SymNet


class Seat(NamedTuple):
    """A contestant seated for one game: its own random stream and its evaluator's buffers."""

    kind: int
    net: NetArrays
    keep: int
    rng: np.ndarray
    buf: Buffers
    sym: SymNet
    sbuf: SymBuffers


class Board(NamedTuple):
    """The move generator's output and scratch (shared by both seats: they move in turn)."""

    out_pos: np.ndarray
    out_mv: np.ndarray
    ws: np.ndarray
    x: np.ndarray
    pos: np.ndarray
    tmp: np.ndarray


@njit(cache=True)
def _pick(seat, pos, colour, out_pos, n, w, x):
    if seat.kind < KIND_NET:
        return choose(seat.kind, pos, out_pos, n, w, x, seat.rng)
    if seat.kind == KIND_SYM:
        return choose_sym_1ply(seat.sym, out_pos, n, seat.sbuf)
    return choose_net(1 if seat.kind == KIND_NET else 2, seat.net, colour, out_pos, n, seat.keep, seat.buf)


@njit(cache=True)
def new_board() -> Board:
    """A fresh :class:`Board`."""
    return Board(
        np.zeros((MAX_AFTER, NSLOT), np.int8),
        np.full((MAX_AFTER, 8), -1, np.int8),
        np.zeros(WS_SIZE, np.int64),
        np.zeros(122),
        np.zeros(NSLOT, np.int8),
        np.zeros(NSLOT, np.int8),
    )


@njit(cache=True)
def play_game(seat0, seat1, w, dice_rng, board) -> tuple:
    """One cubeless game between two :class:`Seat` s; returns (points for colour 0, plies).  Colour 0
    is white; ``w`` are pubeval's weights (read only by a pubeval seat); ``dice_rng`` the dice stream."""
    set_initial(board.pos)
    side, d1, d2 = opening_roll(dice_rng)
    return play_on(seat0, seat1, w, dice_rng, board, side, d1, d2)


@njit(cache=True)
def play_on(seat0, seat1, w, dice_rng, board, side, d1, d2) -> tuple:
    """:func:`play_game` from ``board.pos`` (the view of colour ``side``, on roll with ``d1``, ``d2``) to the end:
    (points for colour 0, plies); the later rolls from ``dice_rng``; 0 points if :data:`MAX_PLIES` pass first."""
    out_pos, out_mv, ws, x, pos, tmp = board
    plies = 0
    while plies < MAX_PLIES:
        n = gen_afterstates(pos, d1, d2, out_pos, out_mv, ws)
        if side == 0:
            k = _pick(seat0, pos, 0, out_pos, n, w, x)
        else:
            k = _pick(seat1, pos, 1, out_pos, n, w, x)
        plies += 1
        if out_pos[k, OFF] == 15:
            m = win_multiplier(out_pos[k])
            return (m if side == 0 else -m), plies
        flip(out_pos[k], tmp)
        pos[:] = tmp
        side = 1 - side
        d1, d2 = roll(dice_rng)
    return 0, plies


@njit(cache=True)
def sym_seat(net, rng) -> Seat:
    """A :class:`Seat` for the symmetric-gammon :class:`SymNet` ``net``, choosing greedily at 1-ply (``rng``, the
    seat's stream for random choices, is never read)."""
    return Seat(KIND_SYM, NO_NET, 8, rng, net_buffers(1, 1, False), net, sym_buffers(net))


@njit(cache=True)
def play_pairs_net(a, b, w, seed, first_pair, n_pairs, out, plies) -> None:
    """Duplicate-dice pairs ``first_pair .. first_pair+n_pairs-1`` of :class:`Contestant` A against B:
    ``out[i, 0]``/``out[i, 1]`` are A's points as colour 0 / colour 1; ``plies[i, :]`` the game
    lengths.  Pair p's dice are stream ``(seed, 2p)`` in both games; each side keeps its own stream
    for random choices."""
    board = new_board()
    ba = net_buffers(a.net.W1.shape[1], a.net.W2.shape[1], a.kind == KIND_NET2)
    bb = net_buffers(b.net.W1.shape[1], b.net.W2.shape[1], b.kind == KIND_NET2)
    sba, sbb = sym_buffers(a.sym), sym_buffers(b.sym)
    for i in range(n_pairs):
        p = first_pair + i
        for g in range(2):
            dice = seed_state(seed, 2 * p)
            sa = Seat(
                a.kind, a.net, a.keep, seed_state(seed, 2 * p + 1), ba, a.sym, sba
            )  # A's own stream (random choices)
            sb = Seat(b.kind, b.net, b.keep, seed_state(seed, 2 * p + 1 + (1 << 40)), bb, b.sym, sbb)  # B's own stream
            if g == 0:
                r, n = play_game(sa, sb, w, dice, board)
                out[i, 0] = r
            else:
                r, n = play_game(sb, sa, w, dice, board)
                out[i, 1] = -r
            plies[i, g] = n


@njit(cache=True)
def play_pairs(kind_a, kind_b, w, seed, first_pair, n_pairs, out, plies) -> None:
    """:func:`play_pairs_net` between the jitted non-net players (random, pubeval)."""
    play_pairs_net(
        Contestant(kind_a, NO_NET, 8, NO_SYM),
        Contestant(kind_b, NO_NET, 8, NO_SYM),
        w,
        seed,
        first_pair,
        n_pairs,
        out,
        plies,
    )


@dataclass
class MatchResult:
    """Points per game for A, its standard error (over duplicate pairs), win % and the raw points."""

    a: str
    b: str
    games: int
    ppg: float
    stderr: float
    win_pct: float
    gammon_pct: float
    backgammon_pct: float
    points: np.ndarray  # shape (pairs, 2): A's points as colour 0 and as colour 1

    def summary(self) -> str:
        return (
            f"{self.a} vs {self.b}: {self.ppg:+.3f} ± {self.stderr:.3f} points/game, "
            f"{self.win_pct:.1f}% wins over {self.games} games (duplicate dice, cubeless)"
        )

    def to_dict(self) -> dict:
        d = asdict(self)
        d.pop("points")
        return d

    def estimate(self) -> Estimate:
        """Points per game for A ± 1 standard error over pairs, and the number of games."""
        return Estimate(self.ppg, self.stderr, self.games)


def summarize(a: str, b: str, points: np.ndarray) -> MatchResult:
    pts = np.asarray(points, dtype=np.float64)
    flat = pts.ravel()
    pair = pts.mean(axis=1)
    n = len(pair)
    se = float(pair.std(ddof=1) / math.sqrt(n)) if n > 1 else float("nan")
    return MatchResult(
        a,
        b,
        int(flat.size),
        float(flat.mean()),
        se,
        float(100 * np.mean(flat > 0)),
        float(100 * np.mean(np.abs(flat) == 2)),
        float(100 * np.mean(np.abs(flat) == 3)),
        pts,
    )


def _check(n_pairs: int, seed: int) -> None:
    if not isinstance(n_pairs, (int, np.integer)) or isinstance(n_pairs, bool) or n_pairs < 1:
        raise ValueError(f"n_pairs must be an int >= 1, got {n_pairs!r}")
    make_state(seed, 0)  # validates the seed


def run_match(
    player_a, player_b, n_pairs: int = 500, seed: int = 0, progress: bool = True, chunk: int = 250
) -> MatchResult:
    """Play ``n_pairs`` duplicate-dice pairs (2·n_pairs games) of A against B.

    Players with a ``kind`` attribute (random, pubeval) and the same pubeval weights run
    in the jitted kernel; otherwise the Python loop plays move by move."""
    _check(n_pairs, seed)
    ka, kb = getattr(player_a, "kind", None), getattr(player_b, "kind", None)
    if ka is not None and kb is not None and max(ka, kb) >= KIND_NET:
        return _run_net(player_a, player_b, n_pairs, seed, progress, chunk)
    if ka is not None and kb is not None:
        w = getattr(player_a, "w", None)
        wb = getattr(player_b, "w", None)
        if w is None:
            w = wb
        if w is not None and wb is not None and not np.array_equal(w, wb):
            return _run_python(player_a, player_b, n_pairs, seed, progress)
        w = np.zeros((2, 122)) if w is None else w
        out = np.zeros((n_pairs, 2), np.int64)
        plies = np.zeros((n_pairs, 2), np.int64)
        with tqdm(total=n_pairs, desc=f"{player_a.name} vs {player_b.name}", disable=not progress, unit="pair") as bar:
            for s in range(0, n_pairs, chunk):
                m = min(chunk, n_pairs - s)
                o = np.zeros((m, 2), np.int64)
                pl = np.zeros((m, 2), np.int64)
                play_pairs(ka, kb, w, seed, s, m, o, pl)
                out[s : s + m] = o
                plies[s : s + m] = pl
                bar.update(m)
        return summarize(player_a.name, player_b.name, out)
    return _run_python(player_a, player_b, n_pairs, seed, progress)


def contestant(player, keep: int = 8) -> Contestant:
    """The jitted form of a player with a ``kind`` (random, pubeval or a net)."""
    net = player.net if player.kind >= KIND_NET else NO_NET
    return Contestant(int(player.kind), net, int(keep), NO_SYM)


def _run_net(player_a, player_b, n_pairs: int, seed: int, progress: bool, chunk: int) -> MatchResult:
    """The jitted match loop for pairs in which a TD-Gammon net plays (1- or 2-ply)."""
    w = getattr(player_a, "w", None)
    if w is None:
        w = getattr(player_b, "w", None)
    w = np.zeros((2, 122)) if w is None else w
    keep = int(getattr(player_a, "keep", 0) or getattr(player_b, "keep", 0) or 8)
    ca, cb = contestant(player_a, keep), contestant(player_b, keep)
    out = np.zeros((n_pairs, 2), np.int64)
    plies = np.zeros((n_pairs, 2), np.int64)
    slow = KIND_NET2 in (player_a.kind, player_b.kind)
    chunk = max(1, chunk // 25) if slow else chunk
    with tqdm(total=n_pairs, desc=f"{player_a.name} vs {player_b.name}", disable=not progress, unit="pair") as bar:
        for s in range(0, n_pairs, chunk):
            m = min(chunk, n_pairs - s)
            o = np.zeros((m, 2), np.int64)
            pl = np.zeros((m, 2), np.int64)
            play_pairs_net(ca, cb, w, seed, s, m, o, pl)
            out[s : s + m] = o
            plies[s : s + m] = pl
            bar.update(m)
    return summarize(player_a.name, player_b.name, out)


def play_python_game(players, dice_rng: np.ndarray, bufs=None) -> tuple[int, int]:
    """One game between Python-level players (colour 0 first in ``players``); (points for colour 0, plies).

    A player with a ``seat(colour)`` method is told its colour first (nets with turn units need it)."""
    bufs = bufs if bufs is not None else make_buffers()
    for colour, pl in enumerate(players):
        if callable(getattr(pl, "seat", None)):
            pl.seat(colour)
    pos = initial_position()
    side, d1, d2 = opening_roll(dice_rng)
    tmp = np.zeros(NSLOT, np.int8)
    for plies in range(1, MAX_PLIES + 1):
        n = gen_afterstates(pos, d1, d2, *bufs)
        after = bufs[0][:n]
        k = players[side].choose(pos, d1, d2, after)
        if not 0 <= k < n:
            raise ValueError(f"player {players[side].name} chose afterstate {k} of {n}")
        if after[k, OFF] == 15:
            m = int(win_multiplier(after[k]))
            return (m if side == 0 else -m), plies
        flip(after[k], tmp)
        pos = tmp.copy()
        side = 1 - side
        d1, d2 = roll(dice_rng)
    return 0, MAX_PLIES


def _run_python(player_a, player_b, n_pairs: int, seed: int, progress: bool) -> MatchResult:
    bufs = make_buffers()
    out = np.zeros((n_pairs, 2), np.int64)
    for i in tqdm(range(n_pairs), desc=f"{player_a.name} vs {player_b.name}", disable=not progress, unit="pair"):
        r, _ = play_python_game((player_a, player_b), make_state(seed, 2 * i), bufs)
        out[i, 0] = r
        r, _ = play_python_game((player_b, player_a), make_state(seed, 2 * i), bufs)
        out[i, 1] = -r
    return summarize(player_a.name, player_b.name, out)


@njit(cache=True)
def record_game(kind0, kind1, w, seed, stream, out_pos, out_dice) -> int:
    """Play one game (random or pubeval players, dice and choices from ``(seed, stream)``) and record
    every position met before a move (side on roll's view) with its roll; returns the count
    (at most ``len(out_pos)``: the record stops there)."""
    dice = seed_state(seed, stream)
    r0 = seed_state(seed, stream + (1 << 40))
    r1 = seed_state(seed, stream + (1 << 41))
    out_p = np.zeros((MAX_AFTER, NSLOT), np.int8)
    out_m = np.full((MAX_AFTER, 8), -1, np.int8)
    ws = np.zeros(WS_SIZE, np.int64)
    x = np.zeros(122)
    pos = np.zeros(NSLOT, np.int8)
    set_initial(pos)
    side, d1, d2 = opening_roll(dice)
    m = 0
    while m < out_pos.shape[0]:
        out_pos[m, :] = pos
        out_dice[m, 0] = d1
        out_dice[m, 1] = d2
        m += 1
        n = gen_afterstates(pos, d1, d2, out_p, out_m, ws)
        k = choose(kind0 if side == 0 else kind1, pos, out_p, n, w, x, r0 if side == 0 else r1)
        if out_p[k, OFF] == 15:
            break
        flip(out_p[k], pos)
        side = 1 - side
        d1, d2 = roll(dice)
    return m


def sample_positions(
    n_games: int, seed: int = 0, kind0: int = 0, kind1: int = 0, w: np.ndarray | None = None, every: int = 1
) -> tuple[np.ndarray, np.ndarray]:
    """Positions (side on roll's view) and rolls from ``n_games`` recorded games, every ``every``-th ply."""
    w = np.zeros((2, 122)) if w is None else w
    ps, ds = [], []
    buf_p = np.zeros((4000, NSLOT), np.int8)
    buf_d = np.zeros((4000, 2), np.int64)
    for g in range(n_games):
        m = record_game(kind0, kind1, w, seed, g, buf_p, buf_d)
        ps.append(buf_p[:m:every].copy())
        ds.append(buf_d[:m:every].copy())
    return np.concatenate(ps), np.concatenate(ds)


def positions_from_games(n: int, seed: int = 7, every: int = 3) -> np.ndarray:
    """``n`` distinct positions (side on roll's view) from recorded games: half from random play,
    half from pubeval play, every ``every``-th ply (the gnubg cross-check's sample)."""
    from ...players.backgammon import KIND_PUBEVAL, KIND_RANDOM, load_pubeval_weights

    w = load_pubeval_weights()
    out: list[np.ndarray] = []
    seen: set[bytes] = set()
    for part, (kind, s) in enumerate(((KIND_RANDOM, seed), (KIND_PUBEVAL, seed + 1))):
        want = (n + 1) // 2 if part == 0 else n - len(out)
        games = max(4, n // 60)
        while True:
            p, _ = sample_positions(games, seed=s, kind0=kind, kind1=kind, w=w, every=every)
            p = np.unique(p, axis=0)
            p = p[[q.tobytes() not in seen for q in p]]
            if len(p) >= want:
                break
            games *= 2
        rng = np.random.default_rng(s)
        for q in p[rng.permutation(len(p))[:want]]:
            out.append(q)
            seen.add(q.tobytes())
    return np.array(out)


# ----------------------------------------------------------------------------- opponents and protocols

#: Match seeds from 2**62 up form the *report* set: only the strength figure of a chosen net uses them
#: (:mod:`tdbook.experiments.backgammon.strength`).  Every other match — learning curves, the selection
#: ladder, the notebooks' matches — takes a seed below (the *selection* set), so no choice is ever made
#: on the dice a figure is reported on.
REPORT_BASE = 1 << 62

#: The seed of the ladder a training run plays after training (``train backgammon --ladder-pairs``).
SELECTION_SEED = 2024


def selection_seed(seed: int) -> int:
    """``seed`` if it belongs to the selection set; ValueError if it is a report seed."""
    if isinstance(seed, (int, np.integer)) and not isinstance(seed, bool) and seed >= REPORT_BASE:
        raise ValueError(
            f"seed {seed} is in the report set (>= 2**62), kept for the strength figure of a chosen net "
            "(tdbook.experiments.backgammon.strength); matches that help choose a net take a smaller seed"
        )
    return seed


def make_opponent(name: str):
    """A benchmark player by name: ``pubeval``, ``random``, or a gnubg level (``gnubg-expert`` or ``expert``)."""
    if name == "pubeval":
        return PubevalPlayer()
    if name == "random":
        return RandomPlayer()
    level = name[6:] if name.startswith("gnubg-") else name
    if level in GNUBG_LEVELS:
        return GnubgPlayer(level)
    raise ValueError(
        f"unknown opponent {name!r}; choose from: pubeval, random, " + ", ".join(f"gnubg-{k}" for k in GNUBG_LEVELS)
    )


def evaluate(
    model, pairs: int, seed: int = 99, opponent: str = "pubeval", plies: int = 1, progress: bool = False
) -> MatchResult:
    """A duplicate-dice match of the net (1- or 2-ply) against ``opponent`` (pubeval, random, or a
    gnubg level: beginner / intermediate / advanced / expert) on a seed of the selection set."""
    return run_match(
        NetPlayer(model, plies), make_opponent(opponent), pairs, seed=selection_seed(seed), progress=progress
    )


def paired_difference(a: MatchResult, b: MatchResult) -> tuple[float, float]:
    """(ppg of a − ppg of b, its standard error) for two matches played on the same dice (same seed
    and pairs): the pair-by-pair difference cancels most of the luck."""
    if a.points.shape != b.points.shape:
        raise ValueError(f"matches of different sizes: {a.points.shape} vs {b.points.shape}")
    d = a.points.mean(axis=1) - b.points.mean(axis=1)
    return float(d.mean()), float(d.std(ddof=1) / math.sqrt(len(d))) if len(d) > 1 else float("nan")


LADDER = ("pubeval", "gnubg-beginner", "gnubg-intermediate", "gnubg-advanced", "gnubg-expert")


def ladder(
    model, pairs: dict[str, int] | int, seed: int = SELECTION_SEED, plies: int = 1, progress: bool = True
) -> dict[str, dict]:
    """Duplicate-dice matches of the net against each ladder opponent on a selection seed, for choosing
    between runs: ``{name: MatchResult.to_dict()}``.

    ``pairs``: one count for all, or per opponent (opponents left out are skipped)."""
    selection_seed(seed)
    todo = pairs if isinstance(pairs, dict) else {k: pairs for k in LADDER}
    out = {}
    me = NetPlayer(model, plies)
    for name, n in todo.items():
        if not n:
            continue
        r = run_match(me, make_opponent(name), int(n), seed=seed, progress=progress)
        out[name] = r.to_dict()
    return out
