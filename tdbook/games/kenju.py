"""Kenju (Kenju thesis §2.1–2.2, App. A): free-style five in a row on an unbounded board, kept as a line-list.

**Rules** (§2.1.2).  Two players, White and Black, alternately place one stone of their colour on a
vacant intersection of a boundless square grid; five or more adjoining stones of one colour in a straight
line (horizontal, vertical, positive or negative diagonal) win, so an overline wins too (the board is
kept as windows of five, §2.2.3, and any five adjoining stones fill one).  **White moves first** ("White
always takes the first move of each new game", Figs 4.6f and 4.22f; "ODD MOVES ARE WHITE", Fig. 4.13).
Every game of the thesis's experiments stops after **20 moves for each player** and then counts as a
win for neither side (§4.7.1): :data:`CAP`.

**Coordinates** are relative to the first move (§2.2.3, Fig. 2.7 ``XCO``/``YCO``): the first stone *is*
(0, 0), x grows to the right and y upwards, as the thesis prints its boards.  A later stone may go on any
vacant cell that shares a window of five with a stone already played (at most four steps from one along
a row, column or diagonal): a move list must be finite, and a stone further away takes no part in any
line with the others (the thesis's players only ever choose cells of live lines, which are all within
that reach).

**The line-list** (§2.2.3.1–2.2.3.3, Figs 2.6–2.8).  A *line* is a window of five cells in one of the four
directions; it is *live* when it holds at least one stone and stones of one colour only (it can still
become a winning line); a window that receives the second colour is *killed* (Killine); a window with no
stone is not stored.  The *place-table* (§2.2.3.2) holds, in order of creation, every cell that has been
part of a live line; the vacant ones still on a live line are the System 1 "useful moves" (§3.2.2).
Each window keeps its stone counts per colour and its *pattern*: five bits, cell 0 the most significant,
cells ordered by increasing x (by increasing y for vertical lines), 1 for a stone — the address of the
32-word line evaluation RAM (§3.4.3.1, Fig. 4.14).

**Kernels.** Underneath, the board is a bounded grid of :data:`SIDE` × :data:`SIDE` cells centred on the
first move.  A capped game has at most ``2·CAP`` stones, each within :data:`REACH` of an earlier one, so
no stone lies further than :data:`RADIUS` = 4 · 39 = 156 from the first; every window through a cell of
a live line then stays within ``RADIUS + 2·REACH`` = :data:`HALF`, the grid's half-width, and
:func:`place` asserts it (``stone beyond the internal grid``).  Everything ``@njit`` works on a
:class:`Board` of numpy arrays that :func:`reset` clears sparsely (only the windows and cells a game
touched), so one board serves thousands of games.  :class:`Kenju` is the façade keeping the contract of
:mod:`tdbook.games.base`.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import NamedTuple

import numpy as np
from numba import njit

from .base import IllegalMove

EMPTY, WHITE, BLACK = 0, 1, 2
ONGOING, WHITE_WINS, BLACK_WINS, DRAW = 0, 1, 2, 3
STATUS_NAMES = ("ongoing", "White wins", "Black wins", "draw at the cap")
COLOUR_CHARS = ".WB"

#: moves per player before a game is stopped as a win for neither side (§4.7.1)
CAP = 20
MAX_STONES = 2 * CAP
#: a stone may go at most this many steps (along a row, column or diagonal) from a stone already played
REACH = 4
#: the farthest a stone of a capped game can lie from the first move
RADIUS = REACH * (MAX_STONES - 1)
#: half-width of the internal grid: every cell any kernel reads lies within it
HALF = RADIUS + 2 * REACH
SIDE = 2 * HALF + 1
N_CELLS = SIDE * SIDE
N_DIRS = 4
N_WINDOWS = N_DIRS * N_CELLS
#: the four directions of a line: horizontal (-), vertical (|), positive (/) and negative (\) diagonal
DX = np.array([1, 0, 1, 1], dtype=np.int64)
DY = np.array([0, 1, 1, -1], dtype=np.int64)
DIR_CHARS = "-|/\\"
STEP = DY * SIDE + DX
MAX_LINES = MAX_STONES * 20
MAX_PLACES = MAX_LINES * 5
# meta fields of a Board
_NLINES, _NMOVES, _STATUS, _NTOUCHED, _NPLACES, _CAP, _WINLINE = 0, 1, 2, 3, 4, 5, 6


class Board(NamedTuple):
    """The kernels' board: the grid, the windows' counts and patterns, the line-list and the place-table."""

    colour: np.ndarray  # int8[N_CELLS]: EMPTY, WHITE or BLACK
    count: np.ndarray  # int8[2, N_WINDOWS]: stones of White (row 0) and Black (row 1) in each window
    pattern: np.ndarray  # int8[N_WINDOWS]: occupied cells of the window, cell k at bit 4 - k
    lpos: np.ndarray  # int32[N_WINDOWS]: index of a live window in ``lines``, -1 otherwise
    lines: np.ndarray  # int32[MAX_LINES]: the line-list (live windows)
    touched: np.ndarray  # int32[MAX_LINES]: every window that has held a stone (cleared by reset)
    moves: np.ndarray  # int32[MAX_STONES]: cells in the order played
    places: np.ndarray  # int32[MAX_PLACES]: the place-table, in order of creation
    pmark: np.ndarray  # int8[N_CELLS]: 1 for a cell in the place-table
    meta: np.ndarray  # int64[8]: number of lines, moves, status, touched windows, places, cap, winning window


def new_board(cap: int = CAP) -> Board:
    """An empty board for games of at most ``cap`` moves per player (1..:data:`CAP`)."""
    check_cap(cap)
    meta = np.zeros(8, dtype=np.int64)
    meta[_CAP] = cap
    meta[_WINLINE] = -1
    return Board(
        np.zeros(N_CELLS, dtype=np.int8),
        np.zeros((2, N_WINDOWS), dtype=np.int8),
        np.zeros(N_WINDOWS, dtype=np.int8),
        np.full(N_WINDOWS, -1, dtype=np.int32),
        np.zeros(MAX_LINES, dtype=np.int32),
        np.zeros(MAX_LINES, dtype=np.int32),
        np.zeros(MAX_STONES, dtype=np.int32),
        np.zeros(MAX_PLACES, dtype=np.int32),
        np.zeros(N_CELLS, dtype=np.int8),
        meta,
    )


def check_cap(cap: int) -> int:
    if not isinstance(cap, (int, np.integer)) or isinstance(cap, bool) or not 1 <= cap <= CAP:
        raise ValueError(f"cap (moves per player) must be an int in 1..{CAP}, got {cap!r}")
    return int(cap)


# ----------------------------------------------------------------------------- coordinates


@njit(cache=True)
def cell_of(x: int, y: int) -> int:
    """The grid index of board point (x, y) (relative to the first move)."""
    return (y + HALF) * SIDE + (x + HALF)


@njit(cache=True)
def x_of(cell: int) -> int:
    return cell % SIDE - HALF


@njit(cache=True)
def y_of(cell: int) -> int:
    return cell // SIDE - HALF


@njit(cache=True)
def window_cell(w: int, k: int) -> int:
    """Cell ``k`` (0..4) of window ``w``."""
    d = w // N_CELLS
    return w - d * N_CELLS + k * STEP[d]


# ----------------------------------------------------------------------------- state queries


@njit(cache=True)
def n_moves(board: Board) -> int:
    return board.meta[_NMOVES]


@njit(cache=True)
def n_lines(board: Board) -> int:
    return board.meta[_NLINES]


@njit(cache=True)
def status(board: Board) -> int:
    return board.meta[_STATUS]


@njit(cache=True)
def to_move(board: Board) -> int:
    """WHITE or BLACK: White plays the odd-numbered moves."""
    return WHITE if board.meta[_NMOVES] % 2 == 0 else BLACK


@njit(cache=True)
def line_colour(board: Board, w: int) -> int:
    """The colour of live line ``w`` (WHITE or BLACK)."""
    return WHITE if board.count[0, w] > 0 else BLACK


@njit(cache=True)
def line_pattern(board: Board, w: int, cell: int) -> int:
    """The 5-bit address of line ``w`` with ``cell`` (a cell of it, usually the candidate "?") counted as a stone."""
    d = w // N_CELLS
    k = (cell - (w - d * N_CELLS)) // STEP[d]
    return board.pattern[w] | (1 << (4 - k))


@njit(cache=True)
def lines_through(board: Board, cell: int, out: np.ndarray, start: int = 0) -> int:
    """Write the live lines holding ``cell`` into ``out`` from index ``start`` on (at most 20 of them) and return
    the index after the last one written."""
    n = start
    for d in range(N_DIRS):
        for k in range(5):
            w = d * N_CELLS + cell - k * STEP[d]
            if (board.count[0, w] > 0) != (board.count[1, w] > 0):
                out[n] = w
                n += 1
    return n


@njit(cache=True)
def n_lines_through(board: Board, cell: int) -> int:
    """The place-block's LINES field (Fig. 2.7): live lines crossing at ``cell``."""
    n = 0
    for d in range(N_DIRS):
        for k in range(5):
            w = d * N_CELLS + cell - k * STEP[d]
            if (board.count[0, w] > 0) != (board.count[1, w] > 0):
                n += 1
    return n


@njit(cache=True)
def useful_moves(board: Board, out: np.ndarray) -> int:
    """The vacant places of the place-table that lie on a live line, in place-table order (§3.2.2)."""
    n = 0
    for i in range(board.meta[_NPLACES]):
        c = board.places[i]
        if board.colour[c] == EMPTY and n_lines_through(board, c) > 0:
            out[n] = c
            n += 1
    return n


@njit(cache=True)
def reach_moves(board: Board, out: np.ndarray, mark: np.ndarray) -> int:
    """The legal moves: vacant cells sharing a window with a stone (``mark`` is an all-zero int8[N_CELLS]
    scratch array, left all zero).  The first move is (0, 0)."""
    nm = board.meta[_NMOVES]
    if nm == 0:
        out[0] = cell_of(0, 0)
        return 1
    n = 0
    for i in range(nm):
        s = board.moves[i]
        for d in range(N_DIRS):
            for j in range(-REACH, REACH + 1):
                c = s + j * STEP[d]
                if board.colour[c] == EMPTY and mark[c] == 0:
                    mark[c] = 1
                    out[n] = c
                    n += 1
    for i in range(n):
        mark[out[i]] = 0
    return n


@njit(cache=True)
def in_reach(board: Board, cell: int) -> bool:
    """Does ``cell`` share a window of five with a stone on the board?"""
    nm = board.meta[_NMOVES]
    if nm == 0:
        return cell == cell_of(0, 0)
    x, y = x_of(cell), y_of(cell)
    for i in range(nm):
        s = board.moves[i]
        dx, dy = x - x_of(s), y - y_of(s)
        if max(abs(dx), abs(dy)) <= REACH and (dx == 0 or dy == 0 or abs(dx) == abs(dy)):
            return True
    return False


# ----------------------------------------------------------------------------- making moves


@njit(cache=True)
def _add_place(board: Board, c: int) -> None:
    if board.pmark[c] == 0:
        board.pmark[c] = 1
        board.places[board.meta[_NPLACES]] = c
        board.meta[_NPLACES] += 1


@njit(cache=True)
def place(board: Board, cell: int) -> int:
    """Put the side to move's stone on vacant ``cell`` and keep the line-list (Line, Killine); return the status.

    No legality check (see :func:`is_legal`); asserts the stone lies within :data:`RADIUS` of the first.
    """
    x, y = x_of(cell), y_of(cell)
    assert abs(x) <= RADIUS and abs(y) <= RADIUS, "stone beyond the internal grid"
    nm = board.meta[_NMOVES]
    col = WHITE if nm % 2 == 0 else BLACK
    s = col - 1
    o = 1 - s
    board.colour[cell] = col
    board.moves[nm] = cell
    board.meta[_NMOVES] = nm + 1
    won = -1
    for d in range(N_DIRS):
        for k in range(5):
            start = cell - k * STEP[d]
            w = d * N_CELLS + start
            cs = board.count[s, w]
            co = board.count[o, w]
            if cs == 0 and co == 0:  # Line: a new live line
                board.touched[board.meta[_NTOUCHED]] = w
                board.meta[_NTOUCHED] += 1
                n = board.meta[_NLINES]
                board.lines[n] = w
                board.lpos[w] = n
                board.meta[_NLINES] = n + 1
                for j in range(5):
                    _add_place(board, start + j * STEP[d])
            elif cs == 0:  # Killine: the second colour enters a live line
                i = board.lpos[w]
                last = board.meta[_NLINES] - 1
                moved = board.lines[last]
                board.lines[i] = moved
                board.lpos[moved] = i
                board.lpos[w] = -1
                board.meta[_NLINES] = last
            board.count[s, w] = cs + 1
            board.pattern[w] = board.pattern[w] | (1 << (4 - k))
            if cs + 1 == 5 and co == 0:
                won = w
    if won >= 0:
        board.meta[_STATUS] = WHITE_WINS if col == WHITE else BLACK_WINS
        board.meta[_WINLINE] = won
    elif nm + 1 >= 2 * board.meta[_CAP]:
        board.meta[_STATUS] = DRAW
    return board.meta[_STATUS]


@njit(cache=True)
def is_legal(board: Board, cell: int) -> bool:
    """True when the side to move may play ``cell``: game not over, a vacant cell in reach."""
    if board.meta[_STATUS] != ONGOING or cell < 0 or cell >= N_CELLS:
        return False
    return board.colour[cell] == EMPTY and in_reach(board, cell)


@njit(cache=True)
def reset(board: Board) -> None:
    """Clear a board for a new game (only what the last game touched)."""
    for i in range(board.meta[_NTOUCHED]):
        w = board.touched[i]
        board.count[0, w] = 0
        board.count[1, w] = 0
        board.pattern[w] = 0
        board.lpos[w] = -1
    for i in range(board.meta[_NMOVES]):
        board.colour[board.moves[i]] = EMPTY
    for i in range(board.meta[_NPLACES]):
        board.pmark[board.places[i]] = 0
    cap = board.meta[_CAP]
    board.meta[:] = 0
    board.meta[_CAP] = cap
    board.meta[_WINLINE] = -1


@njit(cache=True)
def replay(board: Board, cells: np.ndarray) -> int:
    """Reset ``board`` and play ``cells`` in order; return the final status (-1 at the first illegal move's index
    encoded as ``-(i + 2)``)."""
    reset(board)
    for i in range(cells.size):
        if not is_legal(board, cells[i]):
            return -(i + 2)
        place(board, cells[i])
    return board.meta[_STATUS]


# ----------------------------------------------------------------------------- Python views


def winning_line(board: Board) -> int:
    """The window that completed five (-1 when the game was not won)."""
    return int(board.meta[_WINLINE])


@njit(cache=True)
def line_array(board: Board) -> np.ndarray:
    """The live lines as rows ``(x0, y0, direction, colour, pattern)`` (cell 0's point; 0..3 for -, |, /, \\),
    sorted."""
    n = board.meta[_NLINES]
    out = np.empty((n, 5), dtype=np.int64)
    for i in range(n):
        w = board.lines[i]
        d = w // N_CELLS
        c0 = w - d * N_CELLS
        out[i, 0] = x_of(c0)
        out[i, 1] = y_of(c0)
        out[i, 2] = d
        out[i, 3] = WHITE if board.count[0, w] > 0 else BLACK
        out[i, 4] = board.pattern[w]
    key = ((out[:, 0] * 1024 + out[:, 1]) * 4 + out[:, 2]) if n > 0 else np.zeros(0, dtype=np.int64)
    return out[np.argsort(key)]


def line_list(board: Board) -> list[tuple[int, int, int, int, int]]:
    """The live lines as ``(x0, y0, direction, colour, pattern)`` tuples (see :func:`line_array`)."""
    return [tuple(r) for r in line_array(board).tolist()]


def stones(board: Board) -> list[tuple[int, int, int]]:
    """``(x, y, colour)`` of every stone in the order played."""
    return [
        (int(x_of(c)), int(y_of(c)), int(board.colour[c])) for c in board.moves[: int(board.meta[_NMOVES])].tolist()
    ]


def pattern_string(p: int) -> str:
    """``XX-X-`` for address 26 (Fig. 4.14's notation: X a stone or the candidate, - vacant; cell 0 first)."""
    return "".join("X" if (p >> (4 - k)) & 1 else "-" for k in range(5))


def board_text(moves: list[tuple[int, int]] | tuple, margin: int = 1, numbers: bool = False) -> str:
    """The position as the thesis prints it (Fig. 4.13 'BOARD STATE'): y upwards, W/B stones, '.' vacant."""
    if not moves:
        return "(empty board)"
    xs = [m[0] for m in moves]
    ys = [m[1] for m in moves]
    at = {(x, y): i for i, (x, y) in enumerate(moves)}
    width = 3
    rows = []
    for y in range(max(ys) + margin, min(ys) - margin - 1, -1):
        cells = []
        for x in range(min(xs) - margin, max(xs) + margin + 1):
            i = at.get((x, y))
            if i is None:
                cells.append(".".rjust(width))
            else:
                cells.append((str(i + 1) if numbers else "WB"[i % 2]).rjust(width))
        rows.append(f"{y:>3} " + "".join(cells))
    rows.append("    " + "".join(f"{x:>{width}}" for x in range(min(xs) - margin, max(xs) + margin + 1)))
    return "\n".join(rows)


# ----------------------------------------------------------------------------- the façade


@dataclass(frozen=True)
class KenjuState:
    """A position and how it came about: ``moves`` are the points played, White's first (``moves[0] == (0, 0)``)."""

    moves: tuple[tuple[int, int], ...] = ()
    cap: int = CAP

    def __repr__(self) -> str:
        return f"KenjuState({len(self.moves)} stones, cap {self.cap}, last {self.moves[-1] if self.moves else None})"


_SCRATCH: dict[int, Board] = {}
_MARK = np.zeros(N_CELLS, dtype=np.int8)
_OUT = np.zeros(MAX_PLACES, dtype=np.int32)


def board_of(state: KenjuState) -> Board:
    """A scratch board holding ``state`` (shared: valid until the next call)."""
    b = _SCRATCH.get(state.cap)
    if b is None:
        b = _SCRATCH[state.cap] = new_board(state.cap)
    cells = np.array([cell_of(x, y) for x, y in state.moves], dtype=np.int32)
    st = replay(b, cells)
    if st < 0:
        raise IllegalMove(f"move {state.moves[-st - 2]!r} of {state!r} is illegal", state.moves[-st - 2])
    return b


@lru_cache(maxsize=4096)
def _summary(state: KenjuState) -> tuple[int, tuple[tuple[int, int], ...]]:
    b = board_of(state)
    st = int(status(b))
    if st != ONGOING:
        return st, ()
    n = reach_moves(b, _OUT, _MARK)
    moves = sorted((int(x_of(c)), int(y_of(c))) for c in _OUT[:n].tolist())
    return st, tuple(moves)


class Kenju:
    """Kenju behind the game contract (:mod:`tdbook.games.base`).

    Player 0 is White (moves first), player 1 Black.  A move is a point ``(x, y)`` relative to the first
    move; the legal moves are the vacant points sharing a window of five with a stone (the first move is
    (0, 0)).  ``result`` is +1 when White completes five, −1 when Black does, 0 for a game stopped at
    ``cap`` moves per player.  ``key`` is the position (the stones of each colour): the move order is history.
    ``encode`` (shape (65,)) is the line-list as a learner sees it: for White then Black, the number of
    live lines of that colour with each of the 32 patterns, then the stones played / (2 · cap).
    """

    name = "kenju"
    n_players = 2
    result_range = (-1.0, 1.0)
    encoding_shape = (65,)

    def __init__(self, cap: int = CAP) -> None:
        self.cap = check_cap(cap)

    def initial_state(self) -> KenjuState:
        return KenjuState((), self.cap)

    def to_move(self, state: KenjuState) -> int:
        return len(state.moves) % 2

    def legal_moves(self, state: KenjuState) -> list[tuple[int, int]]:
        return list(_summary(state)[1])

    def is_terminal(self, state: KenjuState) -> bool:
        return _summary(state)[0] != ONGOING

    def status(self, state: KenjuState) -> int:
        return _summary(state)[0]

    def result(self, state: KenjuState) -> float:
        st = _summary(state)[0]
        if st == ONGOING:
            from .base import not_terminal

            raise not_terminal(self, state)
        return {WHITE_WINS: 1.0, BLACK_WINS: -1.0, DRAW: 0.0}[st]

    def check_move(self, state: KenjuState, move: object) -> tuple[int, int]:
        """``move`` as an ``(x, y)`` pair of ints, or :class:`IllegalMove` naming it and the rule it breaks."""
        if (
            not isinstance(move, tuple)
            or len(move) != 2
            or not all(isinstance(v, (int, np.integer)) and not isinstance(v, bool) for v in move)
        ):
            raise IllegalMove(f"a Kenju move is a point (x, y) of two ints, got {move!r}", move)
        st, legal = _summary(state)
        if st != ONGOING:
            raise IllegalMove(f"move {move!r}: the game is over ({STATUS_NAMES[st]})", move)
        p = (int(move[0]), int(move[1]))
        if p in set(state.moves):
            raise IllegalMove(f"move {move!r}: the point is occupied", move)
        if not state.moves and p != (0, 0):
            raise IllegalMove(f"move {move!r}: coordinates are relative to the first move, which is (0, 0)", move)
        if p not in set(legal):
            raise IllegalMove(f"move {move!r}: shares no window of five with a stone (more than {REACH} away)", move)
        return p

    def apply(self, state: KenjuState, move: object) -> KenjuState:
        p = self.check_move(state, move)
        return KenjuState(state.moves + (p,), state.cap)

    def key(self, state: KenjuState) -> tuple[tuple[tuple[int, int], ...], tuple[tuple[int, int], ...]]:
        return tuple(sorted(state.moves[0::2])), tuple(sorted(state.moves[1::2]))

    def encode(self, state: KenjuState) -> np.ndarray:
        b = board_of(state)
        x = np.zeros(65, dtype=np.float64)
        for i in range(int(b.meta[_NLINES])):
            w = int(b.lines[i])
            x[(int(line_colour(b, w)) - 1) * 32 + int(b.pattern[w])] += 1.0
        x[64] = len(state.moves) / (2 * state.cap)
        return x
