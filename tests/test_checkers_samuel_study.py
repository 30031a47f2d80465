"""The study of Samuel's learner (tdbook.experiments.checkers.samuel_study): the configurations are one change each
from the second series; snapshot ratings against fixed anchors, the χ² of "erratic", the Bonferroni count of "worse
with time", the ablations' seed-by-seed effects, checked on data built to give known answers; and a tiny study played
end to end, written and read back."""

from __future__ import annotations

from dataclasses import asdict

import numpy as np
import pytest

from tdbook.experiments.checkers import samuel_study as ss
from tdbook.experiments.common.ratings import Ratings


def test_every_ablation_is_one_change_from_the_second_series():
    second = asdict(ss.run_of(ss.SECOND, 5))
    for stabiliser, config in ss.STABILISERS.items():
        d = asdict(ss.run_of(config, 5))
        diff = {k for k in d if d[k] != second[k]} | {
            f"learn.{k}" for k in d["learn"] if d["learn"][k] != second["learn"][k]
        }
        assert len(diff - {"learn"}) == 1, (stabiliser, diff)
    first = ss.run_of(ss.FIRST, 5)
    assert not first.learn.selective and first.learn.tally_limit == 8 and first.adopt == "win"
    assert ss.run_of("first series, coefficients every 8 moves", 5).learn.update_every == 8
    with pytest.raises(ValueError, match="unknown configuration"):
        ss.run_of("third series", 1)


def _ratings():
    names = ("material α-β", "TD-Leaf (learned)", "other")
    elo = np.array([0.0, 100.0, -40.0])
    boot = elo + np.random.default_rng(0).normal(0, 5, (200, 3))
    boot[:, 0] = 0
    return Ratings(names, elo, elo - 10, elo + 10, "material α-β", boot, np.zeros((3, 3)))


def _study(points: dict[str, np.ndarray], changes: dict[str, np.ndarray], seeds=4, games=6, snaps=(3,)):
    spec = ss.StudySpec(games=games, seeds=seeds, snapshots=(0, *snaps, games), ballots=points["initial"].shape[2],
                        first_seeds=2, first_games=7, configs=tuple(ss.CONFIGS))  # fmt: skip
    arrays = {f"points_{k}": v for k, v in points.items()}
    for ci, c in enumerate(spec.configs):
        arrays[f"c{ci}_changes"] = changes.get(c, np.zeros((seeds, games - 1)))
        for k in ss.LOGS:
            arrays[f"c{ci}_{k}"] = np.ones((seeds, games), dtype=np.int64)
    arrays["first"] = np.array([[14, 4, 3, 0], [20, 2, 5, 0]])
    return ss.Study(spec, arrays, _ratings(), ss.ANCHORS)


def _points(level: float, seeds=4, ballots=30):
    """Every unit the same points against both anchors (level: points of two games)."""
    return np.full((seeds, 2, ballots), level)


def _full(points_by_key, seeds=4, ballots=30, default=1.0, curve=(3, 6)):
    spec_keys = ["initial"]
    for ci, c in enumerate(ss.CONFIGS):
        snaps = curve if c in ss.CURVES else (6,)
        spec_keys += [f"c{ci}_g{j}" for j in range(len(snaps))]
    return {k: points_by_key.get(k, _points(default, seeds, ballots)) for k in spec_keys}


def test_snapshot_ratings_sit_between_the_anchors_and_follow_the_points():
    st = _study(_full({}), {})
    e, s = st.elo(ss.FIRST, 0)
    assert np.allclose(e, 50.0, atol=1e-6) and np.all(s > 0)  # half the points against anchors at 0 and 100
    hi = _study(_full({"c0_g0": _points(1.5)}), {})
    assert np.all(hi.elo(ss.FIRST, 3)[0] > 100) and hi.curve(ss.FIRST)["elo"].shape == (4, 3)
    with pytest.raises(ValueError, match="rated after"):
        st.elo("without the asymmetric update", 3)


def test_erratic_worse_with_time_and_above_average():
    rng = np.random.default_rng(1)
    flat = _study(_full({}, curve=(3, 4, 6)), {}, snaps=(3, 4))
    chi2, df, p = flat.erratic(after=3)
    assert chi2 == pytest.approx(0, abs=1e-9) and df == 4 and p == pytest.approx(1.0)
    assert flat.worse_with_time(early=3)[0] == 0
    # a steady decline, the same in every run: along the trend, so not erratic, but worse with time in every run
    steady = {"c0_g0": _points(1.6), "c0_g1": _points(1.6 - 1.2 * np.log(4 / 3) / np.log(2)), "c0_g2": _points(0.4)}
    st = _study(_full(steady, curve=(3, 4, 6)), {}, snaps=(3, 4))
    assert st.erratic(after=3)[2] > 0.05 and st.worse_with_time(early=3)[0] == 4
    # ratings that jump about from snapshot to snapshot: erratic
    jumpy = {"c0_g0": np.clip(1.4 + rng.normal(0, 0.5, (4, 2, 30)), 0, 2), "c0_g1": _points(0.4),
             "c0_g2": np.clip(1.4 + rng.normal(0, 0.5, (4, 2, 30)), 0, 2)}  # fmt: skip
    st = _study(_full(jumpy, curve=(3, 4, 6)), {}, snaps=(3, 4))
    assert st.erratic(after=3)[2] < 1e-6
    with pytest.raises(ValueError, match="3 snapshots"):
        _study(_full({}), {}).erratic(after=3)
    m, lo, hi = st.above_average(3)
    avg = st.ladder_average()[0]
    assert avg == pytest.approx(50.0)  # material α-β and TD-Leaf are at the equal search, "other" is not
    assert lo < m < hi and m == pytest.approx(st.elo(ss.FIRST, 3)[0].mean() - avg)


def test_an_ablations_effect_is_seed_by_seed():
    ch = {ss.SECOND: np.tile(np.arange(5.0), (4, 1)), "tally limit 8, not 32": np.tile(np.arange(5.0) + 3, (4, 1))}
    ch["tally limit 8, not 32"][:, 3:] += np.array([[0.0], [1.0], [2.0], [3.0]])
    st = _study(_full({}), ch)
    m, lo, hi = st.effect("tally limit 8, not 32", "volatility")
    assert m == pytest.approx(3 + 1.5) and lo < m < hi and lo > 0
    assert st.effect(ss.SECOND, "elo") == (0.0, 0.0, 0.0)
    assert set(st.summary(ss.FIRST)) == {
        "elo",
        "gain",
        "volatility",
        "replacements per move",
        "leader changes per game",
    }
    with pytest.raises(ValueError, match="measure"):
        st.effect(ss.SECOND, "speed")
    assert st.first_games()["top_changes"].tolist() == [14, 20]


def test_the_spec_is_validated():
    with pytest.raises(ValueError, match="snapshots"):
        ss.StudySpec(games=10, snapshots=(0, 5))
    with pytest.raises(ValueError, match="needs the"):
        ss.StudySpec(configs=(ss.FIRST,))
    with pytest.raises(ValueError, match="ballots"):
        ss.StudySpec(ballots=200)


def test_a_tiny_study_plays_writes_and_reads(tmp_path):
    from tdbook.experiments.checkers.ladder import Context, LadderSpec, players_of

    spec = ss.StudySpec(games=2, seeds=2, snapshots=(0, 2), ballots=2, first_seeds=2, first_games=2,
                        configs=(ss.FIRST, ss.SECOND))  # fmt: skip
    anchors = players_of(LadderSpec(ss.ANCHORS), Context(LadderSpec(ss.ANCHORS)))
    arrays = ss.play(spec, anchors, progress=False)
    assert arrays["first"].shape == (2, 4) and arrays["points_c0_g0"].shape == (2, 2, 2)
    assert arrays["c1_weights"].shape[:2] == (2, 1) and arrays["c0_changes"].shape == (2, 1)
    ss.save(spec, arrays, tmp_path / "s.npz", "test")
    back = ss.load(_ratings(), tmp_path / "s.npz")
    assert back.spec == spec and np.array_equal(back.arrays["points_initial"], arrays["points_initial"])
    assert back.anchors == ss.ANCHORS and back.first_games()["losses"].shape == (2,)
