"""The hand-made backgammon features (notebook 09's expanded and contact inputs): the shot counts every
backgammon book tabulates, primes, escapes, pips lost, contact and containment on hand-made boards, and the
board flip exchanging the two sides' features exactly on thousands of random positions."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tdbook.experiments.backgammon.match import sample_positions
from tdbook.games import backgammon as bg
from tdbook.games.backgammon_features import (
    FEATURE_NAMES,
    JUMPS,
    N_CONTACT,
    N_FEATURES,
    N_POSITIONAL,
    break_contact,
    contained,
    double_shots,
    escape_share,
    features,
    held_mask,
    jumps,
    longest_prime,
    shot_counts,
    shot_share,
)


def board(mine: dict[int, int], theirs: dict[int, int]) -> np.ndarray:
    """A position from the mover's view: ``mine[p]`` checkers on its point p (25 = bar), ``theirs[p]``
    opposing checkers on the mover's point p (0 = their bar); the rest borne off."""
    pos = np.zeros(bg.NSLOT, np.int8)
    for p, n in mine.items():
        pos[p] = n
    for p, n in theirs.items():
        pos[p] = -n
    pos[bg.OFF] = 15 - sum(mine.values())
    pos[bg.OPP_OFF] = -(15 - sum(theirs.values()))
    return pos


# The standard table of shots at a single blot, nothing in between (e.g. Magriel, "Backgammon", 1976):
# 1 away 11, 2: 12, 3: 14, 4: 15, 5: 15, 6: 17, 7: 6, 8: 6, 9: 5, 10: 3, 11: 2, 12: 3, 15: 1, 16: 1, 18: 1,
# 20: 1, 24: 1 rolls of 36.
SHOTS = {1: 11, 2: 12, 3: 14, 4: 15, 5: 15, 6: 17, 7: 6, 8: 6, 9: 5, 10: 3, 11: 2, 12: 3, 15: 1, 16: 1, 18: 1, 20: 1}


@pytest.mark.parametrize("dist,rolls", sorted(SHOTS.items()))
def test_shots_at_a_lone_blot_match_the_book_table(dist, rolls):
    pos = board({22: 1}, {22 - dist: 1})
    assert shot_share(pos) * 36 == pytest.approx(rolls)


def test_blocked_points_stop_combination_shots():
    # 6 away with the mover's point 7 made: 3-3 (via 7) is gone, 5-1, 4-2 and 2-2 still hit: 16 rolls
    assert shot_share(board({10: 1, 7: 2}, {4: 1})) * 36 == pytest.approx(16)
    # 8 away with the mover's 6, 8 and 10 points made: 4-4 (via 8), 2-2 (via 6) and 6-2 (via 10 or 6)
    # are gone, 5-3 (via 9 or 7) is left: 2 rolls; with the 10 point open 6-2 hits again: 4
    assert shot_share(board({12: 1, 10: 2, 8: 2, 6: 2}, {4: 1})) * 36 == pytest.approx(2)
    assert shot_share(board({12: 1, 8: 2, 6: 2}, {4: 1})) * 36 == pytest.approx(4)


def test_the_bar_must_enter_first():
    # a blot on the mover's 5 point; the opponent has one on the bar and one on the mover's 3 point:
    # only the bar checker may hit (any 5, 4-1, 3-2; 1-1 reaches the 4 point only): 11 + 2 + 2 = 15 rolls
    assert shot_share(board({5: 1}, {0: 1, 3: 1})) * 36 == pytest.approx(15)
    assert shot_share(board({5: 1}, {3: 1})) * 36 == pytest.approx(12)  # 2 away from the point-3 checker


def test_no_blots_no_shots_and_the_start_is_safe():
    assert shot_share(bg.initial_position()) == 0.0
    assert shot_share(board({6: 2, 8: 2}, {1: 2})) == 0.0


def test_primes_and_escapes():
    assert longest_prime(bg.initial_position()) == 1
    assert longest_prime(board({4: 2, 5: 2, 6: 2, 7: 2, 8: 3}, {})) == 5
    # behind a full 6-prime (opponent's points 18..23 in the mover's numbering) nothing escapes
    six = {x: 2 for x in range(18, 24)}
    assert escape_share(board({24: 1}, six)) == 0.0
    # nothing in front: every roll escapes; a checker at home counts as escaped
    assert escape_share(board({24: 1}, {})) == 1.0
    assert escape_share(board({5: 3}, six)) == 1.0
    # a lone block on 18 in front of the checker on 24: the 18 non-doubles totalling 7 or more (played so
    # that the first step avoids 18), 4-4 and 5-5; 2-2, 3-3 and 6-6 stop on 18: 20 rolls
    assert escape_share(board({24: 1}, {18: 2})) * 36 == pytest.approx(20)


def test_pips_lost_to_a_hit_take_the_costliest_blot_on_each_roll():
    # a lone blot on 22: every shot sends it back 25 − 22 = 3 pips
    for dist, rolls in SHOTS.items():
        assert shot_counts(board({22: 1}, {22 - dist: 1})) == (rolls, 3 * rolls)
    # blots on 5 and 9, an opposing checker on 3: 12 rolls hit the 5 blot (any 2, 1-1; 20 pips each); of the
    # 17 that hit the 9 blot (6 away), 6-2, 4-2 and 2-2 already count for the 5 blot: 12 more, 16 pips each
    assert shot_counts(board({5: 1, 9: 1}, {3: 1})) == (24, 12 * 20 + 12 * 16)
    assert features(board({5: 1, 9: 1}, {3: 1}), N_CONTACT)[4] == pytest.approx(432 / (36 * 24))


def test_contact_to_break_and_containment():
    start = bg.initial_position()
    assert break_contact(start) == 152  # 2·23 + 5·12 + 3·7 + 5·5 pips past the opposing back checkers on 1
    assert break_contact(board({6: 5, 5: 5}, {7: 2, 20: 3})) == 0  # a race: nothing left behind them
    assert break_contact(board({9: 2, 3: 1}, {0: 1, 7: 2})) == 2 * 9 + 3  # their bar checker is point 0
    assert contained(board({24: 1}, {})) == 0.0  # nothing in front: every roll's distance can be travelled
    assert contained(board({24: 1}, {x: 2 for x in range(18, 24)})) == 1.0  # behind a full prime
    # one opposing point on 18: from 24 the rolls totalling 6 land on it (5-1, 4-2, 3-3) and 6-6 finds both
    # single steps closed: 6 rolls of 36, the worst of the points 15..24
    assert contained(board({24: 1}, {18: 2})) == pytest.approx(6 / 36)


def test_double_shots_need_two_checkers_or_one_path_through_both_blots():
    assert double_shots(bg.initial_position()) == 0
    assert double_shots(board({5: 1}, {3: 1})) == 0  # one blot: no double shot
    # blots on 5 and 9, one opposing checker on 3: 4-2 hits 5 and goes on to 9, 2-2 does it in four steps (via 7);
    # 6-2 would need two checkers: 3 rolls
    assert double_shots(board({5: 1, 9: 1}, {3: 1})) == 3
    # two checkers on 3: 6-2 hits both blots as well: 5 rolls
    assert double_shots(board({5: 1, 9: 1}, {3: 2})) == 5
    # the mover's point on 7 blocks 2-2's path to 9: 4-2 and 6-2 are left
    assert double_shots(board({5: 1, 9: 1, 7: 2}, {3: 2})) == 4


def test_positional_features_on_hand_made_boards():
    n = N_POSITIONAL
    f = dict(zip(FEATURE_NAMES, features(bg.initial_position(), n)[:n]))
    assert f["back/25"] == pytest.approx(24 / 25) and f["anchor/24"] == 1.0
    assert f["forward"] == pytest.approx(1 / 6)  # the anchor on the opponent's 1 point
    assert f["dance"] == pytest.approx(1 / 36)  # the opponent's 6 point is its one closed home point
    assert f["timing/100"] == pytest.approx((2 * 18 + 5 * 7 + 3 * 2 + 3 * 5) / 100)  # outside home, 3 spares on 6
    assert f["backg"] == 0.0 and f["backg1"] == pytest.approx(2 / 8)  # one anchor, two checkers there
    assert f["free/100"] == 0.0  # nothing is past the opposing checkers on 1
    mean = (2 * 24 + 5 * 13 + 3 * 8 + 5 * 6) / 15
    assert f["moment2"] == pytest.approx((2 * (24 - mean) ** 2 + 5 * (13 - mean) ** 2) / 7 / 400)
    start = bg.initial_position()
    mob = 2 * jumps(start, 24) * 18 + 5 * jumps(start, 13) * 7 + 3 * jumps(start, 8) * 2
    assert f["mobility"] == pytest.approx(mob / 3600)
    # a back game: anchors on the opponent's 2 and 3 points (23, 22) with five checkers; a lone checker on 10
    g = dict(zip(FEATURE_NAMES, features(board({23: 3, 22: 2, 10: 1, 4: 2}, {20: 2, 5: 3, 1: 1}), n)[:n]))
    assert g["backg"] == pytest.approx((5 - 3) / 4) and g["backg1"] == 0.0
    assert g["forward"] == pytest.approx(3 / 6) and g["anchor/24"] == pytest.approx(23 / 24)
    assert g["free/100"] == 0.0  # the opposing checker on 1 is behind everything
    assert g["dance"] == pytest.approx(1 / 36)  # the opponent holds its 5 point (the mover's 20)
    # a race: every checker is past the opponent's rearmost one; no mobility term at home
    r = dict(zip(FEATURE_NAMES, features(board({6: 4, 3: 2, 8: 1}, {12: 3, 20: 2}), n)[:n]))
    assert r["free/100"] == pytest.approx((24 + 6 + 8) / 100)
    assert r["mobility"] == pytest.approx(36 * 2 / 3600) and r["anchor/24"] == pytest.approx(6 / 24)


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10**6))
def test_the_flip_exchanges_the_two_sides_features_exactly(seed):
    positions, _ = sample_positions(100, seed=seed, every=1)  # every position of 100 random-play games (~10,000)
    n, c = N_POSITIONAL, N_CONTACT
    for pos in positions:
        f, g = features(pos, n), features(bg.flipped(pos), n)
        assert np.array_equal(f[:n], g[n:]) and np.array_equal(f[n:], g[:n])
        k = features(pos, c)  # the contact set is the positional set's first seven per side, to the bit
        assert np.array_equal(k, np.concatenate([f[:c], f[n : n + c]]))
        e = features(pos)  # the expanded set is the contact set's first four per side, to the bit
        assert np.array_equal(e, np.concatenate([k[:N_FEATURES], k[c : c + N_FEATURES]]))
        assert np.all(f >= 0.0) and np.all(f[1:5] <= 1.0) and np.all(f[n + 1 : n + 5] <= 1.0)
        assert f[6] <= 1.0 and f[n + 6] <= 1.0
        assert f[7] <= f[1] and f[n + 7] <= f[n + 1]  # a double shot is a shot
        assert np.all(f[8:11] <= 1.0) and f[13] <= 1.0


# The shot counts by their plain per-roll definitions (module doc), roll by roll and blot by blot — the form the
# features were first written in; the module counts them by point masks, and must agree on every board.
def _source(pos, q: int) -> int:
    """Opponent checkers on ``q`` that may hit: only the bar's while the opponent has a checker there."""
    if pos[0] < 0:
        return -int(pos[0]) if q == 0 else 0
    return -int(pos[q]) if 1 <= q <= 23 and pos[q] < 0 else 0


def _hits(pos, q: int, p: int, d1: int, d2: int) -> bool:
    dist = p - q
    if d1 != d2:
        if dist in (d1, d2):
            return True
        return dist == d1 + d2 and (pos[q + d1] < 2 or pos[q + d2] < 2)
    return any(dist == k * d1 and all(pos[q + i * d1] < 2 for i in range(1, k)) for k in range(1, 5))


ROLLS21 = [(d1, d2) for d1 in range(1, 7) for d2 in range(d1, 7)]


def reference_shot_counts(pos) -> tuple[int, int]:
    blots = [p for p in range(1, 25) if pos[p] == 1]
    srcs = [q for q in range(0, 24) if _source(pos, q)]
    count = loss = 0
    for d1, d2 in ROLLS21:
        hit = [p for p in blots if any(p > q and _hits(pos, q, p, d1, d2) for q in srcs)]
        if hit:  # the lowest blot hit is the costliest
            w = 1 if d1 == d2 else 2
            count += w
            loss += w * (25 - hit[0])
    return count, loss


def reference_double_shots(pos) -> int:
    blots = [p for p in range(1, 25) if pos[p] == 1]
    count = 0
    for d1, d2 in ROLLS21:
        two = False
        if d1 != d2:
            for p in blots:
                h1, h2 = _source(pos, p - d1), _source(pos, p - d2)
                if (h1 and p + d2 in blots) or (h2 and p + d1 in blots):  # one checker hits both
                    two = True
                elif h1 and any(c != p and _source(pos, c - d2) and (c - d2 != p - d1 or h1 >= 2) for c in blots):
                    two = True  # each die hits a different blot, by two different checkers
        else:
            steps = []  # each blot's nearest hitter, in steps of d1 over points open to the opponent
            for p in blots:
                passed, k_hit = False, 0
                for k in range(1, 5):
                    x = p - k * d1
                    if x < 0:
                        break
                    if _source(pos, x):
                        k_hit = k
                        two = two or passed  # one path through both blots
                        break
                    if x == 0 or pos[x] >= 2:
                        break
                    passed = passed or pos[x] == 1
                steps.append(k_hit)
            hit = [k for k in steps if k]
            two = two or any(a + b <= 4 for i, a in enumerate(hit) for b in hit[i + 1 :])
        count += (1 if d1 == d2 else 2) if two else 0
    return count


@st.composite
def boards(draw) -> np.ndarray:
    """Any board in play: each side's 15 checkers on points, its bar or off, never on a point the other holds."""
    pos = np.zeros(bg.NSLOT, np.int8)
    mine = draw(st.lists(st.integers(1, 26), min_size=15, max_size=15))  # 25 = bar, 26 = off
    for x in mine:
        pos[min(x, 25)] += x <= 25
    pos[bg.OFF] = sum(x == 26 for x in mine)
    for x in draw(st.lists(st.integers(-1, 24), min_size=15, max_size=15)):  # 0 = their bar, -1 = off
        if x == -1 or pos[x] > 0:
            pos[bg.OPP_OFF] -= 1
        else:
            pos[x] -= 1
    return pos


def check_against_reference(pos) -> None:
    assert shot_counts(pos) == reference_shot_counts(pos)
    assert double_shots(pos) == reference_double_shots(pos)
    held = held_mask(pos)
    for r in range(1, 26):
        assert JUMPS[(held >> (r - 1)) & 0xFFF] == jumps(pos, r)


@settings(max_examples=400, deadline=None)
@given(pos=boards())
def test_shot_counts_by_point_masks_equal_the_per_roll_definitions(pos):
    check_against_reference(pos)
    check_against_reference(bg.flipped(pos))


def test_shot_counts_by_point_masks_equal_the_per_roll_definitions_in_play():
    positions, _ = sample_positions(30, seed=11, every=1)  # every position of 30 random-play games (~3,000)
    for pos in positions:
        check_against_reference(pos)
        check_against_reference(bg.flipped(pos))


def test_features_refuse_an_unknown_set_size():
    with pytest.raises(ValueError, match="nf must be"):
        features(bg.initial_position(), 5)
