"""Measuring notebook 06's learned tables (Powell (2000) §6.2, App. D): greedy play against the perfect, the
random and the exploiting player (exact and sampled), the transcribed App. D table, and the positions
behind Figs 6.5 and 6.8.

Everything here reads tables and returns numbers; the training runs are in
:mod:`tdbook.experiments.tictactoe.tictactoe_td_table`.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from ...claims import table_path
from ...games.tictactoe import (
    DRAW,
    O_WINS,
    ONGOING,
    REACHABLE,
    STATUS,
    X_WINS,
    O,
    X,
    after_states,
    board_string,
    parse_board,
    place,
    positions_to_move,
    to_move,
)
from ...learners.tictactoe_table import states_stored
from ...players.tictactoe import (
    MatchResult,
    Player,
    best_response,
    exact_outcomes,
    match,
    optimal_fraction,
    perfect_player,
    random_player,
    table_player,
)

CORNERS, EDGES, CENTRE = (0, 2, 6, 8), (1, 3, 5, 7), 4


# ----------------------------------------------------------------------------- greedy play of a learned table


@dataclass
class Evaluation:
    """A learned table played greedily (no learning, no exploration: App. B.7 with λ = −1)."""

    side: str
    vs_perfect: tuple[float, float, float]  # exact (TD win, draw, TD loss) probabilities
    vs_random: tuple[float, float, float]
    vs_exploiter: tuple[float, float, float]  # exact, against the opponent that best exploits this table
    sampled_perfect: tuple[int, int, int]  # EVAL_GAMES games: (TD wins, draws, TD losses)
    sampled_random: tuple[int, int, int]
    first20_perfect: tuple[int, int, int]  # the first 20 of them (Table 6.1's shape)
    optimal: float  # share of positions with the TD side to move where its greedy move is optimal
    states: int


def _from_side(m: MatchResult | tuple[float, float, float], side: str) -> tuple:
    x, o, d = (m.x_wins, m.o_wins, m.draws) if isinstance(m, MatchResult) else m
    return (x, d, o) if side == "X" else (o, d, x)


def evaluate(
    table: np.ndarray, side: str, games: int, seed: int, rule: str | int = "thesis", draw_value: float = 0.0
) -> Evaluation:
    """Greedy play of ``table`` as ``side`` against the perfect and the random player (exact and sampled)."""
    me = table_player(table, rule, draw_value)
    per, rnd = perfect_player(seed=seed + 1), random_player(seed=seed + 2)

    def pair(opp: Player) -> tuple[Player, Player]:
        return (me, opp) if side == "X" else (opp, me)

    first20 = match(*pair(per), 20, seed=seed, stream=1, progress=False)
    rest = match(*pair(per), games - 20, seed=seed, stream=2, progress=False) if games > 20 else MatchResult(0, 0, 0)
    allp = MatchResult(first20.x_wins + rest.x_wins, first20.o_wins + rest.o_wins, first20.draws + rest.draws)
    return Evaluation(
        side=side,
        vs_perfect=_from_side(exact_outcomes(*pair(per)), side),
        vs_random=_from_side(exact_outcomes(*pair(rnd)), side),
        vs_exploiter=best_response(me, side),
        sampled_perfect=_from_side(allp, side),
        sampled_random=_from_side(match(*pair(rnd), games, seed=seed, stream=3, progress=False), side),
        first20_perfect=_from_side(first20, side),
        optimal=optimal_fraction(me, X if side == "X" else O),
        states=states_stored(table),
    )


def value_stats(table: np.ndarray) -> dict[str, float]:
    """Mean, share negative and share ≤ −0.9 of the stored (non-zero) values."""
    v = table[table != 0]
    if v.size == 0:
        return {"mean": 0.0, "negative": 0.0, "near_minus_one": 0.0, "stored": 0}
    return {
        "mean": float(v.mean()),
        "negative": float((v < 0).mean()),
        "near_minus_one": float((v <= -0.9).mean()),
        "stored": int(v.size),
    }


# ----------------------------------------------------------------------------- App. D


def transcribe_appendix_d(seed_text: str) -> list[tuple[str, float]]:
    """(state, value) pairs of App. D's OCR that are unambiguous: 9 characters (OCR 'E' read as 'B', 'D'
    as 'O'), a reachable non-terminal X after-state, and met exactly once.  ``tdbook/claims/tables/
    powell2000_appendix_d.tsv`` was written by :func:`write_appendix_d` from the thesis's OCR text."""
    start = seed_text.find("Appendix D. Tic-Tac-Toe")
    if start < 0:
        raise ValueError("no 'Appendix D. Tic-Tac-Toe' heading in the seed text")
    pairs = re.findall(r"([A-Za-z]{5,11})\s+(-?[0-9]\.[0-9]{4})", seed_text[start:])
    seen: dict[int, list[float]] = {}
    for s, v in pairs:
        s2 = s.upper().replace("E", "B").replace("D", "O")
        if len(s2) != 9 or set(s2) - set("XOB"):
            continue
        try:
            c = parse_board(s2)
        except ValueError:
            continue
        if STATUS[c] == ONGOING and REACHABLE[c] and to_move(c) == O:
            seen.setdefault(c, []).append(float(v))
    return [(board_string(c), vs[0]) for c, vs in sorted(seen.items()) if len(vs) == 1]


def write_appendix_d(seed_path: Path, out: Path | None = None) -> Path:
    """Write the transcription of :func:`transcribe_appendix_d` of the OCR text at ``seed_path`` to
    ``tdbook/claims/tables/powell2000_appendix_d.tsv`` (or ``out``)."""
    pairs = transcribe_appendix_d(Path(seed_path).read_text(encoding="utf-8"))
    out = table_path("powell2000", "appendix_d") if out is None else out
    head = (
        "# Powell (2000) App. D, pp. 125-137: the learned TD(lambda) X table (alpha 0.05, lambda 0.5), as printed.\n"
        "# Unambiguous entries of the thesis's OCR text only (9 characters, 'E'->'B', 'D'->'O', reachable "
        "non-terminal X\n"
        "# after-state, met once). Written by tdbook.experiments.tictactoe.table_evaluation.write_appendix_d(<the OCR\n"
        "#   text of the thesis>)\n"
        "state\tvalue\n"
    )
    out.write_text(head + "".join(f"{s}\t{v:.4f}\n" for s, v in pairs), encoding="utf-8")
    return out


def appendix_d() -> tuple[np.ndarray, np.ndarray]:
    """The shipped App. D transcription as (codes, values)."""
    p = table_path("powell2000", "appendix_d")
    codes, vals = [], []
    for line in p.read_text(encoding="utf-8").splitlines():
        if line.startswith("#") or line.startswith("state") or not line.strip():
            continue
        s, v = line.split("\t")
        c = parse_board(s)
        if to_move(c) != O or STATUS[c] != ONGOING:
            raise ValueError(f"{p} is corrupt: {s} is not a non-terminal X after-state")
        codes.append(c)
        vals.append(float(v))
    if len(codes) < 100:
        raise ValueError(f"{p} is corrupt: only {len(codes)} entries")
    return np.array(codes, dtype=np.int64), np.array(vals)


def first_move_values(table: np.ndarray) -> np.ndarray:
    """The X table's values of X's nine opening after-states, by square."""
    return np.array([table[place(0, s, X)] for s in range(9)])


def pearson_r(x: Any, y: Any) -> float:
    """Pearson's r of two equally long series, computed with exactly rounded sums (``math.fsum``) of
    element-wise products: the same bits on every machine, for every memory layout and every order of the
    values.  ``np.corrcoef`` is not: its BLAS dot products and SIMD sums associate the terms in an order
    that depends on the CPU's kernel (and on the order of the values), which changed App. D's r in its
    last digit between machines."""
    x, y = np.asarray(x, dtype=float).ravel(), np.asarray(y, dtype=float).ravel()
    if x.shape != y.shape or x.size < 2:
        raise ValueError(f"pearson_r needs two series of the same length >= 2, got {x.size} and {y.size}")
    dx, dy = x - math.fsum(x) / x.size, y - math.fsum(y) / y.size
    return math.fsum(dx * dy) / math.sqrt(math.fsum(dx * dx) * math.fsum(dy * dy))


def mean_over_runs(values: np.ndarray) -> np.ndarray:
    """The mean over the first axis (runs) of each column, with exactly rounded sums (see :func:`pearson_r`)."""
    v = np.asarray(values, dtype=float)
    return np.array([math.fsum(col) / v.shape[0] for col in v.reshape(v.shape[0], -1).T]).reshape(v.shape[1:])


def appendix_d_comparison(td_as_x: Any) -> dict[str, Any]:
    """Our X tables (``td_as_x.tables()``: Fig. 6.7's runs) against App. D: first-move values, greedy opening,
    and the per-state correlation."""
    codes, vals = appendix_d()
    tabs = td_as_x.tables()
    fm = np.array([first_move_values(t) for t in tabs])
    corr = [pearson_r(vals, t[codes]) for t in tabs]
    corr_mean = pearson_r(vals, mean_over_runs(tabs[:, codes]))
    between = [pearson_r(tabs[i, codes], tabs[j, codes]) for i in range(len(tabs)) for j in range(i + 1, len(tabs))]
    openings = [table_player(t).move(0) for t in tabs]
    return dict(
        codes=codes,
        values=vals,
        mean_values=mean_over_runs(tabs[:, codes]),
        first_moves=fm,
        corr=corr,
        corr_mean=corr_mean,
        corr_between=between,
        openings=openings,
        stored_share=float(np.mean([(t[codes] != 0).mean() for t in tabs])),
        ones_appd=int((vals >= 0.99995).sum()),
        ones_ours=[int((t[codes] >= 0.99995).sum()) for t in tabs],
    )


def corner_answers(o_table: np.ndarray) -> dict[int, int]:
    """The greedy O's reply to each opening square of X (§6.2: corner → centre)."""
    pl = table_player(o_table)
    return {s: pl.move(place(0, s, X)) for s in range(9)}


# ----------------------------------------------------------------------------- Fig. 6.8


def winning_squares(code: int, piece: int) -> list[int]:
    return [s for s in range(9) if (code // 3**s) % 3 == 0 and STATUS[place(code, s, piece)] in (X_WINS, O_WINS)]


@dataclass
class Fig68:
    """The thesis O player on positions where it can win at once (Fig. 6.8)."""

    positions: int  # O to move with an immediate win
    p_win: float  # mean probability that greedy O takes a win there
    with_threat: int  # ... of which X also threatens to win next move
    p_block: float  # mean probability that greedy O blocks there
    p_win_threat: float
    win_values_zero: bool  # every winning after-state is 0 ("unknown") in the table
    greedy_choices: int  # positions with a win and a threat where greedy O plays by its table (no random fallback)
    greedy_blocks: int  # ... of which it plays a block
    greedy_wins: int  # ... of which it plays the win
    example: int  # a position where O blocks instead of winning
    example_values: dict[int, float]
    example_choice: int
    example_win: list[int]
    example_block: list[int]


def fig68(o_table: np.ndarray, prefer: str = "XXB OOB XBB") -> Fig68:
    """Where O can win at once, how often does the thesis O take the win (never greedily: the winning
    after-state is terminal, valued 0, skipped)?  And the position of Fig. 6.8 (our choice of board: the
    figure itself is lost) with the values the player sees."""
    pl = table_player(o_table)
    pos = [int(c) for c in positions_to_move(O) if winning_squares(int(c), O)]
    pw, threat, pb, pwt, zero, examples = [], 0, [], [], True, []
    greedy = [0, 0, 0]  # positions with a win and a threat played by the table: all, blocks, wins
    for c in pos:
        d = pl.distribution(c)
        win = winning_squares(c, O)
        block = winning_squares(c, X)
        zero &= all(o_table[place(c, s, O)] == 0.0 for s in win)
        pw.append(d[win].sum())
        if block:
            threat += 1
            pb.append(d[block].sum())
            pwt.append(d[win].sum())
            ch = pl.move(c)
            if d[ch] == 1.0:  # the table decides (no square qualified → random fallback, d < 1)
                greedy[0] += 1
                greedy[1] += ch in block and ch not in win
                greedy[2] += ch in win
            if ch in block and d[ch] == 1.0:
                examples.append(c)
    pref = parse_board(prefer)
    ex = pref if pref in examples else (examples[0] if examples else pref)
    return Fig68(
        len(pos),
        float(np.mean(pw)),
        threat,
        float(np.mean(pb)) if pb else float("nan"),
        float(np.mean(pwt)) if pwt else float("nan"),
        bool(zero),
        *greedy,
        ex,
        pl.square_values(ex),
        table_player(o_table).move(ex),
        winning_squares(ex, O),
        winning_squares(ex, X),
    )


def sure_draw_after_states() -> np.ndarray:
    """O's after-states with one empty square left that X can only fill to a draw.  With draw reward 0
    their TD target is always 0, so they stay at ``kInitialize`` and the thesis rule never picks them —
    the mechanism behind Fig. 6.5 (any non-zero draw reward makes them known, and drawn games rise)."""
    a = after_states(O, terminal=False)
    out = []
    for c in a:
        empty = [s for s in range(9) if (int(c) // 3**s) % 3 == 0]
        if len(empty) == 1 and STATUS[place(int(c), empty[0], X)] == DRAW:
            out.append(int(c))
    return np.array(out, dtype=np.int64)


def zero_share(summary: Any, codes: np.ndarray) -> float:
    """Mean share (over replicates, ``summary.tables()``) of ``codes`` whose table value is exactly 0."""
    return float(np.mean([(t[codes] == 0).mean() for t in summary.tables()]))
