"""One strength figure per shipped net (issue 15 §2): measured on the report seed set, which no match that
helps choose a net may use; written into the sidecar by one command; read back by the notebook's claims."""

from __future__ import annotations

import json

import numpy as np
import pytest

from tdbook import claims
from tdbook.core.storage import read_sidecar, write_sidecar
from tdbook.experiments.backgammon import ladder as ladder08
from tdbook.experiments.backgammon import strength as bs
from tdbook.experiments.backgammon import td_gammon as nb08
from tdbook.experiments.backgammon.match import REPORT_BASE, evaluate, ladder, selection_seed
from tdbook.experiments.backgammon.shipped import Shipped
from tdbook.experiments.backgammon.spec import CurvePoint
from tdbook.learners.backgammon_net import TDGammon


def _net(tmp_path, hidden: int) -> tuple[TDGammon, str]:
    m = TDGammon.new(hidden, 4, "relative", seed=hidden)
    p = tmp_path / f"net{hidden}.npz"
    m.save(p)
    write_sidecar(p, {"command": "made by a test", "games": 10})
    return m, str(p)


def test_report_seeds_are_refused_where_a_net_is_chosen():
    m = TDGammon.new(3, 4, seed=1)
    assert selection_seed(2024) == 2024 and bs.report_seed(0) == REPORT_BASE
    with pytest.raises(ValueError, match="report set"):
        evaluate(m, 2, seed=REPORT_BASE)
    with pytest.raises(ValueError, match="report set"):
        ladder(m, {"pubeval": 2}, seed=REPORT_BASE + 5)
    with pytest.raises(ValueError, match="seed index"):
        bs.report_seed(-1)


def test_one_command_writes_the_figure_into_the_sidecar(tmp_path, capsys):
    m, p = _net(tmp_path, 3)
    argv = [p, "--pubeval-pairs", "30", "--gnubg-pairs", "2", "--worldclass-pairs", "0", "--two-ply-pairs", "2"]
    assert bs.main([*argv, "--no-progress"]) == 0
    side = read_sidecar(p)
    s = side["strength"]
    assert side["command"] == "made by a test"  # the rest of the sidecar is kept
    assert s["command"] == "python -m tdbook.experiments.backgammon.strength " + " ".join([*argv, "--no-progress"])
    assert s["seed"] == REPORT_BASE and "tdbook" in s["code_version"]
    assert list(s["vs"]) == ["pubeval", "gnubg-beginner", "gnubg-intermediate", "gnubg-advanced", "gnubg-expert"]
    assert list(s["vs_2ply"]) == ["pubeval", "gnubg-expert"]
    r = s["vs"]["pubeval"]
    assert r["games"] == 60 and set(r) == {"games", "ppg", "stderr", "win_pct", "gammon_pct", "backgammon_pct"}
    # the figure is the match on the report seed, and reads back as an Estimate
    again = bs.measure(m, bs.StrengthPlan(30, 0, 0))
    assert again["vs"]["pubeval"] == r
    e = bs.strength(side, "pubeval")
    assert (e.mean, e.stderr, e.n) == (r["ppg"], r["stderr"], 60)
    assert bs.strength(side, "gnubg-expert", plies=2).n == 4
    with pytest.raises(ValueError, match="no 1-ply strength figure against gnubg-worldclass"):
        bs.strength(side, "gnubg-worldclass")
    capsys.readouterr()
    assert bs.main(["--show", p]) == 0
    shown = capsys.readouterr().out
    assert "pubeval" in shown and "60 games" in shown
    # another seed index gives other dice
    other = bs.measure(m, bs.StrengthPlan(30, 0, 0, seed_index=1))
    assert other["vs"]["pubeval"] != r


def test_notebook_09_nets_are_measured_at_1_and_2_ply_by_the_same_command(tmp_path, capsys):
    from tdbook.experiments.backgammon.match import make_opponent, run_match
    from tdbook.learners.backgammon_symmetric import SymmetricGammon
    from tdbook.players.backgammon_symmetric import SymNetPlayer

    m = SymmetricGammon.new("symmetric", hidden=4, seed=2, inputs="expanded")
    p = m.save(tmp_path / "sym.npz")
    write_sidecar(p, {"command": "made by a test"})
    assert (
        bs.main([str(p), "--pubeval-pairs", "20", "--gnubg-pairs", "0", "--worldclass-pairs", "0", "--no-progress"])
        == 0
    )
    s = read_sidecar(p)["strength"]
    assert list(s["vs"]) == ["pubeval"] and "vs_2ply" not in s
    direct = run_match(SymNetPlayer(m), make_opponent("pubeval"), 20, seed=REPORT_BASE)
    assert s["vs"]["pubeval"]["ppg"] == pytest.approx(direct.ppg) and s["vs"]["pubeval"]["games"] == 40
    # a 2-ply figure on its own goes beside the 1-ply ladder, which stays as it was
    only = ["--pubeval-pairs", "0", "--gnubg-pairs", "0", "--worldclass-pairs", "0", "--two-ply-pairs", "3"]
    assert bs.main([str(p), *only, "--no-progress"]) == 0
    side = read_sidecar(p)
    assert side["strength"] == s and list(side["strength_2ply"]["vs_2ply"]) == ["pubeval", "gnubg-expert"]
    direct2 = run_match(SymNetPlayer(m, plies=2), make_opponent("pubeval"), 3, seed=REPORT_BASE)
    assert bs.strength(side, "pubeval", plies=2).mean == pytest.approx(direct2.ppg)
    assert bs.strength(side, "pubeval").mean == pytest.approx(direct.ppg)


def test_the_2ply_choice_of_a_symmetric_gammon_net_looks_at_the_opponents_replies():
    """Where 1-ply and 2-ply disagree, the 2-ply choice has the better mean over the opponent's replies, checked
    by a plain loop over the 21 rolls; it equals the 1-ply choice when it keeps one candidate."""
    from tdbook.games import backgammon as bg
    from tdbook.learners.backgammon_symmetric import SymmetricGammon
    from tdbook.players import backgammon_symmetric as ps

    m = SymmetricGammon.new("free", hidden=6, seed=4, backgammons=True)
    rng = np.random.default_rng(0)
    m.W1[:] = rng.normal(0, 0.3, m.W1.shape)
    one, two, keep1 = ps.SymNetPlayer(m), ps.SymNetPlayer(m, plies=2), ps.SymNetPlayer(m, plies=2, keep=1)
    out_pos, out_mv, ws = bg.make_buffers()
    pos = bg.initial_position()
    differ = 0
    for d1, d2 in ((3, 1), (6, 5), (4, 2), (5, 2), (6, 4)):
        n = bg.gen_afterstates(pos, d1, d2, out_pos, out_mv, ws)
        after = out_pos[:n].copy()
        k1, k2 = one.choose(pos, d1, d2, after), two.choose(pos, d1, d2, after)
        assert keep1.choose(pos, d1, d2, after) == k1

        def mean_value(a):
            opp = bg.flipped(a)
            total = 0.0
            for r1 in range(1, 7):  # the 36 ordered rolls, each once
                for r2 in range(1, 7):
                    replies = bg.make_buffers()
                    nb = bg.gen_afterstates(opp, r1, r2, *replies)
                    total += min(
                        -float(bg.win_multiplier(x)) if x[bg.OFF] == 15 else m.equity(bg.flipped(x))
                        for x in replies[0][:nb]
                    )
            return total / 36

        if k1 != k2:
            differ += 1
            assert mean_value(after[k2]) >= mean_value(after[k1]) - 1e-12
    assert differ  # the check above ran
    with pytest.raises(ValueError, match="plies must be 1 or 2"):
        ps.SymNetPlayer(m, plies=3)


def test_bad_requests_are_refused_before_measuring(tmp_path, capsys):
    _, p = _net(tmp_path, 3)
    before = json.loads((tmp_path / "net3.json").read_text())
    assert bs.main([p, "--pubeval-pairs", "-1"]) == 2
    assert bs.main([str(tmp_path / "missing.npz")]) == 2
    assert "missing" in capsys.readouterr().err
    assert json.loads((tmp_path / "net3.json").read_text()) == before
    assert bs.StrengthPlan(10, 2, 0, 4).command(["a.npz"]) == (
        "python -m tdbook.experiments.backgammon.strength a.npz --pubeval-pairs 10 --gnubg-pairs 2 "
        "--worldclass-pairs 0 --two-ply-pairs 4"
    )


def test_the_selection_match_is_written_into_the_sidecar_on_the_selection_seed(tmp_path, capsys):
    from tdbook.experiments.backgammon import selection as sel
    from tdbook.experiments.backgammon.match import SELECTION_SEED
    from tdbook.experiments.backgammon.symmetric_gammon_rivals import vs_pubeval
    from tdbook.learners.backgammon_symmetric import SymmetricGammon

    m = SymmetricGammon.new("free", hidden=4, seed=3, inputs="expanded")
    p = m.save(tmp_path / "free.npz")
    write_sidecar(p, {"command": "made by a test"})
    assert sel.main([str(p), "--pairs", "15", "--no-progress"]) == 0
    side = read_sidecar(p)
    s = side["selection"]
    assert side["command"] == "made by a test"  # the rest of the sidecar is kept
    assert s["command"] == f"python -m tdbook.experiments.backgammon.selection {p} --pairs 15 --no-progress"
    assert s["seed"] == SELECTION_SEED < REPORT_BASE and s["pairs"] == 15
    # the figure is the trainers' pubeval match, longer: its first pairs are that match's pairs
    assert s["vs_pubeval"] == vs_pubeval(m, 15, seed=SELECTION_SEED).to_dict()
    assert s["vs_pubeval"]["games"] == 30
    # bad requests change nothing
    before = (tmp_path / "free.json").read_text()
    assert sel.main([str(p), "--pairs", "0"]) == 2
    assert sel.main([str(p), str(tmp_path / "missing.npz")]) == 2
    (tmp_path / "junk.npz").write_bytes(b"not a net")
    write_sidecar(tmp_path / "junk.npz", {"command": "x"})
    assert sel.main([str(p), str(tmp_path / "junk.npz")]) == 2
    err = capsys.readouterr().err
    assert "--pairs must be >= 1" in err and "missing" in err and "junk" in err
    assert (tmp_path / "free.json").read_text() == before


def test_a_measurement_keeps_what_another_wrote_into_the_sidecar_while_it_ran(tmp_path, monkeypatch):
    """Two measurements of one net side by side (a ladder and a learning curve) each keep the other's record: the
    sidecar is read again just before it is written (a curve written meanwhile was lost before)."""
    from tdbook.experiments.backgammon import selection as sel
    from tdbook.learners.backgammon_symmetric import SymmetricGammon

    m = SymmetricGammon.new("free", hidden=4, seed=3)
    p = m.save(tmp_path / "free.npz")
    write_sidecar(p, {"command": "made by a test"})
    real = sel.vs_pubeval

    def meanwhile(*args, **kw):
        write_sidecar(p, {**read_sidecar(p), "curve": {"points": [1, 2]}})  # another command's record
        return real(*args, **kw)

    monkeypatch.setattr(sel, "vs_pubeval", meanwhile)
    sel.record(p, 3, "a test", progress=False)
    side = read_sidecar(p)
    assert side["curve"] == {"points": [1, 2]} and side["selection"]["pairs"] == 3


def _shipped(tmp_path, hidden: int, games: int) -> Shipped:
    m, p = _net(tmp_path, hidden)
    curve = [CurvePoint(g, -2.0 + g / games * (2.3 + hidden / 400), 0.03, 50.0) for g in range(0, games + 1, 10_000)]
    side = {"command": "test", "games": games, "learning_curve": [c.__dict__ for c in curve]}
    side["strength"] = {
        "vs": {
            o: {
                "ppg": 0.3 - 0.15 * k,
                "stderr": 0.02,
                "games": 100,
                "win_pct": 60.0 - 5 * k,
                "gammon_pct": 20.0,
                "backgammon_pct": 5.0,
            }
            for k, o in enumerate(bs.OPPONENTS)
        },
        "vs_2ply": {
            o: {"ppg": 0.1, "stderr": 0.03, "games": 40, "win_pct": 52.0, "gammon_pct": 20.0, "backgammon_pct": 5.0}
            for o in bs.OPPONENTS_2PLY
        },
    }
    side["selection_ladder"] = {"pubeval": {"ppg": 0.35, "stderr": 0.02, "games": 200}}
    write_sidecar(p, side)
    return Shipped(hidden, m, read_sidecar(p), tmp_path / f"net{hidden}.npz")


def test_the_ladder_claims_read_the_sidecars_and_fit_the_claims_data(tmp_path):
    nets = {40: _shipped(tmp_path, 40, 200_000), 80: _shipped(tmp_path, 80, 300_000)}
    cfg = nb08.config("quick")
    match = ladder08.ladder_matches(nets, cfg, seed=3)
    assert set(match) == {(40, "pubeval"), (80, "pubeval"), ("pubeval", "gnubg-expert")}
    checks, _ = ladder08.ladder_checks(nets, match)
    more = ladder08.table52_checks(nets) | ladder08.neurogammon_checks(nets)
    assert not set(checks) & set(more)
    by = checks | more
    for cid, c in by.items():  # every id is in the data, and our value has the form its paper value needs
        claims.verdict(claims.get("08_td_gammon", cid), c["ours"])
    assert by["net80-vs-pubeval"]["ours"] == bs.strength(nets[80].sidecar, "pubeval")
    assert by["net80-2-ply-beats-minus-0.25-vs-gnubg-expert"]["ours"].n == 40
    assert (
        claims.verdict(claims.get("08_td_gammon", "net80-vs-pubeval"), by["net80-vs-pubeval"]["ours"]) == "aim-missed"
    )
    assert "−0.18 from 38 games" in by["table5.2-td2.0"]["note"] and "neurogammon-bested" in by
    rows = ladder08.selection_bias_table(nets).rows
    assert rows[0][:2] == ["40 hidden", "pubeval"] and rows[0][4] == f"{0.35 - 0.3:+.3f} ± {np.hypot(0.02, 0.02):.3f}"
    fig_data = ladder08.ladder_by_player(nets, match)
    assert set(fig_data) == {"40 hidden", "40 hidden, 2-ply", "80 hidden", "80 hidden, 2-ply", "pubeval"}


def test_notebook_10_aims_read_the_best_net_with_the_aim_plan(monkeypatch):
    """Every net of the campaign carries a ladder and a selection match in its sidecar; the aims read the best one's
    (the best selection match), which must have been measured with :data:`AIM_PLAN` (a smaller plan is refused, naming
    the command that fixes it); every claim the aims and the levers write is in the claims data and has the form its
    value needs; every lever's two nets have sidecars."""
    from tdbook.experiments.backgammon import expert_backgammon as eb
    from tdbook.experiments.backgammon import symmetric_gammon_expert as ex
    from tdbook.experiments.backgammon import symmetric_gammon_nets as nets

    assert set(nets.TRAINED) <= set(nets.LABELS)
    for lev in nets.LEVERS:
        assert lev.child in nets.TRAINED and lev.parent in nets.TRAINED and lev.family in nets.FAMILIES
    best = eb.best_net()
    sel = {r: read_sidecar(nets.net_path(r))["selection"] for r in nets.TRAINED}
    assert all(s["pairs"] >= nets.SELECTION_PAIRS for s in sel.values())
    assert all(sel[best]["vs_pubeval"]["ppg"] >= s["vs_pubeval"]["ppg"] for s in sel.values())
    out = {**ex.aim_claims(best), **ex.lever_claims(), **ex.run_claims()}
    expect = {"best-vs-pubeval", "best-vs-gnubg-expert", "expert-parity", "best-2ply-vs-gnubg-expert"}
    expect |= {f.claim for f in nets.FAMILIES.values() if f.claim} | {r.claim for r in nets.RUNS.values()}
    assert set(out) == expect
    for cid, v in out.items():
        claims.verdict(claims.get("10_expert_backgammon", cid), v["ours"])
    plan = read_sidecar(nets.net_path(best))["strength"]["plan"]
    assert out["best-vs-gnubg-expert"]["ours"].n == 2 * plan["gnubg_pairs"] >= 2 * nets.AIM_PLAN["gnubg_pairs"]
    monkeypatch.setitem(nets.AIM_PLAN, "gnubg_pairs", plan["gnubg_pairs"] + 1)
    with pytest.raises(ValueError, match=r"smaller than AIM_PLAN.*backgammon\.strength"):
        ex.aim_claims(best)
    monkeypatch.setattr(nets, "SELECTION_PAIRS", sel[best]["pairs"] + 1)  # a net without a large enough selection match
    with pytest.raises(
        ValueError, match="no selection match of .* run: python -m tdbook.experiments.backgammon.selection"
    ):
        nets.best_shipped()


@pytest.mark.parametrize("arch", ["symmetric", "naive", "free"])
def test_vs_pubeval_of_a_symmetric_net_is_the_python_loop_of_its_player(arch):
    """The jitted match loop's symmetric-net seat (``KIND_SYM``) plays the games the Python loop plays with
    :class:`~tdbook.players.backgammon_symmetric.SymNetPlayer`: the same points, pair by pair, on both seeds."""
    from tdbook.experiments.backgammon.match import run_match
    from tdbook.experiments.backgammon.symmetric_gammon_rivals import vs_pubeval
    from tdbook.learners.backgammon_symmetric import SymmetricGammon
    from tdbook.players.backgammon import PubevalPlayer
    from tdbook.players.backgammon_symmetric import SymNetPlayer

    m = SymmetricGammon.new(arch, hidden=5, seed=2, backgammons=arch == "free", bearoff=True)
    m.train(3, 0, 400, 0.1)  # a little self-play: games with wins, singles and gammons
    for report, seed in ((False, selection_seed(5)), (True, REPORT_BASE + 5)):
        direct = run_match(SymNetPlayer(m), PubevalPlayer(), 6, seed=seed)
        assert np.array_equal(vs_pubeval(m, 6, seed=5, report=report).points, direct.points)
