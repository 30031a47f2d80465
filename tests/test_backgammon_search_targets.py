"""Issue 51's 2-ply targets: a position's 2-ply value is the mean over the rolls of the outputs after the move the
2-ply player makes, each valued one ply deeper, as a plain loop of the public methods computes it; decided positions
are valued exactly; the same bytes in any chunking and on Dask workers; the loop on these targets resumes to the
same bytes; bad input is refused."""

from __future__ import annotations

import json

import numpy as np
import pytest

from tdbook.experiments.backgammon.rollout_targets import RolloutSpec
from tdbook.experiments.backgammon.rollout_training import LoopSpec, read_checkpoint, run_loop, train_main
from tdbook.experiments.backgammon.search_targets import SearchSpec, search_targets
from tdbook.games import backgammon as bg
from tdbook.games.backgammon_bearoff import combined_cached
from tdbook.games.backgammon_bearoff import probabilities as bearoff_probabilities
from tdbook.learners import backgammon_symmetric as sym
from tdbook.learners.backgammon_net import ROLL_WEIGHTS, ROLLS
from tdbook.learners.backgammon_symmetric import SymmetricGammon
from tdbook.players.backgammon_symmetric import Scratch, SymNetPlayer, sym_net, value_2ply
from tests.test_backgammon_lookahead import _net
from tests.test_backgammon_rollout_training import _positions


def _carry(v: np.ndarray) -> np.ndarray:
    """Outputs of one side in the other side's frame."""
    return np.array([1 - v[0], v[2], v[1], v[4], v[3]]) if len(v) == 5 else np.array([1 - v[0], v[2], v[1]])


def _result(a: np.ndarray, n_out: int) -> np.ndarray:
    m = bg.win_multiplier(a)
    return np.array([1.0, m >= 2, 0.0, m == 3, 0.0][:n_out], float)


def _reference(model: SymmetricGammon, pos: np.ndarray, keep: int) -> np.ndarray:
    """The 2-ply value written out plainly from the public methods: for each roll, the ``keep`` best afterstates by
    1-ply score (stable), each valued one ply deeper (:meth:`SymmetricGammon.lookahead` of the opponent on roll,
    carried back), the best by equity (first of equals), weighted by the roll's chance."""
    out, mv, ws = bg.make_buffers()
    q = np.zeros(model.outputs)
    for r, (d1, d2) in enumerate(ROLLS):
        n = bg.gen_afterstates(pos, d1, d2, out, mv, ws)
        after = [out[k].copy() for k in range(n)]
        scores = [float(bg.win_multiplier(a)) if a[bg.OFF] == 15 else -model.equity(bg.flipped(a)) for a in after]
        kept = sorted(range(n), key=lambda k: -scores[k])[:keep] if n > 1 else [0]
        vecs = [_result(a, model.outputs) if a[bg.OFF] == 15 else _carry(model.lookahead(bg.flipped(a)))
                for a in (after[k] for k in kept)]  # fmt: skip
        eq = [sym.equity(v) for v in vecs]
        q += ROLL_WEIGHTS[r] / 36.0 * vecs[int(np.argmax(eq))]
    return q


def test_the_two_ply_value_is_the_value_of_the_two_ply_players_moves():
    model = _net(True)
    pos = _positions(4)
    for keep in (1, 3):
        r = search_targets(model, pos, SearchSpec(keep), progress=False)
        player = SymNetPlayer(model, plies=2, keep=keep)
        out, mv, ws = bg.make_buffers()
        net, tmp, scratch = sym_net(model), np.zeros(bg.NSLOT, np.int8), Scratch(*player._scratch)
        for i, p in enumerate(pos):
            assert np.allclose(r["targets"][i], _reference(model, p, keep), rtol=0, atol=1e-12)
            v = 0.0  # the 2-ply player's move for each roll, valued by its own 2-ply search
            for k, (d1, d2) in enumerate(ROLLS):
                n = bg.gen_afterstates(p, d1, d2, out, mv, ws)
                j = player.choose(p, d1, d2, out[:n])
                v += ROLL_WEIGHTS[k] / 36.0 * value_2ply(net, out[j].copy(), tmp, player._replies, scratch)
            assert abs(sym.equity(r["targets"][i]) - v) < 1e-12
        assert np.all(r["se"] == 0.0) and np.all(r["plies"] == 2.0)
    deeper = search_targets(model, pos, SearchSpec(3), progress=False)["targets"]
    narrow = search_targets(model, pos, SearchSpec(1), progress=False)["targets"]
    assert not np.allclose(deeper, narrow)  # re-valuing more moves changes the choice somewhere
    assert np.all([sym.equity(a) >= sym.equity(b) - 1e-12 for a, b in zip(deeper, narrow)])  # and only for the better
    fast = search_targets(model, pos, SearchSpec(3, fast=True), progress=False)["targets"]
    assert np.allclose(fast, deeper, rtol=0, atol=1e-5) and not np.array_equal(fast, deeper)


def test_decided_positions_are_valued_exactly():
    model = _net(True)
    won = bg.make_position({1: 1}, {19: 15})  # any roll bears off the last checker, the opponent has none off
    lost = bg.make_position({7: 15}, {24: 1})  # whatever the mover plays, the opponent bears off next
    for pos, want in ((won, [1, 1, 0, 0, 0]), (lost, [0, 0, 1, 0, 0])):
        t = search_targets(model, pos[None], SearchSpec(2), progress=False)["targets"][0]
        assert np.allclose(t, want, rtol=0, atol=1e-15)
    race = bg.make_position({1: 2, 2: 3}, {24: 3, 22: 2})  # with the table at play: its probabilities, exactly
    p = np.zeros(5)
    bearoff_probabilities(combined_cached(), race, p)
    t = search_targets(_net(True, bearoff=True), race[None], SearchSpec(), progress=False)["targets"][0]
    assert np.array_equal(t, p)


def test_same_bytes_in_any_chunking_and_on_dask_workers_and_bad_input_is_refused():
    from distributed import Client, LocalCluster

    model = _net(True)
    pos = _positions(5)
    a = search_targets(model, pos, SearchSpec(2), chunk=16, progress=False)["targets"]
    assert a.tobytes() == search_targets(model, pos, SearchSpec(2), chunk=1, progress=False)["targets"].tobytes()
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster:
        with Client(cluster):
            b = search_targets(model, pos, SearchSpec(2), chunk=2, progress=False)["targets"]
    assert a.tobytes() == b.tobytes()
    for spec, match in ((SearchSpec(0), "keep"), (SearchSpec(True), "keep"), (SearchSpec(2, fast=1), "fast")):
        with pytest.raises(ValueError, match=match):
            search_targets(model, pos, spec, progress=False)
    with pytest.raises(ValueError, match="chunk"):
        search_targets(model, pos, SearchSpec(), chunk=0, progress=False)
    with pytest.raises(ValueError, match="int8"):
        search_targets(model, pos.astype(np.int64), SearchSpec(), progress=False)
    with pytest.raises(ValueError, match="no rollout settings"):
        LoopSpec(search=SearchSpec(2), rollout=RolloutSpec(4, 3)).check()
    with pytest.raises(ValueError, match="SearchSpec"):
        LoopSpec(search={"keep": 2}).check()


LOOP = LoopSpec(positions=12, race_share=0.5, search=SearchSpec(2), epochs=2, alpha=0.05, window=2, seed=3)


def test_loop_on_two_ply_targets_resumes_to_the_same_bytes_and_fits_toward_them(tmp_path):
    whole = _net(True)
    st = run_loop(whole, LOOP, 2, chunk=5, progress=False)
    assert [r["mean_plies"] for r in st.log] == [2.0, 2.0] and st.log[0]["rollout_se"] == 0.0
    ck = tmp_path / "loop.ckpt.npz"
    run_loop(_net(True), LOOP, 2, checkpoint=ck, chunk=5, progress=False, stop_after=5)  # killed after one chunk
    m, spec, s = read_checkpoint(ck)
    assert spec == LOOP and s.cur_done == 5
    s = run_loop(m, spec, 2, s, checkpoint=ck, chunk=5, progress=False)
    assert m.W1.tobytes() == whole.W1.tobytes() and m.W2.tobytes() == whole.W2.tobytes()
    assert s.db_tgt.tobytes() == st.db_tgt.tobytes()
    # the fit moves the net toward its 2-ply values: the last iteration's positions are closer after it
    assert all(r["rms_after_fit_new"] < r["gap"]["mean"] for r in st.log)
    assert LoopSpec.from_dict(json.loads(json.dumps(LOOP.to_dict()))) == LOOP
    old = LOOP.to_dict()
    del old["search"]  # a record of a loop from before search targets reads as a rollout loop
    assert LoopSpec.from_dict(old).search is None


def test_cli_trains_on_two_ply_targets_and_refuses_rollout_options(tmp_path, capsys):
    warm = tmp_path / "warm.npz"
    _net(True).save(warm, games_done=40, spec={"arch": "free", "hidden": 6, "seed": 5})
    base = ["--warm-start", str(warm), "--positions", "6", "--race-share", "0.5", "--pubeval-pairs", "4",
            "--no-progress", "--iterations", "1"]  # fmt: skip
    out = tmp_path / "s.npz"
    assert train_main([*base, "--targets", "2-ply", "--keep", "2", "--out", str(out)]) == 0
    side = json.loads(out.with_suffix(".json").read_text())
    assert side["spec"]["loop"]["search"] == {"keep": 2, "fast": False} and side["log"][0]["mean_plies"] == 2.0
    assert "--targets 2-ply" in side["command"]
    capsys.readouterr()
    for extra, msg in (
        (["--targets", "2-ply", "--trials", "3"], "takes no rollout options, got --trials"),
        (["--targets", "2-ply", "--from-base", "--no-bearoff-stop"], "got --from-base, --no-bearoff-stop"),
        (["--keep", "3"], "--keep is for --targets 2-ply"),
        (["--targets", "2-ply", "--keep", "0"], "keep must be an int >= 1"),
    ):
        assert train_main([*base, *extra, "--out", str(tmp_path / "x.npz")]) == 2
        assert msg in capsys.readouterr().err
    assert not (tmp_path / "x.npz").exists()
