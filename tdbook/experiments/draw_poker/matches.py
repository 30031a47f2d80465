"""Matches and duplicate proficiency tests of draw-poker players (Waterman (1968) §5.2, Fig. 5-4):
whole r-o-ps, games and tests jitted end to end, and their summaries.

:func:`match` plays r-o-ps from one continuous deck; :func:`proficiency` runs the document's
duplicate test (series I: the program plays ``games`` × ``rounds`` r-o-ps against the opponent;
series II: the same deals with the hands swapped and the games in a random order) as many times as
asked, and :class:`Proficiency` turns the nets into the percentage difference in winnings of
Table 5-3 (:attr:`Proficiency.gross_pct`) and the duplicate difference in chips.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numba import njit

from ...core.rng import randint, seed_state
from ...games import draw_poker as dp
from ...games.draw_poker import (
    DONE,
    HAND,
    K_VALUES,
    PHASE,
    REPLACE,
    TO_MOVE,
    apply_action,
    apply_replace,
    deal16,
    draw_mask,
    new_deck,
    new_round,
    update_books,
)
from ...players.draw_poker import Equity, Player, PlayerArrays, Work, act, equity_inputs

# ----------------------------------------------------------------------------- kernels


@njit(cache=True)
def play_round(
    st: np.ndarray,
    book: np.ndarray,
    kc: np.ndarray,
    rng: np.ndarray,
    corr_mode: int,
    p0: PlayerArrays,
    p1: PlayerArrays,
    eq: Equity,
) -> int:
    """Play the dealt r-o-p in ``st`` to the end (draws by the fixed policy), update the books;
    returns the number of bet decisions made."""
    nmax = max(p0.syms.shape[0], p1.syms.shape[0])
    vals, aux, fv = np.zeros(7, dtype=np.int64), np.zeros(7, dtype=np.int64), np.zeros(5)
    work = Work(vals, aux, fv, np.zeros(nmax, dtype=np.bool_))
    n = 0
    while st[PHASE] != DONE:
        seat = st[TO_MOVE]
        if st[PHASE] == REPLACE:
            apply_replace(st, draw_mask(st[HAND + 8 * seat : HAND + 8 * seat + 5]))
            continue
        if seat == 0:
            kind, amt, _, _, _ = act(p0, st, 0, book, kc, rng, eq, work)
        else:
            kind, amt, _, _, _ = act(p1, st, 1, book, kc, rng, eq, work)
        err = apply_action(st, kind, amt)
        if err != 0:
            raise ValueError("a player produced an illegal action")
        n += 1
    update_books(st, book, corr_mode, kc)
    return n


@njit(cache=True)
def play_rounds(
    n: int,
    seed: int,
    stream: int,
    kc: np.ndarray,
    corr_mode: int,
    memory: int,
    p0: PlayerArrays,
    p1: PlayerArrays,
    eq: Equity,
    nets: np.ndarray,
) -> int:
    """``n`` r-o-ps from one continuous deck (first player alternating; the books are reset every
    ``memory`` r-o-ps); ``nets[i, s]`` = seat s's net in r-o-p i.  Returns the number of bet decisions."""
    rng = seed_state(seed, stream)
    deck = np.zeros(53, dtype=np.int64)
    new_deck(deck)
    d = np.zeros(16, dtype=np.int64)
    st = np.zeros(dp.NST, dtype=np.int64)
    book = np.zeros((2, dp.NBOOK), dtype=np.int64)
    total = 0
    for i in range(n):
        if i % memory == 0:
            book[:, :] = 0
        deal16(deck, rng, d)
        new_round(st, d, i % 2, dp.DEFAULT_CAP)
        total += play_round(st, book, kc, rng, corr_mode, p0, p1, eq)
        nets[i, 0] = st[dp.NET]
        nets[i, 1] = st[dp.NET + 1]
    return total


@njit(cache=True)
def duplicate_tests(
    reps: int,
    seed: int,
    stream0: int,
    games: int,
    rounds: int,
    swap_seats: bool,
    kc: np.ndarray,
    corr_mode: int,
    p0: PlayerArrays,
    p1: PlayerArrays,
    eq: Equity,
    nets1: np.ndarray,
    nets2: np.ndarray,
) -> None:
    """The proficiency test of §5.2 (Fig. 5-4), ``reps`` times.  Series I: the program (player 0) plays
    ``games`` × ``rounds`` r-o-ps against the opponent (player 1), the program opening the odd
    r-o-ps of each game; series II: the same deals with the hands swapped (the program holds what
    the opponent held) and the games in a random order, positions as in series I (as in App. C) or
    swapped too (``swap_seats``).  Books are reset before each series.  ``nets1[t, k]`` is the
    program's net in deal k of series I, ``nets2[t, k]`` the opponent's net on deal k in series II."""
    nd = games * rounds
    deals = np.zeros((nd, 16), dtype=np.int64)
    d = np.zeros(16, dtype=np.int64)
    st = np.zeros(dp.NST, dtype=np.int64)
    book = np.zeros((2, dp.NBOOK), dtype=np.int64)
    deck = np.zeros(53, dtype=np.int64)
    order = np.zeros(games, dtype=np.int64)
    for t in range(reps):
        rng = seed_state(seed, stream0 + t)
        new_deck(deck)
        for k in range(nd):
            deal16(deck, rng, deals[k])
        for i in range(games):
            order[i] = i
        for i in range(games - 1, 0, -1):
            j = randint(rng, i + 1)
            order[i], order[j] = order[j], order[i]
        # series I
        book[:, :] = 0
        for k in range(nd):
            new_round(st, deals[k], (k % rounds) % 2, dp.DEFAULT_CAP)
            play_round(st, book, kc, rng, corr_mode, p0, p1, eq)
            nets1[t, k] = st[dp.NET]
        # series II: hands swapped, games permuted
        book[:, :] = 0
        for g in range(games):
            for rr in range(rounds):
                k = order[g] * rounds + rr
                d[0:8] = deals[k, 8:16]
                d[8:16] = deals[k, 0:8]
                opener = rr % 2
                if swap_seats:
                    opener = 1 - opener
                new_round(st, d, opener, dp.DEFAULT_CAP)
                play_round(st, book, kc, rng, corr_mode, p0, p1, eq)
                nets2[t, k] = st[dp.NET + 1]


# ----------------------------------------------------------------------------- matches


def match(
    p0: Player, p1: Player, rounds: int, seed: int = 0, stream: int = 0, *, corr_mode: int = 0, memory: int = 25
) -> tuple[np.ndarray, int]:
    """Both seats' nets in each of ``rounds`` r-o-ps (shape ``(rounds, 2)``: column 0 is ``p0`` in seat 0,
    column 1 is ``p1``), and the number of bet decisions; the long-term books are reset every
    ``memory`` r-o-ps, OCORREL is updated by reading ``corr_mode``."""
    if rounds < 1 or memory < 1:
        raise ValueError(f"rounds and memory must be >= 1, got {rounds}, {memory}")
    seed, stream, corr_mode = dp.check_seed(seed), dp.check_seed(stream, "stream"), dp.check_corr_mode(corr_mode)
    nets = np.zeros((rounds, 2), dtype=np.int64)
    n = play_rounds(
        rounds, seed, stream, K_VALUES, corr_mode, memory, p0.arrays, p1.arrays, equity_inputs(p0, p1), nets
    )
    return nets, n


@dataclass(frozen=True)
class Protocol:
    """How one duplicate proficiency test is played (§5.2, Fig. 5-4): ``games`` × ``rounds`` r-o-ps per
    series; series II swaps the hands, and the positions too when ``swap_seats`` (App. C: only the
    hands); ``corr_mode`` is the OCORREL reading (0: App. J, 1: the reading notes)."""

    games: int = 5
    rounds: int = 5
    swap_seats: bool = False
    corr_mode: int = 0

    def __post_init__(self) -> None:
        if self.games < 1 or self.rounds < 1:
            raise ValueError(f"games and rounds must be >= 1, got {self.games}, {self.rounds}")
        object.__setattr__(self, "corr_mode", dp.check_corr_mode(self.corr_mode))


@dataclass
class Proficiency:
    """Duplicate proficiency tests (§5.2): per test the percentage difference in winnings and the net
    duplicate difference, and their summaries."""

    program: str
    opponent: str
    nets1: np.ndarray  # program's nets, series I
    nets2: np.ndarray  # opponent's nets on the same deals, series II

    @property
    def gross_pct(self) -> np.ndarray:
        """100·(G_prog − G_opp)/max(G_prog, G_opp) with G = sum of the r-o-ps won (notes, ambiguity 12)."""
        g1 = np.clip(self.nets1, 0, None).sum(1).astype(float)
        g2 = np.clip(self.nets2, 0, None).sum(1).astype(float)
        den = np.maximum(np.maximum(g1, g2), 1.0)
        return 100.0 * (g1 - g2) / den

    @property
    def net_pct(self) -> np.ndarray:
        """100·(N_prog − N_opp)/max(|N_prog|, |N_opp|) with N = net winnings of the series."""
        n1 = self.nets1.sum(1).astype(float)
        n2 = self.nets2.sum(1).astype(float)
        den = np.maximum(np.maximum(np.abs(n1), np.abs(n2)), 1.0)
        return 100.0 * (n1 - n2) / den

    @property
    def chips_per_rop(self) -> np.ndarray:
        """Duplicate difference (program's series-I winnings − opponent's series-II winnings) per r-o-p."""
        return (self.nets1.sum(1) - self.nets2.sum(1)) / self.nets1.shape[1]

    def summary(self, what: str = "gross_pct") -> tuple[float, float, float]:
        """(mean, 95 % half-width of the mean, s.d. of one test)."""
        x = getattr(self, what)
        sd = float(x.std(ddof=1)) if len(x) > 1 else 0.0
        return float(x.mean()), 1.96 * sd / np.sqrt(max(len(x), 1)), sd


def proficiency(
    program: Player,
    opponent: Player,
    reps: int,
    seed: int = 0,
    stream0: int = 0,
    protocol: Protocol = Protocol(),
) -> Proficiency:
    """``reps`` duplicate proficiency tests of ``program`` against ``opponent`` (§5.2, Fig. 5-4), test t
    on the deals of stream ``stream0 + t``."""
    if reps < 1:
        raise ValueError(f"reps must be >= 1, got {reps!r}")
    seed, stream0 = dp.check_seed(seed), dp.check_seed(stream0, "stream0")
    games, rounds = protocol.games, protocol.rounds
    nd = games * rounds
    n1, n2 = np.zeros((reps, nd), dtype=np.int64), np.zeros((reps, nd), dtype=np.int64)
    duplicate_tests(
        reps, seed, stream0, games, rounds, protocol.swap_seats, K_VALUES, protocol.corr_mode, program.arrays,
        opponent.arrays, equity_inputs(program, opponent), n1, n2,
    )  # fmt: skip
    return Proficiency(program.name, opponent.name, n1, n2)
