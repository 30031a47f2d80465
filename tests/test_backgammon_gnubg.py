"""Move generation against GNU Backgammon (PyPI ``gnubg``) on positions from real games.

Here: about 400 positions × all 21 rolls, and 2,000 positions × a seeded sample of 3 rolls each;
with ``TDBOOK_FULL_CHECKS=1`` the 2,000 positions get all 21 rolls (also
``benchmarks/crosscheck_backgammon_gnubg.py --positions 2000``, which prints statistics).
"""

from __future__ import annotations

import os

import gnubg  # noqa: F401  pinned dependency: a broken install must fail here, not skip the cross-check
import numpy as np
import pytest

from tdbook.experiments.backgammon.match import positions_from_games, run_match, sample_positions  # noqa: E402
from tdbook.games import backgammon as bg  # noqa: E402
from tdbook.games.backgammon_gnubg import crosscheck, equity, from_gnubg, gnubg_moves, to_gnubg  # noqa: E402
from tdbook.players.backgammon import KIND_PUBEVAL, KIND_RANDOM, GnubgPlayer, PubevalPlayer, load_pubeval_weights  # noqa: E402

ROLLS = [(a, b) for a in range(1, 7) for b in range(a, 7)]


def _sample(n: int, seed: int) -> np.ndarray:
    w = load_pubeval_weights()
    a, _ = sample_positions(8, seed=seed, kind0=KIND_RANDOM, kind1=KIND_RANDOM, every=2)
    b, _ = sample_positions(8, seed=seed + 1, kind0=KIND_PUBEVAL, kind1=KIND_PUBEVAL, w=w, every=2)
    p = np.unique(np.concatenate([a, b]), axis=0)
    return p[np.random.default_rng(seed).permutation(len(p))[:n]]


def test_board_conversion_round_trips():
    for p in _sample(200, 1):
        assert np.array_equal(from_gnubg(to_gnubg(p)), p)
    opp, me = to_gnubg(bg.initial_position())
    assert me == opp == (0, 0, 0, 0, 0, 5, 0, 3, 0, 0, 0, 0, 5, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0)


def test_move_generation_equals_gnubg_on_sampled_positions():
    P = _sample(400, 20260707)
    assert len(P) >= 300
    bufs = bg.make_buffers()
    checks = cut = 0
    for p in P:
        for d1, d2 in ROLLS:
            r = crosscheck(p, d1, d2, bufs)
            assert not r["problems"], (p.tolist(), (d1, d2), r["problems"])
            checks += 1
            cut += r["bearoff_ok"] is not None
    assert checks == 21 * len(P) and cut > 0  # the bear-off path of the check was exercised


FULL = os.environ.get("TDBOOK_FULL_CHECKS") == "1"


def test_move_generation_equals_gnubg_on_2000_positions_from_games():
    """The cross-check's own sample (benchmarks/crosscheck_backgammon_gnubg.py): 2,000 distinct positions
    from random-play and pubeval-play games; all 21 rolls each with TDBOOK_FULL_CHECKS=1, else 3."""
    P = positions_from_games(2000, seed=7)
    assert len(P) == 2000 and len(np.unique(P, axis=0)) == 2000
    rng = np.random.default_rng(2000)
    bufs = bg.make_buffers()
    cut = 0
    for p in P:
        rolls = ROLLS if FULL else [ROLLS[k] for k in rng.choice(21, 3, replace=False)]
        for d1, d2 in rolls:
            r = crosscheck(p, d1, d2, bufs)
            assert not r["problems"], (p.tolist(), (d1, d2), r["problems"])
            cut += r["bearoff_ok"] is not None
    assert cut > 0


def test_gnubg_scores_are_minus_the_opponents_equity():
    p = bg.initial_position()
    best = gnubg_moves(p, 3, 1)[0]
    assert best["move"] == (8, 5, 6, 5)
    a = bg.apply_hops(p, [(8, 5), (6, 5)])
    assert best["score"] == pytest.approx(-equity(bg.flipped(a)), abs=1e-5)


def test_gnubg_player_plays_gnubgs_best_move():
    g = bg.Backgammon()
    s = g.state_from(bg.initial_position(), 0, (3, 1))
    after, hops = g.afterstates(s)
    k = GnubgPlayer("expert").choose(s.position, 3, 1, after)
    assert bg.move_string(s.position, hops[k]) == "8/5 6/5"
    with pytest.raises(ValueError, match="unknown gnubg level"):
        GnubgPlayer("grandmaster")


def test_gnubg_beats_pubeval_in_a_short_match():
    r = run_match(GnubgPlayer("expert"), PubevalPlayer(), 10, seed=5, progress=False)
    assert r.games == 20 and r.ppg > 0


def test_gnubg_world_class_plays_gnubgs_2ply_choice():
    g = bg.Backgammon()
    p = GnubgPlayer("worldclass")
    assert p.plies == 2 and p.name == "gnubg-worldclass"
    s = g.state_from(bg.initial_position(), 0, (3, 1))
    after, hops = g.afterstates(s)
    assert bg.move_string(s.position, hops[p.choose(s.position, 3, 1, after)]) == "8/5 6/5"
    # a bear-off whose gnubg tuple is cut after the first checker: two checkers off is the move
    bear = np.zeros(28, np.int8)
    bear[[6, 5, 3, 1]] = [2, 1, 2, 1]
    bear[20], bear[21], bear[24] = -3, -4, -2
    bear[bg.OFF], bear[bg.OPP_OFF] = 9, -6
    s = g.state_from(bear, 0, (6, 5))
    after, _ = g.afterstates(s)
    assert after[p.choose(bear, 6, 5, after)][bg.OFF] == 11
