"""The training procedures of Waterman's draw-poker learners and their agreement tests (Waterman (1968)
§5.3–5.4, Tables 5-1 and 5-2): protocols that play games against an opponent and run training trials.

- :func:`train_explicit` — explicit training by the program trainer (§5.3, "automatic training"),
  and the manual-training proxy: the same trainer giving inconsistent advice at a stated rate.
- :func:`train_implicit` — implicit training (§5.4, App. I–J): axioms + decision matrix, hypothesis
  formation, learning only from post-draw decisions of r-o-ps that end in a call.
- :func:`agreement_explicit`, :func:`agreement_implicit` — the agreement measures of Tables 5-1
  and 5-2.

The judgement of one decision (the trainer's advice, the deduction from the axioms) is in
:mod:`tdbook.learners.draw_poker_trainers`; the learning itself is
:meth:`tdbook.learners.rule_learning.RuleSet.train`; the play is the jitted engine driven by
:class:`tdbook.players.draw_poker.Table`.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from ...games import draw_poker as dp
from ...games.draw_poker import (
    BET,
    BET1,
    CALL,
    DROP,
    HAND,
    LASTBET,
    PHASE,
    RCOUNT,
    REPLACE,
    RMAX,
    TO_MOVE,
    hand_rank,
    vdhand,
)
from ...learners.draw_poker_heuristics import C_CALL, CLASS_NAMES, EXPLICIT, built_in, random_program
from ...learners.draw_poker_trainers import Context, acceptable, deduced_classes, matrix_reasons, trainer_advice
from ...learners.production_rules import RANDOM
from ...learners.rule_learning import LearnParams, RuleSet
from ...players.draw_poker import Player, Table, experienced, program_player


@dataclass(frozen=True)
class Bookkeeping:
    """How the long-term books are kept during play: ``corr_mode`` is the OCORREL update (0: the
    reading that reproduces App. J, 1: the reading notes'), ``memory`` the r-o-ps of one session
    (the books reset after it)."""

    corr_mode: int = 0
    memory: int = 25

    def __post_init__(self) -> None:
        object.__setattr__(self, "corr_mode", dp.check_corr_mode(self.corr_mode))
        if isinstance(self.memory, bool) or not isinstance(self.memory, int) or self.memory < 1:
            raise ValueError(f"memory (r-o-ps before the books are reset) must be an int >= 1, got {self.memory!r}")


@dataclass(frozen=True)
class ExplicitSpec:
    """How explicit training (§5.3) runs: ``rounds``-r-o-p games until ``clean_games`` in a row pass
    without a trial (or ``max_games``); ``noise`` is the rate at which the trainer advocates another
    class instead (the manual-training proxy; 0: automatic training)."""

    noise: float = 0.0
    max_games: int = 200
    rounds: int = 5
    clean_games: int = 1
    books: Bookkeeping = Bookkeeping()

    def __post_init__(self) -> None:
        if not 0 <= self.noise < 1:
            raise ValueError(f"noise must be in [0, 1), got {self.noise!r}")


@dataclass(frozen=True)
class ImplicitSpec:
    """How implicit training (§5.4) runs: learning stops when over the last ``window`` post-draw
    decisions the learned rules (not the random rule) decided at least ``coverage`` of the time (the
    document: 95 %), or after ``max_rops``; ``notprev`` is the reading of
    notprevoppaction(bet high) ("opp": App. I Part I, "you": Part II's wording)."""

    coverage: float = 0.95
    window: int = 40
    max_rops: int = 3000
    notprev: str = "opp"
    books: Bookkeeping = Bookkeeping()

    def __post_init__(self) -> None:
        if not 0 < self.coverage <= 1 or self.window < 1:
            raise ValueError("coverage must be in (0, 1] and window >= 1")
        if self.notprev not in ("opp", "you"):
            raise ValueError(f"notprev must be 'opp' or 'you', got {self.notprev!r}")


@dataclass(frozen=True)
class AgreementSpec:
    """How an agreement test plays (Tables 5-1, 5-2): the random rule's reading (``random_mode``), the
    reading of notprevoppaction (``notprev``, implicit only) and the OCORREL update (``corr_mode``)."""

    random_mode: str = "classes"
    notprev: str = "opp"
    corr_mode: int = 0

    def __post_init__(self) -> None:
        object.__setattr__(self, "corr_mode", dp.check_corr_mode(self.corr_mode))
        if self.notprev not in ("opp", "you"):
            raise ValueError(f"notprev must be 'opp' or 'you', got {self.notprev!r}")


@dataclass
class TrainingRun:
    """The outcome of one training run (§5.3 / §5.4)."""

    program: RuleSet
    trials: int
    created: int
    redundant: int
    rules: int
    games: int
    rops: int
    converged: bool
    reports: list = field(default_factory=list)
    removed: list = field(default_factory=list)
    coverage: float = float("nan")


def train_explicit(
    seed: int,
    opponent: Player | None = None,
    params: LearnParams | None = None,
    trainer: RuleSet | None = None,
    spec: ExplicitSpec = ExplicitSpec(),
    keep_reports: bool = False,
) -> TrainingRun:
    """Explicit training by the program trainer (§5.3): the trainee (random rule only) plays
    ``spec.rounds``-r-o-p games against ``opponent``; after each of its bet decisions the trainer
    judges the move; an unacceptable one (a move from the random rule always is) is a training trial
    with the trainer's advice (:func:`~tdbook.learners.draw_poker_trainers.trainer_advice`), after
    which the trainee decides again and plays.  Training stops after the first game without a trial
    (``spec.clean_games`` in a row; or ``spec.max_games``); the long-term books are reset every
    ``spec.books.memory`` r-o-ps (a session).  With ``spec.noise`` > 0 the trainer, at each judgement,
    instead advocates a different legal class drawn uniformly with probability ``noise`` (same
    reasons): the inconsistent "manual" trainer.  Redundant rules and unreferenced bf rules are
    removed after training."""
    seed = dp.check_seed(seed)
    noise, corr_mode, memory = spec.noise, spec.books.corr_mode, spec.books.memory
    opponent = opponent or experienced()
    trainer = trainer or built_in()
    tp = program_player(trainer, "trainer")
    prog = random_program("explicit", params or LearnParams(K=4, KK=0, N=2))
    table = Table(seed, 0, corr_mode, memory=memory)
    noise_rng = np.random.default_rng([seed, 77])
    trials = created = 0
    reports = []
    games = streak = 0
    converged = False
    while games < spec.max_games:
        games += 1
        clean = True
        for _ in range(spec.rounds):
            table.new_round()
            while not table.done:
                seat = int(table.st[TO_MOVE])
                if table.st[PHASE] == REPLACE:
                    table.replace_all()
                    continue
                if seat == 1:
                    k, a, *_ = table.move(opponent, 1)
                    table.apply(k, a)
                    continue
                pl = program_player(prog)
                kind, amt, cls, r, rnd = table.move(pl, 0)
                vals, aux, lap = table.beta(0, 0)
                _, _, tcls, trule, _ = table.move(tp, 0)
                if noise > 0 and noise_rng.random() < noise:
                    legal = [c for c in EXPLICIT if c != tcls and (c != C_CALL or table.st[LASTBET] > 0)]
                    tcls = int(noise_rng.choice(legal))
                if rnd or not acceptable(kind, amt, tcls, lap):
                    clean = False
                    trials += 1
                    adv = trainer_advice(trainer, trule, tcls)
                    rep = prog.train(vals, adv.cls, adv.reasons, aux)
                    created += rep.inserted
                    if keep_reports:
                        reports.append((adv.message, rep))
                    kind, amt, *_ = table.move(program_player(prog), 0)
                table.apply(kind, amt)
        streak = streak + 1 if clean else 0
        if streak >= spec.clean_games:
            converged = True
            break
    removed = prog.remove_redundancies()
    return TrainingRun(
        prog, trials, created, len(removed), prog.n_rules(), games, table.rop, converged, reports, removed
    )


def _play_implicit_round(
    table: Table, prog: RuleSet, opponent: Player, learning: bool, out: list, random_mode: str = "classes"
) -> None:
    """One r-o-p of the implicit learner (seat 0) against ``opponent``; appends a :class:`Context` per
    program decision.  While ``learning``, a DROP is not made: a CALL (or a bet of 1) replaces it."""
    pl = program_player(prog, classes="implicit", random_mode=random_mode)
    st = table.st
    last = None
    while not table.done:
        seat = int(st[TO_MOVE])
        if st[PHASE] == REPLACE:
            table.replace_all()
            continue
        if seat == 1:
            k, a, *_ = table.move(opponent, 1)
            if last is not None and k == BET:
                last.opp_responded_raise = True
            last = None
            table.apply(k, a)
            continue
        ctx_vals, ctx_aux, _ = table.beta(0, 1)
        c = Context(
            ctx_vals, ctx_aux, 0, False, st[PHASE] != BET1, int(st[RCOUNT + 1]), int(st[RMAX + 1]), int(st[RMAX])
        )
        kind, amt, cls, r, rnd = table.move(pl, 0)
        c.cls, c.random = int(cls), bool(rnd)
        if learning and kind == DROP:
            kind, amt = (CALL, 0) if st[LASTBET] > 0 else (BET, 1)
        out.append(c)
        last = c
        table.apply(kind, amt)


def train_implicit(
    seed: int,
    opponent: Player | None = None,
    params: LearnParams | None = None,
    spec: ImplicitSpec = ImplicitSpec(),
    keep_reports: bool = False,
) -> TrainingRun:
    """Implicit training (§5.4, App. I–J): the program (random rule, hand partition on raw H, no other
    bf rules) plays the opponent; after an r-o-p that ends in a call, each decision it made after
    the draw is judged by deduction from the axioms with the opponent's shown hand; when the rules'
    decision is not among the deduced ones, or came from the random rule, a learning trial is run
    with one of them (drawn at random), every variable relevant and the decision matrix's reasons
    (revised procedure, hypothesis formation).  DROP decisions are replaced by CALL during learning.
    Learning stops when, over the last ``spec.window`` post-draw decisions (the ones learning looks
    at), the learned rules (not the random rule) decided at least ``spec.coverage`` of the time (the
    document: 95 %)."""
    seed = dp.check_seed(seed)
    coverage, window, notprev = spec.coverage, spec.window, spec.notprev
    corr_mode, memory = spec.books.corr_mode, spec.books.memory
    opponent = opponent or experienced()
    prog = random_program("implicit", params or LearnParams(K=4, KK=0, N=2))
    table = Table(seed, 0, corr_mode, memory=memory)
    pick = np.random.default_rng([seed, 91])
    trials = created = 0
    reports = []
    recent: list[bool] = []
    converged = False
    rops = 0
    while rops < spec.max_rops:
        rops += 1
        table.new_round()
        games = (rops + 4) // 5  # games of 5 r-o-ps begun (the last one may be cut short by convergence)
        ctxs: list[Context] = []
        _play_implicit_round(table, prog, opponent, True, ctxs)
        recent += [not c.random for c in ctxs if c.post]  # coverage of the decisions learning looks at
        recent = recent[-window:]
        if table.st[dp.END] == 0:  # ended by a call: the opponent's hand is shown
            opp = table.st[HAND + 8 : HAND + 13]
            own = table.st[HAND : HAND + 5]
            orank, rank_opp, vopp = int(hand_rank(own)), int(hand_rank(opp)), int(vdhand(opp))
            for c in ctxs:
                if not c.post:
                    continue
                ok = deduced_classes(c, orank, rank_opp, vopp, notprev)
                now = prog.decide(c.vals, c.aux)  # step 1 with the rules as they are now
                if now is not RANDOM and now in ok:
                    continue
                cls = int(ok[int(pick.integers(len(ok)))])
                trials += 1
                rep = prog.train(c.vals, cls, matrix_reasons(prog, c.vals, cls), c.aux, hypothesized=True)
                created += rep.inserted
                if keep_reports:
                    reports.append(([CLASS_NAMES[k] for k in ok], CLASS_NAMES[cls], c, rep))
        if len(recent) >= window and np.mean(recent) >= coverage:
            converged = True
            break
    removed = prog.remove_redundancies()
    return TrainingRun(
        prog,
        trials,
        created,
        len(removed),
        prog.n_rules(),
        games,
        rops,
        converged,
        reports,
        removed,
        float(np.mean(recent)) if recent else float("nan"),
    )


# ----------------------------------------------------------------------------- agreement tests


@dataclass(frozen=True)
class AgreementTest:
    """One agreement test (Tables 5-1, 5-2): the fraction of the program's decisions its judge accepts, and
    the fraction decided by a learned rule rather than the random rule at the bottom of the list (the
    "caught the symbolic subvector" of §5.4), over ``n`` decisions."""

    agreement: float
    coverage: float
    n: int


def agreement_explicit(
    prog: RuleSet,
    seed: int,
    n: int = 50,
    opponent: Player | None = None,
    trainer: RuleSet | None = None,
    spec: AgreementSpec = AgreementSpec(),
) -> AgreementTest:
    """Table 5-1: the fraction of ``n`` consecutive decisions of ``prog`` (playing ``opponent`` from
    random hands) that its trainer accepts."""
    opponent = opponent or experienced()
    tp = program_player(trainer or built_in(), "trainer")
    pl = program_player(prog, random_mode=spec.random_mode)
    table = Table(seed, 1, spec.corr_mode)
    agree = total = learned = 0
    while total < n:
        table.new_round()
        while not table.done and total < n:
            if table.st[PHASE] == REPLACE:
                table.replace_all()
                continue
            seat = int(table.st[TO_MOVE])
            if seat == 1:
                k, a, *_ = table.move(opponent, 1)
                table.apply(k, a)
                continue
            kind, amt, _, _, rnd = table.move(pl, 0)
            _, _, lap = table.beta(0, 0)
            _, _, tcls, _, _ = table.move(tp, 0)
            agree += acceptable(kind, amt, tcls, lap)
            learned += not rnd
            total += 1
            table.apply(kind, amt)
    return AgreementTest(agree / n, learned / n, n)


def agreement_implicit(
    prog: RuleSet,
    seed: int,
    n: int = 50,
    opponent: Player | None = None,
    spec: AgreementSpec = AgreementSpec(),
) -> AgreementTest:
    """Table 5-2: the fraction of ``n`` consecutive post-draw decisions of ``prog`` whose class is among
    those deduced from the axioms (the opponent's hand known to the referee); fewer than ``n`` (NaN if
    none) when the program reaches no post-draw decision in ``200·n`` r-o-ps."""
    opponent = opponent or experienced()
    table = Table(seed, 1, spec.corr_mode)
    agree = total = learned = 0
    st = table.st
    while total < n and table.rop < 200 * n:  # a program that always drops before the draw never gets there
        table.new_round()
        ctxs: list[Context] = []
        _play_implicit_round(table, prog, opponent, False, ctxs, spec.random_mode)
        ctxs = [c for c in ctxs if c.post]
        own = st[HAND : HAND + 5]
        opp = st[HAND + 8 : HAND + 13]
        for c in ctxs:
            if total >= n:
                break
            ok = deduced_classes(c, int(hand_rank(own)), int(hand_rank(opp)), int(vdhand(opp)), spec.notprev)
            agree += c.cls in ok
            learned += not c.random
            total += 1
    if not total:
        return AgreementTest(float("nan"), float("nan"), 0)
    return AgreementTest(agree / total, learned / total, total)
