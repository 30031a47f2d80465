"""System 3 (and 4): the attention-chain move search with a learning line table (Kenju thesis §3.4, §4.5–4.10).

**The search** (§3.4.2, §3.4.4, Fig. 3.12) follows a chain of attention across the board — a line, the
best move in it, the best line through that move, the best move in that line, … — and is not look-ahead:
no reply of the opponent is imagined.  :func:`search` implements every box of the flow chart:

1. *start line*: one drawn at random from the live lines through the opponent's previous move
   (DEFENDING), through the player's own previous move (ATTACKING), their union (both), or the whole
   line-list (neither); an empty subset falls back to the whole line-list;
2. *best move in the line*: its vacant cells, the move that led to this line (the parent) excluded, in
   cell order, a later cell replacing the best only when strictly better (ties keep the first);
   no cell left is a *place-loop* dead end;
3. *best move to date*: replaced when strictly better — a "successful try";
4. *patience*: the search ends successfully once NODEPATIENCE unsuccessful tries follow the last successful one;
5. *dead ends*: place-loop (Box 2), *node-loop* (the path comes back to the best move to date, or to a
   node it visited) and *line-loop* (Box 6 finds no line but the parent);
6. *best line through the move*: the live lines through it except the parent, only the opponent's when
   DEFENDING alone, only the player's when ATTACKING alone, in random order; a strictly higher value
   replaces the best; **a tie asks the teacher** when LEARNING is on (System 3, §4.6), the preferred
   pattern's word rising by one — identical or mirror-image patterns are answered "equal" without asking;
7. after a dead end the path is dropped (the best move to date kept); fewer than MAXDEADENDS dead-end
   paths so far restarts at Box 1;
8. the best move to date is played.

System 4 (§4.10.2) instead asks, in Box 2, which of two equally valued moves is better, and raises every
pattern through the preferred move that is absent from the lines through the other.

**Where the flow chart is ambiguous** (the notebook measures all 80 combinations against Fig. 4.24): the
*order* of the tests — ``"flowchart"`` (Box 2 → 3 → 4 → 5: a node-loop is only noticed if patience has not run
out first) or ``"deadend-first"`` (Box 2 → 5 → 3 → 4); the *node-loop* — ``"best"`` (the Box 2 move is the best
move to date, except on a path's first node: the thesis's words), ``"path"`` (a node already on this path),
``"either"``, or ``"best-first"`` / ``"either-first"`` (a path's first node counts too); *patience* —
``"reaches"`` (stop when the unsuccessful tries reach NODEPATIENCE) or ``"exceeds"``; whether a *tie* with the
best move to date is an ``"unsuccessful"`` try or not (``"successful"``: it does not better the best, but it
does not count against patience either); and the *scope* of the count — per ``"path"`` or over the whole
``"search"`` ("since the last successful try").  **The defaults are the reading closest to Fig. 4.24's
NODEPATIENCE 1 column** (chosen on that column alone; the columns for NODEPATIENCE 4 and 9 then test it):
flow-chart order, node-loop ``"path"``, patience ``"exceeds"``, ties ``"successful"``, scope ``"path"`` (§4.8.5:
"NODEPATIENCE controls the length of successful paths").  The reading nearest the whole figure differs only in
scope ``"search"``; the flow chart read word for word (``tdbook.experiments.kenju.search.LITERAL``: node-loop
``"best"``, patience ``"reaches"``, ties ``"unsuccessful"``, scope ``"search"``) is an option, and the farthest
of all.  A path of
:data:`MAX_PATH_NODES` nodes, which some readings never end (a cycle of equally valued moves), ends as a node-loop.

This module is the whole of System 3's move choice — the search, its statistics, the player's state and its
kinds (search, the greedy stand-in, random) — kept together because the kernels share their parameter layout.

**CONFIDENCE, INTEREST and the modes** (§4.8.2–4.8.3).  Before each move,
``CONFIDENCE ← ½(CONFIDENCE + value of the player's previous move − value of the opponent's previous move)``
and ``INTEREST ← ½(INTEREST + … + …)`` (computed, used by nothing, §4.8.5), the values by the player's own
move evaluation (of the board just before that move was played, ``confidence_eval="before"``, or of the
move's lines now, ``"after"``; a missing move counts 0).  Then ``DEFENDING`` ← (DEFENDING and CONF < DOFF)
or (not DEFENDING and CONF < DON), ``ATTACKING`` likewise with ``>`` AOFF / AON.  The thesis used all four
thresholds at 0 and says that "moves taken while CONFIDENCE is at zero have both DEFENDING and ATTACKING
on", which the printed strict inequalities contradict: ``zero_modes="both"`` (default) compares with ≤ / ≥
so that a tie switches both on, ``"neither"`` keeps the printed strict ones.

The kernels take a player as three arrays: its line table (int64[32]), its parameters (:data:`N_PAR`
floats, :meth:`System3.array`) and its state (:data:`N_STATE` floats: CONFIDENCE, INTEREST, the modes,
the values of the two previous moves).  Search statistics accumulate into an int64[:data:`N_STATS`] array.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import NamedTuple

import numpy as np
from numba import njit

from ..core.rng import randint
from ..games.kenju import (
    BLACK,
    EMPTY,
    N_CELLS,
    N_DIRS,
    STEP,
    WHITE,
    Board,
    line_pattern,
    lines_through,
    n_moves,
    reach_moves,
    useful_moves,
)
from ..learners.kenju_line_table import (
    EFFECTS,
    MAX,
    N_PATTERNS,
    Evaluation,
    check_table,
    move_patterns,
    move_value,
    resolve_thresholds,
    same_or_mirror,
    system4_reward,
    teacher_answer,
)

# ----------------------------------------------------------------------------- parameters (float64 array)
(
    P_MEDIOCRE,
    P_OUTSTANDING,
    P_PERCENT,
    P_MAXDEADENDS,
    P_NODEPATIENCE,
    P_LEARNING,
    P_DON,
    P_DOFF,
    P_AON,
    P_AOFF,
    P_ORDER,
    P_NODELOOP,
    P_PATIENCE,
    P_SCOPE,
    P_SYSTEM,
    P_ZERO_MODES,
    P_CONF_EVAL,
    P_MODES,
    P_RESET_CONF,
    P_KIND,
    P_TIES,
) = range(21)
N_PAR = 24
# player state (float64 array)
S_CONF, S_INTEREST, S_DEF, S_ATT, S_VOWN, S_VOPP = range(6)
N_STATE = 8
# kinds of player
KIND_SEARCH, KIND_GREEDY, KIND_RANDOM = 0, 1, 2
KINDS = ("search", "greedy", "random")
MODES = ("dynamic", "defending", "attacking", "both", "neither")
ORDERS = ("flowchart", "deadend-first")
NODE_LOOPS = ("best", "path", "either", "best-first", "either-first")
PATIENCES = ("reaches", "exceeds")
TIE_TRIES = ("unsuccessful", "successful")
SCOPES = ("path", "search")
ZERO_MODES = ("both", "neither")
CONF_EVALS = ("before", "after")
# search statistics (int64 array)
T_SEARCHES, T_NODES, T_MOVE_EVALS, T_LINE_EVALS, T_QUESTIONS, T_AUTO_EQUAL, T_RAISES, T_MOVE_QUESTIONS = range(8)
T_ENDLESS = 8  # paths cut at MAX_PATH_NODES nodes (endless under the reading)
T_CAUSE = 9  # + 0 node-loop, 1 line-loop, 2 place-loop, 3 no dead end (per path)
CAUSES = ("node-loop", "line-loop", "place-loop", "no dead end")
C_NODE, C_LINE, C_PLACE, C_NONE = range(4)
T_PATHS = 13  # + k: searches that tried k paths (k = 1 .. MAX_PATHS)
MAX_PATHS = 40
#: a path this long is endless under its node-loop reading (a cycle of equal moves): it ends as a node-loop
MAX_PATH_NODES = 200
N_STATS = T_PATHS + MAX_PATHS + 1
# a question waiting for a person (int64 array): kind (1 lines, 2 moves), the two patterns or cells
QUESTION = -2
Q_KIND, Q_A, Q_B, Q_CELL, Q_LINE_A, Q_LINE_B = range(6)
N_QUESTION = 8
# teachers
TEACH_TABLE, TEACH_ANSWERS = 0, 1


@dataclass(frozen=True)
class System3:
    """The parameters of Fig. 4.12 for one player, with the readings of the ambiguous points (module docstring).

    Defaults are Fig. 4.23's (MAXDEADENDS 5, NODEPATIENCE 4, effect A, DON = DOFF = AON = AOFF = 0) with
    LEARNING off; :data:`FIG_4_23` has LEARNING on, :data:`FIG_4_7` is the performance-graph setting.
    """

    evaluation: Evaluation = EFFECTS["A"]
    maxdeadends: int = 5
    nodepatience: int = 4
    learning: bool = False
    modes: str = "dynamic"
    don: float = 0.0
    doff: float = 0.0
    aon: float = 0.0
    aoff: float = 0.0
    check_order: str = "flowchart"
    node_loop: str = "path"
    patience: str = "exceeds"
    patience_scope: str = "path"
    tie_try: str = "successful"
    system: int = 3
    zero_modes: str = "both"
    confidence_eval: str = "before"
    reset_confidence: bool = True
    kind: str = "search"

    def __post_init__(self) -> None:
        choices = {
            "modes": MODES,
            "check_order": ORDERS,
            "node_loop": NODE_LOOPS,
            "patience": PATIENCES,
            "patience_scope": SCOPES,
            "tie_try": TIE_TRIES,
            "zero_modes": ZERO_MODES,
            "confidence_eval": CONF_EVALS,
            "kind": KINDS,
        }
        for name, ok in choices.items():
            if getattr(self, name) not in ok:
                raise ValueError(f"{name} must be one of {', '.join(ok)}; got {getattr(self, name)!r}")
        if not isinstance(self.evaluation, Evaluation):
            raise ValueError(f"evaluation must be an Evaluation (e.g. EFFECTS['A']), got {self.evaluation!r}")
        for name, lo in (("maxdeadends", 1), ("nodepatience", 0)):
            v = getattr(self, name)
            if not isinstance(v, (int, np.integer)) or isinstance(v, bool) or v < lo or v > 10_000:
                raise ValueError(f"{name} must be an int in {lo}..10000, got {v!r}")
        if self.system not in (3, 4):
            raise ValueError(f"system must be 3 or 4, got {self.system!r}")

    def array(self) -> np.ndarray:
        """The kernels' parameter array."""
        p = np.zeros(N_PAR, dtype=np.float64)
        p[P_MEDIOCRE] = self.evaluation.mediocre
        p[P_OUTSTANDING] = self.evaluation.outstanding
        p[P_PERCENT] = float(self.evaluation.percentage)
        p[P_MAXDEADENDS] = self.maxdeadends
        p[P_NODEPATIENCE] = self.nodepatience
        p[P_LEARNING] = float(self.learning)
        p[P_DON], p[P_DOFF], p[P_AON], p[P_AOFF] = self.don, self.doff, self.aon, self.aoff
        p[P_ORDER] = ORDERS.index(self.check_order)
        p[P_NODELOOP] = NODE_LOOPS.index(self.node_loop)
        p[P_PATIENCE] = PATIENCES.index(self.patience)
        p[P_SCOPE] = SCOPES.index(self.patience_scope)
        p[P_TIES] = TIE_TRIES.index(self.tie_try)
        p[P_SYSTEM] = self.system
        p[P_ZERO_MODES] = ZERO_MODES.index(self.zero_modes)
        p[P_CONF_EVAL] = CONF_EVALS.index(self.confidence_eval)
        p[P_MODES] = MODES.index(self.modes)
        p[P_RESET_CONF] = float(self.reset_confidence)
        p[P_KIND] = KINDS.index(self.kind)
        return p


#: Fig. 4.23 (the §4.9 training schemes): MAXDEADENDS 5, NODEPATIENCE 4, effect A, TRYING and LEARNING on
FIG_4_23 = System3(learning=True)
#: Fig. 4.7 (the performance graphs): MEDIOCRE 0, OUTSTANDING 100 (effect B), MAXDEADENDS 3, NODEPATIENCE 12,
#: CONFIDENCE carried from game to game (Fig. 4.6c)
FIG_4_7 = System3(
    evaluation=Evaluation(0.0, 100.0), maxdeadends=3, nodepatience=12, learning=True, reset_confidence=False
)


@dataclass
class Player:
    """A Kenju player: a name, a line table and its System 3 parameters (``config.kind`` says how it moves)."""

    name: str
    table: np.ndarray
    config: System3 = field(default_factory=System3)

    def __post_init__(self) -> None:
        self.table = check_table(self.table, f"{self.name}'s table")

    def with_(self, **changes) -> Player:
        """A copy with new parameters (``learning=True``, ``modes="attacking"``, …) and a copy of the table."""
        return Player(self.name, self.table.copy(), replace(self.config, **changes))


def null_player(config: System3 | None = None) -> Player:
    """NULL (§4.9): untrained and not learning, every line valued 0."""
    return Player("NULL", np.zeros(N_PATTERNS, dtype=np.int64), config or System3())


def max_player(config: System3 | None = None) -> Player:
    """MAX (§4.8.1, Fig. 4.14): the fully trained table, not learning."""
    return Player("MAX", MAX.copy(), config or System3())


def learner(name: str = "learner", config: System3 | None = None) -> Player:
    """A System 3 learner from scratch (table all 0, LEARNING on, Fig. 4.23 unless given)."""
    return Player(name, np.zeros(N_PATTERNS, dtype=np.int64), config or FIG_4_23)


def frozen(name: str, table: np.ndarray, config: System3 | None = None) -> Player:
    """A learner's table frozen as a non-learning opponent (WA.140 is scheme 1's White after 140 moves)."""
    return Player(name, np.array(table, dtype=np.int64), config or System3())


def me_stand_in(config: System3 | None = None) -> Player:
    """The stand-in for the author ("ME", schemes 4 and 6): MAX's table with the percentage setting, looking at
    every useful move rather than along an attention chain.  Not a model of the author; only a stronger,
    differently-searching player of a plausible human style (it blocks fours, builds double threes)."""
    return Player("ME stand-in", MAX.copy(), config or System3(evaluation=EFFECTS["percentage"], kind="greedy"))


# ----------------------------------------------------------------------------- kernels


class Teaching(NamedTuple):
    """Who answers the search's questions (§4.6, §4.10.2): the teacher's table (``mode`` :data:`TEACH_TABLE`: the
    answer is the sign of the difference; its move-evaluation thresholds ``med``, ``out`` for System 4) or, with
    :data:`TEACH_ANSWERS`, the first ``n_answers`` of ``answers`` given by a person, ``asked[0]`` of them used."""

    table: np.ndarray
    mode: int
    answers: np.ndarray
    n_answers: int
    asked: np.ndarray
    med: float
    out: float


class SearchScratch(NamedTuple):
    """Scratch space of one search: line lists (Boxes 1 and 6), the nodes of the current path, and the patterns
    through two moves (System 4's reward)."""

    buf: np.ndarray
    visited: np.ndarray
    pa: np.ndarray
    pb: np.ndarray


@njit(cache=True)
def _line_ok(board: Board, w: int, own: int, defending: bool, attacking: bool) -> bool:
    """Box 6's mode filter: the opponent's lines only when DEFENDING alone, the player's only when ATTACKING alone."""
    if defending == attacking:
        return True
    col = WHITE if board.count[0, w] > 0 else BLACK
    return (col != own) if defending else (col == own)


@njit(cache=True)
def _ask(teaching: Teaching, a: int, b: int) -> int:
    """The answer (0 equal, 1 ``a``, 2 ``b`` better) to the next question; -1 when a person must answer it first."""
    if teaching.mode == TEACH_TABLE:
        return teacher_answer(teaching.table, a, b)
    i = teaching.asked[0]
    if i < teaching.n_answers:
        teaching.asked[0] = i + 1
        return teaching.answers[i]
    return -1


@njit(cache=True, inline="always")
def starting_line(
    board: Board, defending: bool, attacking: bool, opp_prev: int, own_prev: int, buf: np.ndarray, rng: np.ndarray
) -> int:
    """Box 1, *choose starting line on board*: a live line drawn at random through the opponent's previous move
    (DEFENDING), the player's own (ATTACKING), both, or from the whole line-list (neither, or an empty subset)."""
    ns = 0
    if defending and opp_prev >= 0:
        ns = lines_through(board, opp_prev, buf, ns)
    if attacking and own_prev >= 0:
        ns = lines_through(board, own_prev, buf, ns)
    if not defending and not attacking:
        ns = 0
    if ns == 0:
        return int(board.lines[randint(rng, board.meta[0])])
    return buf[randint(rng, ns)]


@njit(cache=True, inline="always")
def _better_move(board: Board, m: int, c: int, teaching: Teaching, question: np.ndarray) -> int:
    """System 4's question in Box 2 (§4.10.2): which of the equally valued moves ``m`` and ``c`` is better (0 equal,
    1 ``m``, 2 ``c``)?  :data:`QUESTION` when a person must answer it first (written into ``question``)."""
    if teaching.mode == TEACH_TABLE:
        ta = move_value(board, teaching.table, m, teaching.med, teaching.out)
        tb = move_value(board, teaching.table, c, teaching.med, teaching.out)
        return 1 if ta > tb else (2 if tb > ta else 0)
    ans = _ask(teaching, m, c)
    if ans < 0:
        question[Q_KIND] = 2
        question[Q_A] = m
        question[Q_B] = c
        return QUESTION
    return ans


@njit(cache=True, inline="always")
def best_move_in_line(
    board: Board,
    table: np.ndarray,
    par: np.ndarray,
    line: int,
    parent: int,
    med: float,
    out: float,
    asks: bool,
    teaching: Teaching,
    work: SearchScratch,
    stats: np.ndarray,
    question: np.ndarray,
) -> tuple:
    """Box 2, *evaluate best move in line*: the vacant cells of ``line`` but the parent, in cell order, a later one
    replacing the best only when strictly better; with ``asks`` (System 4 learning) a tie asks which is better and
    raises the preferred move's patterns.  Returns (move or -1 (a place-loop) or :data:`QUESTION`, its value, and
    the move-evaluation thresholds, which a raise can change)."""
    m = -1
    mv = -1
    d = line // N_CELLS
    for k in range(5):
        c = line - d * N_CELLS + k * STEP[d]
        if board.colour[c] != EMPTY or c == parent:
            continue
        v = move_value(board, table, c, med, out)
        stats[T_MOVE_EVALS] += 1
        if m == -1 or v > mv:
            m = c
            mv = v
        elif v == mv and asks:
            ans = _better_move(board, m, c, teaching, question)
            if ans == QUESTION:
                return QUESTION, mv, med, out
            stats[T_MOVE_QUESTIONS] += 1
            if ans != 0:
                pref = c if ans == 2 else m
                other = m if ans == 2 else c
                npa = move_patterns(board, pref, work.pa)
                npb = move_patterns(board, other, work.pb)
                stats[T_RAISES] += system4_reward(table, work.pa, npa, work.pb, npb)
                med, out = resolve_thresholds(table, par[P_MEDIOCRE], par[P_OUTSTANDING], par[P_PERCENT] > 0)
                m = pref
                mv = move_value(board, table, pref, med, out)
    return m, mv, med, out


@njit(cache=True, inline="always")
def node_loop(m: int, best: int, visited: np.ndarray, plen: int, reading: int) -> bool:
    """Box 5's *node-loop* dead end under the ``reading`` (:data:`NODE_LOOPS`): the move is the best move to date
    (not on a path's first node unless "…-first"), or a node already on this path."""
    loop = False
    if reading != 1 and m == best and (plen > 0 or reading >= 3):
        loop = True
    if reading == 1 or reading == 2 or reading == 4:
        for i in range(plen):
            if visited[i] == m:
                loop = True
    return loop


@njit(cache=True, inline="always")
def update_best_move_to_date(m: int, mv: int, best: int, bestv: int, unsucc: int, ties_succeed: bool) -> tuple:
    """Box 3, *update best move to date*: a strictly better move replaces it (a successful try); a tie is
    successful only under ``ties_succeed``; otherwise one more unsuccessful try.  Returns (best, its value, tries)."""
    if best == -1 or mv > bestv:
        return m, mv, 0
    if ties_succeed and mv == bestv:
        return best, bestv, 0
    return best, bestv, unsucc + 1


@njit(cache=True, inline="always")
def out_of_patience(unsucc: int, nodepatience: int, exceeds: bool) -> bool:
    """Box 4, *run out of patience with looking for better moves*: the unsuccessful tries exceed (or reach)
    NODEPATIENCE."""
    return (unsucc > nodepatience) if exceeds else (unsucc >= nodepatience)


@njit(cache=True, inline="always")
def intersecting_lines(
    board: Board, m: int, line: int, own: int, defending: bool, attacking: bool, buf: np.ndarray, rng: np.ndarray
) -> int:
    """Box 6's candidates: the live lines through move ``m`` but the parent ``line``, through the mode filter, in
    random order in ``buf``; returns how many."""
    nc = 0
    for d in range(N_DIRS):
        for k in range(5):
            w = d * N_CELLS + m - k * STEP[d]
            if w != line and (board.count[0, w] > 0) != (board.count[1, w] > 0):
                if _line_ok(board, w, own, defending, attacking):
                    buf[nc] = w
                    nc += 1
    for i in range(nc - 1, 0, -1):
        j = randint(rng, i + 1)
        t = buf[i]
        buf[i] = buf[j]
        buf[j] = t
    return nc


@njit(cache=True, inline="always")
def best_line_intersecting(
    board: Board,
    table: np.ndarray,
    m: int,
    buf: np.ndarray,
    nc: int,
    asks: bool,
    teaching: Teaching,
    stats: np.ndarray,
    question: np.ndarray,
) -> int:
    """Box 6, *evaluate best line intersecting at move*: of the ``nc`` candidates in ``buf``, the one whose
    pattern (``m`` as "?") the table values highest, a strictly higher value replacing the best; with ``asks``
    (System 3 learning) a tie asks the teacher (mirror images are "equal" unasked) and the preferred pattern's
    word rises by one.  Returns the line, -1 (a line-loop) or :data:`QUESTION`."""
    bl = -1
    bv = -1
    for i in range(nc):
        w = buf[i]
        p = line_pattern(board, w, m)
        v = table[p]
        stats[T_LINE_EVALS] += 1
        if bl == -1 or v > bv:
            bl = w
            bv = v
        elif v == bv and asks:
            a = line_pattern(board, bl, m)
            if same_or_mirror(a, p):
                stats[T_AUTO_EQUAL] += 1
                continue
            ans = _ask(teaching, a, p)
            if ans < 0:
                question[Q_KIND] = 1
                question[Q_A] = a
                question[Q_B] = p
                question[Q_CELL] = m
                question[Q_LINE_A] = bl
                question[Q_LINE_B] = w
                return QUESTION
            stats[T_QUESTIONS] += 1
            if ans == 1:
                table[a] += 1
                bv = table[a]
                stats[T_RAISES] += 1
            elif ans == 2:
                table[p] += 1
                bl = w
                bv = table[p]
                stats[T_RAISES] += 1
    return bl


@njit(cache=True)
def search(
    board: Board,
    table: np.ndarray,
    par: np.ndarray,
    defending: bool,
    attacking: bool,
    teacher: np.ndarray,
    teach_mode: int,
    answers: np.ndarray,
    n_answers: int,
    rng: np.ndarray,
    stats: np.ndarray,
    question: np.ndarray,
) -> int:
    """The move search of Fig. 3.12 for the side to move (module docstring); returns the cell to play.

    Boxes 1–8 are the steps :func:`starting_line`, :func:`best_move_in_line`, :func:`update_best_move_to_date`,
    :func:`out_of_patience`, :func:`node_loop` (with the place-loop and line-loop of Boxes 2 and 6),
    :func:`intersecting_lines` / :func:`best_line_intersecting`, then a new path or the best move to date.
    ``table`` learns in place when ``par[P_LEARNING]``; the teacher is ``teacher`` (a table; the answer is the
    sign of the difference) or, with ``teach_mode == TEACH_ANSWERS``, the answers given so far to this search's
    questions: past them the search stops, writes the question into ``question`` and returns :data:`QUESTION`
    (rerun it with the same table, random state and one more answer).
    """
    nm = n_moves(board)
    own = WHITE if nm % 2 == 0 else BLACK
    learning = par[P_LEARNING] > 0
    system4 = par[P_SYSTEM] == 4
    maxdead = int(par[P_MAXDEADENDS])
    patience = int(par[P_NODEPATIENCE])
    exceeds = par[P_PATIENCE] == 1
    ties_succeed = par[P_TIES] == 1
    per_path = par[P_SCOPE] == 0
    deadend_first = par[P_ORDER] == 1
    reading = int(par[P_NODELOOP])
    med, out = resolve_thresholds(table, par[P_MEDIOCRE], par[P_OUTSTANDING], par[P_PERCENT] > 0)
    tmed, tout = resolve_thresholds(teacher, par[P_MEDIOCRE], par[P_OUTSTANDING], par[P_PERCENT] > 0)
    work = SearchScratch(
        np.empty(2 * 20 + 8, dtype=np.int64),
        np.empty(MAX_PATH_NODES, dtype=np.int64),
        np.empty(20, dtype=np.int64),
        np.empty(20, dtype=np.int64),
    )
    teaching = Teaching(teacher, teach_mode, answers, n_answers, np.zeros(1, dtype=np.int64), tmed, tout)
    visited = work.visited
    stats[T_SEARCHES] += 1
    # Box 1's subsets (fixed during the search)
    opp_prev = board.moves[nm - 1] if nm >= 1 else -1
    own_prev = board.moves[nm - 2] if nm >= 2 else -1
    best = -1
    bestv = -1
    dead = 0
    paths = 0
    unsucc = 0
    while True:
        paths += 1
        line = starting_line(board, defending, attacking, opp_prev, own_prev, work.buf, rng)  # Box 1
        parent = -1
        plen = 0
        if per_path:
            unsucc = 0
        cause = C_NONE
        while True:  # one search path, Boxes 2-6
            stats[T_NODES] += 1
            m, mv, med, out = best_move_in_line(
                board, table, par, line, parent, med, out, learning and system4, teaching, work, stats, question
            )
            if m == QUESTION:
                return QUESTION
            if m == -1:
                cause = C_PLACE
                break
            loop = node_loop(m, best, visited, plen, reading)
            if deadend_first and loop:
                cause = C_NODE
                break
            best, bestv, unsucc = update_best_move_to_date(m, mv, best, bestv, unsucc, ties_succeed)  # Box 3
            if out_of_patience(unsucc, patience, exceeds):  # Box 4: a satisfactory move
                stats[T_CAUSE + C_NONE] += 1
                stats[T_PATHS + min(paths, MAX_PATHS)] += 1
                return best  # Box 8
            if loop:  # Box 5
                cause = C_NODE
                break
            nc = intersecting_lines(board, m, line, own, defending, attacking, work.buf, rng)  # Box 6
            bl = best_line_intersecting(
                board, table, m, work.buf, nc, learning and not system4, teaching, stats, question
            )
            if bl == QUESTION:
                return QUESTION
            if bl == -1:
                cause = C_LINE
                break
            if plen == visited.size:  # a cycle the node-loop reading does not catch: end it as a node-loop
                stats[T_ENDLESS] += 1
                cause = C_NODE
                break
            visited[plen] = m
            plen += 1
            parent = m
            line = bl
        # Box 7: a dead-end path; out of patience with dead-end searches takes the best move to date (Box 8)
        stats[T_CAUSE + cause] += 1
        dead += 1
        if dead >= maxdead:
            stats[T_PATHS + min(paths, MAX_PATHS)] += 1
            return best


@njit(cache=True)
def greedy(board: Board, table: np.ndarray, par: np.ndarray, rng: np.ndarray, scratch: np.ndarray) -> int:
    """Every useful move valued by ``table`` and the heuristic; the best played, ties broken at random."""
    med, out = resolve_thresholds(table, par[P_MEDIOCRE], par[P_OUTSTANDING], par[P_PERCENT] > 0)
    n = useful_moves(board, scratch)
    best = -1
    bestv = -1
    ties = 0
    for i in range(n):
        c = scratch[i]
        v = move_value(board, table, c, med, out)
        if v > bestv:
            best = c
            bestv = v
            ties = 1
        elif v == bestv:
            ties += 1
            if randint(rng, ties) == 0:
                best = c
    return best


@njit(cache=True)
def fallback(board: Board, rng: np.ndarray, scratch: np.ndarray, mark: np.ndarray) -> int:
    """A uniformly random useful move, or a random move in reach when no live line is left (or the first move)."""
    n = useful_moves(board, scratch)
    if n == 0:
        n = reach_moves(board, scratch, mark)
    return scratch[randint(rng, n)]


@njit(cache=True)
def update_state(board: Board, table: np.ndarray, par: np.ndarray, state: np.ndarray) -> None:
    """Before a move of the side to move: CONFIDENCE, INTEREST and the modes (§4.8.2–4.8.3)."""
    vown = state[S_VOWN]
    vopp = state[S_VOPP]
    if par[P_CONF_EVAL] == 1:  # "after": the previous moves' lines as they stand now
        nm = n_moves(board)
        med, out = resolve_thresholds(table, par[P_MEDIOCRE], par[P_OUTSTANDING], par[P_PERCENT] > 0)
        vopp = max(0, move_value(board, table, board.moves[nm - 1], med, out)) if nm >= 1 else 0.0
        vown = max(0, move_value(board, table, board.moves[nm - 2], med, out)) if nm >= 2 else 0.0
    conf = 0.5 * (state[S_CONF] + vown - vopp)
    state[S_CONF] = conf
    state[S_INTEREST] = 0.5 * (state[S_INTEREST] + vown + vopp)
    mode = int(par[P_MODES])
    if mode == 0:
        d = state[S_DEF] > 0
        a = state[S_ATT] > 0
        if par[P_ZERO_MODES] == 0:  # ties switch on: CONFIDENCE 0 has both modes on
            dn = (d and conf <= par[P_DOFF]) or ((not d) and conf <= par[P_DON])
            an = (a and conf >= par[P_AOFF]) or ((not a) and conf >= par[P_AON])
        else:
            dn = (d and conf < par[P_DOFF]) or ((not d) and conf < par[P_DON])
            an = (a and conf > par[P_AOFF]) or ((not a) and conf > par[P_AON])
        state[S_DEF] = 1.0 if dn else 0.0
        state[S_ATT] = 1.0 if an else 0.0
    else:
        state[S_DEF] = 1.0 if mode in (1, 3) else 0.0
        state[S_ATT] = 1.0 if mode in (2, 3) else 0.0


@njit(cache=True)
def note_move(board: Board, table: np.ndarray, par: np.ndarray, state: np.ndarray, cell: int, own: bool) -> None:
    """Remember the value of a move about to be played (the "before" reading of CONFIDENCE's inputs)."""
    med, out = resolve_thresholds(table, par[P_MEDIOCRE], par[P_OUTSTANDING], par[P_PERCENT] > 0)
    v = max(0, move_value(board, table, cell, med, out))
    if own:
        state[S_VOWN] = v
    else:
        state[S_VOPP] = v


@njit(cache=True)
def new_game_state(par: np.ndarray, state: np.ndarray) -> None:
    """A player's state at the start of a game: no previous moves; CONFIDENCE reset unless carried (Fig. 4.6c)."""
    if par[P_RESET_CONF] > 0:
        state[S_CONF] = 0.0
        state[S_INTEREST] = 0.0
    state[S_VOWN] = 0.0
    state[S_VOPP] = 0.0


@njit(cache=True)
def choose(
    board: Board,
    table: np.ndarray,
    par: np.ndarray,
    state: np.ndarray,
    teacher: np.ndarray,
    teach_mode: int,
    answers: np.ndarray,
    n_answers: int,
    rng: np.ndarray,
    stats: np.ndarray,
    question: np.ndarray,
    scratch: np.ndarray,
    mark: np.ndarray,
) -> int:
    """The move of a player of any kind for the side to move (its state already updated by :func:`update_state`)."""
    if n_moves(board) == 0:
        return scratch[0] if reach_moves(board, scratch, mark) > 0 else -1
    kind = int(par[P_KIND])
    if board.meta[0] == 0 or kind == KIND_RANDOM:
        return fallback(board, rng, scratch, mark)
    if kind == KIND_GREEDY:
        return greedy(board, table, par, rng, scratch)
    return search(
        board,
        table,
        par,
        state[S_DEF] > 0,
        state[S_ATT] > 0,
        teacher,
        teach_mode,
        answers,
        n_answers,
        rng,
        stats,
        question,
    )


def new_stats() -> np.ndarray:
    return np.zeros(N_STATS, dtype=np.int64)


def path_histogram(stats: np.ndarray, maxdeadends: int) -> np.ndarray:
    """Searches by the number of paths tried, 1 .. ``maxdeadends`` (Fig. 4.24, upper table), as fractions."""
    h = stats[T_PATHS + 1 : T_PATHS + maxdeadends + 1].astype(float)
    return h / max(1.0, h.sum())


def cause_shares(stats: np.ndarray) -> np.ndarray:
    """Paths by how they ended: node-loop, line-loop, place-loop, no dead end (Fig. 4.24, lower table), as fractions."""
    c = stats[T_CAUSE : T_CAUSE + 4].astype(float)
    return c / max(1.0, c.sum())


__all__ = [
    "FIG_4_23",
    "FIG_4_7",
    "Player",
    "System3",
    "choose",
    "frozen",
    "learner",
    "max_player",
    "me_stand_in",
    "null_player",
    "search",
]
