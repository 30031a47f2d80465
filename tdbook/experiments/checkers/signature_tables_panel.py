"""Notebook 01's interactive parts: the rerun panel (a small version of the book-move experiment) and "teach it" (a
person plays the book). Both on the ACF master games (:mod:`tdbook.experiments.checkers.signature_tables_master`)."""

from __future__ import annotations

import numpy as np

from ...games.checkers import CheckersState, moves_of
from ...learners.book_learning import agreement
from ...learners.signature_table import imbalance_weights
from .signature_tables import table_heatmap
from .signature_tables_master import draw, fit_models, master

LEVELS = {
    "7·5·3 → 5 → 7 (the note)": {},
    "3·3·3 → 3 → 3": {"classes": (3, 3, 3), "first_levels": 3, "second_levels": 3},
    "15·15·15 → 15 → 15": {"classes": (15, 15, 15), "first_levels": 15, "second_levels": 15},
}


def explore(
    train_positions: int = 4000,
    rule: str = "plain",
    requant: str = "equal",
    quantization: str = "7·5·3 → 5 → 7 (the note)",
    assignment: str = "interaction",
    seed: int = 0,
    train_games: int = 0,
    held_games: int = 0,
) -> dict:
    """Train the tables (under the chosen counting rule, requantization, quantization and grouping), Samuel's
    polynomial and the logistic model on ``train_positions`` master positions (the first games of seed
    ``seed``'s order of the training games) and score them on the held-out games."""
    if quantization not in LEVELS:
        raise ValueError(f"quantization must be one of {list(LEVELS)}, got {quantization!r}")
    train_all, test = master(train_games, held_games)
    if not 100 <= train_positions <= train_all.n:
        raise ValueError(f"train_positions must lie in 100..{train_all.n:,}, got {train_positions}")
    train = draw(train_all, train_positions, seed)
    models = fit_models(train, seed, rule=rule, requant=requant, assignment=assignment, **LEVELS[quantization])
    scores = {m: agreement(f(test.X), test.starts, test.pref) for m, f in models.scorers().items()}
    return {"scores": scores, "heat": table_heatmap(models.tables, 0), "n": train.n, "held_out": test.n}


class TeachSession:
    """ "Teach it": a person plays the book.  Positions from the held-out master games are shown one at a
    time; the move the person prefers gets A += 1 and every other legal move D += 1 in every table (Samuel
    (1973 note): "Count A is incremented when the current input vector represents a prefered move"), on top of
    tables trained on ``train_positions`` master positions, counted level by level as the training counts (the
    requantization thresholds stay).  :meth:`teach` returns what changed.

    One teach is one more book position, not an order to rank the move first: an entry the taught move shares
    with other legal moves gets its A and their D's, and a lower table's output crossing a threshold sends a
    move to another entry above, so a single teach may leave the taught move where it was or even lower it.
    Taught again, its own entries gain A's and the others' D's, and it climbs."""

    def __init__(self, train_positions: int = 2000, seed: int = 0, train_games: int = 0, held_games: int = 0) -> None:
        train_all, self.test = master(train_games, held_games)
        self.ct = fit_models(draw(train_all, train_positions, seed), seed).tables
        self.states = self.test.states()
        self.i = 0
        self.taught = 0

    @property
    def state(self) -> CheckersState:
        return self.states[self.i]

    def moves(self) -> list[str]:
        return [m.text for m in moves_of(self.state)]

    def _rows(self) -> np.ndarray:
        return self.test.X[self.test.starts[self.i] : self.test.starts[self.i + 1]]

    def ranking(self) -> list[tuple[str, float]]:
        """The legal moves with the tables' figure of merit, best first."""
        v = self.ct.value(self._rows())
        return sorted(zip(self.moves(), v.tolist()), key=lambda t: -t[1])

    def root_counts(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """``(entry, A, D)`` of the root-table entry each legal move (in :meth:`moves` order) reaches now."""
        st = self.ct.tables
        e = st.root_entries(self.ct.layout.quantize(self._rows()))
        A, D = st.table_counts(st.arrangement.n_tables - 1)
        return e, A.reshape(-1)[e], D.reshape(-1)[e]

    def teacher_move(self) -> str:
        """The master's move in this position."""
        return self.moves()[int(self.test.pref[self.i] - self.test.starts[self.i])]

    def teach(self, move: str) -> dict:
        """Count ``move`` as preferred here; returns the first-level cells of the chosen move before/after."""
        moves = self.moves()
        if move not in moves:
            raise ValueError(f"{move!r} is not a legal move here; legal moves: {', '.join(moves)}")
        Q = self.ct.layout.quantize(self._rows())
        pref = np.array([m == move for m in moves])
        wa, wd = imbalance_weights(pref, np.full(len(moves), len(moves) - 1), "plain")
        st = self.ct.tables
        root_before = float(st.outputs(Q[pref])[0][-1])
        before = self._cells(Q[pref][0])
        # level by level, as the tables were trained (stagewise): each upper table counts the entry every move
        # reaches through the lower tables' counts after this teach — the entries the figure of merit then reads.
        # (Counting all levels in one pass, vector by vector, let an upper table count entries that the moves
        # no longer reach once the other moves' D counts had moved a lower table's output across a threshold.)
        for lev in range(1, max(st.arrangement.depth) + 1):
            st.count(Q, wa, wd, lo=lev, hi=lev)
        after = self._cells(Q[pref][0])
        self.taught += 1
        return {"move": move, "before": before, "after": after, "root_before": root_before,
                "root_after": float(st.outputs(Q[pref])[0][-1])}  # fmt: skip

    def _cells(self, q: np.ndarray) -> list[tuple[str, float, float, float]]:
        st = self.ct.tables
        out = []
        for t, names in enumerate(self.ct.layout.groups()):
            A, D = st.table_counts(t)
            C = st.table_c(t)
            cell = tuple(int(q[3 * t + c]) for c in range(3))
            out.append(("/".join(names), float(A[cell]), float(D[cell]), float(C[cell])))
        return out

    def next(self) -> None:
        self.i = (self.i + 1) % len(self.states)
