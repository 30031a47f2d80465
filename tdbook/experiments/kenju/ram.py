"""Notebook 03's protocols, part 4: Systems 1 and 2, the RAM-net players (Kenju thesis §3.2–3.3, §4.2–4.4, App. C).

The thesis reports no numbers for either system: System 1 "is observed to 'leap' about the board in pursuit of
unoccupied areas" (§4.2.2), explained by the generalisation of the net and the *pattern–background* problem
(§4.2.3); System 2's nets saturated — many discriminators responding equally — until every level was detrained
before each training (§4.4).  Here both are built and measured.

- **System 1** plays White against MAX (System 3, Fig. 4.23's search) and learns from MAX's moves, as it learned
  from its opponent's; the leaping is measured as the distance (in points, along any direction) from each chosen
  move to the nearest stone already on the board, game after game, beside MAX's own.
- **System 2** watches MAX play itself (learning mode (a)) and is taught, after each move, the weight an
  automated teacher derived from MAX gives it: level ⌈8 · v / 380⌉ (at least 1) for the move's value v under
  effect A (380 = 20 × 19, the largest).  On held-out positions we count the candidate moves whose strongest
  response is shared by several discriminators (saturation) and those it puts at the teacher's level, with
  and without the cure (detrain all levels first), for uniform, linear and exponential address mappings.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numba import njit
from tqdm.auto import tqdm

from ...claims import Estimate
from ...claims import get as get_claim
from ...core.rng import make_state
from ...games.kenju import (
    BLACK,
    BLACK_WINS,
    MAX_PLACES,
    N_CELLS,
    ONGOING,
    STEP,
    WHITE,
    WHITE_WINS,
    Board,
    cell_of,
    n_moves,
    place,
    reset,
    status,
    x_of,
    y_of,
)
from ...games.kenju_codes import appendix_c, code48, code_sizes, fields
from ...learners.kenju_line_table import MAX, move_value
from ...learners.ram_net import BIASES, discriminators, random_mapping, word_net
from ...players.kenju import (
    N_QUESTION,
    N_STATE,
    N_STATS,
    TEACH_TABLE,
    System3,
    choose,
    new_game_state,
    note_move,
    update_state,
)
from ...players.kenju_ram import (
    S1_BITS,
    S1_NODES,
    S2_BITS,
    S2_INPUTS,
    S2_LEVELS,
    S2_NODES,
    system1_choose,
    system1_learn,
    system2_choose,
    system2_level,
    system2_teach,
    system2_useful,
)
from ..common.checks import Checks, from_pairs
from .kenju import Measured, difference, estimate, run_seed, share_estimate
from .play import board_for

RAM_SYSTEM1, RAM_SYSTEM2 = 1, 2


@njit(cache=True)
def _nearest(board: Board, cell: int) -> int:
    """Points (Chebyshev distance) from ``cell`` to the nearest stone on the board."""
    best = 1 << 30
    x, y = x_of(cell), y_of(cell)
    for i in range(n_moves(board)):
        s = board.moves[i]
        d = max(abs(x - x_of(s)), abs(y - y_of(s)))
        if d < best:
            best = d
    return best


@njit(cache=True)
def _winning_move(board: Board, colour: int, scratch: np.ndarray) -> int:
    """A vacant point completing five for ``colour`` (-1 if none)."""
    s = colour - 1
    for i in range(board.meta[0]):
        w = board.lines[i]
        if board.count[s, w] == 4 and board.count[1 - s, w] == 0:
            d = w // N_CELLS
            start = w - d * N_CELLS
            for k in range(5):
                c = start + k * STEP[d]
                if board.colour[c] == 0:
                    return c
    return -1


@njit(cache=True)
def ram_games(
    board: Board,
    n_games: int,
    kind: int,
    net1: np.ndarray,
    pm_high: bool,
    learn: bool,
    net2: np.ndarray,
    mapping: np.ndarray,
    mtable: np.ndarray,
    mpar: np.ndarray,
    rng: np.ndarray,
    results: np.ndarray,
    dist: np.ndarray,
) -> None:
    """``n_games`` games of a RAM-net player (White; System 1 or 2) against a System 3 player (Black, ``mtable`` and
    ``mpar``).  System 1 learns from Black's moves when ``learn``.  Per game ``g`` and side ``s`` (first moves
    excluded), the means over the side's moves of: ``dist[g, s]`` the distance to the nearest stone,
    ``dist[g, 2 + s]`` the distance from the move just before (the *leap*), ``dist[g, 4 + s]`` how many of the
    four directions hold no live line of either colour through the move (its empty background); ``dist[g, 6 + s]``
    the number of moves at which the side could have completed five and did not, ``dist[g, 8 + s]`` the number
    of moves at which it could."""
    scratch = np.empty(MAX_PLACES, dtype=np.int32)
    mark = np.zeros(N_CELLS, dtype=np.int8)
    state = np.zeros(N_STATE)
    stats = np.zeros(N_STATS, dtype=np.int64)
    question = np.zeros(N_QUESTION, dtype=np.int64)
    answers = np.zeros(1, dtype=np.int64)
    f = np.zeros((4, 4), dtype=np.int64)
    for g in range(n_games):
        reset(board)
        new_game_state(mpar, state)
        tot = np.zeros(10)
        cnt = np.zeros(2)
        while status(board) == ONGOING:
            nm = n_moves(board)
            s = nm % 2
            if nm == 0:
                cell = cell_of(0, 0)
            elif s == 0:
                if kind == RAM_SYSTEM1:
                    cell = system1_choose(board, net1, pm_high, scratch)
                else:
                    cell = system2_choose(board, net2, mapping, scratch)
            else:
                update_state(board, mtable, mpar, state)
                cell = choose(
                    board, mtable, mpar, state, mtable, TEACH_TABLE, answers, 0, rng, stats, question, scratch, mark
                )
                if learn and kind == RAM_SYSTEM1:
                    system1_learn(board, net1, cell, BLACK, pm_high)
            if nm > 0:
                colour = WHITE if s == 0 else BLACK
                can = _winning_move(board, colour, scratch) >= 0
                if can:
                    tot[8 + s] += 1
                    fields(board, cell, colour, f)
                    wins = False
                    for d in range(4):
                        wins = wins or f[d, 0] == 4
                    tot[6 + s] += not wins
                tot[s] += _nearest(board, cell)
                last = board.moves[nm - 1]
                tot[2 + s] += max(abs(x_of(cell) - x_of(last)), abs(y_of(cell) - y_of(last)))
                fields(board, cell, WHITE, f)
                for d in range(4):
                    tot[4 + s] += f[d, 0] == 0 and f[d, 2] == 0
                cnt[s] += 1
            note_move(board, mtable, mpar, state, cell, s == 1)
            place(board, cell)
        results[g] = status(board)
        for k in range(6):
            dist[g, k] = tot[k] / max(1.0, cnt[k % 2])
        for k in range(6, 10):
            dist[g, k] = tot[k]


# ----------------------------------------------------------------------------- System 1


@dataclass
class System1Run:
    """System 1 (White) against MAX, learning from MAX's moves: per game the result and the mean distance of
    each side's moves to the nearest stone; the trained net."""

    results: np.ndarray
    dist: np.ndarray  # games × 10 (see ram_games): System 1 then MAX for each measure
    net: np.ndarray


def system1_run(games: int, seed: int, pm_high: bool = True) -> System1Run:
    net = word_net(S1_NODES, S1_BITS)
    m = System3()
    results = np.zeros(games, dtype=np.int64)
    dist = np.zeros((games, 10))
    ram_games(
        board_for(20), games, RAM_SYSTEM1, net, pm_high, True, np.zeros((1, 1, 1), dtype=np.uint8),
        np.zeros((1, 1), dtype=np.int64), MAX.copy(), m.array(), make_state(seed), results, dist,
    )  # fmt: skip
    return System1Run(results, dist, net)


def system1_runs(runs: int, games: int, seed: int, pm_high: bool = True) -> list[System1Run]:
    return [
        system1_run(games, run_seed(seed, f"system1-{pm_high}", r), pm_high)
        for r in tqdm(range(runs), desc="System 1 against MAX", leave=False)
    ]


def responses_to_examples(net: np.ndarray) -> dict[str, int]:
    """A trained System 1 net's value of each of :func:`code_examples`' situations."""
    return {name: int(sum(net[r, a] for r, a in enumerate(addr))) for name, _, addr in code_examples()}


def sparse_share(net: np.ndarray) -> dict[str, float]:
    """The pattern–background problem in a trained System 1 net: the share of all stored reward sitting in words
    addressed by *sparse* direction codes (no live line of either colour, or single stones only), and the
    response of the emptiest situation code against the largest response stored."""
    total = float(net.sum())
    sparse = 0.0
    for r in range(net.shape[0]):
        for a in np.flatnonzero(net[r]).tolist():
            pm, om = a >> 9, (a >> 3) & 7
            if pm <= 1 and om <= 1:
                sparse += net[r, a]
    empty = (0 << 9) | (5 << 6) | (0 << 3) | 5  # [0.5/0.5]
    return {
        "sparse_share": sparse / max(total, 1.0),
        "empty_response": float(net[:, empty].sum()),
        "max_response": float(net.max(axis=1).sum()),
    }


# ----------------------------------------------------------------------------- System 2


@njit(cache=True)
def teacher_level(board: Board, cell: int) -> int:
    """The automated teacher's weight for a move: ⌈8 · v / 380⌉ (at least 1), v its value under MAX, effect A."""
    v = move_value(board, MAX, cell, 0.0, 0.0)
    lv = (8 * max(v, 0) + 379) // 380
    return max(1, min(8, lv))


@njit(cache=True)
def system2_watch(
    board: Board, moves: np.ndarray, lengths: np.ndarray, net: np.ndarray, mapping: np.ndarray, detrain_all: bool
) -> None:
    """Teach System 2 every move of the given games (learning mode (a)) with the teacher's weight."""
    for g in range(lengths.size):
        reset(board)
        for i in range(lengths[g]):
            c = moves[g, i]
            if i > 0:
                colour = WHITE if i % 2 == 0 else BLACK
                system2_teach(board, net, mapping, c, colour, teacher_level(board, c), detrain_all)
            place(board, c)


@njit(cache=True)
def system2_test(
    board: Board, moves: np.ndarray, lengths: np.ndarray, net: np.ndarray, mapping: np.ndarray, out: np.ndarray
) -> None:
    """Over every position of the given games and every System 2 useful move there: out = [moves valued, saturated
    (several discriminators tied), at the teacher's level, sum of |level − teacher's|]."""
    scratch = np.empty(MAX_PLACES, dtype=np.int32)
    bits = np.empty(S2_INPUTS, dtype=np.uint8)
    addr = np.empty(mapping.shape[0], dtype=np.int64)
    for g in range(lengths.size):
        reset(board)
        for i in range(lengths[g]):
            if i > 0:
                colour = WHITE if i % 2 == 0 else BLACK
                n = system2_useful(board, scratch)
                for j in range(n):
                    c = scratch[j]
                    lv, tied = system2_level(board, net, mapping, c, colour, bits, addr)
                    t = teacher_level(board, c)
                    out[0] += 1
                    out[1] += tied > 1
                    out[2] += lv == t
                    out[3] += abs(lv - t)
            place(board, moves[g, i])


@dataclass
class System2Curve:
    """System 2 taught by watching MAX play itself: after each block of training games, on held-out positions,
    the share of saturated evaluations, of evaluations at the teacher's level and the mean level error."""

    bias: str
    detrain_all: bool
    games: np.ndarray
    saturated: np.ndarray
    agree: np.ndarray
    error: np.ndarray
    vs_max: dict[str, float]


def _max_games(n: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    from ...players.kenju import max_player
    from .play import match

    g = match(max_player(), max_player(), n, seed=seed, keep_moves=n)
    return g.moves, g.lengths


def system2_curve(
    bias: str, detrain_all: bool, games: int, seed: int, points: int = 10, test_games: int = 20
) -> System2Curve:
    if bias not in BIASES:
        raise ValueError(f"bias must be one of {', '.join(BIASES)}, got {bias!r}")
    mapping = random_mapping(S2_INPUTS, S2_NODES, S2_BITS, seed, bias)
    net = discriminators(S2_LEVELS, S2_NODES, S2_BITS)
    train_m, train_l = _max_games(games, run_seed(seed, "system2-train"))
    test_m, test_l = _max_games(test_games, run_seed(seed, "system2-test"))
    b = board_for(20)
    marks = np.unique(np.linspace(0, games, points + 1).astype(int))
    sat, agree, err = [], [], []
    for lo, hi in zip(marks[:-1], marks[1:]):
        system2_watch(b, train_m[lo:hi], train_l[lo:hi], net, mapping, detrain_all)
        out = np.zeros(4)
        system2_test(b, test_m, test_l, net, mapping, out)
        sat.append(out[1] / out[0])
        agree.append(out[2] / out[0])
        err.append(out[3] / out[0])
    results = np.zeros(test_games, dtype=np.int64)
    dist = np.zeros((test_games, 10))
    ram_games(
        b, test_games, RAM_SYSTEM2, np.zeros((1, 1), dtype=np.int64), True, False, net, mapping, MAX.copy(),
        System3().array(), make_state(run_seed(seed, "system2-play")), results, dist,
    )  # fmt: skip
    vs = {"white": float(np.mean(results == WHITE_WINS)), "black": float(np.mean(results == BLACK_WINS))}
    return System2Curve(bias, detrain_all, marks[1:], np.array(sat), np.array(agree), np.array(err), vs)


def system2_all(games: int, runs: int, seed: int) -> dict[tuple[str, bool], list[System2Curve]]:
    out = {}
    todo = [(b, d) for b in BIASES for d in (False, True)]
    for bias, fix in tqdm(todo, desc="System 2 mappings", leave=False):
        out[(bias, fix)] = [
            system2_curve(bias, fix, games, run_seed(seed, f"system2-{bias}-{fix}", r)) for r in range(runs)
        ]
    return out


# ----------------------------------------------------------------------------- App. C


def appendix_c_counts() -> dict[str, object]:
    """App. C's sub-codes and combinations enumerated, and the printed list checked against the enumeration:
    ``listed_occurring`` is App. C's list (from the claims data) without any combination that cannot occur."""
    e = appendix_c()
    printed = get_claim("03_kenju", "appC-listed").paper.split("; ")
    occurring = {f"[{a}/{b}]" for a, b in e["combinations"]}
    return {
        "n_subcodes": len(e["subcodes"]),
        "n_combinations": len(e["combinations"]),
        "subcodes": e["subcodes"],
        "listed_occurring": "; ".join(c for c in printed if c in occurring),
        "missing_from_list": sorted(occurring - set(printed)),
    }


def code_examples() -> list[tuple[str, str, list[int]]]:
    """System 1's code of a few hand-made situations (the open point beside stones), for the notebook."""
    from ...games.kenju_codes import code_text

    out = []
    b = board_for(20)
    for name, stones, at in [
        ("empty surroundings (one stone, far point)", [(0, 0)], (4, 4)),
        ("beside White's single stone", [(0, 0)], (1, 0)),
        ("completing White's four", [(0, 0), (0, 3), (1, 0), (0, 4), (2, 0), (0, 5), (3, 0)], (4, 0)),
    ]:
        reset(b)
        for p in stones:
            place(b, cell_of(*p))
        addr = np.zeros(4, dtype=np.int64)
        code48(b, cell_of(*at), WHITE, True, addr)
        out.append((name, code_text(b, cell_of(*at), WHITE), addr.tolist()))
    return out


# ----------------------------------------------------------------------------- the claims' measured values


def claims_appendix_c() -> Checks:
    a = appendix_c_counts()
    z = code_sizes()
    e = appendix_c()
    measured: Measured = {
        "appC-subcodes": (
            a["n_subcodes"],
            "distinct M.L sub-codes over all 3⁸ arrangements of a line's eight points around the move: "
            + ", ".join(a["subcodes"]),
        ),
        "appC-combinations": (
            a["n_combinations"],
            f"not in App. C's list, e.g. {', '.join(a['missing_from_list'][:6])}",
        ),
        "appC-listed": (a["listed_occurring"], "App. C's list with any combination that cannot occur removed"),
        "sys1-code-48-bits": (
            S1_NODES * S1_BITS,
            f"System 1's address: {S1_NODES} direction codes of {S1_BITS} bits; the enumeration gives PM "
            f"{e['pm_values'][0]}–{e['pm_values'][-1]} and PL {e['pl_values'][0]}–{e['pl_values'][-1]}, "
            f"{z['pm_bits']} + {z['pl_bits']} bits a colour: {z['code_bits']} bits",
        ),
        "sys1-code-28-bits": (
            z["combination_bits"],
            f"4 × the bits of a non-redundant code of the {z['combinations']} [PL.PM/OL.OM] combinations that occur "
            f"(App. C's 71 would need as many)",
        ),
        "sys1-full-codes": (
            z["full_code_bits"],
            f"{z['full_codes']:,} full codes occur: the four direction codes are sorted and the directions' points "
            f"are disjoint, so every multiset of four of the {z['combinations']} combinations, C({z['combinations']}"
            f" + 3, 4); unsorted {z['combinations']}⁴ = {z['full_codes_unsorted']:,} "
            f"({int(np.ceil(np.log2(z['full_codes_unsorted'])))} bits); App. C's 71 sorted: "
            f"{int(np.ceil(np.log2(71 * 72 * 73 * 74 / 24)))} bits",
        ),
    }
    return from_pairs(measured)


def claims_system1(runs: list[System1Run], late: int = 100) -> Checks:
    d = np.array([r.dist for r in runs])  # runs × games × 10
    empty_s1 = d[:, -late:, 4].mean(1)
    empty_max = d[:, -late:, 5].mean(1)
    resp = [responses_to_examples(r.net) for r in runs]
    names = list(resp[0])
    four_vs_single = np.array([r[names[2]] <= r[names[1]] for r in resp])
    missed = d[:, :, 6].sum() / max(1.0, d[:, :, 8].sum())
    measured: Measured = {
        "sys1-leaping": (
            difference(empty_s1, empty_max),
            f"empty directions (of 4) of a move over the last {late} games, System 1 − MAX; distance from the last "
            f"move {d[:, -late:, 2].mean():.2f} vs {d[:, -late:, 3].mean():.2f}; to the nearest stone "
            f"{d[:, -late:, 0].mean():.2f} vs {d[:, -late:, 1].mean():.2f}",
        ),
        "sys1-four-no-better": (
            share_estimate(four_vs_single),
            f"share of trained nets valuing the completion of a four no higher than a point beside a single stone "
            f"(mean responses {np.mean([r[n] for r in resp for n in names[2:3]]):.1f} vs "
            f"{np.mean([r[names[1]] for r in resp]):.1f}; empty surroundings {np.mean([r[names[0]] for r in resp]):.1f}"
            f"); it missed {missed:.0%} of its chances to complete five",
        ),
        "sys1-sparse-share": (
            Estimate(*estimate([sparse_share(r.net)["sparse_share"] for r in runs])),
            "share of the stored reward in words addressed by sparse direction codes (at most single stones)",
        ),
    }
    return from_pairs(measured)


def claims_system2(curves: dict[tuple[str, bool], list[System2Curve]]) -> Checks:
    """§4.4's one statement, on the biased mappings of "most of the work" (§4.4.1) pooled; the unbiased mapping
    beside it."""

    def final(bias: str, detrain: bool) -> np.ndarray:
        return np.array([c.saturated[-1] for c in curves[(bias, detrain)]])

    def agree(bias: str, detrain: bool) -> float:
        return float(np.mean([c.agree[-1] for c in curves[(bias, detrain)]]))

    biased = [b for b in BIASES if b != "uniform"]
    per = "; ".join(f"{b} {final(b, False).mean():.2f} vs {final(b, True).mean():.2f}" for b in biased)
    measured: Measured = {
        "sys2-saturation-relieved": (
            difference(
                np.concatenate([final(b, False) for b in biased]), np.concatenate([final(b, True) for b in biased])
            ),
            f"saturated evaluations after training, without − with detraining all levels first, linear and "
            f"exponential mappings ({per}); at the teacher's level "
            + "; ".join(f"{b} {agree(b, False):.2f} vs {agree(b, True):.2f}" for b in biased),
        ),
        "sys2-saturation-uniform": (
            difference(final("uniform", False), final("uniform", True)),
            f"as above, unbiased mapping ({final('uniform', False).mean():.2f} vs {final('uniform', True).mean():.2f}"
            f"); at the teacher's level {agree('uniform', False):.2f} vs {agree('uniform', True):.2f}",
        ),
    }
    return from_pairs(measured)
