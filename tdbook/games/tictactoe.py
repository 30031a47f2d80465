"""Tic-tac-toe (Powell (2000) §6, Fig. 6.1; App. B.1 ``main.cc``): jitted core on base-3 codes, and a Python façade.

**Board.** Nine squares ``s = 3·row + col`` numbered from the upper left, across and down — the order
of App. B's ``board_string`` and of App. D's state strings (``board[i][j]`` in the C++ is column ``i``,
row ``j``, string index ``3j + i``).  A square holds ``EMPTY`` (0), ``X`` (1) or ``O`` (2); X moves
first (§6: "The player with the X pieces goes first").

**Code.** A position is the int ``Σ_s board[s]·3**s`` in ``0 .. 3**9 − 1`` (``N_CODES`` = 19,683): a
table index, so every learner's table is a flat numpy array indexed by code.  Placing ``piece`` on
empty square ``s`` is ``code + piece·3**s`` (:func:`place`).

**Tables** (numpy, computed once at import, read-only; jitted kernels read them as constants):

- ``STATUS[code]``: ``ONGOING``, ``X_WINS``, ``O_WINS`` or ``DRAW`` (App. B ``game_over``: rows,
  columns, both diagonals; a full board without a line is a draw);
- ``REACHABLE[code]``: reachable from the empty board by legal play (5,478 positions, the empty
  board included; play stops at a win);
- ``VALUE[code]``: the game-theoretic (minimax) value for X of a reachable position, +1 / 0 / −1
  (0 for unreachable codes) — the empty board is a draw;
- ``OPTIMAL[code]``: bit ``s`` set when placing on ``s`` keeps the position's value for the side to
  move (0 at terminal and unreachable codes) — "perfect play" is any move in this mask;
- ``N_X[code]``, ``N_O[code]``: piece counts.

**After-states.** App. B's TD(λ) player stores the board *right after its own move*.  X's after-states
have one more X than O (2,739, of which 2,097 non-terminal); O's have as many O as X and at least one
(2,738, of which 2,422 non-terminal) — :func:`after_states`.

**Symmetries.** ``SYMMETRIES[k]`` (8 × 9) are the dihedral maps of the square (``k = 0`` identity):
the board ``b`` maps to ``b'[SYMMETRIES[k][s]] = b[s]``; :func:`canonical` is the least code of the
8 images (765 classes among the reachable positions).

Everything with ``@njit`` takes and returns plain ints / ``int8[9]`` arrays, so other kernels
(players, learners, notebook 07's nets) call it directly.
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np
from numba import njit

from .base import IllegalMove

EMPTY, X, O = 0, 1, 2
ONGOING, X_WINS, O_WINS, DRAW = 0, 1, 2, 3
N_SQUARES = 9
N_CODES = 3**9
#: ``POW3[s] = 3**s``: the weight of square ``s`` in a code
POW3 = np.array([3**s for s in range(N_SQUARES)], dtype=np.int64)
#: the eight winning lines (rows, columns, diagonals)
LINES = np.array(
    [[0, 1, 2], [3, 4, 5], [6, 7, 8], [0, 3, 6], [1, 4, 7], [2, 5, 8], [0, 4, 8], [2, 4, 6]], dtype=np.int64
)
#: App. B.7's scan order over the board (``for i in cols: for j in rows``), i.e. column-major squares
SCAN_COLUMN_MAJOR = np.array([0, 3, 6, 1, 4, 7, 2, 5, 8], dtype=np.int64)
PIECE_CHARS = "BXO"  # App. B/D strings: 'B' blank, 'X', 'O'
STATUS_NAMES = ("ongoing", "X wins", "O wins", "draw")


def _symmetries() -> np.ndarray:
    def perm(f):
        return [3 * f(r, c)[0] + f(r, c)[1] for r in range(3) for c in range(3)]

    maps = [
        lambda r, c: (r, c),
        lambda r, c: (c, 2 - r),
        lambda r, c: (2 - r, 2 - c),
        lambda r, c: (2 - c, r),
        lambda r, c: (r, 2 - c),
        lambda r, c: (2 - r, c),
        lambda r, c: (c, r),
        lambda r, c: (2 - c, 2 - r),
    ]
    return np.array([perm(f) for f in maps], dtype=np.int64)


#: ``SYMMETRIES[k, s]``: where square ``s`` goes under the k-th symmetry (identity, 3 rotations, 4 reflections)
SYMMETRIES = _symmetries()


# ----------------------------------------------------------------------------- tables (numpy, at import)


def _tables() -> tuple[np.ndarray, ...]:
    codes = np.arange(N_CODES, dtype=np.int64)
    boards = ((codes[:, None] // POW3[None, :]) % 3).astype(np.int8)
    nx = (boards == X).sum(1).astype(np.int8)
    no = (boards == O).sum(1).astype(np.int8)
    lines = boards[:, LINES]  # (codes, 8, 3)
    xwin = np.all(lines == X, axis=2).any(1)
    owin = np.all(lines == O, axis=2).any(1)
    status = np.full(N_CODES, ONGOING, dtype=np.int8)
    status[(nx + no) == 9] = DRAW
    status[owin] = O_WINS
    status[xwin] = X_WINS  # never together with an O line in a reachable position
    # reachable: breadth-first by number of pieces; play stops at a terminal position
    reach = np.zeros(N_CODES, dtype=bool)
    reach[0] = True
    for k in range(9):
        front = codes[reach & ((nx + no) == k) & (status == ONGOING)]
        piece = X if k % 2 == 0 else O
        for s in range(9):
            f = front[boards[front, s] == EMPTY]
            reach[f + piece * POW3[s]] = True
    # minimax value for X, backed up from 9 pieces to 0
    value = np.zeros(N_CODES, dtype=np.int8)
    value[status == X_WINS] = 1
    value[status == O_WINS] = -1
    optimal = np.zeros(N_CODES, dtype=np.int16)
    for k in range(8, -1, -1):
        node = codes[reach & ((nx + no) == k) & (status == ONGOING)]
        piece = X if k % 2 == 0 else O
        child = np.full((node.size, 9), -2 if piece == X else 2, dtype=np.int8)
        empty = boards[node] == EMPTY
        for s in range(9):
            e = empty[:, s]
            child[e, s] = value[node[e] + piece * POW3[s]]
        best = child.max(1) if piece == X else child.min(1)
        value[node] = best
        bits = (child == best[:, None]) & empty
        optimal[node] = (bits * (1 << np.arange(9))).sum(1).astype(np.int16)
    value[~reach] = 0
    for a in (status, reach, value, optimal, nx, no):
        a.setflags(write=False)
    return status, reach, value, optimal, nx, no


STATUS, REACHABLE, VALUE, OPTIMAL, N_X, N_O = _tables()


# ----------------------------------------------------------------------------- kernels


@njit(cache=True)
def encode(board: np.ndarray) -> int:
    """The code of an ``int8[9]`` board (``Σ board[s]·3**s``)."""
    c = 0
    for s in range(8, -1, -1):
        c = 3 * c + board[s]
    return c


@njit(cache=True)
def decode_into(code: int, out: np.ndarray) -> None:
    """Write the board of ``code`` into ``out`` (``int8[9]``)."""
    for s in range(9):
        out[s] = code % 3
        code //= 3


@njit(cache=True)
def decode(code: int) -> np.ndarray:
    """The ``int8[9]`` board of ``code``."""
    out = np.empty(9, dtype=np.int8)
    decode_into(code, out)
    return out


@njit(cache=True)
def square(code: int, s: int) -> int:
    """What stands on square ``s`` of ``code`` (EMPTY, X or O)."""
    return (code // POW3[s]) % 3


@njit(cache=True)
def board_status(board: np.ndarray) -> int:
    """ONGOING / X_WINS / O_WINS / DRAW computed from the lines of ``board`` (App. B ``game_over``)."""
    for ln in range(8):
        p = board[LINES[ln, 0]]
        if p != EMPTY and board[LINES[ln, 1]] == p and board[LINES[ln, 2]] == p:
            return X_WINS if p == X else O_WINS
    for s in range(9):
        if board[s] == EMPTY:
            return ONGOING
    return DRAW


@njit(cache=True)
def status(code: int) -> int:
    """ONGOING / X_WINS / O_WINS / DRAW of ``code`` (table look-up)."""
    return STATUS[code]


@njit(cache=True)
def to_move(code: int) -> int:
    """The piece whose turn it is: X when both sides have as many pieces, else O."""
    return X if N_X[code] == N_O[code] else O


@njit(cache=True)
def place(code: int, s: int, piece: int) -> int:
    """The code after ``piece`` is put on square ``s`` (no checks: ``s`` must be empty)."""
    return code + piece * POW3[s]


@njit(cache=True)
def is_legal(code: int, s: int) -> bool:
    """True when the side to move may play on ``s``: a square 0..8, empty, and the game not over."""
    return 0 <= s < 9 and STATUS[code] == ONGOING and (code // POW3[s]) % 3 == EMPTY


@njit(cache=True)
def legal_moves(code: int, out: np.ndarray) -> int:
    """Write the empty squares of ``code`` (ascending) into ``out[:n]`` and return ``n`` (0 when over)."""
    if STATUS[code] != ONGOING:
        return 0
    n = 0
    c = code
    for s in range(9):
        if c % 3 == EMPTY:
            out[n] = s
            n += 1
        c //= 3
    return n


@njit(cache=True)
def optimal_moves(code: int, out: np.ndarray) -> int:
    """Write the minimax-optimal squares of ``code`` (ascending) into ``out[:n]`` and return ``n``."""
    m = OPTIMAL[code]
    n = 0
    for s in range(9):
        if (m >> s) & 1:
            out[n] = s
            n += 1
    return n


@njit(cache=True)
def is_optimal(code: int, s: int) -> bool:
    """True when square ``s`` keeps the game-theoretic value of ``code`` for the side to move."""
    return 0 <= s < 9 and (OPTIMAL[code] >> s) & 1 == 1


@njit(cache=True)
def transform(code: int, k: int) -> int:
    """The code of the board under symmetry ``k`` (0..7)."""
    out = 0
    c = code
    for s in range(9):
        out += (c % 3) * POW3[SYMMETRIES[k, s]]
        c //= 3
    return out


@njit(cache=True)
def canonical(code: int) -> int:
    """The least code among the 8 symmetric images of ``code``."""
    best = code
    for k in range(1, 8):
        t = transform(code, k)
        if t < best:
            best = t
    return best


# ----------------------------------------------------------------------------- Python helpers


def _check_code(code: int) -> int:
    if not isinstance(code, (int, np.integer)) or isinstance(code, bool) or not 0 <= code < N_CODES:
        raise ValueError(f"a tic-tac-toe position is a code in 0..{N_CODES - 1}, got {code!r}")
    if not REACHABLE[code]:
        raise ValueError(f"code {code} ({board_string(int(code))}) is not a position reachable by legal play")
    return int(code)


def reachable_codes() -> np.ndarray:
    """All 5,478 reachable positions (ascending codes)."""
    return np.flatnonzero(REACHABLE)


def after_states(piece: int, terminal: bool | None = None) -> np.ndarray:
    """The positions right after a move of ``piece`` (X: 2,739; O: 2,738) — the keys of App. B.7's table.

    ``terminal=False`` keeps the non-terminal ones (X 2,097; O 2,422), ``True`` the terminal ones.
    """
    if piece not in (X, O):
        raise ValueError(f"piece must be X ({X}) or O ({O}), got {piece!r}")
    n = N_X.astype(np.int64) + N_O
    m = REACHABLE & (n > 0) & ((N_X == N_O + 1) if piece == X else (N_X == N_O))
    if terminal is not None:
        m &= (STATUS != ONGOING) if terminal else (STATUS == ONGOING)
    return np.flatnonzero(m)


def positions_to_move(piece: int) -> np.ndarray:
    """Reachable non-terminal positions with ``piece`` to move (X: 2,423 incl. the empty board; O: 2,097)."""
    if piece not in (X, O):
        raise ValueError(f"piece must be X ({X}) or O ({O}), got {piece!r}")
    m = REACHABLE & (STATUS == ONGOING) & ((N_X == N_O) if piece == X else (N_X == N_O + 1))
    return np.flatnonzero(m)


def board_string(code: int) -> str:
    """App. B.7 / App. D state string: 9 characters 'X', 'O', 'B' from the upper left, across and down."""
    return "".join(PIECE_CHARS[(int(code) // 3**s) % 3] for s in range(9))


def parse_board(text: str) -> int:
    """The code of a board written as 9 characters (``X``, ``O``, and ``B``/``.``/``-``/``_`` for blank;
    spaces, ``|`` and newlines ignored), e.g. ``"XOB BXB BBB"``.  ValueError unless it is reachable."""
    chars = [ch for ch in str(text).upper() if ch not in " |\n\t/"]
    if len(chars) != 9:
        raise ValueError(f"a board has 9 squares, got {len(chars)} in {text!r}")
    code = 0
    for s, ch in enumerate(chars):
        if ch == "X":
            code += X * 3**s
        elif ch == "O":
            code += O * 3**s
        elif ch not in "B.-_E":
            raise ValueError(f"square {s} of {text!r} is {ch!r}; use X, O or B (blank)")
    if not REACHABLE[code]:
        raise ValueError(
            f"board {board_string(code)} cannot arise in a legal game "
            f"(X {N_X[code]}, O {N_O[code]}, status {STATUS_NAMES[STATUS[code]]})"
        )
    return code


def render(code: int, marks: dict[int, str] | None = None) -> str:
    """A 3×3 text picture of ``code``; ``marks`` puts labels on (empty) squares."""
    rows = []
    for r in range(3):
        cells = []
        for c in range(3):
            s = 3 * r + c
            p = (int(code) // 3**s) % 3
            cells.append("X" if p == X else "O" if p == O else (marks or {}).get(s, "."))
        rows.append(" " + " | ".join(cells))
    return "\n---+---+---\n".join(rows)


def squares_mask(mask: int) -> list[int]:
    """The squares whose bits are set in a 9-bit mask (e.g. ``OPTIMAL[code]``)."""
    return [s for s in range(9) if (int(mask) >> s) & 1]


def check_square(square: object) -> int:
    if not isinstance(square, (int, np.integer)) or isinstance(square, bool) or not 0 <= square < 9:
        raise IllegalMove(f"a move is a square 0..8 (3·row + col, from the upper left), got {square!r}")
    return int(square)


# ----------------------------------------------------------------------------- façade


class TicTacToe:
    """Tic-tac-toe behind the common game interface (:class:`tdbook.games.base.Game`).

    A state is a position code (an ``int``); a move is a square 0..8.  Player 0 is X, player 1 is O.
    """

    name = "tictactoe"
    n_players = 2
    result_range = (-1.0, 1.0)
    encoding_shape = (18,)

    def initial_state(self) -> int:
        return 0

    def to_move(self, state: int) -> int:
        """0 when X is to move, 1 when O is."""
        return 0 if to_move(_check_code(state)) == X else 1

    def legal_moves(self, state: int) -> list[int]:
        c = _check_code(state)
        buf = np.empty(9, dtype=np.int64)
        return [int(s) for s in buf[: legal_moves(c, buf)]]

    def apply(self, state: int, move: object) -> int:
        c = _check_code(state)
        try:
            s = check_square(move)
        except IllegalMove as e:
            raise IllegalMove(str(e), move) from None
        if STATUS[c] != ONGOING:
            raise IllegalMove(f"the game is over ({STATUS_NAMES[STATUS[c]]}); no move on square {s}", move)
        if (c // 3**s) % 3 != EMPTY:
            who = "X" if (c // 3**s) % 3 == X else "O"
            raise IllegalMove(f"square {s} (row {s // 3}, column {s % 3}) is already taken by {who}", move)
        return int(place(c, s, to_move(c)))

    def is_terminal(self, state: int) -> bool:
        return bool(STATUS[_check_code(state)] != ONGOING)

    def status(self, state: int) -> int:
        """ONGOING / X_WINS / O_WINS / DRAW."""
        return int(STATUS[_check_code(state)])

    def result(self, state: int) -> float:
        """+1 X won, −1 O won, 0 draw (from player 0 = X's point of view); ValueError if not over."""
        st = STATUS[_check_code(state)]
        if st == ONGOING:
            raise ValueError(
                f"tictactoe: result() is defined on terminal states only; position "
                f"{board_string(state)} is not terminal"
            )
        return 1.0 if st == X_WINS else -1.0 if st == O_WINS else 0.0

    def key(self, state: int) -> int:
        """The position code itself (tables are arrays of length ``N_CODES``)."""
        return _check_code(state)

    def encode(self, state: int) -> np.ndarray:
        """18 inputs: 1.0 where X stands on square i (0..8), then 1.0 where O stands."""
        b = decode(_check_code(state))
        return np.concatenate([(b == X), (b == O)]).astype(np.float64)

    def board(self, state: int) -> np.ndarray:
        """The ``int8[9]`` board (EMPTY 0, X 1, O 2)."""
        return decode(_check_code(state))

    def value(self, state: int) -> int:
        """Minimax value for X: +1 X wins, 0 draw, −1 O wins with best play."""
        return int(VALUE[_check_code(state)])

    def optimal_moves(self, state: int) -> list[int]:
        """The moves that keep the game-theoretic value for the side to move (empty when over)."""
        return squares_mask(OPTIMAL[_check_code(state)])

    def play(self, moves: Iterable[int], state: int = 0) -> int:
        """Apply ``moves`` one after another from ``state``."""
        for m in moves:
            state = self.apply(state, m)
        return state
