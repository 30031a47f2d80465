"""The checkers side of notebook 01: the labelled set's file (refused with a clear message when corrupt), the
terms of every legal move (equal to the polynomial's), the documented layout of the 27 terms (and its finer
quantizations), the teacher, the equal-search kernel (α-β equals plain negamax), a whole game in one kernel call
(equal to the same game move by move), the matches (a player against itself scores ½ on every ballot), the
shipped models' file (round trip; refused when corrupt or not the models trained), and "teach it"."""

from __future__ import annotations

import zipfile

import numpy as np
import pytest

from tdbook.experiments.checkers.signature_tables_book import BookSpec, load_book, save_book, teach
from tdbook.games.checkers import Checkers, CheckersState, ballots, moves_of
from tdbook.learners.book_learning import alternatives, preferred_mask
from tdbook.learners.checkers_polynomial import TERMS, Polynomial, Scorer
from tdbook.learners.checkers_signature import LEVEL_CLASSES, N_TERMS, book_terms, cut_points, layout, train_tables
from tdbook.players import checkers_signature as ps

G = Checkers(quiet_limit=None)


def _positions(n: int = 24, seed: int = 0) -> list[CheckersState]:
    rng = np.random.default_rng(seed)
    out = []
    for _, s in ballots()[: n * 2 : 2]:
        for _ in range(int(rng.integers(0, 30))):
            ms = moves_of(s)
            if not ms:
                break
            s = G.apply(s, ms[int(rng.integers(len(ms)))].text)
        if len(moves_of(s)) >= 2:
            out.append(s)
    return out


def _arrays(states: list[CheckersState]) -> dict[str, np.ndarray]:
    n = len(states)
    return {
        "words": np.array([s.words for s in states], dtype=np.uint32),
        "side": np.array([s.side for s in states], dtype=np.uint8),
        "game": np.arange(n, dtype=np.uint16),
        "ply": np.array([s.ply for s in states], dtype=np.uint16),
        "n_moves": np.array([len(moves_of(s)) for s in states], dtype=np.uint8),
        "preferred": np.zeros(n, dtype=np.uint8),
        "depth": np.full(n, 8, dtype=np.uint8),
        "nodes": np.zeros(n, dtype=np.uint32),
    }


@pytest.fixture
def book_file(tmp_path):
    p = tmp_path / "book.npz"
    save_book(p, _arrays(_positions(6)), {"command": "test"})
    return p


def test_book_file_round_trip(book_file):
    b = load_book(book_file)
    assert len(b["side"]) > 0 and set(b) >= {"words", "preferred", "n_moves"}


def test_book_file_refused_when_corrupt(book_file, tmp_path):
    data = book_file.read_bytes()
    bad = tmp_path / "truncated.npz"
    bad.write_bytes(data[: len(data) // 2])
    with pytest.raises(ValueError, match="not a readable labelled set"):
        load_book(bad)
    with pytest.raises(ValueError, match="no labelled set"):
        load_book(tmp_path / "missing.npz")
    arr = load_book(book_file)
    for name, change, message in [
        ("lacks", lambda a: a.pop("preferred"), "lacks the field"),
        ("dtype", lambda a: a.__setitem__("side", a["side"].astype(np.int64)), "field 'side'"),
        ("index", lambda a: a.__setitem__("preferred", a["n_moves"].copy()), "preferred move index"),
        ("moves", lambda a: a.__setitem__("n_moves", a["n_moves"] + 1), "legal moves"),
        ("board", lambda a: a["words"].__setitem__((0, 0), 0xFFFFFFFF), "not a checkers position"),
    ]:
        a = {k: v.copy() for k, v in arr.items()}
        change(a)
        p = tmp_path / f"{name}.npz"
        save_book(p, a, {"command": "test"})
        with pytest.raises(ValueError, match=message):
            load_book(p)
    with zipfile.ZipFile(tmp_path / "empty.npz", "w"):
        pass
    with pytest.raises(ValueError, match="lacks the field"):
        load_book(tmp_path / "empty.npz")


def test_move_terms_equal_the_polynomial_terms():
    """Every legal move's 27 terms are the scoring polynomial's simple terms (Samuel's construction)."""
    sc = Scorer(Polynomial(dict.fromkeys(TERMS, 1.0)))
    states = _positions(10, seed=3)
    a = _arrays(states)
    X, starts = book_terms(a["words"], a["side"], a["n_moves"])
    for g, s in enumerate(states):
        for i, m in enumerate(moves_of(s)):
            c = G.apply(s, m.text)
            t = sc.terms_of(c.words, c.side, (s.words, s.side))
            assert X[starts[g] + i].tolist() == [t[n] for n in TERMS[:N_TERMS]]
    with pytest.raises(ValueError, match="construction"):
        book_terms(a["words"], a["side"], a["n_moves"], "dynamic")


def test_layout_procedure():
    states = _positions(30, seed=5)
    a = _arrays(states)
    X, starts = book_terms(a["words"], a["side"], a["n_moves"])
    pref = starts[:-1]
    lay = layout(X, starts, pref)
    assert sorted(lay.slot_term) == list(range(N_TERMS))
    assert all(lv <= LEVEL_CLASSES[s % 3] for s, lv in enumerate(lay.levels_used()))
    assert all(np.all(np.diff(t) > 0) for t in lay.thresholds)
    rnd = layout(X, starts, pref, "random", seed=1)
    assert sorted(rnd.slot_term[0::3]) == sorted(lay.slot_term[0::3])  # same level classes
    assert layout(X, starts, pref, "random", seed=1) == rnd
    Q = lay.quantize(X)
    assert Q.min() >= 0 and np.all(Q.max(axis=0) < np.array(LEVEL_CLASSES * 9))
    ct = train_tables(X, starts, pref, rule="a_k")
    assert ct.tables.a.sum() == preferred_mask(starts, pref).sum() * alternatives(starts)[pref].mean() * 13


def test_finer_quantizations_keep_the_grouping():
    """Other level counts (0 = every distinct value) keep the same terms in the same tables; the arrangement's
    input levels follow them, so the tables grow."""
    states = _positions(30, seed=5)
    a = _arrays(states)
    X, starts = book_terms(a["words"], a["side"], a["n_moves"])
    pref = starts[:-1]
    base, fine, raw = (layout(X, starts, pref, classes=c) for c in (LEVEL_CLASSES, (15, 15, 15), (0, 0, 0)))
    assert base.slot_term == fine.slot_term == raw.slot_term
    assert base.input_levels() == LEVEL_CLASSES * 9
    assert raw.input_levels() == tuple(np.unique(X[:, k]).size for k in raw.slot_term)
    assert all(u <= 15 for u in fine.input_levels())
    ct = train_tables(X, starts, pref, classes=(0, 0, 0), first_levels=15, second_levels=15)
    assert ct.tables.arrangement.sizes[-1] == 15**3 and ct.tables.arrangement.entries > 1663
    with pytest.raises(ValueError, match="classes"):
        layout(X, starts, pref, classes=(7, 1, 3))


def test_column_counts_and_correlations_equal_numpy():
    """The one-pass value counts and the fixed-order correlations are numpy's (np.unique, np.corrcoef)."""
    from tdbook.learners.checkers_signature import abs_correlations, column_value_counts

    rng = np.random.default_rng(4)
    X = rng.integers(-6, 7, size=(500, 5)) / 2.0
    X[:, 4] = 1.0  # a constant column: r = 0
    for (u, c), col in zip(column_value_counts(X), X.T):
        uu, cc = np.unique(col, return_counts=True)
        assert u.tolist() == uu.tolist() and c.tolist() == cc.tolist()
    Y = X.copy()
    Y[0, 0] = 0.3  # not a multiple of ½: counted by sorting, same answer
    assert [u.tolist() for u, _ in column_value_counts(Y)] == [np.unique(c).tolist() for c in Y.T]
    r = abs_correlations(X)
    with np.errstate(invalid="ignore", divide="ignore"):
        ref = np.abs(np.nan_to_num(np.corrcoef(X, rowvar=False)))
    assert np.allclose(r, ref, atol=1e-12)


def test_cut_points_equal_frequency():
    v = np.repeat(np.arange(10.0), 10)
    c = cut_points(v, 5)
    assert len(c) == 4 and np.all(np.diff(c) > 0)
    assert cut_points(np.array([0.0, 1.0, 1.0]), 7).tolist() == [0.5]


def test_teacher_returns_a_legal_move_and_its_depth():
    """The teacher's choice in a ballot opening is a legal move index, searched to the spec's depth."""
    s = ballots()[0][1]
    best, depth, nodes = teach(s, BookSpec(depth=4, endgame_depth=4))
    assert 0 <= best < len(moves_of(s)) and depth == 4 and nodes > 0


def _negamax(s: CheckersState, parent: CheckersState, ply: int, depth: int, w: np.ndarray, mul: float, ws) -> float:
    """Plain negamax with the kernel's evaluation and capture extension (no pruning)."""
    kids = [G.apply(s, m.text) for m in moves_of(s)]
    if not kids:
        return -(ps.WIN - ply)
    if ply > 0 and ply >= depth and not ps.has_capture_side(*s.words, s.side):
        par = np.zeros(N_TERMS)
        from tdbook.learners.checkers_polynomial import natural_params

        natural_params(*parent.words, parent.side, par, ws[10], (1 << N_TERMS) - 1)
        dummy = (np.zeros(2, dtype=np.int64), np.zeros(1, dtype=np.int64), np.zeros(1, dtype=np.int64),
                 np.zeros(2, dtype=np.int64), np.zeros(1, dtype=np.int64), np.zeros(1))  # fmt: skip
        st0 = np.zeros(1, dtype=np.int64)
        return -ps.evaluate(*s.words, s.side, par, ps.POLY, w, mul, 0.25, st0, np.zeros((1, 1)), st0, dummy, ws)
    return max(-_negamax(c, s, ply + 1, depth, w, mul, ws) for c in kids)


@pytest.mark.parametrize("depth", [1, 2, 3])
def test_alpha_beta_equals_negamax(depth):
    from tdbook.experiments.checkers.signature_tables_play import TablePlayer

    w = np.random.default_rng(depth).normal(size=N_TERMS)
    p = TablePlayer("poly", 0.1, depth, w=w, shift=0.25)
    for s in _positions(6, seed=depth):
        root = np.array([*s.words, s.side], dtype=np.int64)
        st0, thr, n, tabs = p.karr
        v = ps.search(root, depth, ps.MAX_PLY - 1, ps.POLY, w, 0.1, 0.25, st0, thr, n, tabs, p.ws.arrays)
        assert v == pytest.approx(_negamax(s, s, 0, depth, w, 0.1, p.ws.arrays), abs=1e-9)
        assert 0 <= p.ws.stats[1] < len(moves_of(s))


def test_teach_session_counts_the_chosen_move():
    """'Teach it': the chosen move's first-level cells gain one A (and a D for every other move sharing the cell),
    the tables' totals grow by one A and k D per table."""
    from tdbook.experiments.checkers.signature_tables_panel import TeachSession

    s = TeachSession(train_positions=200, seed=0, train_games=40, held_games=5)
    moves = s.moves()
    a0, d0 = s.ct.tables.a.sum(), s.ct.tables.d.sum()
    r = s.teach(moves[-1])
    assert all(a1 == a + 1 and d1 >= d for (_, a, d, _), (_, a1, d1, _) in zip(r["before"], r["after"]))
    assert s.ct.tables.a.sum() == a0 + 13 and s.ct.tables.d.sum() == d0 + 13 * (len(moves) - 1)
    with pytest.raises(ValueError, match="not a legal move"):
        s.teach("1-2")
    s.next()
    assert s.i == 1 and [m for m, _ in s.ranking()] and s.teacher_move() in s.moves()


def _teach_positions(s, n: int):
    """The first ``n`` held-out positions with at least three legal moves."""
    return [i for i in range(len(s.states)) if len(moves_of(s.states[i])) >= 3][:n]


def test_a_teach_counts_each_move_in_the_root_entry_it_then_reaches():
    """Samuel's counting, level by level as in training: after a teach every root entry the position's moves
    reach holds one more A per taught move and one more D per other move reaching it, and nothing else changed
    (counting all levels in one pass let the root count entries the moves no longer reach)."""
    from tdbook.experiments.checkers.signature_tables_panel import TeachSession

    s = TeachSession(train_positions=200, seed=0, train_games=40, held_games=5)
    st = s.ct.tables
    root = st._slice(st.arrangement.n_tables - 1)
    for i in _teach_positions(s, 12):
        s.i = i
        moves = s.moves()
        taught = len(moves) // 2
        a0, d0 = st.a[root].copy(), st.d[root].copy()
        s.teach(moves[taught])
        e, _, _ = s.root_counts()
        da, dd = np.zeros_like(a0), np.zeros_like(d0)
        np.add.at(da, e[[taught]], 1.0)
        np.add.at(dd, np.delete(e, taught), 1.0)
        assert np.array_equal(st.a[root] - a0, da) and np.array_equal(st.d[root] - d0, dd), f"position {i}"


def test_taught_again_and_again_the_move_rises_above_the_others():
    """The taught move climbs relative to the untaught ones: taught repeatedly, the tables' worst move in a
    position becomes their best (a teach that did not count A for it, or D for the others, never gets there)."""
    from tdbook.experiments.checkers.signature_tables_panel import TeachSession

    s = TeachSession(train_positions=200, seed=0, train_games=40, held_games=5)
    for i in _teach_positions(s, 6):
        s.i = i
        worst = s.ranking()[-1][0]
        first = dict(s.ranking())
        gaps = []
        for _ in range(25):
            v = dict(s.ranking())
            gaps.append(v[worst] - max(x for m, x in v.items() if m != worst))
            if gaps[-1] > 0:
                break
            s.teach(worst)
        assert gaps[-1] > 0, f"position {i}: {worst} still not first after 25 teaches ({first})"
        assert gaps[-1] > gaps[0]


def test_teach_widget_teaches_on_click():
    """The panel starts on a legal move (the master's), a click on a piece and its landing square picks a move,
    Teach counts the picked move and shows the changed cells, Next moves on."""
    from tdbook.games.checkers import moves_of
    from tdbook.widgets.signature_tables import teach_widget

    w = teach_widget(train_positions=200, seed=0, train_games=40, held_games=5)
    (board, ranking), (pick, teach, nxt) = w.children[0].children, w.children[1].children
    msg, counts = w.children[3], w.children[4]
    assert pick.value is not None and pick.value in pick.options and "the master played " + pick.value in ranking.value
    state = w.session.state
    m = moves_of(state)[-1]
    board.cells[m.frm].click()
    assert "picked" in msg.value
    board.cells[m.path[-1]].click()
    assert pick.value == m.text and "chosen" in msg.value
    teach.click()
    assert "figure of merit" in counts.value and "A/D" in counts.value and pick.value == m.text
    assert "moves taught so far: 1" in ranking.value and w.session.state == state
    nxt.click()
    assert counts.value == "" and pick.value in pick.options


# ----------------------------------------------------------------------------- games, matches, shipped models


def _small_models():
    from tdbook.experiments.checkers.signature_tables_master import fit_models, master

    train, _ = master(40, 5)
    return fit_models(train, 0), train


def test_a_kernel_game_is_the_same_game_move_by_move():
    """:func:`play_game` (a whole game in one kernel call) plays exactly the moves the two players choose one
    at a time on the façade, to the same result."""
    from tdbook.experiments.checkers.signature_tables_play import players

    models, train = _small_models()
    pl = players(models, train, 0.5, 2)
    a, b = pl["tables"], pl["logistic"]
    g = Checkers()
    s = ballots()[3][1]
    start = np.array([*s.words, s.side, s.quiet, s.ply], dtype=np.int64)
    res, plies, _ = ps.play_game(start, 2, g.quiet_limit, 0, 1, ps.Workspace().arrays, a.spec(), b.spec())
    k = 0
    while not g.is_terminal(s):
        s = g.apply(s, (a if s.side == 0 else b).choose(s))
        k += 1
    assert k == plies and g.result(s) == res


def test_a_player_against_itself_scores_one_half_on_every_ballot():
    from tdbook.experiments.checkers.signature_tables_play import players, pooled, round_robin

    models, train = _small_models()
    pl = players(models, train, 0.5, 1)
    rr = round_robin({"x": pl["tables"], "y": pl["tables"]}, [("x", "y")], 3, [1, 2], progress=False)
    assert set(rr["x", "y"]) == {1, 2}
    for r in rr["x", "y"].values():
        assert np.all(r.pairs == 0.5) and r.games == 6
    p = pooled(rr["x", "y"])
    assert p["score"] == 0.5 and p["stderr"] == 0.0 and p["games"] == 12 and p["ballots"] == 3


def test_shipped_models_round_trip_and_refusals(tmp_path, monkeypatch):
    from tdbook.core.storage import atomic_write_bytes, write_sidecar
    from tdbook.experiments.checkers import signature_tables_play as play

    models, train = _small_models()
    p = tmp_path / play.MODELS_FILE
    scale = {"tables": (1.0, -0.5), "Samuel's polynomial": (2.0, 0.0), "logistic": (3.0, 0.1)}
    atomic_write_bytes(p, play.models_bytes(models, scale))
    back, mul = play.load_models(p)
    assert play.models_differ(back, models) is None and mul == scale
    assert np.array_equal(back.logistic, models.logistic) and np.array_equal(back.polynomial, models.polynomial)
    assert np.array_equal(back.tables.value(train.X[:500]), models.tables.value(train.X[:500]))
    bad = tmp_path / "bad.npz"
    bad.write_bytes(p.read_bytes()[:100])
    with pytest.raises(ValueError, match="not a set of notebook 01's models"):
        play.load_models(bad)
    # the notebook refuses shipped models of another seed, and shipped games played by other models
    monkeypatch.setattr(play, "data_dir", lambda: tmp_path)
    write_sidecar(p, {"seed": 1, "command": "python -m x"})
    with pytest.raises(ValueError, match="not the models trained here: its seed is 1, not 0"):
        play.matches(models, train, 0, shipped=True, ballots=1, depths=[1], mul=0.5)
    write_sidecar(p, {"seed": 0, "command": "python -m x"})
    atomic_write_bytes(tmp_path / play.MATCHES_FILE, play.matches_bytes({}))
    write_sidecar(tmp_path / play.MATCHES_FILE, {"models_sha256": "0" * 64, "command": "python -m y", "ballots": 1})
    with pytest.raises(ValueError, match="were played by other models: rerun `python -m y`"):
        play.matches(models, train, 0, shipped=True, ballots=1, depths=[1], mul=0.5)


def _ulps(w: np.ndarray, k: int) -> np.ndarray:
    """``w`` moved by ``k`` units in the last place, element by element (another processor's rounding)."""
    out = np.array(w, dtype=np.float64)
    for _ in range(abs(k)):
        out = np.nextafter(out, np.sign(k) * np.inf)
    return out


def test_the_shipped_models_pass_another_processors_rounding_and_refuse_another_fit():
    """Issue 52: notebook 01 ties the shipped games to the models it trains by what the science needs — the tables
    and their counts exactly, the fitted weights to a relative 1e-9 — not by the floats' bytes, which another
    processor's BLAS rounds differently (the logistic fit's last bits moved by 3e-15, and `make figures` failed).
    The shipped models with every fitted float a few ulps off are accepted; a count off by one or a weight off
    by 1e-6 is another fit and refused."""
    import dataclasses

    from tdbook.core.paths import data_dir
    from tdbook.core.storage import read_sidecar
    from tdbook.experiments.checkers import signature_tables_play as play

    shipped, _ = play.load_models()
    seed = read_sidecar(data_dir() / play.MODELS_FILE)["seed"]
    t = shipped.tables.tables
    rounded = dataclasses.replace(
        shipped,
        tables=dataclasses.replace(shipped.tables, tables=dataclasses.replace(t, thresholds=_ulps(t.thresholds, 2))),
        polynomial=_ulps(shipped.polynomial, 3),
        logistic=_ulps(shipped.logistic, -4),
    )
    assert not np.array_equal(rounded.logistic, shipped.logistic)
    rr, source = play.matches(rounded, None, seed, shipped=True, ballots=157, depths=[3, 4, 5], mul=0.5)
    games, _ = play.load_matches()
    assert rr.keys() == games.keys() and "played by" in source
    assert all(np.array_equal(rr[k][d].as_black, games[k][d].as_black) for k in games for d in games[k])
    a = t.a.copy()
    a[np.flatnonzero(a)[0]] += 1
    other_counts = dataclasses.replace(
        shipped, tables=dataclasses.replace(shipped.tables, tables=dataclasses.replace(t, a=a))
    )
    assert play.models_differ(shipped, other_counts) == "the tables' A counts differ in 1 entries"
    other_fit = dataclasses.replace(shipped, logistic=shipped.logistic + 1e-6 * np.abs(shipped.logistic).max())
    assert play.models_differ(shipped, other_fit).startswith("the logistic model differs by up to 7.52e-07")
    with pytest.raises(ValueError, match="not the models trained here: the logistic model differs"):
        play.matches(other_fit, None, seed, shipped=True, ballots=157, depths=[3, 4, 5], mul=0.5)


def test_another_blas_kernel_fits_the_same_models(tmp_path):
    """The same fit in a process whose OpenBLAS uses another processor's kernels (``OPENBLAS_CORETYPE=Nehalem``:
    the logistic fit's last bits move here) passes :func:`models_differ` against the fit of this process."""
    import os
    import subprocess
    import sys

    from tdbook.experiments.checkers import signature_tables_play as play

    out = tmp_path / "there.npz"
    code = (
        "from tdbook.core.storage import atomic_write_bytes\n"
        "from tdbook.experiments.checkers.signature_tables_master import fit_models, master\n"
        "from tdbook.experiments.checkers.signature_tables_play import NAMES, models_bytes\n"
        f"atomic_write_bytes({str(out)!r}, models_bytes(fit_models(master(40, 5)[0], 0), dict.fromkeys(NAMES, (1, 0))))"
    )
    env = {**os.environ, "OPENBLAS_CORETYPE": "Nehalem"}
    subprocess.run([sys.executable, "-c", code], env=env, check=True, timeout=600)
    there, _ = play.load_models(out)
    here, _ = _small_models()
    assert play.models_differ(there, here) is None


def test_kernel_games_refuse_players_at_two_depths():
    from tdbook.experiments.checkers.signature_tables_play import kernel_games, players

    models, train = _small_models()
    pl = players(models, train, 0.5, 1)
    with pytest.raises(ValueError, match="one depth"):
        kernel_games(pl["tables"], pl["logistic"].at_depth(2), [ballots()[0][1]])
