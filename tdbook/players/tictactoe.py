"""Tic-tac-toe players (Powell (2000) §6.1, App. B.6–B.7): random, perfect, and the TD(λ) after-state table player.

A *policy* is four numbers and a table, so that jitted loops can play any pairing without Python
objects: ``kind`` (``KIND_RANDOM``, ``KIND_PERFECT``, ``KIND_TABLE``), the table player's greedy
``rule`` (bit flags below), an exploration rate ``epsilon`` and the value ``draw_value`` the
corrected rule gives a move that ends the game in a draw; ``table`` is a float64 array of length
:data:`~tdbook.games.tictactoe.N_CODES` indexed by after-state code (unused by random/perfect).

- **random** — App. B.6 ``RandomPolicy``: a uniformly random empty square.
- **perfect** — exact minimax over the whole game (``OPTIMAL`` of :mod:`tdbook.games.tictactoe`), a
  uniformly random choice among the optimal squares.  Never loses.
- **table** — App. B.7 ``TDlambdaPolicy::move``: with probability ``epsilon`` a random square
  (the thesis: ``int(rand()·20/RAND_MAX) == 7`` while learning, i.e. 1/20); otherwise scan the empty
  squares **column-major** (``SCAN_COLUMN_MAJOR``: 0, 3, 6, 1, 4, 7, 2, 5, 8), value each after-state
  by the table, and keep it when ``val != kInitialize (0) && val > best`` (``best`` starts at −1.0), so
  ties go to the first square scanned; when no square qualifies, play randomly.  Unknown after-states
  (still 0) and *terminal* after-states (never updated, so 0) are never chosen greedily — the cause of
  Fig. 6.8 (the player blocks instead of winning).

``rule`` flags (0 = ``RULES["thesis"]``, all three = ``RULES["corrected"]``):

- ``TERMINAL_REWARD`` — a move that ends the game is valued by its reward (win 1, draw ``draw_value``);
- ``UNKNOWN_ELIGIBLE`` — drop the ``val != 0 && val > −1`` filter: every after-state is a candidate,
  unknown ones at their initial value 0;
- ``RANDOM_TIEBREAK`` — choose uniformly among the after-states of equal best value instead of the
  first one scanned.

Python side: :class:`Player` (``move(code)``, ``distribution(code)``, ``square_values(code)``),
:func:`play_game` for any objects with a ``move(code) -> square`` method (a human board, a net),
:func:`match` (jitted when both players are :class:`Player`), :func:`exact_outcomes` (the exact
win/draw/loss probabilities of two policies by backward induction over all positions),
:func:`best_response` (the same against the opponent that exploits a policy best) and
:func:`optimal_fraction` (share of positions where a policy's move is minimax-optimal).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Protocol

import numpy as np
from numba import njit
from tqdm.auto import tqdm

from ..core.rng import make_state, randint, uniform
from ..games.tictactoe import (
    DRAW,
    EMPTY,
    N_CODES,
    N_O,
    N_X,
    O_WINS,
    ONGOING,
    OPTIMAL,
    POW3,
    REACHABLE,
    SCAN_COLUMN_MAJOR,
    STATUS,
    VALUE,
    X_WINS,
    IllegalMove,
    O,
    X,
    board_string,
    check_square,
    legal_moves,
    optimal_moves,
    positions_to_move,
    to_move,
)
from ..learners.tictactoe_table import check_table, empty_table

KIND_RANDOM, KIND_PERFECT, KIND_TABLE = 0, 1, 2
KINDS: dict[str, int] = {"random": KIND_RANDOM, "perfect": KIND_PERFECT, "table": KIND_TABLE}

TERMINAL_REWARD, UNKNOWN_ELIGIBLE, RANDOM_TIEBREAK = 1, 2, 4
RULES: dict[str, int] = {"thesis": 0, "corrected": TERMINAL_REWARD | UNKNOWN_ELIGIBLE | RANDOM_TIEBREAK}
RULE_FLAGS: dict[str, int] = {
    "terminal_reward": TERMINAL_REWARD,
    "unknown_eligible": UNKNOWN_ELIGIBLE,
    "random_tiebreak": RANDOM_TIEBREAK,
}


def check_rule(rule: str | int) -> int:
    """A rule name (``"thesis"``, ``"corrected"``) or flag combination as its int; ValueError otherwise."""
    if isinstance(rule, str):
        if rule not in RULES:
            raise ValueError(f"rule must be one of {', '.join(RULES)} or an int of flags 0..7, got {rule!r}")
        return RULES[rule]
    if isinstance(rule, (int, np.integer)) and not isinstance(rule, bool) and 0 <= rule <= 7:
        return int(rule)
    raise ValueError(f"rule must be one of {', '.join(RULES)} or an int of flags 0..7, got {rule!r}")


def rule_name(rule: int) -> str:
    """``thesis``, ``corrected`` or the flags joined by ``+``."""
    for k, v in RULES.items():
        if v == rule:
            return k
    return "+".join(k for k, v in RULE_FLAGS.items() if rule & v)


# ----------------------------------------------------------------------------- kernels


@njit(cache=True)
def random_move(code: int, st: np.ndarray) -> int:
    """App. B.6: a uniformly random empty square (``code`` must not be terminal)."""
    buf = np.empty(9, dtype=np.int64)
    n = legal_moves(code, buf)
    return buf[randint(st, n)]


@njit(cache=True)
def after_state_value(table: np.ndarray, after: int, rule: int, draw_value: float) -> float:
    """The value the table player gives the after-state ``after`` (terminal ones by reward when
    ``rule & TERMINAL_REWARD``)."""
    if (rule & TERMINAL_REWARD) != 0 and STATUS[after] != ONGOING:
        return draw_value if STATUS[after] == DRAW else 1.0
    return table[after]


@njit(cache=True)
def table_candidates(table: np.ndarray, code: int, rule: int, draw_value: float, out: np.ndarray) -> int:
    """App. B.7's greedy choice: write the square(s) it may pick into ``out`` and return how many
    (1, or several tied ones under ``RANDOM_TIEBREAK``; 0 when no after-state qualifies → random move)."""
    piece = to_move(code)
    strict = (rule & UNKNOWN_ELIGIBLE) == 0
    best = -1.0 if strict else -np.inf
    n = 0
    for k in range(9):
        s = SCAN_COLUMN_MAJOR[k]
        if (code // POW3[s]) % 3 != EMPTY:
            continue
        val = after_state_value(table, code + piece * POW3[s], rule, draw_value)
        if strict and val == 0.0:  # `val != kInitialize`
            continue
        if val > best:
            best = val
            out[0] = s
            n = 1
        elif val == best and n > 0 and (rule & RANDOM_TIEBREAK) != 0:
            out[n] = s
            n += 1
    return n


@njit(cache=True)
def policy_candidates(kind: int, table: np.ndarray, rule: int, draw_value: float, code: int, out: np.ndarray) -> int:
    """The squares a policy chooses among uniformly when it does not explore (``code`` not terminal)."""
    if kind == KIND_PERFECT:
        return optimal_moves(code, out)
    if kind == KIND_TABLE:
        n = table_candidates(table, code, rule, draw_value, out)
        if n > 0:
            return n
    return legal_moves(code, out)


@njit(cache=True)
def choose(
    kind: int, table: np.ndarray, rule: int, epsilon: float, draw_value: float, code: int, st: np.ndarray
) -> int:
    """One move of a policy on ``code`` (not terminal), drawing from generator ``st``."""
    if epsilon > 0.0 and uniform(st) < epsilon:
        return random_move(code, st)
    buf = np.empty(9, dtype=np.int64)
    n = policy_candidates(kind, table, rule, draw_value, code, buf)
    if n == 1:
        return buf[0]
    return buf[randint(st, n)]


@njit(cache=True)
def move_distribution(
    kind: int, table: np.ndarray, rule: int, epsilon: float, draw_value: float, code: int, out: np.ndarray
) -> None:
    """The probability of each square (``out``, float64[9]) under :func:`choose`."""
    buf = np.empty(9, dtype=np.int64)
    for s in range(9):
        out[s] = 0.0
    if epsilon > 0.0:
        n = legal_moves(code, buf)
        for i in range(n):
            out[buf[i]] += epsilon / n
    n = policy_candidates(kind, table, rule, draw_value, code, buf)
    for i in range(n):
        out[buf[i]] += (1.0 - epsilon) / n


@njit(cache=True)
def play_match(
    kinds: np.ndarray,
    rules: np.ndarray,
    eps: np.ndarray,
    draws: np.ndarray,
    tables: np.ndarray,
    n_games: int,
    st: np.ndarray,
    counts: np.ndarray,
) -> None:
    """Play ``n_games`` games, side 0 = X and side 1 = O, each side a policy (``kinds[i]``, ``rules[i]``,
    ``eps[i]``, ``draws[i]``, ``tables[i]``); adds X wins, O wins and draws to ``counts[0:3]``."""
    for _ in range(n_games):
        code = 0
        side = 0
        while True:
            s = choose(kinds[side], tables[side], rules[side], eps[side], draws[side], code, st)
            code = code + (X if side == 0 else O) * POW3[s]
            r = STATUS[code]
            if r != ONGOING:
                if r == X_WINS:
                    counts[0] += 1
                elif r == O_WINS:
                    counts[1] += 1
                else:
                    counts[2] += 1
                break
            side = 1 - side


#: reachable non-terminal positions, most pieces first (backward-induction order)
_BACKWARD = np.array(
    sorted(np.flatnonzero(REACHABLE & (STATUS == ONGOING)), key=lambda c: -(int(N_X[c]) + int(N_O[c]))), dtype=np.int64
)


@njit(cache=True)
def outcome_table(
    kinds: np.ndarray,
    rules: np.ndarray,
    eps: np.ndarray,
    draws: np.ndarray,
    tables: np.ndarray,
    order: np.ndarray,
    best_response: int = -1,
) -> np.ndarray:
    """``P[code] = (P(X wins), P(O wins), P(draw))`` from every reachable position when X plays policy 0
    and O policy 1 (backward induction over ``order``, most pieces first).  With ``best_response`` = 0 (X)
    or 1 (O) that side ignores its policy and plays the move maximising its P(win) − P(loss) (ties: the
    higher P(win), then the lowest square) — the strongest opponent *for this particular* other policy."""
    P = np.zeros((STATUS.shape[0], 3))
    for c in range(STATUS.shape[0]):
        if STATUS[c] == X_WINS:
            P[c, 0] = 1.0
        elif STATUS[c] == O_WINS:
            P[c, 1] = 1.0
        elif STATUS[c] == DRAW:
            P[c, 2] = 1.0
    dist = np.empty(9)
    buf = np.empty(9, dtype=np.int64)
    for i in range(order.shape[0]):
        c = order[i]
        side = 0 if N_X[c] == N_O[c] else 1
        piece = X if side == 0 else O
        if side == best_response:
            n = legal_moves(c, buf)
            best, best_win, arg = -2.0, -1.0, buf[0]
            for j in range(n):
                ch = c + piece * POW3[buf[j]]
                win, loss = P[ch, side], P[ch, 1 - side]
                if win - loss > best + 1e-12 or (abs(win - loss - best) <= 1e-12 and win > best_win + 1e-12):
                    best, best_win, arg = win - loss, win, buf[j]
            ch = c + piece * POW3[arg]
            for k in range(3):
                P[c, k] = P[ch, k]
            continue
        move_distribution(kinds[side], tables[side], rules[side], eps[side], draws[side], c, dist)
        for s in range(9):
            if dist[s] > 0.0:
                ch = c + piece * POW3[s]
                for k in range(3):
                    P[c, k] += dist[s] * P[ch, k]
    return P


@njit(cache=True)
def optimal_share(
    kind: int, table: np.ndarray, rule: int, epsilon: float, draw_value: float, positions: np.ndarray
) -> np.ndarray:
    """For each position, the probability that the policy's move is minimax-optimal."""
    out = np.empty(positions.shape[0])
    dist = np.empty(9)
    for i in range(positions.shape[0]):
        c = positions[i]
        move_distribution(kind, table, rule, epsilon, draw_value, c, dist)
        p = 0.0
        for s in range(9):
            if (OPTIMAL[c] >> s) & 1:
                p += dist[s]
        out[i] = p
    return out


# ----------------------------------------------------------------------------- Python players


class MovePolicy(Protocol):
    """Anything that can play: ``move(code) -> square`` (a human board, a net, a :class:`Player`)."""

    def move(self, code: int) -> int: ...


@dataclass
class Player:
    """A jitted-policy player; ``move(code)`` draws from its own seeded generator."""

    kind: int
    rule: int = 0
    epsilon: float = 0.0
    draw_value: float = 0.0
    table: np.ndarray = field(default_factory=empty_table, repr=False)
    name: str = ""
    seed: int = 0

    def __post_init__(self) -> None:
        if self.kind not in KINDS.values():
            raise ValueError(f"kind must be one of {KINDS}, got {self.kind!r}")
        self.rule = check_rule(self.rule)
        if not 0.0 <= float(self.epsilon) <= 1.0:
            raise ValueError(f"epsilon must be in [0, 1], got {self.epsilon!r}")
        self.epsilon = float(self.epsilon)
        self.draw_value = float(self.draw_value)
        self.table = check_table(self.table)
        if not self.name:
            self.name = {KIND_RANDOM: "random", KIND_PERFECT: "perfect"}.get(
                self.kind, f"table ({rule_name(self.rule)})"
            )
        self._st = make_state(self.seed, 0)

    def move(self, code: int) -> int:
        """The square this player chooses on ``code``; ValueError if the game is over."""
        code = _live(code)
        return int(choose(self.kind, self.table, self.rule, self.epsilon, self.draw_value, code, self._st))

    def distribution(self, code: int) -> np.ndarray:
        """Probability of each square (float64[9])."""
        out = np.empty(9)
        move_distribution(self.kind, self.table, self.rule, self.epsilon, self.draw_value, _live(code), out)
        return out

    def square_values(self, code: int) -> dict[int, float]:
        """What the player sees for each empty square: the table's after-state value (table players,
        terminal after-states by reward when the rule says so) or the minimax value for the mover
        (perfect player); empty for the random player."""
        code = _live(code)
        piece = int(to_move(code))
        out: dict[int, float] = {}
        buf = np.empty(9, dtype=np.int64)
        for s in buf[: legal_moves(code, buf)]:
            a = code + piece * 3 ** int(s)
            if self.kind == KIND_TABLE:
                out[int(s)] = float(after_state_value(self.table, a, self.rule, self.draw_value))
            elif self.kind == KIND_PERFECT:
                out[int(s)] = float(VALUE[a] if piece == X else -VALUE[a])
        return out

    def greedy(self) -> Player:
        """The same policy without exploration (App. B.7 with λ = −1: not learning)."""
        return Player(self.kind, self.rule, 0.0, self.draw_value, self.table, self.name, self.seed)

    def arrays(self) -> tuple[int, np.ndarray, int, float, float]:
        """``(kind, table, rule, epsilon, draw_value)`` in the argument order of :func:`choose`."""
        return self.kind, self.table, self.rule, self.epsilon, self.draw_value


def random_player(seed: int = 0) -> Player:
    return Player(KIND_RANDOM, seed=seed)


def perfect_player(seed: int = 0) -> Player:
    return Player(KIND_PERFECT, seed=seed)


def table_player(
    table: np.ndarray,
    rule: str | int = "thesis",
    draw_value: float = 0.0,
    epsilon: float = 0.0,
    name: str = "",
    seed: int = 0,
) -> Player:
    """The TD(λ) table player of App. B.7 (``rule="thesis"``) or the corrected one, playing from ``table``."""
    return Player(KIND_TABLE, rule, epsilon, draw_value, table, name, seed)


def _live(code: Any) -> int:
    if (
        not isinstance(code, (int, np.integer))
        or isinstance(code, bool)
        or not 0 <= code < N_CODES
        or not REACHABLE[code]
    ):
        raise ValueError(f"not a reachable tic-tac-toe position code: {code!r}")
    if STATUS[code] != ONGOING:
        raise ValueError(f"the game is over in {board_string(int(code))}; there is no move to choose")
    return int(code)


def _pack(x: Player, o: Player) -> tuple[np.ndarray, ...]:
    kinds = np.array([x.kind, o.kind], dtype=np.int64)
    rules = np.array([x.rule, o.rule], dtype=np.int64)
    eps = np.array([x.epsilon, o.epsilon])
    draws = np.array([x.draw_value, o.draw_value])
    tables = np.stack([x.table, o.table])
    return kinds, rules, eps, draws, tables


@dataclass(frozen=True)
class MatchResult:
    """Outcome counts of a match (X = first player)."""

    x_wins: int
    o_wins: int
    draws: int

    @property
    def games(self) -> int:
        return self.x_wins + self.o_wins + self.draws


def play_game(x: MovePolicy, o: MovePolicy, start: int = 0) -> tuple[int, list[int]]:
    """Play one game between any two objects with ``move(code) -> square``; returns (final code, moves).

    A player that answers an illegal square raises :class:`IllegalMove` naming it."""
    from ..games.tictactoe import TicTacToe

    g = TicTacToe()
    code, moves = int(start), []
    while not g.is_terminal(code):
        p = x if g.to_move(code) == 0 else o
        s = p.move(code)
        try:
            code = g.apply(code, check_square(s))
        except IllegalMove as e:
            raise IllegalMove(f"{getattr(p, 'name', type(p).__name__)} chose an illegal move: {e}") from None
        moves.append(int(s))
    return code, moves


def match(
    x: MovePolicy, o: MovePolicy, games: int, seed: int = 0, stream: int = 0, progress: bool = True
) -> MatchResult:
    """``games`` games of ``x`` (X) against ``o`` (O).  Two :class:`Player` objects play in one jitted
    loop on generator ``(seed, stream)``; any other player object is driven game by game in Python."""
    if not isinstance(games, (int, np.integer)) or isinstance(games, bool) or games < 1:
        raise ValueError(f"games must be a positive int, got {games!r}")
    counts = np.zeros(3, dtype=np.int64)
    if isinstance(x, Player) and isinstance(o, Player):
        arrays = _pack(x, o)
        st = make_state(seed, stream)
        block = 200_000
        with tqdm(
            total=games, desc=f"{x.name} vs {o.name}", unit="game", disable=not progress or games < block, leave=False
        ) as bar:
            done = 0
            while done < games:
                n = min(block, games - done)
                play_match(*arrays, n, st, counts)
                done += n
                bar.update(n)
        return MatchResult(int(counts[0]), int(counts[1]), int(counts[2]))
    for _ in tqdm(range(games), desc="games", disable=not progress, leave=False):
        code, _moves = play_game(x, o)
        counts[{X_WINS: 0, O_WINS: 1, DRAW: 2}[int(STATUS[code])]] += 1
    return MatchResult(int(counts[0]), int(counts[1]), int(counts[2]))


def exact_outcomes(x: Player, o: Player, start: int = 0) -> tuple[float, float, float]:
    """Exact (P(X wins), P(O wins), P(draw)) of ``x`` against ``o`` from ``start`` — no sampling."""
    if (
        not isinstance(start, (int, np.integer))
        or isinstance(start, bool)
        or not 0 <= start < N_CODES
        or not REACHABLE[start]
    ):
        raise ValueError(f"start must be the code of a reachable position (an int in 0..{N_CODES - 1}), got {start!r}")
    P = outcome_table(*_pack(x, o), _BACKWARD)
    return float(P[start, 0]), float(P[start, 1]), float(P[start, 2])


def best_response(player: Player, side: str) -> tuple[float, float, float]:
    """(P(``player`` wins), P(draw), P(``player`` loses)) when it plays ``side`` ("X" or "O") against the
    opponent that knows its policy and maximises P(win) − P(loss) against it (exact backward induction):
    how far a human who has studied the player could exploit it."""
    if side not in ("X", "O"):
        raise ValueError(f"side must be 'X' or 'O', got {side!r}")
    dummy = random_player()
    x, o = (player, dummy) if side == "X" else (dummy, player)
    P = outcome_table(*_pack(x, o), _BACKWARD, 1 if side == "X" else 0)
    me = 0 if side == "X" else 1
    return float(P[0, me]), float(P[0, 2]), float(P[0, 1 - me])


def optimal_fraction(player: Any, piece: int, positions: np.ndarray | None = None) -> float:
    """The share of reachable positions with ``piece`` to move (X 2,423, O 2,097 unless ``positions``
    is given) where the player's move is minimax-optimal: the probability mass on optimal squares for a
    :class:`Player`, the chosen square of any other object with ``move(code)``."""
    pos = positions_to_move(piece) if positions is None else np.asarray(positions, dtype=np.int64)
    if isinstance(player, Player):
        return float(optimal_share(*player.arrays(), pos).mean())
    hits = [bool((int(OPTIMAL[c]) >> int(player.move(int(c)))) & 1) for c in pos]
    return float(np.mean(hits))
