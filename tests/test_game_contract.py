"""The game contract (tdbook.games.base), checked on every game in tdbook.games.GAMES.

Seeded random playouts reach a terminal state; legal_moves is empty exactly there; apply never
mutates and refuses an illegal move with IllegalMove naming it; result lies in the declared range
(and is refused before the end); the same seed gives the same game; encode has one stable shape.
"""

from __future__ import annotations

import ast
import pickle
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import tdbook.games as games
from tdbook.games.base import Game, IllegalMove, random_playout

#: how to build each game for a seed (games of chance take the seed; the others ignore it)
FACTORIES = {
    "random_walk": lambda seed: games.make("random_walk", n_states=5, start="C"),
    "tictactoe": lambda seed: games.make("tictactoe"),
    "backgammon": lambda seed: games.make("backgammon", seed=seed),
    "draw_poker": lambda seed: games.make("draw_poker", rounds=2, seed=seed),
    "checkers": lambda seed: games.make("checkers"),
    "kenju": lambda seed: games.make("kenju"),
}
JUNK = (None, object(), "no such move", ("nonsense",), 10**9, -(10**9), 2.5)


def test_every_game_is_registered_and_has_a_factory():
    assert set(FACTORIES) == set(games.GAMES)
    pkg = Path(games.__file__).parent
    facades = set()
    for f in sorted(set(pkg.glob("*.py")) - {pkg / "base.py"}):
        for node in ast.parse(f.read_text()).body:
            if isinstance(node, ast.ClassDef):
                names = {n.name for n in node.body if isinstance(n, ast.FunctionDef)}
                if {"legal_moves", "apply", "result"} <= names:
                    facades.add(f"tdbook.games.{f.stem}:{node.name}")
    assert facades == set(games.GAMES.values()), "every game façade is in tdbook.games.GAMES"
    with pytest.raises(ValueError, match="unknown game 'chess'; games are"):
        games.make("chess")


def _snapshot(state):
    return pickle.dumps(state)


def _check_playout(name: str, seed: int) -> list:
    g = FACTORIES[name](seed)
    assert isinstance(g, Game) and g.name == name and g.n_players >= 1
    lo, hi = g.result_range
    states = random_playout(g, seed)
    seen_moves = []
    for s in states[:-1]:
        assert not g.is_terminal(s)
        moves = list(g.legal_moves(s))
        assert moves, "legal_moves is empty only at terminal states"
        assert 0 <= g.to_move(s) < g.n_players
        x = g.encode(s)
        assert x.shape == g.encoding_shape and x.dtype == np.float64 and np.all(np.isfinite(x))
        hash(g.key(s))
        with pytest.raises(ValueError):
            g.result(s)
        seen_moves += moves[:3]
    end = states[-1]
    assert g.is_terminal(end) and list(g.legal_moves(end)) == []
    assert lo <= g.result(end) <= hi
    assert g.encode(end).shape == g.encoding_shape
    return states, seen_moves


@pytest.mark.parametrize("name", list(games.GAMES))
@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**31 - 1))
def test_random_playouts_keep_the_contract(name, seed):
    states, _ = _check_playout(name, seed)
    again, _ = _check_playout(name, seed)
    g = FACTORIES[name](seed)
    assert [g.key(s) for s in states] == [g.key(s) for s in again], "same seed, same game"


@pytest.mark.parametrize("name", list(games.GAMES))
@settings(max_examples=8, deadline=None)
@given(seed=st.integers(0, 2**31 - 1))
def test_apply_never_mutates_and_refuses_illegal_moves_by_name(name, seed):
    g = FACTORIES[name](seed)
    states, seen = _check_playout(name, seed)
    rng = np.random.default_rng(seed)
    for s in [states[i] for i in rng.choice(len(states), size=min(6, len(states)), replace=False)]:
        before = _snapshot(s)
        legal = list(g.legal_moves(s))
        after_legal = {g.key(g.apply(s, m)) for m in legal}
        assert _snapshot(s) == before, "apply mutated its state"
        candidates = list(JUNK) + [m for m in seen if m not in legal]
        for m in candidates:
            try:
                t = g.apply(s, m)
            except IllegalMove as e:
                assert e.move is m or e.move == m, f"IllegalMove carries the move, got {e.move!r} for {m!r}"
                assert repr(m) in str(e) or (isinstance(m, str) and m in str(e)), f"message names {m!r}: {e}"
            else:  # another notation for a legal move (backgammon hop order): same next state
                assert m not in JUNK and g.key(t) in after_legal, f"{name} accepted illegal move {m!r}"
            assert _snapshot(s) == before, "a refused move changed the state"
