"""Checkers players (Powell (2000) ch. 3): random, material-only α-β, Samuel's polynomial with α-β, and a jitted
game loop that plays them against each other.

A :class:`Player` is a random mover or a look-ahead (:mod:`tdbook.players.checkers_search`) with a
:class:`~tdbook.learners.checkers_polynomial.Polynomial`, :class:`~tdbook.players.checkers_search.SearchRules`,
the plausibility-ordering switch and an optional node budget per move.  :meth:`Player.choose` picks a move
for a façade state (:class:`~tdbook.games.checkers.CheckersState`); :func:`play_games` plays whole games in
one kernel call (both sides' look-ahead, the draw rules of :class:`~tdbook.games.checkers.Checkers`), from
given start positions such as the 3-move ballots.  Matches — each ballot twice with the colours swapped,
score ± s.e. — are protocols and belong to the experiments layer; they are built on :func:`play_games`.

Searching players are deterministic (ties go to the first move in plausibility order, then generation
order); the random player draws from the seeded SplitMix64 stream ``(seed, game index)``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from numba import njit
from tqdm.auto import tqdm

from ..core.rng import randint, seed_state
from ..games.checkers import Checkers, CheckersState, moves_of
from ..games.checkers_bitboard import BUF_COLS, BUF_ROWS, credit, is_quiet_move, legal_moves, play
from ..learners.checkers_polynomial import Polynomial
from .checkers_search import (
    I_KIND,
    I_NODE_LIMIT,
    I_RULES,
    S_ABORTED,
    S_BEST,
    S_NODES,
    Searcher,
    SearchRules,
    Workspace,
    search,
    search_spec,
)

RANDOM, SEARCH = 0, 1
MAX_GAME = 2048  # plies a recorded game may have (the draw rule ends games long before)
#: the rules of the 1-ply fall-back search when a node budget runs out
ONE_PLY = SearchRules.fixed(1).array


@dataclass(frozen=True)
class Player:
    """A checkers player: ``kind`` ``"random"`` or ``"search"`` (with ``poly``, ``rules``, ``ordering`` and
    ``node_limit`` per move — an exhausted budget falls back to the best move of a 1-ply search; ``store``: a
    rote store, :class:`~tdbook.learners.checkers_rote.RoteStore`, read at the search frontier; ``tables``:
    signature tables, :class:`~tdbook.learners.checkers_signature.CheckersTables`, evaluated in place of the
    polynomial's terms, ``tables_mul`` score units per unit of their C; ``shift``: score units taken off every
    evaluation, to centre a learned part fitted to move choices)."""

    name: str
    kind: str = "search"
    poly: Polynomial = field(default_factory=Polynomial)
    rules: SearchRules = field(default_factory=SearchRules.samuel)
    ordering: bool = True
    node_limit: int = 2**62
    store: Any = field(default=None, compare=False)
    tables: Any = field(default=None, compare=False)
    tables_mul: float = 0.0
    shift: float = 0.0

    def __post_init__(self) -> None:
        if self.kind not in ("random", "search"):
            raise ValueError(f"kind must be 'random' or 'search', got {self.kind!r}")
        if not isinstance(self.node_limit, int) or self.node_limit < 1:
            raise ValueError(f"node_limit must be a positive int, got {self.node_limit!r}")
        if not (np.isfinite(self.tables_mul) and self.tables_mul >= 0):
            raise ValueError(f"tables_mul must be a finite number >= 0, got {self.tables_mul!r}")

    def spec(self) -> tuple[np.ndarray, np.ndarray]:
        """The player as the two arrays the game kernel reads (:func:`~tdbook.players.checkers_search.search_spec`)."""
        kind = RANDOM if self.kind == "random" else SEARCH
        rote = self.store.spec if self.store is not None else None
        mul = self.tables_mul if self.tables is not None else None
        return search_spec(
            self.poly, self.rules, self.ordering, self.node_limit, kind, rote=rote, tables_mul=mul, shift=self.shift
        )

    def workspace(self) -> Workspace:
        """A search workspace holding this player's rote store and signature tables."""
        ws = Workspace()
        ws.use_store(self.store)
        ws.use_tables(self.tables)
        return ws

    def choose(self, state: CheckersState, last_jump: bool = False, seed: int = 0) -> str:
        """The move (text) this player makes in ``state``; ValueError when the side to move has no move."""
        moves = moves_of(state)
        if not moves:
            raise ValueError(f"{self.name}: no legal move in {state!r}")
        if self.kind == "random":
            return moves[int(np.random.default_rng(seed).integers(len(moves)))].text
        kw = {"tables": self.tables, "tables_mul": self.tables_mul, "shift": self.shift}
        r = Searcher(self.poly, self.rules, self.ordering, self.store, **kw)(
            state.words, state.side, last_jump, self.node_limit
        )
        if r.aborted or r.best < 0:
            r = Searcher(self.poly, SearchRules.fixed(1), self.ordering, **kw)(state.words, state.side)
        return moves[r.best].text


def random_player(name: str = "random") -> Player:
    """Uniformly random legal moves."""
    return Player(name, "random")


def material_player(rules: SearchRules | None = None, name: str = "material α-β", **kw) -> Player:
    """α-β on piece advantage alone (Samuel's fixed first term), Samuel's ply rules unless ``rules`` given."""
    return Player(name, "search", Polynomial(), rules or SearchRules.samuel(), **kw)


def samuel_player(
    weights: dict[str, float] | Polynomial, rules: SearchRules | None = None, name: str = "Samuel α-β", **kw
) -> Player:
    """α-β on Samuel's polynomial with the given term weights (or a ready :class:`Polynomial`)."""
    poly = weights if isinstance(weights, Polynomial) else Polynomial(weights)
    return Player(name, "search", poly, rules or SearchRules.samuel(), **kw)


# ----------------------------------------------------------------------------- the game loop


@njit(cache=True)
def move_of(ints, floats, root, rng, buf, ws) -> tuple[int, int]:
    """Index (in ``legal_moves`` order) of the move a player spec makes at ``root``, and the nodes searched."""
    n = legal_moves(root[0], root[1], root[2], root[3], root[4], buf)
    if ints[I_KIND] == RANDOM:
        return randint(rng, n), 0
    stats = ws[-1]
    search(root, ints, floats, ws)
    nodes = stats[S_NODES]
    best = stats[S_BEST]
    if best < 0 or stats[S_ABORTED] == 1:  # budget exhausted: fall back to a 1-ply search
        one = ints.copy()
        one[I_NODE_LIMIT] = 2**62
        one[I_RULES:] = ONE_PLY
        search(root, one, floats, ws)
        nodes += stats[S_NODES]
        best = stats[S_BEST]
    return best, nodes


@njit(cache=True, inline="always")
def advance(bm, bk, wm, wk, side, quiet, ply, move):
    """The game after the side to move plays ``move`` (a move-buffer row): the four words, the side to move,
    the plies without a capture or man move, the ply, and 1 when the move was a jump."""
    quiet = quiet + 1 if is_quiet_move(bm, bk, wm, wk, side, move) else 0
    jump = 1 if move[4] > 0 else 0
    bm, bk, wm, wk = play(bm, bk, wm, wk, side, move)
    return bm, bk, wm, wk, 1 - side, quiet, ply + 1, jump


@njit(cache=True)
def game_end(bm, bk, wm, wk, side, quiet, ply, quiet_limit, move_limit, adjudicate, buf):
    """The legal moves of the side to move (into ``buf``: their number), whether the game is over and its result
    for Black: no move loses; ``quiet_limit`` plies without a capture or man move draw; at ``move_limit`` plies
    (0: none) the side ahead in piece credit wins when ``adjudicate`` = 1, else a draw."""
    n = legal_moves(bm, bk, wm, wk, side, buf)
    if n == 0:
        return n, True, (-1.0 if side == 0 else 1.0)
    if quiet >= quiet_limit:
        return n, True, 0.0
    if move_limit > 0 and ply >= move_limit:
        if adjudicate == 0:
            return n, True, 0.0
        d = credit(bm, bk) - credit(wm, wk)
        return n, True, (1.0 if d > 0 else (-1.0 if d < 0 else 0.0))
    return n, False, 0.0


@njit(cache=True)
def play_game(
    start: np.ndarray,
    ints: np.ndarray,
    floats: np.ndarray,
    seed: int,
    stream: int,
    quiet_limit: int,
    move_limit: int,
    adjudicate: int,
    record: np.ndarray,
    ws0: tuple,
    ws1: tuple,
):
    """One game from ``start`` (int64[7]: bm, bk, wm, wk, side, quiet, ply); ``ints[c]``/``floats[c]`` is the
    spec of the player of colour ``c`` (0 Black); ``ws0``, ``ws1`` their search workspaces' arrays.  Ends when
    the mover has no move (it loses), after ``quiet_limit`` plies without a capture or man move (draw), or at
    ``move_limit`` plies (0: none), judged by piece credit when ``adjudicate`` = 1 else a draw.  ``record[k]``
    gets (from, to, captured, nodes) of each ply.  Returns (result for Black, plies played in this game, total
    nodes)."""
    rng = seed_state(seed, stream)
    buf = np.empty((BUF_ROWS, BUF_COLS), dtype=np.int64)
    root = np.zeros(6, dtype=np.int64)
    bm, bk, wm, wk, side, quiet, ply = start[0], start[1], start[2], start[3], start[4], start[5], start[6]
    last_jump = 0
    k = 0
    total = 0
    while True:
        n, over, res = game_end(bm, bk, wm, wk, side, quiet, ply, quiet_limit, move_limit, adjudicate, buf)
        if over:
            return res, k, total
        root[0], root[1], root[2], root[3], root[4], root[5] = bm, bk, wm, wk, side, last_jump
        if side == 0:
            i, nodes = move_of(ints[0], floats[0], root, rng, buf, ws0)
        else:
            i, nodes = move_of(ints[1], floats[1], root, rng, buf, ws1)
        total += nodes
        if k < record.shape[0]:
            record[k, 0] = buf[i, 0]
            record[k, 1] = buf[i, 1]
            record[k, 2] = buf[i, 2]
            record[k, 3] = nodes
        k += 1
        bm, bk, wm, wk, side, quiet, ply, last_jump = advance(bm, bk, wm, wk, side, quiet, ply, buf[i])


@njit(cache=True)
def _choose_all(words, sides, ints, floats, seed, ws, out) -> None:
    rng = seed_state(seed, 0)
    buf = np.empty((BUF_ROWS, BUF_COLS), dtype=np.int64)
    root = np.zeros(6, dtype=np.int64)
    for i in range(words.shape[0]):
        root[0], root[1], root[2], root[3], root[4] = words[i, 0], words[i, 1], words[i, 2], words[i, 3], sides[i]
        out[i], _ = move_of(ints, floats, root, rng, buf, ws)


def choices(
    player: Player, words: np.ndarray, sides: np.ndarray, seed: int = 0, chunk: int = 4096, progress: bool = False
) -> np.ndarray:
    """The move the player makes in each position (``words`` int64[n, 4], ``sides`` int64[n]): its index in
    :func:`~tdbook.games.checkers_bitboard.legal_moves` order (as :func:`~tdbook.games.checkers.moves_of`),
    searched in one kernel call per ``chunk`` positions; −1 where the side to move has no move.  A random player
    draws from the SplitMix64 stream ``(seed, chunk index)``."""
    words = np.ascontiguousarray(words, dtype=np.int64)
    sides = np.ascontiguousarray(sides, dtype=np.int64)
    if words.ndim != 2 or words.shape[1] != 4 or sides.shape != (words.shape[0],):
        raise ValueError(f"words must be int64[n, 4] and sides int64[n], got {words.shape} and {sides.shape}")
    ints, floats = player.spec()
    ws = player.workspace()
    out = np.full(words.shape[0], -1, dtype=np.int64)
    starts = range(0, words.shape[0], chunk)
    for k, a in enumerate(tqdm(starts, desc=f"{player.name}: moves", disable=not progress)):
        _choose_all(words[a : a + chunk], sides[a : a + chunk], ints, floats, seed + k, ws.arrays, out[a : a + chunk])
    return out


@dataclass(frozen=True)
class GameRecord:
    """A played game: the result for Black, the plies played, the nodes searched, and the moves (text)."""

    result: float
    plies: int
    nodes: int
    moves: tuple[str, ...]


def play_games(
    black: Player,
    white: Player,
    starts: Sequence[CheckersState],
    seed: int = 0,
    game: Checkers | None = None,
    progress: bool = False,
) -> list[GameRecord]:
    """Play one game from each start position with ``black`` as Black and ``white`` as White, under the draw
    rules of ``game`` (default :class:`Checkers()`); game ``i`` uses random stream ``(seed, i)``."""
    g = game if game is not None else Checkers()
    ints = np.stack([black.spec()[0], white.spec()[0]])
    floats = np.stack([black.spec()[1], white.spec()[1]])
    ws0, ws1 = black.workspace(), white.workspace()
    record = np.zeros((MAX_GAME, 4), dtype=np.int64)
    quiet_limit = g.quiet_limit if g.quiet_limit is not None else 2**62
    move_limit = g.move_limit if g.move_limit is not None else 0
    out = []
    for i, s in enumerate(tqdm(starts, desc=f"{black.name} v {white.name}", disable=not progress)):
        start = np.array([*s.words, s.side, s.quiet, s.ply], dtype=np.int64)
        adjudicate = int(g.adjudicate == "material")
        res, k, nodes = play_game(
            start, ints, floats, seed, i, quiet_limit, move_limit, adjudicate, record, ws0.arrays, ws1.arrays
        )
        out.append(GameRecord(float(res), int(k), int(nodes), _texts(s, record[: min(k, MAX_GAME)])))
    return out


def _texts(start: CheckersState, rec: np.ndarray) -> tuple[str, ...]:
    """The moves of a recorded game as text (replayed on the façade)."""
    g = Checkers(quiet_limit=None)
    s = start
    out = []
    for frm, to, cap, _ in rec:
        m = next(m for m in moves_of(s) if m.frm == frm + 1 and m.to == to + 1 and _w(m.captured) == cap)
        out.append(m.text)
        s = g.apply(s, m.text)
    return tuple(out)


def _w(sqs) -> int:
    return sum(1 << (q - 1) for q in sqs)
