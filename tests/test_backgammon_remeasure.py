"""Notebook 10's re-measure panel (issue 31): every symmetric-gammon net whose weights are shipped loads and plays, by
the label its tables give it, and the panel refuses bad settings with one sentence before anything runs."""

import pytest

from tdbook.experiments.backgammon import remeasure
from tdbook.experiments.backgammon.symmetric_gammon_nets import NETS, RIVAL_NETS

FREE = RIVAL_NETS["free"]


def test_every_shipped_net_is_offered_by_its_label_and_plays():
    nets = remeasure.shipped_nets()
    assert list(nets.values()) == list(NETS) and len(set(nets)) == len(nets)
    for label, key in nets.items():
        r = remeasure.remeasure(key, pairs=2, seed=5, progress=False)
        assert r.label == label and r.match.games == 4 and abs(r.match.ppg) <= 3
        assert r.stated is not None and r.stated.n >= 1000, key  # every net's sidecar states its pubeval figure
        assert f"**{label}**" in r._repr_markdown_()


def test_the_same_seed_gives_the_same_match():
    a = remeasure.remeasure(FREE, pairs=20, seed=9, progress=False).match
    b = remeasure.remeasure(FREE, pairs=20, seed=9, progress=False).match
    assert a.summary() == b.summary() and a.to_dict() == b.to_dict()


@pytest.mark.parametrize(
    ("settings", "words"),
    [
        ({"net": "nope"}, "no shipped net 'nope'"),
        ({"net": "free"}, "no shipped net 'free'"),
        ({"net": FREE, "opponent": "gnubg-grandmaster"}, "unknown opponent"),
        ({"net": FREE, "plies": 3}, "plies must be 1 or 2"),
        ({"net": FREE, "pairs": 0}, "pairs must be a positive whole number"),
        ({"net": FREE, "seed": 2**62}, "report set"),
    ],
)
def test_bad_settings_are_refused_naming_the_problem(settings, words):
    assert words in remeasure.remeasure_check(**settings)
    with pytest.raises(ValueError, match=words):
        remeasure.remeasure(progress=False, **settings)
