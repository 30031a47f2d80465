"""Master games: the 9,377 American Checker Federation games in ``data/acf_checkers/``, read and replayed.

Samuel trained his signature tables on *book moves*: board situations from published master play, the move
the master chose counted against the moves he did not (Samuel (1973 note) ¶2, the A and D counts; Samuel
1967 §III).  This module gives those situations from a real archive of master games (Joyce 2020, MIT
licence; ``data/acf_checkers/README.md`` has the citation and the notation).

**Squares.**  The archive numbers the dark squares 0–31 from the first player's back row, left to right as
that player sees the board; the books (and :mod:`tdbook.games.checkers`) number them 1–32 from Black's back
row, right to left as Black sees it.  :func:`standard_square` maps one to the other; the first player is
Black.  Replaying every game move by move on our engine checks the mapping and the engine at once: a move
that is not legal is refused by :class:`BookError` naming the game, the move and the rule it breaks.

**Book positions** (:func:`book_positions`): every position of every game where the side to move had more
than one legal move, with the move played (its index among :func:`tdbook.games.checkers.moves_of`'s moves,
in generation order).  :func:`split_games` fixes which games are held out, by game (never by position:
positions of one game are not independent).
"""

from __future__ import annotations

import gzip
import hashlib
from functools import lru_cache
from pathlib import Path
from typing import NamedTuple

import numpy as np
from numba import njit

from ..core.paths import repo_root
from .base import IllegalMove
from .checkers import BLACK, Checkers, CheckersState, resolve
from .checkers_bitboard import BUF_COLS, BUF_ROWS, FROM, JUMPS, PATH, START, TO, legal_moves, play

#: the archive as shipped (gzip of the original ``ACF.txt``) and the SHA-256 of the original text
ARCHIVE = Path("data") / "acf_checkers" / "ACF.txt.gz"
SHA256 = "257e38af162328b42268f59521c91b922e34be8267dd803bff5f5253439282c5"
N_GAMES = 9377
#: a game's result from Black's (the first player's) side, as the archive writes it
RESULTS = {"1-0": 1, "0-1": -1, "1/2-1/2": 0}


class BookError(ValueError):
    """A game of the archive that cannot be read or replayed; the message names the game, move and rule."""


class BookGame(NamedTuple):
    """One archived game: its number (1-based line of the archive), its moves in the books' notation
    (``"10-15"``, ``"15-24-31"`` for a multi-jump, every landing square listed) and Black's result (+1, 0, −1)."""

    number: int
    moves: tuple[str, ...]
    result: int


def standard_square(i: int) -> int:
    """The books' square (1–32) of the archive's square ``i`` (0–31): ``4·(i // 4) + 4 − (i mod 4)``."""
    if not isinstance(i, (int, np.integer)) or isinstance(i, bool) or not 0 <= i <= 31:
        raise BookError(f"an archive square is an integer 0..31, got {i!r}")
    return 4 * (i // 4) + 4 - (i % 4)


def parse_line(line: str, number: int) -> BookGame:
    """One line of the archive (moves, a tab, the result) as a :class:`BookGame`; BookError naming the game."""
    try:
        text, res = line.rstrip("\n").split("\t")
    except ValueError:
        raise BookError(f"game {number}: a line is the moves, a tab and the result, got {line[:60]!r}") from None
    if res not in RESULTS:
        raise BookError(f"game {number}: unknown result {res!r} (1-0, 0-1 or 1/2-1/2)")
    moves = []
    for k, tok in enumerate(text.split()):
        try:
            sq = [standard_square(int(t)) for t in tok.split("-")]
        except (ValueError, BookError):
            raise BookError(
                f"game {number}, move {k + 1}: cannot read {tok!r} (archive squares 0–31 joined by '-')"
            ) from None
        if len(sq) < 2:
            raise BookError(f"game {number}, move {k + 1}: {tok!r} names one square; a move is from-to")
        moves.append("-".join(map(str, sq)))
    return BookGame(number, tuple(moves), RESULTS[res])


def archive_path() -> Path:
    return repo_root() / ARCHIVE


@lru_cache(maxsize=1)
def read_games() -> tuple[BookGame, ...]:
    """Every game of the shipped archive, checked against the original's SHA-256 (BookError if it differs)."""
    path = archive_path()
    try:
        raw = gzip.decompress(path.read_bytes())
    except (OSError, EOFError, gzip.BadGzipFile) as e:
        raise BookError(f"cannot read the master-games archive {path}: {e}") from None
    if hashlib.sha256(raw).hexdigest() != SHA256:
        raise BookError(f"{path} is not the archive tdbook ships (its SHA-256 differs from {SHA256[:12]}…)")
    lines = raw.decode("ascii").splitlines()
    return tuple(parse_line(ln, k + 1) for k, ln in enumerate(lines))


def replay(game: BookGame) -> list[tuple[CheckersState, str]]:
    """Every (position, move played) of ``game`` on our engine (no draw rule: the archive's games run on);
    :class:`BookError` naming the game, the move and the rule it breaks for a move that is not legal."""
    rules = Checkers(quiet_limit=None)
    s = rules.initial_state()
    out = []
    for k, mv in enumerate(game.moves):
        try:
            m = resolve(s, mv)
        except IllegalMove as e:
            side = "Black" if s.side == BLACK else "White"
            raise BookError(f"game {game.number}, move {k + 1} ({side}): {e}") from None
        out.append((s, m.text))
        s = rules.apply(s, m.text)
    return out


# ----------------------------------------------------------------------------- book positions, jitted


def _encode(games: tuple[BookGame, ...]) -> tuple[np.ndarray, np.ndarray]:
    """Moves as int64 rows ``[from, landings, packed path]`` (0-based squares, path 5 bits a landing), and
    each game's first row."""
    rows, offsets = [], [0]
    for g in games:
        for mv in g.moves:
            sq = [int(t) - 1 for t in mv.split("-")]
            packed = 0
            for k, s in enumerate(sq[1:]):
                packed |= s << (5 * k)
            rows.append((sq[0], len(sq) - 1, packed))
        offsets.append(len(rows))
    return np.asarray(rows, dtype=np.int64).reshape(-1, 3), np.asarray(offsets, dtype=np.int64)


@njit(cache=True)
def _replay_all(moves: np.ndarray, offsets: np.ndarray, out: np.ndarray) -> int:
    """Replay every game; write one row per position ``[bm, bk, wm, wk, side, ply, n_legal, chosen, game]``.
    Returns the number of rows, or ``-(1 + row of the first move that matches no legal move)``."""
    buf = np.zeros((BUF_ROWS, BUF_COLS), dtype=np.int64)
    n = 0
    for g in range(offsets.size - 1):
        bm, bk, wm, wk = np.int64(START[0]), np.int64(START[1]), np.int64(START[2]), np.int64(START[3])
        side = 0
        for r in range(offsets[g], offsets[g + 1]):
            nl = legal_moves(bm, bk, wm, wk, side, buf)
            frm, nland, packed = moves[r, 0], moves[r, 1], moves[r, 2]
            chosen = -1
            for i in range(nl):
                if buf[i, FROM] != frm:
                    continue
                if buf[i, JUMPS] == 0:
                    if nland == 1 and buf[i, TO] == packed:
                        chosen = i
                        break
                elif buf[i, JUMPS] == nland and buf[i, PATH] == packed:
                    chosen = i
                    break
            if chosen < 0:
                return -(1 + r)
            out[n, 0], out[n, 1], out[n, 2], out[n, 3] = bm, bk, wm, wk
            out[n, 4], out[n, 5], out[n, 6], out[n, 7], out[n, 8] = side, r - offsets[g], nl, chosen, g
            n += 1
            bm, bk, wm, wk = play(bm, bk, wm, wk, side, buf[chosen])
            side = 1 - side
    return n


class BookPositions(NamedTuple):
    """Book positions as arrays, one row per position where the mover had more than one legal move:
    ``words`` int64[n, 4] (bm, bk, wm, wk), ``side`` (0 Black to move), ``ply`` (plies played before it),
    ``n_legal``, ``chosen`` (the master's move: its index in generation order, as in
    :func:`tdbook.games.checkers.moves_of`) and ``game`` (the game's index in the archive, 0-based)."""

    words: np.ndarray
    side: np.ndarray
    ply: np.ndarray
    n_legal: np.ndarray
    chosen: np.ndarray
    game: np.ndarray

    def __len__(self) -> int:
        return int(self.side.size)

    def state(self, i: int) -> CheckersState:
        """Position ``i`` as a :class:`~tdbook.games.checkers.CheckersState`."""
        bm, bk, wm, wk = (int(x) for x in self.words[i])
        return CheckersState(bm, bk, wm, wk, int(self.side[i]), 0, int(self.ply[i]))

    def take(self, index: np.ndarray) -> BookPositions:
        """The positions at ``index`` (an int array or a boolean mask)."""
        return BookPositions(*(a[index] for a in self))


def all_positions(games: tuple[BookGame, ...] | None = None) -> BookPositions:
    """Every position of every game with the move played (including forced ones); BookError naming the
    first illegal move (replayed by :func:`replay` to name the rule it breaks)."""
    games = read_games() if games is None else tuple(games)
    moves, offsets = _encode(games)
    out = np.zeros((max(1, moves.shape[0]), 9), dtype=np.int64)
    n = _replay_all(moves, offsets, out)
    if n < 0:
        bad = -n - 1
        g = int(np.searchsorted(offsets, bad, side="right") - 1)
        replay(games[g])  # names the move and the rule
        raise BookError(f"game {games[g].number}, move {bad - offsets[g] + 1}: matches no legal move")
    out = out[:n]
    return BookPositions(
        out[:, :4].copy(), out[:, 4].copy(), out[:, 5].copy(), out[:, 6].copy(), out[:, 7].copy(), out[:, 8].copy()
    )


@lru_cache(maxsize=1)
def _shipped_positions() -> BookPositions:
    p = all_positions()
    return p.take(p.n_legal > 1)


def book_positions(games: tuple[BookGame, ...] | None = None) -> BookPositions:
    """The book positions (more than one legal move) of ``games`` (default: the whole shipped archive)."""
    if games is None:
        return _shipped_positions()
    p = all_positions(games)
    return p.take(p.n_legal > 1)


def split_games(n_games: int = N_GAMES, held_out: float = 0.2, seed: int = 1973) -> tuple[np.ndarray, np.ndarray]:
    """(training, held-out) game indices: a fixed random share ``held_out`` of the games, drawn by ``seed``.

    The split is by game, never by position; the default (20 % held out, seed 1973) is the collection's one
    split, fixed once — a model is never chosen or tuned on the held-out games."""
    if not isinstance(n_games, (int, np.integer)) or n_games < 2:
        raise ValueError(f"n_games must be an int >= 2, got {n_games!r}")
    if not 0 < held_out < 1:
        raise ValueError(f"held_out must be a share in (0, 1), got {held_out!r}")
    order = np.random.default_rng(seed).permutation(int(n_games))
    k = max(1, int(round(held_out * n_games)))
    return np.sort(order[k:]), np.sort(order[:k])
