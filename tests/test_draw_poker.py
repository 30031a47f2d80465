"""Five-card draw as Waterman plays it (Waterman (1968) App. B I, §5.2): hand ranking against pokerkit, the
VDHAND scale, the draw policy, the betting rules and chip conservation."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tdbook.games import draw_poker as dp
from tdbook.games.base import IllegalMove

# ----------------------------------------------------------------------------- ranking


def _ranks(hands: np.ndarray) -> np.ndarray:
    return np.array([dp.hand_rank(h) for h in hands], dtype=np.int64)


def test_hand_ranking_matches_pokerkit_on_100000_random_hands():
    """Our standard ranking orders 100,000 random hands exactly as pokerkit 0.7.7 does (equal ⇔ equal)."""
    import pokerkit  # pinned: a broken install must fail here, not skip the cross-check

    deck = list(pokerkit.Deck.STANDARD)  # 2c 2d 2h 2s 3c …: the same order as our card ints
    assert [repr(c) for c in deck[:5]] == ["2c", "2d", "2h", "2s", "3c"]
    rng = np.random.default_rng(20260707)
    n = 100_000
    hands = np.argsort(rng.random((n, 52)), axis=1)[:, :5].astype(np.int64)
    ours = _ranks(hands)
    theirs = np.array([pokerkit.StandardHighHand(tuple(deck[c] for c in h)).entry.index for h in hands])
    order = np.argsort(theirs, kind="stable")
    o, t = ours[order], theirs[order]
    assert np.all(np.diff(o) >= 0), "a hand pokerkit ranks higher is ranked lower by us"
    assert np.array_equal(np.diff(o) == 0, np.diff(t) == 0), "ties differ from pokerkit's"
    # every category occurs in 100,000 hands except (almost surely) straight flushes
    assert len(set((ours >> 20).tolist())) >= 8


@pytest.mark.parametrize(
    "text,cat",
    [
        ("As Ks Qs Js Ts", 8),
        ("5c 4c 3c 2c Ac", 8),
        ("9s 9d 9h 9c 2d", 7),
        ("Ks Kd Kc 4h 4d", 6),
        ("H14 H8 H7 H6 H4", 5),
        ("As 2d 3c 4h 5s", 4),
        ("Ts Jd Qc Kh As", 4),
        ("S6 D6 H6 D8 H10", 3),
        ("Ts Td 4s 4d 2c", 2),
        ("S4 D4 S11 D8 C2", 1),
        ("D14 S13 C8 C9 C11", 0),
    ],
)
def test_categories(text, cat):
    assert dp.hand_rank(dp.cards(text)) >> 20 == cat


def test_wheel_is_the_lowest_straight_and_kickers_count():
    wheel, six = dp.hand_rank(dp.cards("As 2d 3c 4h 5s")), dp.hand_rank(dp.cards("6s 2d 3c 4h 5s"))
    assert wheel < six
    assert dp.hand_rank(dp.cards("Ks Kd 9c 4h 3d")) > dp.hand_rank(dp.cards("Ks Kd 8c 7h 6d"))


def test_vdhand_anchors_of_the_transcripts():
    """App. J: three 6s = 52, pair of 4s = 10, pair of 7s = 13, A-high = 2; §5.2: 1 … 600,000."""
    v = lambda t: int(dp.vdhand(dp.cards(t)))  # noqa: E731
    assert v("H6 D6 S6 D8 H10") == 52
    assert v("S4 D4 S11 D8 C2") == 10
    assert v("S7 H7 D10 D13 C12") == 13
    assert v("D14 S13 C8 C9 C11") == 2
    assert v("2c 3d 4h 5s 9c") == 1
    assert v("As Ks Qs Js Ts") == 600000
    assert v("Ks Kd Kc 4h 4d") >= 376  # full house: "sure to win" needs H >= K19 = 376


@settings(max_examples=300, deadline=None)
@given(st.lists(st.integers(0, 51), min_size=10, max_size=10, unique=True))
def test_vdhand_never_contradicts_the_ranking(cs):
    a, b = np.array(cs[:5], dtype=np.int64), np.array(cs[5:], dtype=np.int64)
    ra, rb = dp.hand_rank(a), dp.hand_rank(b)
    if ra > rb:
        assert dp.vdhand(a) >= dp.vdhand(b)


# ----------------------------------------------------------------------------- draw policy


@pytest.mark.parametrize(
    "text,discard",
    [
        ("H6 D6 H14 D9 D5", "H14 D9 D5"),  # pair: 3 (App. J)
        ("D14 S13 S8 S5 H2", "S8 S5 H2"),  # no pair: keep the two highest (App. J)
        ("C8 C6 D5 H4 D3", "C8"),  # open-ended four-straight (App. D)
        ("Ts Td 4s 4d 2c", "2c"),  # two pair: 1
        ("9s 9d 9h 2c 5d", "2c 5d"),  # trips: 2
        ("H14 H8 H7 H6 H4", ""),  # pat flush
        ("Ah Kh Qh 2h 7c", "7c"),  # four-flush
    ],
)
def test_draw_policy(text, discard):
    h = dp.cards(text)
    m = dp.draw_mask(h)
    assert {int(c) for i, c in enumerate(h) if (m >> i) & 1} == (set(dp.cards(discard).tolist()) if discard else set())


@settings(max_examples=300, deadline=None)
@given(st.lists(st.integers(0, 51), min_size=5, max_size=5, unique=True))
def test_draw_policy_replaces_at_most_three(cs):
    assert bin(dp.draw_mask(np.array(cs, dtype=np.int64))).count("1") <= 3


# ----------------------------------------------------------------------------- betting rules


def _round(opener=0):
    st_ = np.zeros(dp.NST, dtype=np.int64)
    dp.new_round(st_, np.arange(16, dtype=np.int64), opener, dp.DEFAULT_CAP)
    return st_


def test_call_needs_a_bet_and_bets_are_1_to_20():
    g = dp.DrawPoker(seed=3)
    s = g.initial_state()
    before = s.st.copy()
    with pytest.raises(IllegalMove, match="call is not allowed until a bet"):
        g.apply(s, ("call",))
    for bad in (("bet", 0), ("bet", 21), ("bet", -3)):
        with pytest.raises(IllegalMove, match="from 1 to 20"):
            g.apply(s, bad)
    with pytest.raises(IllegalMove):
        g.apply(s, ("raise", 3))
    with pytest.raises(IllegalMove):
        g.apply(s, ("bet", 2.5))
    assert np.array_equal(s.st, before), "an illegal move must not change the state"
    assert ("call",) not in g.legal_moves(s) and ("bet", 20) in g.legal_moves(s)


def test_pot_counts_matched_money_as_in_app_c():
    """App. C: program bets 1, human raises 1, program calls (POT 6); program bets 3, human raises 7,
    program drops: program −6, human +6."""
    st_ = _round(0)
    for kind, amt in [(dp.BET, 1), (dp.BET, 1), (dp.CALL, 0)]:
        assert dp.apply_action(st_, kind, amt) == 0
    assert st_[dp.POT] == 6 and st_[dp.PHASE] == dp.REPLACE
    assert dp.apply_replace(st_, 0b111) == 0 and dp.apply_replace(st_, 0) == 0
    assert st_[dp.PHASE] == dp.BET2 and st_[dp.TO_MOVE] == 0 and st_[dp.LASTBET] == 0
    for kind, amt in [(dp.BET, 3), (dp.BET, 7), (dp.DROP, 0)]:
        assert dp.apply_action(st_, kind, amt) == 0
    assert st_[dp.NET] == -6 and st_[dp.NET + 1] == 6


def test_replace_rules():
    st_ = _round(1)
    assert dp.apply_replace(st_, 1) == 2  # not the replace phase
    dp.apply_action(st_, dp.BET, 2)
    dp.apply_action(st_, dp.CALL, 0)
    assert dp.apply_replace(st_, 0b1111) == 7  # 4 cards
    assert dp.apply_replace(st_, 0b11) == 0 and st_[dp.REPL + 1] == 2  # the opener replaces first
    assert dp.orp(st_, 0) == 2 and dp.orp(st_, 1) == -1


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 2**32 - 1), st.lists(st.integers(0, 100), min_size=60, max_size=60))
def test_every_round_pays_by_the_seeds_rule(seed, choices):
    """Random legal play through the façade, money tracked independently of the engine's POT: each player
    antes 1; a bet of n puts in the pending bet plus n, a call the pending bet.  After a drop the other player
    gains what the dropper put in (his unmatched raise goes back); at a showdown the better final hand gains
    what the loser put in (= POT/2), equal hands split.  The loser loses the same amount (App. B I, §5.2)."""
    g = dp.DrawPoker(rounds=3, seed=seed % 1000)
    s = g.initial_state()
    k = 0
    put, pending = [1, 1], 0
    while not g.is_terminal(s):
        moves = g.legal_moves(s)
        move = moves[choices[k % len(choices)] % len(moves)]
        k += 1
        me = g.to_move(s)
        hands = [dp.hand_rank(s.hand(0)), dp.hand_rank(s.hand(1))]  # the final hands once cards are replaced
        before, rop = s.scores.copy(), s.rop
        s = g.apply(s, move)
        if move[0] == "bet":
            put[me] += pending + move[1]
            pending = move[1]
        elif move[0] == "call":
            put[me] += pending
            pending = 0
        if s.rop == rop:
            continue
        gain = s.scores - before
        if move[0] == "drop":
            assert gain[1 - me] == put[me] and gain[me] == -put[me]
        else:
            assert put[0] == put[1] and pending == 0
            w = 0 if hands[0] > hands[1] else 1 if hands[1] > hands[0] else -1
            want = [0, 0] if w < 0 else [put[0] if i == w else -put[0] for i in (0, 1)]
            assert gain.tolist() == want
        put, pending = [1, 1], 0
    assert s.scores.sum() == 0 and g.result(s) == s.scores[0]


def test_bad_deals_are_refused_in_any_row_and_nothing_is_dealt():
    g = dp.DrawPoker(rounds=3, seed=1)
    good = np.array([np.arange(16) + 16 * (k % 2) for k in range(3)], dtype=np.int64)
    assert g.initial_state(good).hand(0).tolist() == list(range(5))
    for row, bad_row, match in [
        (2, np.r_[np.arange(15), 3], "distinct"),
        (1, np.r_[np.arange(15), 52], "0..51"),
        (2, np.r_[-1, np.arange(1, 16)], "0..51"),
    ]:
        d = good.copy()
        d[row] = bad_row
        with pytest.raises(ValueError, match=f"deal {row}.*{match}|deal {row} must"):
            g.initial_state(d)
    with pytest.raises(ValueError, match="shape"):
        g.initial_state(good[:2])
    with pytest.raises(ValueError, match="integer"):
        g.initial_state(good.astype(float) + 0.5)


@pytest.mark.parametrize("text", ["bet abc", "replace x1", "bet 5 x"])
def test_malformed_move_text_is_named(text):
    g = dp.DrawPoker(rounds=1, seed=2)
    s = g.initial_state()
    before = s.st.copy()
    with pytest.raises(IllegalMove, match=f"malformed move {text!r}"):
        g.apply(s, text)
    assert np.array_equal(s.st, before)


def test_facade_games_and_bad_parameters():
    g = dp.DrawPoker(rounds=2, seed=1)
    s = g.initial_state()
    assert g.to_move(s) == 0 and g.encode(s).shape == (7,)
    s = g.apply(s, ("drop",))
    assert s.rop == 1 and g.to_move(s) == 1  # the other seat opens the next r-o-p
    s = g.apply(s, "drop")
    assert g.is_terminal(s) and g.legal_moves(s) == []
    with pytest.raises(IllegalMove):
        g.apply(s, ("drop",))
    for bad in ({"rounds": 0}, {"cap": 0}, {"corr_mode": 3}, {"corr_mode": True}, {"seed": -1}, {"seed": 2.5}):
        with pytest.raises(ValueError):
            dp.DrawPoker(**bad)
    with pytest.raises(ValueError):
        dp.card("Z9")
    with pytest.raises(ValueError, match="duplicate"):
        dp.cards("H5 H5")


def test_deck_deals_distinct_cards_and_reshuffles():
    deck = np.zeros(53, dtype=np.int64)
    dp.new_deck(deck)
    rng = dp.make_state(5, 0)
    out = np.zeros(16, dtype=np.int64)
    shuffles = 0
    for _ in range(7):
        shuffles += dp.deal16(deck, rng, out)
        assert len(set(out.tolist())) == 16
    assert shuffles == 3  # 52 cards give three r-o-ps of 16


def test_subvector_semantics():
    """POTBET = POT // LASTBET, or POT when no bet is pending; BFO = −6 and OCS = 0 with empty books."""
    st_ = _round(0)
    dp.apply_action(st_, dp.BET, 1)
    dp.apply_action(st_, dp.BET, 2)  # seat 1 raises 2 over 1: POT 4, LASTBET 2
    vals, aux, fv = np.zeros(7, dtype=np.int64), np.zeros(7, dtype=np.int64), np.zeros(5)
    book = np.zeros((2, dp.NBOOK), dtype=np.int64)
    dp.subvector(st_, 0, book, dp.K_VALUES, 1, vals, aux, fv)
    assert list(vals[1:]) == [4, 2, -6, 2, -1, 0]
    assert fv[4] == 11  # LAP = 5 − BO
    book[0, dp.OD] = 1  # one drop by the opponent: CS = 2, BO = 16 − OH
    dp.subvector(st_, 0, book, dp.K_VALUES, 1, vals, aux, fv)
    assert vals[6] == 2 and vals[3] > 5
