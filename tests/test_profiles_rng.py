"""Profiles resolve knobs with clear errors; the SplitMix64 streams are seeded and sane."""

from __future__ import annotations

import numpy as np
import pytest
from numba import njit

from tdbook.core import profiles, rng

DEFAULTS = profiles.table({"RUNS": 100, "ALPHA": 0.1, "NAME": "td0"}, quick={"RUNS": 10}, full={"RUNS": 1000})


def test_a_table_is_the_standard_profile_and_the_others_changes():
    assert DEFAULTS == {
        "quick": {"RUNS": 10, "ALPHA": 0.1, "NAME": "td0"},
        "standard": {"RUNS": 100, "ALPHA": 0.1, "NAME": "td0"},
        "full": {"RUNS": 1000, "ALPHA": 0.1, "NAME": "td0"},
    }
    assert list(profiles.table({"B": 1, "A": 2}, quick={"A": 3}, full={})["quick"]) == [
        "B",
        "A",
    ]  # the standard's order
    with pytest.raises(ValueError, match=r"the quick profile sets \['RUNZ'\], which the standard profile lacks"):
        profiles.table({"RUNS": 100}, quick={"RUNZ": 1}, full={})
    with pytest.raises(ValueError, match=r"the full profile repeats the standard value of \['RUNS'\]: leave them out"):
        profiles.table({"RUNS": 100}, quick={}, full={"RUNS": 100})


def test_a_notebooks_namespace_gives_the_profile_and_every_knob():
    """``config(globals())``: the parameters cell's PROFILE and knobs (and papermill's injected values, which are
    in the same namespace) reach the config without their names typed again; other names are ignored."""
    ns = {"PROFILE": "quick", "SEED": 3, "RUNS": None, "ALPHA": 0.5, "NAME": None, "np": np}
    cfg = profiles.resolve(ns, DEFAULTS)
    assert cfg == {"RUNS": 10, "ALPHA": 0.5, "NAME": "td0", "PROFILE": "quick"}
    assert profiles.resolve(ns, DEFAULTS, RUNS=4).RUNS == 4
    with pytest.raises(ValueError, match=r"the parameters cell lacks the knobs \['NAME'\]"):
        profiles.resolve({"PROFILE": "quick", "RUNS": None, "ALPHA": None}, DEFAULTS)
    with pytest.raises(ValueError, match="define no PROFILE"):
        profiles.resolve({"RUNS": None}, DEFAULTS)
    with pytest.raises(ValueError, match="RUNS must be of type int"):
        profiles.resolve({**ns, "RUNS": "ten"}, DEFAULTS)


def test_none_takes_the_profile_default():
    cfg = profiles.resolve("quick", DEFAULTS, RUNS=None, ALPHA=0.2)
    assert cfg.RUNS == 10 and cfg.ALPHA == 0.2 and cfg.PROFILE == "quick" and cfg["NAME"] == "td0"


@pytest.mark.parametrize(
    "profile, knobs, msg",
    [
        ("fast", {}, "quick, standard, full"),
        ("quick", {"RUNZ": 3}, "knobs are: RUNS, ALPHA, NAME"),
        ("quick", {"RUNS": 2.5}, "RUNS must be of type int"),
        ("quick", {"RUNS": True}, "RUNS must be of type int"),
        ("quick", {"NAME": 3}, "NAME must be of type str"),
    ],
)
def test_bad_profile_or_knob(profile, knobs, msg):
    with pytest.raises(ValueError, match=msg):
        profiles.resolve(profile, DEFAULTS, **knobs)


def test_config_is_read_only():
    cfg = profiles.resolve("full", DEFAULTS)
    with pytest.raises(AttributeError):
        cfg.RUNS = 3
    with pytest.raises(AttributeError, match="knobs are"):
        _ = cfg.NOPE


@njit(cache=True)
def _draw(state, n):
    out = np.empty(n)
    for i in range(n):
        out[i] = rng.uniform(state)
    return out


def test_same_seed_same_stream_and_streams_differ():
    a = _draw(rng.make_state(42, 0), 1000)
    b = _draw(rng.make_state(42, 0), 1000)
    c = _draw(rng.make_state(42, 1), 1000)
    d = _draw(rng.make_state(43, 0), 1000)
    assert np.array_equal(a, b)
    assert not np.array_equal(a, c) and not np.array_equal(a, d)


def test_uniform_is_uniform():
    x = _draw(rng.make_state(1, 0), 200_000)
    assert 0.0 <= x.min() and x.max() < 1.0
    counts, _ = np.histogram(x, bins=20, range=(0, 1))
    chi2 = ((counts - 10_000) ** 2 / 10_000).sum()
    assert chi2 < 50  # 19 d.o.f.: p ≈ 1e-4


@njit(cache=True)
def _ints(state, n, k):
    out = np.empty(n, np.int64)
    for i in range(n):
        out[i] = rng.randint(state, k)
    return out


def test_randint_range_and_balance():
    x = _ints(rng.make_state(5, 3), 60_000, 6)
    assert x.min() == 0 and x.max() == 5
    counts = np.bincount(x, minlength=6)
    assert np.all(np.abs(counts - 10_000) < 500)


def test_bits_of_next_u64_are_balanced():
    @njit
    def bits(state, n):
        ones = np.zeros(64, np.int64)
        for _ in range(n):
            z = rng.next_u64(state)
            for b in range(64):
                ones[b] += (z >> np.uint64(b)) & np.uint64(1)
        return ones

    ones = bits(rng.make_state(9, 0), 20_000)
    assert np.all(np.abs(ones - 10_000) < 600)


@pytest.mark.parametrize("seed, stream", [(-1, 0), (1.5, 0), (True, 0), (0, -2)])
def test_bad_seed(seed, stream):
    with pytest.raises(ValueError, match="seed|stream"):
        rng.make_state(seed, stream)
