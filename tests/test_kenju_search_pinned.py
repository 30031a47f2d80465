"""System 3's move search (Kenju thesis §3.4.2, Fig. 3.12) pinned: on a few hundred seeded random positions, under
every reading of the flow chart, with and without learning (System 3 and System 4), with a teacher table and with
answers given one at a time, :func:`tdbook.players.kenju.search` plays the recorded move and leaves the recorded
statistics (node count, evaluations, questions, raises, path causes), table and question.

The fixture ``tests/data/kenju_search_pinned.npz`` was recorded from the search as it stood before it was split
into named steps (issue 31); regenerate it only on purpose, with

    .venv/bin/python tests/test_kenju_search_pinned.py --write
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np

from tdbook.core.rng import make_state
from tdbook.games import kenju as K
from tdbook.learners import kenju_line_table as L
from tdbook.players import kenju as P

FIXTURE = Path(__file__).parent / "data" / "kenju_search_pinned.npz"
N_CASES = 320

# the readings and settings the cases cycle through (System3 keyword arguments)
CONFIGS = (
    {},
    {"learning": True},
    {"learning": True, "system": 4},
    {"check_order": "deadend-first", "node_loop": "best", "patience": "reaches"},
    {"node_loop": "either", "tie_try": "unsuccessful", "patience_scope": "search"},
    {"node_loop": "best-first", "maxdeadends": 9, "nodepatience": 1},
    {"node_loop": "either-first", "check_order": "deadend-first", "nodepatience": 9, "learning": True},
    {"node_loop": "best", "patience": "reaches", "tie_try": "unsuccessful", "patience_scope": "search"},
    {"evaluation": L.EFFECTS["percentage"], "maxdeadends": 40, "nodepatience": 0},
    {"learning": True, "system": 4, "check_order": "deadend-first", "maxdeadends": 12},
)
# (defending, attacking) cycled independently of the configurations
MODES = ((True, True), (True, False), (False, True), (False, False))


def position(seed: int) -> K.Board:
    """A position after 1–40 uniformly random useful moves (fewer when the game ends first)."""
    rng = make_state(10_000 + seed)
    b = K.new_board()
    scratch = np.empty(K.N_CELLS, dtype=np.int64)
    mark = np.zeros(K.N_CELLS, dtype=np.int64)
    n = 1 + seed % 40
    for _ in range(n):
        c = P.fallback(b, rng, scratch, mark) if K.n_moves(b) > 0 else K.cell_of(0, 0)
        if K.place(b, c) != 0 or K.n_lines(b) == 0:
            break
    if K.status(b) != 0 or K.n_lines(b) == 0:  # finished or no live line: take the position one move earlier
        moves = b.moves[: K.n_moves(b) - 1].copy()
        b = K.new_board()
        K.replay(b, moves)
    return b


def run_case(i: int) -> tuple[int, np.ndarray, np.ndarray, np.ndarray]:
    """(move, statistics, table after, question) of case ``i``."""
    b = position(i)
    cfg = P.System3(**CONFIGS[i % len(CONFIGS)])
    defending, attacking = MODES[(i // len(CONFIGS)) % len(MODES)]
    table = np.zeros(32, dtype=np.int64) if cfg.learning or i % 3 == 0 else L.MAX.copy()
    stats = np.zeros(P.N_STATS, dtype=np.int64)
    question = np.zeros(P.N_QUESTION, dtype=np.int64)
    by_answers = cfg.learning and i % 4 == 3  # a person answering: the search stops at the (i // 40 + 1)-th question
    n_answers = (i // 40) % 3 if by_answers else 0
    answers = np.array([(i + k) % 3 for k in range(max(1, n_answers))], dtype=np.int64)
    c = P.search(
        b, table, cfg.array(), defending, attacking, L.MAX.copy(), P.TEACH_ANSWERS if by_answers else P.TEACH_TABLE,
        answers, n_answers, make_state(i), stats, question,
    )  # fmt: skip
    return int(c), stats, table, question


def record() -> dict[str, np.ndarray]:
    rows = [run_case(i) for i in range(N_CASES)]
    return {
        "move": np.array([r[0] for r in rows], dtype=np.int64),
        "stats": np.stack([r[1] for r in rows]),
        "table": np.stack([r[2] for r in rows]),
        "question": np.stack([r[3] for r in rows]),
    }


def test_search_plays_the_recorded_moves_with_the_recorded_node_counts():
    want = np.load(FIXTURE)
    got = record()
    assert len(set(want["move"].tolist())) > 20, "the fixture covers many different moves"
    assert (want["move"] == P.QUESTION).sum() > 0 and (want["stats"][:, P.T_RAISES] > 0).sum() > 0
    for key in ("move", "stats", "table", "question"):
        bad = np.flatnonzero(np.any((got[key] != want[key]).reshape(N_CASES, -1), axis=1))
        assert bad.size == 0, f"{key} differs in cases {bad[:10].tolist()}"
    assert np.array_equal(got["stats"][:, P.T_NODES], want["stats"][:, P.T_NODES])


if __name__ == "__main__":
    if sys.argv[1:] != ["--write"]:
        sys.exit("usage: python tests/test_kenju_search_pinned.py --write  (records the fixture from the current code)")
    FIXTURE.parent.mkdir(exist_ok=True)
    np.savez_compressed(FIXTURE, **record())
    print(f"wrote {FIXTURE}")
