"""Training TD(λ) networks on tic-tac-toe as App. B.1 ``main.cc`` + B.8 ``TDNeuralPolicy`` + B.9 ``TDSuttonNet``
run them (Powell (2000) §6.5–6.6): the game loops (protocols with opponents) around the learning step of
:mod:`tdbook.learners.tictactoe_net`.

**The thesis mode** (no fixes) keeps the listing's behaviour:

- *one network and one set of traces* for both players in self-play (``main.cc`` creates a single
  global ``TDSuttonNet`` for every ``n`` policy), each policy keeping its own previous output
  ``myCurrent``;
- *the empty-board reset*: every game starts with ``reset()``, which zeroes the traces, feeds the
  all-zero input (bias only) forward and loads its gradient into the traces, and sets ``myCurrent`` to
  that output — so each player's first TD error is measured against the zero input;
- ``learn`` after every own move (:func:`tdbook.learners.tictactoe_net.net_learn`);
- *the terminal target includes γ·V(final board)*: at the end of a game ``next`` is the final board
  (encoded with the learner's own turn unit) and ``r`` the outcome reward, but ``V(next)`` is still
  added; the player who did not make the last move learns once more from the same board;
- the score of a move that ends the game is the net's value of the final board;
- App. B.9's derivative ``2y(1−y)`` for v3.0; ε = 1/20 exploration always (``myLearning`` never
  becomes false); α = 0.05 input→hidden, β = 0.1 hidden→output, λ = 0.5, γ = 1, 8 hidden units,
  weights U[−0.1, 0.1], bias units 1.0.

Against a fixed opponent (the thesis's "trained against TD(λ)" and "Random" rows) the net plays one
side and an App. B.6/B.7 player the other (:class:`Opponent`); a TD(λ) table opponent keeps learning
with the same α and λ (``main.cc`` passes one global α and λ to every policy) unless told otherwise.
Beyond the thesis, :func:`play_and_learn_negamax` trains by self-play with a one-ply negamax target.

The module is long but one thing: the two jitted game loops take the whole training state as ~30 plain
arrays each (numba kernels hold no Python objects), and :func:`train` is their single Python entry point.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any, NamedTuple

import numpy as np
from numba import njit
from tqdm.auto import tqdm

from ...core.rng import make_state, randint, uniform
from ...games.tictactoe import DRAW, ONGOING, POW3, STATUS, X_WINS, O, X, positions_to_move, to_move
from ...learners.td_net import TDNet, start_episode, td_step, update_and_decay
from ...learners.tictactoe_net import (
    DRAW_ROW,
    FIRST_MOVE_START,
    FIXES,
    IMMEDIATE_WIN,
    LOSS,
    N_INPUTS,
    SCORES,
    SEPARATE_TRACES,
    WIN,
    LearningNet,
    NetDesign,
    Scratch,
    _pos_int,
    _unit,
    check_encoding,
    check_version,
    encode_after,
    flags_of,
    max_abs,
    mode_name,
    net_learn,
    new_net,
)
from ...learners.tictactoe_table import empty_table
from ...learners.tictactoe_table import learn as table_learn
from ...players.tictactoe import KIND_RANDOM, KIND_TABLE, Player, choose
from ...players.tictactoe_net import NetPlayer, best_after, net_move, random_square


class OpponentPolicy(NamedTuple):
    """The App. B.6/B.7 policy on the side the net does not play (:func:`tdbook.players.tictactoe.choose`'s
    kind, after-state table, rule, ε, draw value) and whether it learns by App. B.7."""

    kind: int
    table: np.ndarray
    rule: int
    eps: float
    draw: float
    learn: bool


class Record(NamedTuple):
    """What a training run writes: outcome ``counts`` (X wins, O wins, draws); every ``log_every`` games
    the counts to ``log`` and the window's (mean output, share of δ < 0, max |w|) to ``flog``, from
    ``acc`` = (steps, Σ new output, negative δ); ``nonfinite[0]`` = the first game after which a weight
    is not finite (−1 while none)."""

    counts: np.ndarray
    log: np.ndarray
    flog: np.ndarray
    log_every: int
    acc: np.ndarray
    nonfinite: np.ndarray


@njit(cache=True)
def _game_over(r, W1, W2, rec, log_pos) -> int:
    """Count the outcome ``r``, note the first game with a non-finite weight, and every ``rec.log_every``
    games write the counts and the window's (mean output, share of δ < 0, max |w|) to the log (:class:`Record`)."""
    counts, acc = rec.counts, rec.acc
    counts[0 if r == X_WINS else 2 if r == DRAW else 1] += 1
    played = counts[0] + counts[1] + counts[2]
    if rec.nonfinite[0] < 0 and not math.isfinite(max_abs(W1, W2)):
        rec.nonfinite[0] = played
    if rec.log_every > 0 and played % rec.log_every == 0 and log_pos < rec.log.shape[0]:
        rec.log[log_pos, :] = counts
        rec.flog[log_pos, 0] = acc[1] / max(acc[0], 1.0)
        rec.flog[log_pos, 1] = acc[2] / max(acc[0], 1.0)
        rec.flog[log_pos, 2] = max_abs(W1, W2)
        acc[:] = 0.0
        log_pos += 1
    return log_pos


@njit(cache=True)
def play_and_learn(n_games, net, score, epsilon, net_side, opp, st, rec, log_pos) -> int:
    """Play ``n_games`` App. B.1 games, side 0 = X, side 1 = O; the net (:class:`LearningNet`) plays the
    sides with ``net_side[i]`` and learns; the other side is the :class:`OpponentPolicy` ``opp``, which learns
    by App. B.7 when ``opp.learn``.  Outcomes and the log go to the :class:`Record` ``rec`` from row
    ``log_pos`` on.  Returns the new ``log_pos``."""
    W1, W2, u, flags = net.W1, net.W2, net.units, net.flags
    n_out = W2.shape[1]
    idx = np.empty(10, dtype=np.int64)
    val = np.empty(10)
    h = np.empty(W1.shape[1])
    o = np.empty(n_out)
    sc = Scratch(idx, val, h, o, np.empty(n_out), np.empty(n_out), rec.acc)
    cur = np.zeros((2, n_out))
    has = np.zeros(2, dtype=np.bool_)
    moves = np.zeros(5, dtype=np.int64)  # the table opponent's after-states and traces (App. B.7)
    E = np.zeros(5)
    for _ in range(n_games):
        for p in range(2):
            has[p] = False
        if (flags & FIRST_MOVE_START) == 0:  # reset(): zero traces, evaluate the zero input, load its gradient
            for p in range(2):
                if net_side[p]:
                    t = 0 if (flags & SEPARATE_TRACES) == 0 else p
                    start_episode(W1, W2, net.eW1[t], net.eW2[t], idx, val, 0, u, h, o)
                    for k in range(n_out):
                        cur[p, k] = o[k]
                    has[p] = True
        nm = 0
        tcur = -1
        code = 0
        side = 0
        while True:
            piece = X if side == 0 else O
            if net_side[side]:
                s = net_move(net, score, (flags & IMMEDIATE_WIN) != 0, epsilon, code, st, idx, val, h, o)
            else:
                s = choose(opp.kind, opp.table, opp.rule, opp.eps, opp.draw, code, st)
            code = code + piece * POW3[s]
            r = STATUS[code]
            if net_side[side]:
                row = -1 if r == ONGOING else (DRAW_ROW if r == DRAW else WIN)
                net_learn(side, code, piece, row, has, cur, net, sc)
            elif opp.kind == KIND_TABLE:
                moves[nm] = code
                E[nm] = 0.0
                nm += 1
                if opp.learn:
                    rew = 0.0
                    if r == DRAW:
                        rew = opp.draw
                    elif r != ONGOING:
                        rew = 1.0
                    table_learn(opp.table, moves, E, nm, tcur, code, rew, net.alpha, net.lam, net.gamma)
                tcur = code
            if r != ONGOING:
                break
            side = 1 - side
        other = 1 - side  # main.cc: the side that did not move last learns the outcome too
        if net_side[other]:
            net_learn(other, code, X if other == 0 else O, DRAW_ROW if r == DRAW else LOSS, has, cur, net, sc)
        elif opp.kind == KIND_TABLE and opp.learn:
            rew = opp.draw if r == DRAW else -1.0
            table_learn(opp.table, moves, E, nm, tcur, code, rew, net.alpha, net.lam, net.gamma)
        log_pos = _game_over(r, W1, W2, rec, log_pos)
    return log_pos


@njit(cache=True)
def play_and_learn_negamax(n_games, net, epsilon, starts, p_start, st, rec, log_pos) -> int:
    """Self-play TD(λ) with a one-ply *negamax* target (beyond the thesis; Watkins-style traces).

    One chain of plies, one net (:class:`LearningNet`, traces ``eW1[0]``/``eW2[0]``) valuing each
    after-state for the side that just moved (an
    encoding from the mover's point of view; rewards win ``w``, draw 0, loss ``−w``).  When the side
    to move at after-state ``a_t`` has scored its replies (it does so to choose), their best score
    ``m`` gives ``a_t`` the target ``−m`` — the value of ``a_t`` if the opponent replies greedily,
    whatever it then actually plays — so exploration does not bias the values:
    ``δ_t = −m − V(a_t)``.  Traces live in the frame of the latest mover, so they change sign
    from ply to ply: ``e ← −γλ e + ∇V(a_{t+1})`` (``td_step`` with decay ``−γλ``), and are cut
    (decay 0) after an exploratory move, as in Watkins's Q(λ).  A move that ends the game is
    scored by its reward and its after-state learns ``δ = r − V(a_T)``.  With probability ``p_start`` a
    game starts from a position drawn uniformly from ``starts`` instead of the empty board
    ("exploring starts").  Logging as :func:`play_and_learn`."""
    W1, W2, eW1, eW2, u, enc, rewards, acc = (
        net.W1,
        net.W2,
        net.eW1[0],
        net.eW2[0],
        net.units,
        net.enc,
        net.rewards,
        rec.acc,
    )
    n_out = W2.shape[1]
    idx = np.empty(10, dtype=np.int64)
    val = np.empty(10)
    h = np.empty(W1.shape[1])
    o = np.empty(n_out)
    delta = np.empty(n_out)
    cur = 0.0
    for _ in range(n_games):
        code = 0
        if p_start > 0.0 and uniform(st) < p_start:
            code = starts[randint(st, starts.shape[0])]
        side = 0 if to_move(code) == X else 1
        first = True
        while True:
            piece = X if side == 0 else O
            s, m = best_after(W1, W2, u.bias, u.hact, u.oact, enc, 0, True, rewards, code, idx, val, h, o)
            explore = epsilon > 0.0 and uniform(st) < epsilon
            if explore or s < 0:
                s2 = random_square(code, st)
                explore = s2 != s
                s = s2
            code = code + piece * POW3[s]
            r = STATUS[code]
            nnz = encode_after(code, piece, enc, idx, val)
            if first:
                start_episode(W1, W2, eW1, eW2, idx, val, nnz, u, h, o)
                first = False
            else:
                delta[0] = -m - cur
                decay = 0.0 if explore else -net.gamma * net.lam
                td_step(W1, W2, eW1, eW2, delta, idx, val, nnz, net.alpha, net.beta, decay, u, h, o)
                acc[0] += 1.0
                acc[1] += o[0]
                if delta[0] < 0.0:
                    acc[2] += 1.0
            cur = o[0]
            if r != ONGOING:
                delta[0] = (rewards[DRAW_ROW, 0] if r == DRAW else rewards[WIN, 0]) - cur
                update_and_decay(W1, W2, eW1, eW2, delta, net.alpha, net.beta, 0.0)
                break
            side = 1 - side
        log_pos = _game_over(r, W1, W2, rec, log_pos)
    return log_pos


# ----------------------------------------------------------------------------- Python side

#: the columns of :attr:`NetRun.flog`
FLOG_COLUMNS = ("mean output", "negative TD errors", "max |w|")


@dataclass
class NetRun:
    """A training run: the trained net (as a :class:`NetPlayer`), its log and its settings."""

    player: NetPlayer
    log: np.ndarray  # (logs, 3) cumulative X wins, O wins, draws
    flog: np.ndarray  # (logs, 3) per window: FLOG_COLUMNS
    log_every: int
    nonfinite_game: int | None  # first game after which some weight was NaN/inf
    params: dict = field(default_factory=dict)
    opponent_table: np.ndarray | None = None  # the table opponent after training (it may learn too)

    @property
    def net(self) -> TDNet:
        return self.player.net

    @property
    def games(self) -> int:
        return int(self.log[-1].sum()) if len(self.log) else 0

    def games_axis(self) -> np.ndarray:
        return np.arange(1, len(self.log) + 1) * self.log_every

    def cumulative_percent(self) -> np.ndarray:
        """(logs, 3) % of X wins, O wins, draws since the start — what ``main.cc`` printed every 1,000 games."""
        return 100.0 * self.log / np.maximum(self.log.sum(axis=1, keepdims=True), 1)

    def window_percent(self) -> np.ndarray:
        """(logs, 3) % of X wins, O wins, draws within each ``log_every``-game window."""
        return 100.0 * np.diff(self.log, axis=0, prepend=0) / self.log_every

    def final_percent(self, last: int | None = None) -> np.ndarray:
        """(X wins, O wins, draws) % over the last ``last`` games (all games when None)."""
        if last is None or last >= self.games:
            return self.cumulative_percent()[-1]
        k = max(1, last // self.log_every)
        d = self.log[-1] - (self.log[-1 - k] if len(self.log) > k else 0)
        return 100.0 * d / max(d.sum(), 1)


@dataclass(frozen=True)
class Opponent:
    """The fixed opponent of a net that plays one side (App. B.1 with one TD net policy): ``player`` (an
    App. B.6/B.7 :class:`~tdbook.players.tictactoe.Player`; a table player's table is copied), the side
    the *net* plays, and whether a table opponent ``learns`` on with the run's α and λ (``main.cc``)."""

    player: Player
    net_side: str = "X"
    learns: bool = True

    def __post_init__(self) -> None:
        if not isinstance(self.player, Player):
            raise ValueError(
                f"opponent must be a tictactoe Player (random/perfect/table), got {type(self.player).__name__}"
            )
        if self.net_side not in ("X", "O"):
            raise ValueError(f"net_side must be 'X' or 'O', got {self.net_side!r}")


@dataclass(frozen=True)
class Training:
    """One training run of a TDNN: the net's ``design``, ``games`` games with exploration ``epsilon``,
    the version's rewards unless ``rewards`` ((win, draw, loss) rows, one value per output) says
    otherwise, the ``target`` (``"own"`` — App. B.8's, each player's after-state learns from its own next
    one; ``"negamax"`` — beyond the thesis, self-play with a one-ply greedy target,
    :func:`play_and_learn_negamax`, which needs one output rewarded win = −loss, draw 0, and every fix),
    ``exploring_starts`` (negamax only: the share of games that start from a uniformly drawn reachable
    position), ``alpha_final`` (anneal both step sizes geometrically to ``alpha_final / alpha`` times their
    start, per ``log_every`` games; None = constant), the ``seed`` (stream 0 initialises the weights,
    stream 1 plays), a log line every ``log_every`` games, and whether a run whose weights become NaN or
    infinite is kept (``allow_nonfinite``, the listing's behaviour, to show v3.0 diverging) or refused."""

    design: NetDesign = NetDesign()
    games: int = 500_000
    epsilon: float = 0.05
    rewards: tuple[tuple[float, ...], ...] | None = None
    target: str = "own"
    exploring_starts: float = 0.0
    alpha_final: float | None = None
    seed: int = 0
    log_every: int = 1000
    allow_nonfinite: bool = False

    def __post_init__(self) -> None:
        if not isinstance(self.design, NetDesign):
            raise ValueError(f"design must be a NetDesign, got {type(self.design).__name__}")
        _pos_int("games", self.games)
        _pos_int("log_every", self.log_every)
        _unit("epsilon", self.epsilon)
        if self.target not in ("own", "negamax"):
            raise ValueError(f"target must be 'own' or 'negamax', got {self.target!r}")
        _unit("exploring_starts", self.exploring_starts)

    def but(self, **changes: Any) -> Training:
        """A copy with some settings changed (``design`` settings by name too, e.g. ``hidden=80``)."""
        design_keys = {f for f in NetDesign.__dataclass_fields__}
        d = {k: v for k, v in changes.items() if k in design_keys}
        t = {k: v for k, v in changes.items() if k not in design_keys}
        return replace(self, design=replace(self.design, **d), **t) if d else replace(self, **t)


def train(
    spec: Training,
    *,
    net: TDNet | None = None,
    opponent: Opponent | None = None,
    callback: Callable[[int, NetPlayer], Any] | None = None,
    callback_every: int = 0,
    progress: bool = True,
    desc: str = "",
    state: dict[str, np.ndarray] | None = None,
    on_checkpoint: Callable[[dict[str, np.ndarray]], Any] | None = None,
    checkpoint_every: int = 0,
) -> NetRun:
    """Train a TDNN as ``spec`` says: self-play when ``opponent`` is None, else the net plays
    ``opponent.net_side`` against ``opponent.player``.  ``net`` continues training an existing net (its
    shape must fit); the net's own settings are used, and hyper-parameters the design sets must agree with
    them (ValueError otherwise).  A run whose weights become NaN or infinite raises ValueError (and leaves a
    given ``net`` as it was) unless ``spec.allow_nonfinite``: then the run goes on, the net plays at random,
    and :attr:`NetRun.nonfinite_game` says when.  ``callback(games_so_far, player)`` is called every
    ``callback_every`` games (a multiple of ``spec.log_every``) with the net as it is then (evaluate it at
    once: the weights keep changing); a callback that raises leaves ``net`` as it was.  Same spec and seed
    ⇒ identical weights.

    Checkpoints: every ``checkpoint_every`` games (a multiple of ``spec.log_every``) and at the end,
    ``on_checkpoint(state)`` gets the whole state of the run (weights, traces, random stream, counts, logs,
    games done) as arrays; ``state`` — such a dict — continues the run from there, to the same weights as a
    run never stopped (every kernel keeps its state in these arrays, so where a run is cut changes nothing)."""
    if not isinstance(spec, Training):
        raise ValueError(f"spec must be a Training, got {type(spec).__name__}")
    design = spec.design
    v = check_version(design.version)
    fx = design.fixes
    games, log_every, epsilon, seed = int(spec.games), int(spec.log_every), float(spec.epsilon), spec.seed
    target, alpha_final, allow_nonfinite = spec.target, spec.alpha_final, spec.allow_nonfinite
    if net is None:
        net = new_net(design, seed)
    elif isinstance(net, TDNet):
        own = dict(
            hidden=net.n_hidden,
            alpha=net.alpha,
            beta=net.beta,
            gamma=net.gamma,
            lam=net.lam,
            init=net.init,
            activation=net.hidden,
            output=net.output,
        )
        given = design.hyper_parameters()
        clash = [f"{k}={given[k]!r} (the net has {own[k]!r})" for k in given if given[k] != own[k]]
        if clash:
            raise ValueError(
                "train(net=...) continues the given net with its own settings; these arguments "
                "conflict with it: " + ", ".join(clash)
            )
    enc_name = design.encoding_name
    if not isinstance(net, TDNet) or net.n_in != N_INPUTS[enc_name] or net.n_out != v.n_out:
        raise ValueError(
            f"net must be a TDNet with {N_INPUTS[enc_name]} inputs and {v.n_out} outputs for "
            f"{design.version} on the {enc_name!r} encoding"
        )
    net.check_finite()
    saved = (net.W1.copy(), net.W2.copy())
    R = v.reward_array() if spec.rewards is None else np.asarray(spec.rewards, dtype=np.float64)
    if R.shape != (3, v.n_out) or not np.all(np.isfinite(R)):
        raise ValueError(f"rewards must be finite with shape (3, {v.n_out}) (win, draw, loss), got {R.shape}")
    if target == "negamax":
        if opponent is not None:
            raise ValueError("the negamax target is for self-play (opponent=None)")
        if v.n_out != 1 or R[WIN, 0] != -R[LOSS, 0] or R[DRAW_ROW, 0] != 0.0 or v.score != "first":
            raise ValueError(
                f"the negamax target needs one output valued win = −loss, draw = 0; {design.version} has rewards "
                f"{R.tolist()}"
            )
        if set(fx) != set(FIXES):
            raise ValueError("the negamax target is a variant of the fixed learner: use fixes='fixed'")
    p_start = float(spec.exploring_starts)
    a0, b0 = net.alpha, net.beta
    ratio = 1.0 if alpha_final is None else _unit("alpha_final", alpha_final, True, 10.0) / a0
    if p_start > 0 and target != "negamax":
        raise ValueError("exploring_starts needs target='negamax'")
    starts = np.concatenate([positions_to_move(X), positions_to_move(O)]).astype(np.int64)
    if opponent is None:
        sides = np.array([True, True])
        okind, otable, orule, oeps, odraw, olearn = KIND_RANDOM, empty_table(), 0, 0.0, 0.0, False
    else:
        if not isinstance(opponent, Opponent):
            raise ValueError(f"opponent must be an Opponent, got {type(opponent).__name__}")
        pl, net_side = opponent.player, opponent.net_side
        sides = np.array([net_side == "X", net_side == "O"])
        okind, otable, orule, oeps, odraw = pl.kind, pl.table.copy(), pl.rule, pl.epsilon, pl.draw_value
        olearn = bool(opponent.learns) and okind == KIND_TABLE
    flags = flags_of(fx)
    policy = OpponentPolicy(int(okind), otable, int(orule), float(oeps), float(odraw), bool(olearn))
    score = SCORES[v.score]
    eW1 = np.zeros((2,) + net.eW1.shape)
    eW2 = np.zeros((2,) + net.eW2.shape)
    st = net_state(seed)
    counts = np.zeros(3, dtype=np.int64)
    n_logs = games // log_every
    log = np.zeros((n_logs, 3), dtype=np.int64)
    flog = np.zeros((n_logs, 3))
    acc = np.zeros(3)
    nonfinite = np.array([-1], dtype=np.int64)
    record = Record(counts, log, flog, log_every, acc, nonfinite)
    block = max(log_every, (50_000 // log_every) * log_every)
    if callback is not None:
        callback_every = _pos_int("callback_every", callback_every)
        if callback_every % log_every:
            raise ValueError(f"callback_every ({callback_every}) must be a multiple of log_every ({log_every})")
    if on_checkpoint is not None:
        checkpoint_every = _pos_int("checkpoint_every", checkpoint_every)
        if checkpoint_every % log_every:
            raise ValueError(f"checkpoint_every ({checkpoint_every}) must be a multiple of log_every ({log_every})")
    immediate = "immediate_win" in fx
    pos, done = 0, 0
    if state is not None:
        arrays = dict(W1=net.W1, W2=net.W2, eW1=eW1, eW2=eW2, st=st, counts=counts, log=log, flog=flog, acc=acc)
        for k, a in (*arrays.items(), ("nonfinite", nonfinite)):
            if k not in state or np.shape(state[k]) != a.shape:
                raise ValueError(f"the saved state of the run has no {k} of shape {a.shape}")
            a[...] = state[k]
        pos, done = int(state["pos"]), int(state["done"])
        if not 0 <= done <= games or (done % log_every and done != games):  # a finished run ends off the grid
            raise ValueError(f"the saved state has {done:,} games done; this run plays {games:,}")

    def snapshot() -> dict[str, np.ndarray]:
        return dict(
            W1=net.W1, W2=net.W2, eW1=eW1, eW2=eW2, st=st, counts=counts, log=log, flog=flog, acc=acc,
            nonfinite=nonfinite, pos=np.array(pos), done=np.array(done),
        )  # fmt: skip

    with tqdm(
        total=games,
        initial=done,
        desc=desc or f"TDNN {design.version} ({mode_name(fx)})",
        unit="game",
        disable=not progress,
        leave=False,
    ) as bar:
        while done < games:
            n = min(block, games - done)
            if callback is not None:
                n = min(n, callback_every - done % callback_every)
            if on_checkpoint is not None:
                n = min(n, checkpoint_every - done % checkpoint_every)
            if ratio != 1.0:  # annealed step sizes: a new value every log_every games
                n = min(n, log_every)
                net.alpha, net.beta = a0 * ratio ** (done / games), b0 * ratio ** (done / games)
            lnet = LearningNet(
                net.W1, net.W2, eW1, eW2, net.alpha, net.beta, net.gamma, net.lam, net.units,
                check_encoding(enc_name), R, flags,
            )  # fmt: skip
            if target == "negamax":
                pos = play_and_learn_negamax(n, lnet, epsilon, starts, p_start, st, record, pos)
            else:
                pos = play_and_learn(n, lnet, score, epsilon, sides, policy, st, record, pos)
            done += n
            bar.update(n)
            if callback is not None and (done % callback_every == 0 or done == games):
                try:
                    callback(
                        done, NetPlayer(net, design.version, enc_name, immediate_win=immediate, rewards=R, seed=seed)
                    )
                except BaseException:  # a failing callback leaves the net as it was before train()
                    net.W1[:], net.W2[:] = saved
                    net.alpha, net.beta = a0, b0
                    raise
            if on_checkpoint is not None and (done % checkpoint_every == 0 or done == games):
                on_checkpoint(snapshot())
    net.alpha, net.beta = a0, b0
    if nonfinite[0] >= 0 and not allow_nonfinite:
        net.W1[:], net.W2[:] = saved
        raise ValueError(
            f"training diverged: the weights became non-finite at game {int(nonfinite[0]):,} "
            f"({design.version}, {mode_name(fx)}); pass allow_nonfinite=True to keep the diverged net"
        )
    player = NetPlayer(net, design.version, enc_name, immediate_win=immediate, rewards=R, seed=seed)
    params = dict(
        version=design.version,
        fixes=list(fx),
        mode=mode_name(fx),
        games=games,
        hidden=net.n_hidden,
        alpha=net.alpha,
        beta=net.beta,
        gamma=net.gamma,
        lam=net.lam,
        epsilon=epsilon,
        init=net.init,
        activation=net.hidden,
        output=net.output,
        derivative=net.derivative,
        encoding=enc_name,
        seed=seed,
        opponent="self" if opponent is None else opponent.player.name,
        net_side="both" if opponent is None else opponent.net_side,
        opponent_learns=bool(olearn),
        target=target,
        exploring_starts=p_start,
        alpha_final=None if alpha_final is None else float(alpha_final),
    )
    return NetRun(
        player,
        log[:pos],
        flog[:pos],
        log_every,
        None if nonfinite[0] < 0 else int(nonfinite[0]),
        params,
        None if opponent is None or okind != KIND_TABLE else otable,
    )


def net_state(seed: int) -> np.ndarray:
    """The random stream of a training run (stream 1 of ``seed``; stream 0 initialises the weights)."""
    return make_state(seed, 1)
