"""Figures of notebook 04 (Waterman (1968) ch. 5).  Every function takes data computed by
:mod:`tdbook.experiments.draw_poker.waterman_poker` (and the printed values of
:func:`tdbook.experiments.draw_poker.claims.printed_table_53`) and returns a matplotlib figure."""

from __future__ import annotations

from typing import Any

import matplotlib.pyplot as plt
import numpy as np

from ..plotting import PALETTE

PAPER_STYLE = {"color": "#000000", "linestyle": "--", "linewidth": 1.4}


def _hist(ax: Any, x: np.ndarray, paper: float | None, label: str, discrete: bool = True) -> None:
    x = np.asarray(x, dtype=float)
    x = x[~np.isnan(x)]
    if discrete:
        lo, hi = int(np.floor(x.min())), int(np.ceil(x.max()))
        bins = np.arange(lo - 0.5, hi + 1.5, max(1, (hi - lo + 1) // 30))
    else:
        bins = np.linspace(0, 1, 21)
    ax.hist(x, bins=bins, color=PALETTE[0], alpha=0.75)
    ax.axvline(x.mean(), color=PALETTE[1], linewidth=1.6, label=f"ours: mean {x.mean():.3g}")
    if paper is not None:
        ax.axvline(paper, **PAPER_STYLE, label=f"Waterman: {paper:g}")
    ax.set_xlabel(label)
    ax.legend()


def spread(study: Any, paper: dict, title: str) -> plt.Figure:
    """Trials, rules created, final rules and agreement (before / after) over the seeded runs."""
    fig, axes = plt.subplots(1, 4, figsize=(13, 3.2))
    _hist(axes[0], study.trials, paper.get("trials"), "training trials")
    _hist(axes[1], study.created, paper.get("created"), "action rules created")
    _hist(axes[2], study.rules, paper.get("rules"), "action rules kept")
    ax = axes[3]
    bins = np.linspace(0, 1, 26)
    ax.hist(study.before, bins=bins, alpha=0.6, color=PALETTE[2], label=f"before: {np.nanmean(study.before):.0%}")
    ax.hist(study.after, bins=bins, alpha=0.6, color=PALETTE[0], label=f"after: {np.nanmean(study.after):.0%}")
    for key, c in (("before", PALETTE[2]), ("after", PALETTE[0])):
        if key in paper:
            ax.axvline(paper[key] / 100, color=c, linestyle="--", linewidth=1.4)
    ax.set_xlabel("agreement on 50 situations (dashed: Waterman)")
    ax.legend()
    axes[0].set_ylabel(f"runs (of {len(study.trials)})")
    fig.suptitle(title)
    fig.tight_layout()
    return fig


def winnings(table: dict, paper: dict, title: str, what: str = "gross_pct") -> plt.Figure:
    """Table 5-3's winnings column: the single-test percentage difference per kind of program
    (box: spread of single tests; dot and bar: mean and its 95 % interval; x: Waterman's one test)."""
    names = list(table)
    fig, ax = plt.subplots(figsize=(8, 4))
    data = [table[n].values(what) for n in names]
    ax.boxplot(data, widths=0.5, showfliers=False, medianprops={"color": PALETTE[0]})
    for i, n in enumerate(names, 1):
        m, h, _ = table[n].stat(what)
        ax.errorbar(i, m, yerr=h, fmt="o", color=PALETTE[1], capsize=4, label="ours: mean ± 95 %" if i == 1 else None)
        if what == "gross_pct" and "pct" in paper.get(n, {}):
            ax.plot(
                i,
                paper[n]["pct"],
                "x",
                color="k",
                markersize=10,
                mew=2,
                label="Waterman (one test)" if i == 1 else None,
            )
    ax.axhline(0, color="0.5", linewidth=0.8)
    ax.set_xticks(range(1, len(names) + 1), [n.replace("-", "-\n") for n in names])
    ax.set_ylabel("% difference in winnings (+ program ahead)" if what == "gross_pct" else what)
    ax.set_title(title)
    ax.legend(loc="lower left")
    fig.tight_layout()
    return fig


def cumulative(table: dict, test: int = 0) -> plt.Figure:
    """Fig. 5-5's template for each kind of program (Figs. 5-6, 5-8, 5-9, 5-11, 5-14 are lost): the
    program's winnings in series I and the opponent's in series II on the same hands, cumulated
    r-o-p by r-o-p, for one duplicate test."""
    names = list(table)
    fig, axes = plt.subplots(1, len(names), figsize=(3.2 * len(names), 3), sharey=True)
    for ax, n in zip(np.atleast_1d(axes), names):
        pr = table[n].tests[0]
        k = min(test, pr.nets1.shape[0] - 1)
        x = np.arange(1, pr.nets1.shape[1] + 1)
        ax.step(x, np.cumsum(pr.nets1[k]), where="post", color=PALETTE[0], label="program, series I")
        ax.step(x, np.cumsum(pr.nets2[k]), where="post", color=PALETTE[1], label="opponent, series II")
        ax.set_title(n, fontsize=9)
        ax.set_xlabel("r-o-p (same hands)")
    np.atleast_1d(axes)[0].set_ylabel("cumulative winnings (chips)")
    np.atleast_1d(axes)[0].legend(fontsize=7)
    fig.tight_layout()
    return fig


def sweeps(sweeps_: dict, paper: dict, title: str) -> plt.Figure:
    """Trials, kept rules and agreement after training as each unstated constant varies."""
    knobs = list(sweeps_)
    fig, axes = plt.subplots(3, len(knobs), figsize=(3.6 * len(knobs), 7), squeeze=False)
    for j, knob in enumerate(knobs):
        vals = list(sweeps_[knob])
        for i, (what, label) in enumerate(
            [("trials", "training trials"), ("rules", "action rules kept"), ("after_long", "agreement after")]
        ):
            ax = axes[i, j]
            st = [sweeps_[knob][v].stat(what) for v in vals]
            ax.errorbar(range(len(vals)), [s[0] for s in st], yerr=[s[1] for s in st], fmt="o-", capsize=3)
            key = {"trials": "trials", "rules": "rules", "after_long": "after"}[what]
            if key in paper:
                ax.axhline(paper[key] / (100 if key == "after" else 1), **PAPER_STYLE)
            ax.set_xticks(range(len(vals)), [str(v) for v in vals])
            if i == 2:
                ax.set_xlabel(knob)
            if j == 0:
                ax.set_ylabel(label)
    fig.suptitle(title)
    fig.tight_layout()
    return fig


def noise(studies: dict, paper: dict) -> plt.Figure:
    """The manual-training proxy: trials, redundancies and kept rules against the rate of
    inconsistent advice (dashed: Waterman's manual training)."""
    rates = list(studies)
    fig, axes = plt.subplots(1, 3, figsize=(11, 3.2))
    for ax, (what, label) in zip(
        axes, [("trials", "training trials"), ("redundant", "redundancies removed"), ("rules", "action rules kept")]
    ):
        st = [studies[r].stat(what) for r in rates]
        ax.errorbar(rates, [s[0] for s in st], yerr=[s[1] for s in st], fmt="o-", capsize=3)
        if what in paper:
            ax.axhline(paper[what], **PAPER_STYLE, label="Waterman: manual")
        ax.set_xlabel("rate of inconsistent advice")
        ax.set_ylabel(label)
        ax.legend()
    fig.tight_layout()
    return fig


def head_to_head(h: dict, title: str) -> plt.Figure:
    """Duplicate difference (chips per r-o-p) of each row player against each column player."""
    names, m = h["names"], h["mean"]
    fig, ax = plt.subplots(figsize=(1.3 * len(names) + 3, 1.0 * len(names) + 1.5))
    lim = float(np.abs(m).max()) or 1.0
    im = ax.imshow(m, cmap="RdBu", vmin=-lim, vmax=lim)
    for i in range(len(names)):
        for j in range(len(names)):
            if i != j:
                ax.text(j, i, f"{m[i, j]:+.2f}\n±{h['half'][i, j]:.2f}", ha="center", va="center", fontsize=8)
    ax.set_xticks(range(len(names)), names, rotation=30, ha="right")
    ax.set_yticks(range(len(names)), names)
    ax.set_xlabel("opponent")
    ax.set_ylabel("program")
    ax.grid(False)
    fig.colorbar(im, ax=ax, label="chips per r-o-p (+ row ahead)")
    ax.set_title(title)
    fig.tight_layout()
    return fig


def explore(data: dict) -> plt.Figure:
    """The panel's view: trials, kept rules, agreement after training, and winnings of the programs."""
    st, w = data["study"], data["winnings"]
    fig, axes = plt.subplots(1, 4, figsize=(13, 3))
    _hist(axes[0], st.trials, None, "training trials")
    _hist(axes[1], st.rules, None, "action rules kept")
    axes[2].hist(st.after_long, bins=np.linspace(0, 1, 21), color=PALETTE[0])
    axes[2].set_xlabel("agreement after training")
    axes[3].hist(w.values(), bins=20, color=PALETTE[2])
    m, h, _ = w.stat()
    axes[3].axvline(m, color=PALETTE[1], label=f"mean {m:+.1f} ± {h:.1f}")
    axes[3].set_xlabel(f"% difference in winnings vs {data['opponent']}")
    axes[3].legend()
    fig.suptitle(f"{data['procedure']} training, {len(st.trials)} runs")
    fig.tight_layout()
    return fig
