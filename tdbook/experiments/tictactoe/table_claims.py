"""The measured values of notebook 06's claims (Powell (2000) §6–6.2, Table 6.1, App. D).

Each ``*_checks`` function turns the notebook's runs (:mod:`tdbook.experiments.tictactoe.tictactoe_td_table`) into
``{claim id: keyword arguments of results.check}`` — our value and the note with its measured context; the
printed values, tolerances and sources are in ``tdbook/claims/powell2000.toml``.  The ``*_table`` functions
give the small tables the notebook shows beside them, section by section in the notebook's order.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ...games.tictactoe import (
    N_CODES,
    OPTIMAL,
    STATUS,
    STATUS_NAMES,
    VALUE,
    O,
    X,
    after_states,
    board_string,
    canonical,
    parse_board,
    place,
    reachable_codes,
    render,
    squares_mask,
)
from ...learners.tictactoe_table import empty_table
from ...players.tictactoe import RULE_FLAGS, exact_outcomes, perfect_player, random_player, table_player
from ...results import Prediction, Spread, Table
from .table_evaluation import (
    CENTRE,
    CORNERS,
    EDGES,
    Fig68,
    corner_answers,
    evaluate,
    fig68,
    sure_draw_after_states,
    value_stats,
    zero_share,
)
from .tictactoe_td_table import (
    ABLATION_METRICS,
    ALPHA_FIGURES,
    APPENDIX_D_SQUARES,
    AblationRow,
    SelfPlay,
    Side,
    Summary,
    Table61Row,
    TeacherRun,
    chatter,
    plateau_game,
    printed,
    run_seed,
    table61_printed,
    window_win_curves,
)

#: ``{claim id: keyword arguments of results.check}``
Checks = dict[str, dict[str, Any]]


#: "made little difference" (§6.2 p. 62) read as a band of ±3 percentage points around the 1.5 M-game runs.
LITTLE = 3.0


def single_run(values: np.ndarray) -> Any:
    """Our runs of a quantity the thesis prints from *one* run (CONTRIBUTING, 'Tolerances'): the prediction interval
    of one more run, t·s·√(1 + 1/n) around their mean — per cell for a row of cells (runs × cells), so each cell is
    held to its own spread; with a single run, its plain value."""
    v = np.asarray(values, dtype=float)
    if len(v) < 2:
        return [float(x) for x in v[0]] if v.ndim == 2 else float(v[0])
    return Prediction.each(v) if v.ndim == 2 else Prediction.of(v)


def half_widths(values: np.ndarray) -> np.ndarray:
    """Half the width of :func:`single_run`'s interval of each column of ``values`` (runs × cells); 0 for one run."""
    v = np.asarray(values, dtype=float)
    return np.array([p.half for p in Prediction.each(v)]) if len(v) > 1 else np.zeros(v.shape[1])


# ----------------------------------------------------------------------------- §6: the game


def position_counts() -> dict[str, int]:
    """Reachable positions by status (ongoing, X wins, O wins, draw)."""
    reach = reachable_codes()
    return {name: int((STATUS[reach] == k).sum()) for k, name in enumerate(STATUS_NAMES)}


def state_counts() -> dict[str, int]:
    """Every count of tic-tac-toe's states (§6, §6.7): positions reachable in legal play (empty board
    included), the non-terminal ones, each side's after-states (a table player's keys) and their non-terminal
    ones, and the reachable positions up to the board's 8 symmetries."""
    reach = reachable_codes()
    return {
        "reachable positions": int(reach.size),
        "non-terminal positions": int((STATUS[reach] == 0).sum()),
        "X after-states": int(len(after_states(X))),
        "O after-states": int(len(after_states(O))),
        "non-terminal X after-states": int(len(after_states(X, False))),
        "non-terminal O after-states": int(len(after_states(O, False))),
        "positions up to symmetry": len({canonical(int(c)) for c in reach}),
    }


def game_checks() -> Checks:
    """§6: the state bound, the viable states, the value of the game and the corner-then-centre rule."""
    counts = state_counts()
    corner_centre = all(squares_mask(OPTIMAL[place(0, c, X)]) == [4] for c in CORNERS)
    return {
        "state-bound": dict(ours=N_CODES),
        "viable-states": dict(
            ours=counts["reachable positions"],
            note=f"every position that can arise in a game (empty board included; {position_counts()}); the only "
            f"count near 3,000 is one side's after-states — a table player's keys: X {counts['X after-states']}, "
            f"O {counts['O after-states']} (state-counts lists them all)",
        ),
        "state-counts": dict(ours=list(counts.values()), note="; ".join(f"{k} {v:,}" for k, v in counts.items())),
        "empty-board-is-a-draw": dict(ours=int(VALUE[0])),
        "corner-then-centre": dict(ours=corner_centre),
    }


def setting_checks(cfg: Any) -> Checks:
    """The numbers §6.1–6.2 state that our runs take as input (``setting`` claims: shown with their source,
    never counted as reproductions)."""
    return {
        "exploration-1-in-20": dict(ours=cfg.EPSILON),
        "alphas": dict(ours=[float(a) for a in cfg.ALPHAS]),
        "lambda-and-draw-reward": dict(ours=[cfg.LAMBDA, Side().draw]),
        "training-schedule": dict(ours=[cfg.GAMES, cfg.CHUNK]),
        "fig6.5-draw-rewards": dict(
            ours=len(cfg.DRAW_REWARDS), note=f"draw rewards {[float(d) for d in cfg.DRAW_REWARDS]}"
        ),
        "fig6.6-lambdas": dict(ours=[float(min(cfg.LAMBDAS)), float(max(cfg.LAMBDAS))], note=f"λ: {cfg.LAMBDAS}"),
        "table6.1-training": dict(ours=[cfg.TABLE61_GAMES, *(float(v) for v in cfg.TABLE61_LAMBDAS)]),
    }


def position_table() -> Table:
    counts = position_counts()
    return Table(["", "positions"], [[k, v] for k, v in counts.items()] + [["all reachable", reachable_codes().size]])


def rule_demo() -> str:
    """App. B.7's move rule on a hand-made position (O to move, O wins on square 5, X threatens square 2),
    with the block known and valued −0.4: which square each reading plays."""
    pos = parse_board("XXB OOB XBB")
    demo = empty_table()
    demo[parse_board("XXO OOB XBB")] = -0.4  # the block: known, and bad
    return (
        f"{render(pos)}\nthesis rule plays {table_player(demo).move(pos)} | corrected rule plays "
        f"{table_player(demo, 'corrected').move(pos)}"
    )


# ----------------------------------------------------------------------------- Figs 6.2–6.4


def _crossovers(s: Summary, extra: np.ndarray) -> np.ndarray:
    return np.concatenate([s.crossovers(), extra])


def alpha_checks(alpha: dict[float, Summary], cross: dict[float, np.ndarray]) -> Checks:
    """Figs 6.2–6.4: final win/draw/loss, states stored and the crossover game, per printed α."""
    out: Checks = {}
    for a, s in alpha.items():
        n = ALPHA_FIGURES.get(a)
        if n is None:
            continue
        wdl, st, cx = s.wdl(), s.states(), _crossovers(s, cross[a])
        out[f"fig{n}-wdl"] = dict(
            ours=single_run(wdl),
            note=f"O win/draw/loss % over the last 500k-game run; {len(s.runs)} runs, s.d. "
            f"{np.round(wdl.std(0, ddof=1) if len(s.runs) > 1 else np.zeros(3), 2).tolist()}; each printed cell is "
            "judged against the prediction interval of one more run of ours",
        )
        out[f"fig{n}-states"] = dict(
            ours=single_run(st), note=f"non-zero table entries after 1.5 M games; runs: {st.astype(int).tolist()}"
        )
        # (no run crossed within its first chunk, as in the quick profile's short chunks: NaN, so 'differs')
        fin = cx[np.isfinite(cx)]
        out[f"fig{n}-crossover"] = dict(
            ours=Spread.of(fin, 0.9) if len(fin) > 1 else np.nan,
            note=f"games until O's cumulative wins stay ahead of X's (first run); ours: {len(fin)} runs' crossovers "
            f"(mean {np.nanmean(cx):,.0f}); reproduced iff the thesis's value lies in their central 90 %; "
            f"first {len(s.runs)} runs: {cx[: len(s.runs)].tolist()}",
        )
    return out


def alpha_table(alpha: dict[float, Summary], cross: dict[float, np.ndarray], cfg: Any) -> Table:
    rows = []
    for a, s in alpha.items():
        wdl, st, cx = s.wdl(), s.states(), _crossovers(s, cross[a])
        n = ALPHA_FIGURES.get(a)
        th = (
            [f"{v}" for v in printed(f"fig{n}-wdl")] + [printed(f"fig{n}-states"), f"{printed(f'fig{n}-crossover'):,}"]
            if n
            else [""] * 5
        )
        rows.append([f"{a:g}", *(f"{v:.1f}" for v in wdl.mean(0)), f"{st.mean():.0f}", f"{np.median(cx):,.0f}", *th])
    return Table(
        ["α", "win %", "draw %", "loss %", "states", "crossover (median)", "thesis W", "D", "L", "states", "crossover"],
        rows,
        caption=f"TD(λ) as O vs random X (mean of {cfg.REPLICATES} runs; crossover: median of "
        f"{cfg.REPLICATES + cfg.CROSSOVER_RUNS} runs)",
    )


def final_vs_thesis(alpha: dict[float, Summary]) -> tuple[list[str], np.ndarray, np.ndarray, np.ndarray]:
    """(labels, ours, half widths of the 95 % interval of one more run, thesis) of the final win/draw/loss per printed
    α (the figure's data; the intervals the claims judge each printed cell by)."""
    keep = [a for a in alpha if a in ALPHA_FIGURES]
    labels = [f"α={a:g}" for a in keep]
    ours = np.array([alpha[a].wdl().mean(0) for a in keep])
    tol = np.array([half_widths(alpha[a].wdl()) for a in keep])
    th = np.array([printed(f"fig{ALPHA_FIGURES[a]}-wdl") for a in keep])
    return labels, ours, tol, th


def fig62_checks(alpha: dict[float, Summary], cross: dict[float, np.ndarray], cfg: Any) -> Checks:
    """§6.2 p. 53–56 about the α runs: losses vs draws by the 500,000 mark, the plateau, and the α ranking."""
    a05, a10, a15 = alpha[0.05], alpha.get(0.10), alpha.get(0.15)
    r0 = a05.runs[0]
    cum500 = np.array([r.cumulative_percent()[0, -1] for r in a05.runs])  # end of the first run: X, O wins, draws
    last10k = np.array([r.window_percent()[0, -10:].mean(0) for r in a05.runs])  # its last 10,000 games
    out: Checks = {
        "fig6.2-fewer-losses-than-draws-by-500k-cumulative": dict(
            ours=bool(np.all(cum500[:, 0] < cum500[:, 2])),
            note=f"'by the 500,000 mark, it was losing fewer games than draw games', read on the counters main.cc "
            f"prints (cumulative over the first run): lost {cum500[:, 0].mean():.1f} %, drew "
            f"{cum500[:, 2].mean():.1f} % (mean of runs)",
        ),
        "fig6.2-fewer-losses-than-draws-by-500k-last-10k": dict(
            ours=[round(float(last10k[:, 0].mean()), 2), round(float(last10k[:, 2].mean()), 2)],
            note=f"[lost %, drew %] over the games 490,001–500,000 (mean of runs): the same sentence read on the "
            f"last 10,000 games before the mark; fewer losses than draws in every run: "
            f"{bool(np.all(last10k[:, 0] < last10k[:, 2]))}",
        ),
    }
    if r0.chunks > 1:
        k = max(1, 10_000 // r0.log_every)
        second = np.array([r.cumulative_percent()[1, k - 1] for r in a05.runs])  # the second run's, 10k games in
        out["fig6.2-fewer-losses-than-draws-by-500k-after-restart"] = dict(
            ours=[round(float(second[:, 0].mean()), 2), round(float(second[:, 2].mean()), 2)],
            note=f"[lost %, drew %] on the second program run's counters after its first {k * r0.log_every:,} games "
            f"(mean of runs): the same sentence read on what a plot of the printed counters shows just after the "
            f"500,000 mark, where the restart gives the 'boost'; fewer losses than draws in every run: "
            f"{bool(np.all(second[:, 0] < second[:, 2]))}",
        )
    upto = min(750_000, r0.games)
    for n, a, says in (
        ("6.2", 0.05, "'improve until approximately 550,000 iterations ... never bettered'"),
        ("6.3", 0.10, "'chattering some after it had leveled off at approximately 550,000 iterations'"),
    ):
        if a not in alpha:
            continue
        plateau = np.array([plateau_game(r, 1, upto) for r in alpha[a].runs], float)
        out[f"fig{n}-plateau"] = dict(
            ours=float(plateau.mean()),
            note=f"α={a:g}: first game after which O's win % since the run began stays within 0.5 points of its "
            f"value at game {upto:,} ({says}); runs: {plateau.astype(int).tolist()}",
        )
    if a10 is not None:
        lo, hi = round(550_000 * r0.games / 1_500_000), round(750_000 * r0.games / 1_500_000)
        window = max(r0.log_every, 10_000 * r0.games // 1_500_000)
        ch = {a: [chatter(r, 1, lo, hi, window) for r in alpha[a].runs] for a in (0.05, 0.10)}
        out["fig6.3-chatters-more-than-fig6.2"] = dict(
            ours=bool(np.mean(ch[0.10]) > np.mean(ch[0.05])),
            note=f"'a very continuous learning function with little chatter' (α=0.05) vs 'chattering some' "
            f"(α=0.10): s.d. of O's win % over {window:,}-game windows of games {lo + 1:,}–{hi:,}, mean of runs: "
            f"α=0.05 {np.mean(ch[0.05]):.2f}, α=0.10 {np.mean(ch[0.10]):.2f} points; runs "
            f"{np.round(ch[0.05], 2).tolist()} and {np.round(ch[0.10], 2).tolist()}",
        )
    if a10 is not None and a15 is not None:
        w = [alpha[a].wdl().mean(0)[0] for a in (0.05, 0.10, 0.15)]
        out["alpha-0.05-best-0.15-worst"] = dict(
            ours=bool(w[0] > w[1] > w[2]), note=f"O win % for α = 0.05, 0.10, 0.15: {np.round(w, 2).tolist()}"
        )
        stn = [alpha[a].states().mean() for a in (0.05, 0.10, 0.15)]
        out["alpha-0.15-most-states"] = dict(
            ours=bool(stn[2] == max(stn)), note=f"mean states stored: {np.round(stn, 1).tolist()}"
        )
        cx = [np.median(_crossovers(alpha[a], cross[a])) for a in (0.05, 0.10)]  # NaN if any never crossed
        out["alpha-0.10-crosses-first"] = dict(
            ours=bool(cx[1] < cx[0]),
            note=f"median crossover over {cfg.REPLICATES + cfg.CROSSOVER_RUNS} runs: α=0.05 {cx[0]:,.0f}, "
            f"α=0.10 {cx[1]:,.0f} games (the thesis: {printed('fig6.2-crossover'):,} and "
            f"{printed('fig6.3-crossover'):,})",
        )
    return out


# ----------------------------------------------------------------------------- Fig. 6.5, exploration, Fig. 6.6


def draw_checks(draws: dict[float, Summary]) -> Checks:
    """Fig. 6.5: a non-zero draw reward, and the sure-draw after-states that a zero one leaves unknown."""
    d0 = draws[0.0].wdl().mean(0)
    nonzero = {d: s.wdl().mean(0) for d, s in draws.items() if d != 0.0}
    every = sorted({0.0: d0, **nonzero}.items())
    sure = sure_draw_after_states()
    shares = {d: zero_share(s, sure) for d, s in sorted(draws.items())}
    return {
        "fig6.5-nonzero-draw-reward-plays-for-a-tie": dict(
            ours=all(v[1] > d0[1] and v[0] < d0[0] for v in nonzero.values()),
            note="every non-zero draw reward gives more draws and fewer wins than 0? win / draw % per reward: "
            + ", ".join(f"{d:+g}: {v[0]:.1f} / {v[1]:.1f}" for d, v in every),
        ),
        "fig6.5-sure-draws-stay-unknown": dict(
            ours=shares[0.0],
            note=f"share of O's {sure.size} sure-draw after-states still exactly 0 (never chosen by the thesis "
            "rule), per draw reward: " + ", ".join(f"{d:+g}: {v:.2f}" for d, v in shares.items()),
        ),
    }


def draw_table(draws: dict[float, Summary]) -> Table:
    sure = sure_draw_after_states()
    return Table(
        ["draw reward", "win %", "draw %", "loss %", "sure-draw after-states at 0"],
        [
            [f"{d:+g}", *(f"{v:.1f}" for v in draws[d].wdl().mean(0)), f"{zero_share(draws[d], sure):.0%}"]
            for d in sorted(draws)
        ],
    )


def epsilon_checks(eps: dict[float, Summary]) -> Checks:
    """§6.1: a larger or smaller exploration rate has little effect."""
    ew = {e: s.wdl().mean(0) for e, s in sorted(eps.items())}
    spread = max(v[0] for v in ew.values()) - min(v[0] for v in ew.values())
    return {
        "exploration-little-effect": dict(
            ours=bool(spread < 2.0),
            note=f"O win % spread {spread:.2f} points (< 2 = little effect) over ε: "
            + ", ".join(f"{e:g}: {v[0]:.1f} (states {eps[e].states().mean():.0f})" for e, v in ew.items()),
        )
    }


def exploration_rows(eps: dict[float, Summary]) -> dict[float, dict[str, float]]:
    """§6.2's problem under each exploration rate, mean over the rate's runs: O's non-terminal after-states still
    unvalued (0, "missing from its estimation"), whether every winning after-state is still unvalued, and in the
    Fig. 6.8 positions (O can win at once, X threatens, the table decides) the share where O takes the win."""
    o_after = np.asarray(after_states(O, False), dtype=np.int64)
    out = {}
    for e, s in sorted(eps.items()):
        missing, zero, wins, choices = [], [], [], []
        for t in s.tables():
            f = fig68(t)
            missing.append(int(np.sum(t[o_after] == 0.0)))
            zero.append(f.win_values_zero)
            wins.append(f.greedy_wins)
            choices.append(f.greedy_choices)
        out[e] = {
            "missing": float(np.mean(missing)),
            "wins unvalued": float(all(zero)),
            "win share": float(np.sum(wins) / max(1, np.sum(choices))),
            "positions": float(np.mean(choices)),
        }
    return out


def exploration_checks(eps: dict[float, Summary], epsilon: float) -> Checks:
    """§6.2: "increasing the random probability of an exploratory move did not assist with this problem" — the
    problem being after-states without an estimate, among them every winning move's (Fig. 6.8).  Judged at the
    largest exploration rate tried against the thesis's ``epsilon``: the table still misses after-states, its winning
    after-states are still unvalued, and O takes the immediate win in no larger a share of the Fig. 6.8 positions."""
    rows = exploration_rows(eps)
    hi = max(rows)
    if hi <= epsilon or epsilon not in rows:
        raise ValueError(f"the exploration runs need the thesis's ε = {epsilon:g} and a larger one, got {sorted(rows)}")
    a, b = rows[epsilon], rows[hi]
    held = b["missing"] > 0 and b["wins unvalued"] == 1.0 and b["win share"] <= a["win share"]
    return {
        "exploration-does-not-assist": dict(
            ours=bool(held),
            note=f"ε = {epsilon:g} → {hi:g}: non-terminal O after-states never valued {a['missing']:.0f} → "
            f"{b['missing']:.0f} of {len(after_states(O, False))}; winning after-states all unvalued "
            f"{bool(a['wins unvalued'])} → {bool(b['wins unvalued'])} (App. B's rule never writes a terminal "
            f"after-state, so no exploration can value them); immediate wins taken in the Fig. 6.8 positions "
            f"{a['win share']:.0%} → {b['win share']:.0%} (of {a['positions']:.0f} and {b['positions']:.0f} a table)",
        )
    }


def exploration_table(eps: dict[float, Summary]) -> Table:
    rows = exploration_rows(eps)
    return Table(
        ["ε", "O after-states never valued", "winning after-states all unvalued", "Fig. 6.8 positions",
         "immediate wins taken"],
        [[f"{e:g}", f"{r['missing']:.0f}", "yes" if r["wins unvalued"] else "no", f"{r['positions']:.0f}",
          f"{r['win share']:.0%}"] for e, r in rows.items()],
    )  # fmt: skip


def epsilon_table(eps: dict[float, Summary]) -> Table:
    ew = {e: s.wdl().mean(0) for e, s in sorted(eps.items())}
    return Table(
        ["ε", "win %", "draw %", "loss %", "states"],
        [[f"{e:g}", *(f"{x:.1f}" for x in v), f"{eps[e].states().mean():.0f}"] for e, v in ew.items()],
    )


def lambda_checks(lams: dict[float, Summary], cfg: Any) -> Checks:
    """Fig. 6.6: higher λ learns faster early; every λ settles on the same curve."""
    early = window_win_curves(lams, cfg.LAMBDA_GAMES)
    n_early = max(1, len(next(iter(early.values()))) // 10)
    first = {lam: float(v[:n_early].mean()) for lam, v in early.items()}
    last = {lam: float(v[-max(1, len(v) // 5) :].mean()) for lam, v in early.items()}
    lo, hi = min(early), max(early)
    return {
        "fig6.6-higher-lambda-faster-early": dict(
            ours=bool(first[hi] > first[lo]),
            note=f"mean O win % over the first {n_early * cfg.LOG_EVERY:,} games: "
            + ", ".join(f"λ={k:g}: {v:.1f}" for k, v in first.items()),
        ),
        "fig6.6-same-curve-later": dict(
            ours=bool(max(last.values()) - min(last.values()) < 2.0),
            note=f"spread of O win % over the last fifth of {cfg.LAMBDA_GAMES:,} games < 2 points: "
            + ", ".join(f"λ={k:g}: {v:.1f}" for k, v in last.items()),
        ),
    }


# ----------------------------------------------------------------------------- Fig. 6.7 and App. D


def td_as_x_checks(tx: Summary, a05: Summary) -> Checks:
    """Fig. 6.7: TD(λ) as X against random O."""
    wx, sx = tx.wdl(), tx.states()
    return {
        "fig6.7-wdl": dict(
            ours=single_run(wx),
            note=f"X win/draw/loss % over the last 500k-game run; {len(tx.runs)} runs; "
            f"s.d. {np.round(wx.std(0, ddof=1) if len(tx.runs) > 1 else np.zeros(3), 2).tolist()}; each printed cell "
            "is judged against the prediction interval of one more run of ours",
        ),
        "fig6.7-states": dict(
            ours=single_run(sx), note=f"non-zero table entries after 1.5 M games; runs: {sx.astype(int).tolist()}"
        ),
        "fig6.7-x-better-than-o": dict(ours=bool(wx.mean(0)[0] > a05.wdl().mean(0)[0])),
        "fig6.7-fewer-states-than-o": dict(
            ours=bool(sx.mean() < a05.states().mean()), note=f"X {sx.mean():.0f} vs O {a05.states().mean():.0f} states"
        ),
    }


def appendix_d_checks(ad: dict[str, Any]) -> Checks:
    """App. D: the values of X's openings, the greedy opening, and the state-by-state correlation
    (``ad``: :func:`~tdbook.experiments.tictactoe.table_evaluation.appendix_d_comparison`)."""
    fm, opens = ad["first_moves"], ad["openings"]
    sq = list(APPENDIX_D_SQUARES)
    mean = fm[:, sq].mean(0)
    sd = fm[:, sq].std(0, ddof=1) if len(fm) > 1 else np.zeros(len(sq))
    diff = mean - np.array(printed("appD-first-moves"))
    worst = int(np.argmax(np.abs(diff)))
    out: Checks = {
        "appD-first-moves": dict(
            ours=single_run(fm[:, sq]),
            note=f"our X tables' value of each opening (squares {sq}), each printed value judged against the "
            f"prediction interval of one more of our runs; largest difference "
            f"{diff[worst]:+.3f} on square {sq[worst]} ({board_string(place(0, sq[worst], X))}); per square "
            f"ours − App. D {np.round(diff, 3).tolist()}, s.d. of our runs {np.round(sd, 3).tolist()} "
            f"(pooled {float(np.sqrt(np.mean(sd**2))):.3f})",
        )
    }
    between = np.round(np.mean(ad["corr_between"]), 3) if ad["corr_between"] else "n/a"
    out |= {
        "appD-centre-highest": dict(
            ours=bool(np.argmax(fm.mean(0)) == CENTRE), note=f"greedy openings of our X tables: {opens}"
        ),
        "x-opens-in-a-corner": dict(
            ours=all(o in CORNERS for o in opens),
            note=f"prose: 'it always chose a corner position to begin with' — contradicted by App. D's own values "
            f"(centre 0.6898 first); our runs open on {opens}",
        ),
        "x-never-opens-on-an-edge": dict(ours=not any(o in EDGES for o in opens), note=f"openings {opens}"),
        "appD-state-by-state-correlation": dict(
            ours=ad["corr_mean"],
            note=f"Pearson r between the {len(ad['codes'])} transcribed App. D values and our mean X table; single "
            f"runs: {np.round(ad['corr'], 3).tolist()}; between two of our runs: {between}; App. D states we "
            f"also store: {ad['stored_share']:.0%}; values ≥ 0.99995: App. D {ad['ones_appd']}, ours "
            f"{ad['ones_ours']}",
        ),
    }
    return out


def first_move_table(ad: dict[str, Any], printed_values: dict[int, float]) -> Table:
    fm = ad["first_moves"]
    sd = fm.std(0, ddof=1) if len(fm) > 1 else np.zeros(9)
    return Table(
        ["square", *map(str, range(9))],
        [
            ["App. D", *(f"{printed_values.get(s, float('nan')):.4f}" for s in range(9))],
            ["ours (mean)", *(f"{v:.4f}" for v in fm.mean(0))],
            ["ours (s.d.)", *(f"{v:.4f}" for v in sd)],
        ],
    )


# ----------------------------------------------------------------------------- Table 6.1


def _o_rows(t61: list[Table61Row]) -> list[Table61Row] | None:
    """Table 6.1's O rows in print order (λ = 0, 0.2, 0.3, 0.5, 0.6, tie −0.1), or None when a row was not run."""
    rows = [r for r in t61 if r.side == "O"]
    return rows if len(rows) == len([s for s, _ in table61_printed() if s.side == "O"]) else None


def table61_checks(t61: list[Table61Row], cfg: Any) -> Checks:
    """Table 6.1, one claim per column: the O rows' states; the author's wins and the draws against the perfect
    player's expected wins and draws in 20 games (exact); the table's own wins (0 against the perfect player by
    construction: uninformative); and the exploiter's expected wins (our own measurement)."""
    out: Checks = {}
    o = _o_rows(t61)
    if o is not None:
        out["table6.1-states"] = dict(
            ours=[r.evaluation.states for r in o],
            note=f"one run per row of {o[0].games:,} games (the thesis: {o[0].thesis_games:,}); ours − printed: "
            + ", ".join(f"{r.label} {r.evaluation.states - r.printed['states']:+d}" for r in o),
        )
        out["table6.1-vs-perfect"] = dict(
            ours=[round(20 * r.evaluation.vs_perfect[k], 2) for r in o for k in (2, 1)],
            note="per O row, (perfect player's wins, draws) expected in 20 games (exact) against the author's: "
            + "; ".join(
                f"{r.label} {20 * r.evaluation.vs_perfect[2]:.1f}/{20 * r.evaluation.vs_perfect[1]:.1f} vs "
                f"{r.printed['human']}/{r.printed['draws']} (first 20 sampled games W/D/L for TD "
                f"{r.evaluation.first20_perfect})"
                for r in o
            ),
        )
    out["table6.1-td-wins"] = dict(
        ours=[round(20 * r.evaluation.vs_perfect[0], 2) for r in t61],
        note="the tables' expected wins in 20 games against the perfect player (exact), rows "
        + ", ".join(r.label for r in t61),
    )
    out["table6.1-exploiter-wins-per-20"] = dict(
        ours=[round(20 * r.evaluation.vs_exploiter[2], 2) for r in t61],
        note="our own measurement: expected wins in 20 games of the opponent that best exploits each table "
        "(exact); the author won " + ", ".join(f"{r.printed['human']} ({r.label})" for r in t61),
    )
    return out


def table61_figure_data(t61: list[Table61Row]) -> tuple[list[str], np.ndarray, np.ndarray, np.ndarray]:
    """(labels, expected (perfect wins, TD wins, draws) in 20, the author's, the exploiter's wins in 20)."""
    exp20 = np.array([[20 * r.evaluation.vs_perfect[k] for k in (2, 0, 1)] for r in t61])
    human = np.array([[r.printed[k] for k in ("human", "td", "draws")] for r in t61])
    exploit20 = np.array([20 * r.evaluation.vs_exploiter[2] for r in t61])
    return [r.label for r in t61], exp20, human, exploit20


def table61_table(t61: list[Table61Row]) -> Table:
    rows = []
    for r in t61:
        ev, th = r.evaluation, r.printed
        rows.append(
            [
                r.label,
                f"{r.games:,}",
                ev.states,
                th["states"],
                f"{th['human']}/{th['td']}/{th['draws']}",
                "/".join(str(v) for v in (ev.first20_perfect[2], ev.first20_perfect[0], ev.first20_perfect[1])),
                f"{100 * ev.vs_perfect[2]:.1f}",
                f"{100 * ev.vs_exploiter[2]:.1f}",
                "/".join(f"{100 * v:.1f}" for v in ev.vs_random),
                f"{100 * ev.optimal:.1f}",
            ]
        )
    return Table(
        [
            "row",
            "training games",
            "states",
            "thesis states",
            "thesis human/TD/draw",
            "perfect/TD/draw (first 20)",
            "lost to perfect %",
            "lost to exploiter %",
            "vs random W/D/L %",
            "optimal moves %",
        ],
        rows,
        caption="Table 6.1, the human replaced by the perfect player (exact probabilities; first 20 sampled games)",
    )


def table61_text_checks(t61: list[Table61Row], a05: Summary, cfg: Any, seed: int) -> Checks:
    """§6.2 pp. 60–62 about Table 6.1: the X row, the best O row, more training, missing states, and the
    centre reply to a corner opening."""
    xrow = next(r for r in t61 if r.side == "X")
    orows = {r.lam: r for r in t61 if r.side == "O" and r.draw == 0.0}
    xe = xrow.evaluation
    out: Checks = {
        "table6.1-X-never-loses": dict(
            ours=round(20 * xe.vs_perfect[1], 2),
            note=f"the X table's expected draws in 20 greedy games against the perfect player (exact P(loss) "
            f"{xe.vs_perfect[2]:.3g}); first 20 sampled games W/D/L {xe.first20_perfect}",
        ),
        "table6.1-X-exploitable": dict(ours=xe.vs_exploiter[2]),
    }
    rows = {(s.side, s.lam, s.draw): p for s, p in table61_printed()}
    x61 = next(s for s, _ in table61_printed() if s.side == "X")
    o61 = next(s for s, _ in table61_printed() if s.side == "O" and s.lam == 0.5 and s.draw == 0.0)
    out["table6.1-shares"] = dict(
        ours=[x61.games / o61.games, rows[("X", 0.5, 0.0)]["states"] / rows[("O", 0.5, 0.0)]["states"]],
        note="Table 6.1's training games and states, X row over the λ=0.5 O row"
        + (
            f"; ours: {xe.states} / {orows[0.5].evaluation.states} = {xe.states / orows[0.5].evaluation.states:.2f} "
            f"of the states"
            if 0.5 in orows
            else ""
        ),
    )
    if 0.5 in orows:
        best = min(orows, key=lambda k: orows[k].evaluation.vs_perfect[2])
        out["table6.1-lambda0.5-best-O"] = dict(
            ours=bool(best == 0.5),
            note="lowest exact P(loss) vs the perfect player among the O rows: "
            + ", ".join(f"λ={k:g}: {v.evaluation.vs_perfect[2]:.3f}" for k, v in sorted(orows.items()))
            + "; vs the exploiter: "
            + ", ".join(f"λ={k:g}: {v.evaluation.vs_exploiter[2]:.3f}" for k, v in sorted(orows.items())),
        )
        more = orows[0.5].evaluation
        less = [evaluate(t, "O", 20, run_seed(seed, "more-training eval", r)) for r, t in enumerate(a05.tables())]
        parts, same = [], []
        for what, get in (
            ("greedy O win % vs random", lambda e: 100 * e.vs_random[0]),
            ("greedy O loss % vs the perfect player", lambda e: 100 * e.vs_perfect[2]),
        ):
            base = np.array([get(e) for e in less])
            d, half = get(more) - base.mean(), float(half_widths(base[:, None])[0])
            same.append(bool(abs(d) + half <= LITTLE))  # the whole interval of the difference inside the band
            parts.append(
                f"{what} (exact): {cfg.TABLE61_GAMES:,} games (λ=0.5 row) {get(more):.1f} vs {cfg.GAMES:,} games "
                f"{base.mean():.1f} (runs {np.round(base, 1).tolist()}); difference {d:+.1f} ± {half:.2f} (one run "
                f"against the runs' prediction interval) within ±{LITTLE:g}: {same[-1]}"
            )
        out["more-training-little-difference"] = dict(
            ours=all(same), note="'little difference' on both measures? " + "; ".join(parts)
        )
        o_after = after_states(O, False)
        out["states-still-missing"] = dict(
            ours=bool(more.states < len(o_after)),
            note=f"'even after 10 million iterations, there were still states missing': {more.states} of "
            f"{len(o_after)} non-terminal O after-states",
        )
    answers = [corner_answers(t) for t in a05.tables()]
    out["O-answers-corner-with-centre"] = dict(
        ours=all(a[c] == 4 for a in answers for c in CORNERS),
        note=f"greedy O replies to the openings 0..8, per run: {[list(a.values()) for a in answers]}",
    )
    return out


# ----------------------------------------------------------------------------- Fig. 6.8


def fig68_checks(f68: Fig68) -> Checks:
    """Fig. 6.8: the thesis O blocks instead of winning, because a winning after-state is never valued."""
    return {
        "fig6.8-blocks-instead-of-winning": dict(
            ours=f68.greedy_blocks / f68.greedy_choices if f68.greedy_choices else float("nan"),
            note=f"over the {f68.greedy_choices} reachable positions where O can win at once, X threatens, and the "
            f"table decides (no random fallback): O blocks in {f68.greedy_blocks}, takes the win in "
            f"{f68.greedy_wins}, plays a third square in {f68.greedy_choices - f68.greedy_blocks - f68.greedy_wins}; "
            f"the figure's position {board_string(f68.example)}: values seen {f68.example_values}, chose "
            f"{f68.example_choice}",
        ),
        "fig6.8-winning-estimate-unknown": dict(ours=f68.win_values_zero),
        "fig6.8-win-taken-only-by-chance": dict(
            ours=f68.p_win,
            note=f"mean probability that greedy O takes an available win, over the {f68.positions} positions where "
            f"it can win (random fallback only); where X also threatens ({f68.with_threat}): win "
            f"{f68.p_win_threat:.2f}, block {f68.p_block:.2f}",
        ),
    }


# ----------------------------------------------------------------------------- p. 63: the X table as teacher


def random_o_loss_vs_perfect() -> float:
    """P(a uniformly random O loses to the perfect X), exact: the floor any weak O table sits near."""
    return exact_outcomes(perfect_player(), random_player())[0]


def teacher_checks(teach: dict[str, list[TeacherRun]], frozen: dict[str, list[TeacherRun]]) -> Checks:
    """p. 63: a new O and the trained O, each trained against the learned X table (both learning), and the
    same with the X table frozen."""
    new, old = teach["new O"], teach["old O"]
    nx = np.array([t.xod() for t in new])
    ox = np.array([t.xod() for t in old])
    before = [value_stats(t.o_before) for t in old]
    after = [value_stats(t.result.tables[1]) for t in old]
    mb, ma = np.mean([b["mean"] for b in before]), np.mean([a["mean"] for a in after])
    nb, na = np.mean([b["negative"] for b in before]), np.mean([a["negative"] for a in after])
    fx = {k: np.array([t.xod() for t in v]).mean(0) for k, v in frozen.items()}
    return {
        "p63-new-O-X-O-draw": dict(
            ours=single_run(nx),
            note=f"X wins, O wins, draws % over the last 500k-game run; {len(new)} runs, s.d. "
            f"{np.round(nx.std(0, ddof=1) if len(new) > 1 else np.zeros(3), 2).tolist()}",
        ),
        "p63-new-O-loses-20-of-20": dict(
            ours=float(np.mean([20 * t.evaluation.vs_perfect[2] for t in new])),
            note="expected losses in 20 greedy games against the perfect player (the thesis: against its author); a "
            f"uniformly random O loses {20 * random_o_loss_vs_perfect():.1f}",
        ),
        "p63-old-O-wins-losses": dict(
            ours=single_run(ox[:, [1, 0]]),
            note=f"O wins and O losses % over the last 500k-game run; {len(old)} runs, s.d. "
            f"{np.round(ox[:, [1, 0]].std(0, ddof=1) if len(old) > 1 else np.zeros(2), 2).tolist()}",
        ),
        "p63-old-O-loses-20-of-20": dict(ours=float(np.mean([20 * t.evaluation.vs_perfect[2] for t in old]))),
        "p63-beaten-into-submission": dict(
            ours=bool(ma < mb and na > nb),
            note=f"mean stored O value {mb:+.3f} → {ma:+.3f}; share negative {nb:.2f} → {na:.2f}",
        ),
        "p63-frozen-teacher": dict(
            ours=list(fx["new O"]),
            note=f"X/O/draw % with the X table frozen and greedy: new O {np.round(fx['new O'], 1).tolist()}, "
            f"old O {np.round(fx['old O'], 1).tolist()}",
        ),
    }


def teacher_table(teach: dict[str, list[TeacherRun]], frozen: dict[str, list[TeacherRun]]) -> Table:
    def row(label: str, runs: list[TeacherRun]) -> list[str]:
        xod = np.array([t.xod() for t in runs]).mean(0)
        lost = 100 * np.mean([t.evaluation.vs_perfect[2] for t in runs])
        return [label, *(f"{v:.1f}" for v in xod), f"{lost:.1f}"]

    return Table(
        ["experiment", "X wins %", "O wins %", "draws %", "O lost to perfect (exact) %"],
        [row(f"{k} (both learn)", v) for k, v in teach.items()]
        + [row(f"{k} (frozen teacher)", v) for k, v in frozen.items()],
    )


# ----------------------------------------------------------------------------- beyond: corrected player, ablation


def _sides(q: SelfPlay) -> dict[str, Any]:
    return {"X": q.x, "O": q.o}


def self_play_checks(sp: list[SelfPlay], cfg: Any) -> Checks:
    """The corrected player by self-play, greedy against the perfect player."""
    out: Checks = {}
    for side in ("X", "O"):
        lost = sum(_sides(q)[side].sampled_perfect[2] for q in sp)
        games = sum(sum(_sides(q)[side].sampled_perfect) for q in sp)
        exact = [_sides(q)[side].vs_perfect[2] for q in sp]
        out[f"corrected-{side}-losses-vs-perfect"] = dict(
            ours=float(max(exact)),
            note=f"the largest exact P(loss) against the perfect player over {len(sp)} runs (per run "
            f"{[round(v, 6) for v in exact]}); greedy corrected {side} lost {lost} of {games} sampled games",
        )
    return out


def optimal_shares(a05: Summary, tx: Summary, sp: list[SelfPlay], seed: int) -> dict[str, list[float]]:
    """The share of positions with its side to move where each table's greedy move is minimax-optimal."""
    return {
        "thesis O (vs random, 1.5 M)": [
            evaluate(t, "O", 20, run_seed(seed, "optimal thesis O", r)).optimal for r, t in enumerate(a05.tables())
        ],
        "thesis X (vs random, 1.5 M)": [
            evaluate(t, "X", 20, run_seed(seed, "optimal thesis X", r)).optimal for r, t in enumerate(tx.tables())
        ],
        "corrected O (self-play)": [q.o.optimal for q in sp],
        "corrected X (self-play)": [q.x.optimal for q in sp],
    }


def optimal_figure_data(opt: dict[str, list[float]]) -> tuple[list[str], list[float], list[float]]:
    """(labels, mean share, s.d. over runs) of :func:`optimal_shares`."""
    return list(opt), [np.mean(v) for v in opt.values()], [np.std(v) for v in opt.values()]


def optimal_checks(opt: dict[str, list[float]]) -> Checks:
    return {
        "optimal-moves-" + k.split(" (")[0].replace(" ", "-"): dict(
            ours=float(np.mean(v)),
            note="share of positions with that side to move where the greedy move is minimax-optimal; runs "
            f"{np.round(v, 4).tolist()}",
        )
        for k, v in opt.items()
    }


def self_play_table(sp: list[SelfPlay]) -> Table:
    rows = []
    for s in ("X", "O"):
        ev = [_sides(q)[s] for q in sp]
        rows.append(
            [
                s,
                len(sp),
                sum(sum(e.sampled_perfect) for e in ev),
                sum(e.sampled_perfect[2] for e in ev),
                f"{max(e.vs_perfect[2] for e in ev):.2g}",
                "/".join(f"{100 * np.mean([e.vs_random[k] for e in ev]):.1f}" for k in range(3)),
                f"{100 * np.mean([e.optimal for e in ev]):.1f}",
            ]
        )
    return Table(
        [
            "side",
            "runs",
            "games vs perfect",
            "lost",
            "exact P(loss) max",
            "vs random W/D/L % (mean)",
            "optimal moves %",
        ],
        rows,
    )


def ablation_figure_data(abl: list[AblationRow]) -> tuple[list[str], list[float], list[float], list[float], list]:
    """(rule names, O vs random: P(loss) vs perfect, self-play X and O P(loss), O vs random: optimal share)."""
    return (
        [a.name for a in abl],
        [np.mean([e.vs_perfect[2] for e in a.vs_random_o]) for a in abl],
        [np.mean([q.x.vs_perfect[2] for q in a.self_play]) for a in abl],
        [np.mean([q.o.vs_perfect[2] for q in a.self_play]) for a in abl],
        [np.mean([e.optimal for e in a.vs_random_o]) for a in abl],
    )


def ablation_checks(gaps: dict[str, dict[str, float]]) -> Checks:
    """For each metric, the single correction that closes most of the thesis → corrected gap."""
    import re

    out: Checks = {}
    for m, g in gaps.items():
        best = max(g, key=lambda k: -np.inf if np.isnan(g[k]) else g[k])
        out["ablation-" + re.sub(r"[^a-z0-9]+", "-", m.lower()).strip("-")] = dict(
            ours=best,
            note=f"{m}: single correction closing most of the thesis → corrected gap; shares closed "
            + ", ".join(f"{k} {v:.2f}" for k, v in g.items()),
        )
    return out


def ablation_table(abl: list[AblationRow], gaps: dict[str, dict[str, float]], cfg: Any) -> Table:
    return Table(
        ["rule", *ABLATION_METRICS],
        [[a.name, *(f"{a.mean(f):.1f}" for f in ABLATION_METRICS.values())] for a in abl]
        + [[f"gap closed by {k}", *(f"{gaps[m][k]:.2f}" for m in ABLATION_METRICS)] for k in RULE_FLAGS],
        caption=f"mean of {cfg.ABLATION_REPLICATES} runs of {cfg.ABLATION_GAMES:,} games per regime",
    )


# ----------------------------------------------------------------------------- the board's opponents


def board_opponents(a05: Summary, tx: Summary, sp: list[SelfPlay], seed: int) -> dict[str, Any]:
    """The players notebook 06's board offers: the thesis's tables, the corrected ones, perfect and random."""
    return {
        "thesis O (α=0.05, 1.5 M)": table_player(a05.table(0), name="thesis O"),
        "thesis X (1.5 M)": table_player(tx.table(0), name="thesis X"),
        "corrected O (self-play)": table_player(sp[0].result.tables[1], "corrected", name="corrected O"),
        "corrected X (self-play)": table_player(sp[0].result.tables[0], "corrected", name="corrected X"),
        "perfect": perfect_player(seed),
        "random": random_player(seed),
    }
