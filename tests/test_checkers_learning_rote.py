"""Samuel's rote learning (Powell (2000) §3.3; tdbook.learners.checkers_rote, tdbook.experiments.checkers.rote): the
store's standardized keys, ageing, forgetting and culling, the two reuse rules, the discount by ply, the search
reading the store at its frontier, and the rote program's self-play."""

from __future__ import annotations

import numpy as np
import pytest

from tdbook.games.checkers import Checkers, flipped, moves_of, parse_fen
from tdbook.learners.checkers_polynomial import Polynomial
from tdbook.learners.checkers_rote import (
    AGE,
    PLY,
    USES,
    RoteSpec,
    RoteStore,
    lookup,
    standard_key,
    touch,
    use_score,
)
from tdbook.players.checkers_search import Searcher, SearchRules

G = Checkers()


def test_colour_reversed_boards_share_a_key_and_kings_only_boards_their_four_images():
    s = G.apply(G.initial_state(), "11-15")  # White to move
    assert standard_key(*s.words, s.side) == standard_key(*flipped(s).words, flipped(s).side)
    assert standard_key(*s.words, s.side) != standard_key(*s.words, 1 - s.side)
    # kings only: the half turn and the reflections about the long diagonals give the same key
    base = parse_fen("B:WK18,K27:BK1")
    images = ["B:WK15,K6:BK32", "B:WK15,K24:BK5", "B:WK18,K9:BK28"]  # half turn, the two long diagonals
    k0 = standard_key(*base.words, 0)
    for f in images:
        assert standard_key(*parse_fen(f).words, 0) == k0, f
    assert standard_key(*parse_fen("B:WK18,K26:BK1").words, 0) != k0
    # with men on the board only the colour reversal applies
    men = parse_fen("B:W18:B5")
    assert standard_key(*men.words, 0) != standard_key(*parse_fen("B:W15:B28").words, 0)


def test_store_lookup_update_and_growth():
    st = RoteStore(RoteSpec(), capacity=4)
    s = G.initial_state()
    assert st.get(s.words, s.side) is None
    assert st.put(s.words, s.side, 5.0, 3)
    assert st.get(s.words, s.side) == (5.0, 3)
    boards = [G.apply(s, m) for m in G.legal_moves(s)]
    for i, b in enumerate(boards):
        assert st.put(b.words, b.side, float(i), 4)
    assert len(st) == 8 and st.capacity >= 16  # grown, load at most one half
    assert [st.get(b.words, b.side) for b in boards] == [(float(i), 4) for i in range(7)]
    assert not st.put(s.words, s.side, -2.0, 6)  # an update, not a new entry
    assert st.get(s.words, s.side) == (-2.0 + RoteSpec().bonus, 6)  # Powell: a reuse raises the value slightly


def test_reuse_rules_discount_and_merge():
    spec = RoteSpec(age0=8, max_age=10, refresh="age", limit=3)
    st = RoteStore(spec)
    s = G.initial_state()
    boards = [s] + [G.apply(s, m) for m in G.legal_moves(s)][:3]
    for i, b in enumerate(boards):
        st.put(b.words, b.side, 100.0, ply=i + 1)
    i0 = int(lookup(st.table, *s.words, s.side))
    touch(st.table, st.scores, i0, spec.refresh_code, spec.bonus)
    assert st.table[i0, AGE] == 4 and st.table[i0, USES] == 1 and st.scores[i0] == 100.0  # notes: age halved
    assert use_score(st.table, st.scores, i0, 0.25) == pytest.approx(100 * 0.75)  # ply 1: one discount step
    # a merge ages everything; 4 entries > limit 3: the lowest ply (1, the start board) is culled
    assert st.merge() == (0, 1)
    assert st.get(s.words, s.side) is None and len(st) == 3
    assert {int(a) for a in st.entries()["age"]} == {9}
    st.merge()
    assert st.merge() == (3, 0) and len(st) == 0  # age 11 > max_age 10: expunged


def test_the_search_uses_a_stored_frontier_board_discounted_by_its_ply():
    s = G.initial_state()
    children = [G.apply(s, m.text) for m in moves_of(s)]
    spec = RoteSpec(discount=0.5, bonus=8.0)
    st = RoteStore(spec)
    # the board after 9-13 (White to move) is stored as lost for White: the search at depth 1 must choose it
    target = G.apply(s, "9-13")
    st.put(target.words, target.side, -(2.0**30), ply=2)
    plain = Searcher(Polynomial(), SearchRules.fixed(1))(s.words, s.side)
    assert plain.value == 0.0
    r = Searcher(Polynomial(), SearchRules.fixed(1), store=st, rote_mode=1)(s.words, s.side)
    assert moves_of(s)[r.best].text == "9-13" and r.value == pytest.approx(2.0**30 * 0.25) and r.rote_hits == 1
    assert st.get(target.words, target.side)[0] == -(2.0**30)  # read-only: unchanged
    r2 = Searcher(Polynomial(), SearchRules.fixed(1), store=st, rote_mode=2)(s.words, s.side)
    assert r2.rote_hits == 1 and st.get(target.words, target.side)[0] == -(2.0**30) + 8.0  # refreshed
    i = int(lookup(st.table, *target.words, target.side))
    assert st.table[i, USES] == 1 and st.table[i, PLY] == 2 and len(children) == 7


def test_rote_self_play_stores_boards_and_counts_by_phase():
    from tdbook.experiments.checkers.rote import RoteRun, rote_player, train

    t = train(RoteRun(RoteSpec(merge_every=20)), 6, progress=False)
    assert t.size[-1] == len(t.store) and np.all(np.diff(t.size) >= 0) and t.size[0] > 0
    boards = t.phases[:, :, 0].sum()
    assert boards == t.plies.sum()  # every board met is counted in one phase
    assert t.merges == t.plies.sum() // 20
    e = t.store.entries()
    assert e["ply"].min() >= 1 and np.median(e["ply"]) >= 3 and np.all(e["age"] >= RoteSpec().age0)  # PV length
    again = train(RoteRun(RoteSpec(merge_every=20)), 6, progress=False)
    assert np.array_equal(again.size, t.size) and np.array_equal(again.phases, t.phases)  # same seed, same run
    assert rote_player(t).store is t.store
