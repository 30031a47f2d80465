"""The measured value of each of notebook 02's claims (``tdbook/claims/powell2000.toml``), from what the protocols of
:mod:`tdbook.experiments.checkers.samuel_checkers`, ``board``, ``lookahead``, ``ladder`` and ``samuel_study`` return:
``{claim id: {"ours": value, "note": measured context}}`` for :func:`tdbook.results.check_all`, in the order the
notebook checks them."""

from __future__ import annotations

from typing import Any

import numpy as np

from ... import claims
from ...claims import Estimate, Spread
from . import board, samuel_checkers
from . import ladder as cl
from . import samuel_study as ss

NOTEBOOK = "02_samuel_checkers"
#: ``{claim id: keyword arguments of results.check}``
Checks = dict[str, dict[str, Any]]


def printed(claim_id: str) -> Any:
    """The value notebook 02's claim ``claim_id`` prints (for a figure that marks it)."""
    return claims.get(NOTEBOOK, claim_id).paper


def board_claims(shifts: dict[str, Any], positions: int) -> Checks:
    """§3.1: the board in a machine word, and the shifts that move a piece (:func:`board.shift_sets`)."""
    return {
        "board-32-bits-in-a-36-bit-word": {
            "ours": board.one_bit_per_square(),
            "note": f"the highest bit of Samuel's layout is {board.highest_samuel_bit()}",
        },
        "move-shifts-samuel-layout": {
            "ours": shifts["Samuel 35-bit"],
            "note": f"{shifts['moves']:,} ordinary moves of {positions:,} random-game boards; "
            f"every shift reproduces the moved piece's word: {shifts['35-bit shifts exact']}",
        },
        "move-shifts-32-consecutive-bits": {"ours": shifts["32-square"], "note": f"{shifts['moves']:,} moves"},
    }


def perft_claims(table: list[dict[str, Any]]) -> Checks:
    """The move generator against the published perft counts (:func:`board.perft_table`)."""
    return {
        "perft-published-counts": {
            "ours": sum(r["equal"] for r in table),
            "note": f"all {len(table)} depths computed equal the published counts: {all(r['equal'] for r in table)}",
        }
    }


def tree_claims(tree: Any) -> Checks:
    """§3.2: the game tree's size, and Fig. 3.4's α-β tree (:func:`lookahead.alpha_beta_tree`)."""
    return {
        "game-tree-centuries": {"ours": samuel_checkers.centuries_log10()},
        "fig3.4-root-value": {"ours": tree.value, "note": f"backed-up values {tree.backed_up}"},
        "fig3.4-chosen-move": {"ours": tree.chosen},
        "fig3.4-pruned-branch": {
            "ours": tree.cut[0][0] if tree.cut else "none",
            "note": f"{tree.leaves_read} of {tree.leaves} leaves read",
        },
    }


def node_claims(nc: Any) -> Checks:
    """§3.2: minimax against α-β and plausibility ordering (:func:`lookahead.node_counts`)."""
    d = nc.depths[-1]
    return {
        "alphabeta-exponent": {
            "ours": nc.exponent_ratio("ordered"),
            "note": f"depth {d}; generation order: {nc.exponent_ratio('alpha-beta'):.3f}",
        },
        "plausibility-ordering-saves-nodes": {
            "ours": bool(nc.ordered[-1] < nc.alpha_beta[-1]),
            "note": f"depth {d}: {nc.ordered[-1]:,} nodes against {nc.alpha_beta[-1]:,} "
            f"({nc.ordered_evals[-1]:,} evaluations with ordering)",
        },
        "ebf-minimax": {"ours": float(nc.ebf("minimax")[-1]), "note": f"depth {d}"},
        "ebf-alphabeta-generation-order": {"ours": float(nc.ebf("alpha-beta")[-1]), "note": f"depth {d}"},
        "ebf-alphabeta-plausibility-order": {"ours": float(nc.ebf("ordered")[-1]), "note": f"depth {d}"},
    }


def ply_rule_claims(bp: dict[str, Any]) -> Checks:
    """§3.2's six ply rules on the probe boards (:func:`lookahead.break_points`)."""
    return {
        "ply-rule-minimum": {"ours": bp["minimum"]},
        "ply-rule-after-a-jump": {"ours": bp["after a jump"]},
        "ply-rule-exchange-then-no-jump": {"ours": bp["exchange"]},
        "ply-rule-ahead-ply": {"ours": [bp["ahead"], bp["lead that does not stop"]]},
        "ply-rule-hard-stop": {"ours": bp["hard"]},
    }


def depth_claims(ds: Any) -> Checks:
    """Where the ply rules stop on positions from real games (:func:`lookahead.depth_study`)."""
    return {
        "ply-rules-mean-leaf-ply": {
            "ours": ds.mean_leaf_ply(),
            "note": f"{len(ds.samuel_nodes)} positions; deepest leaf {int(np.flatnonzero(ds.samuel_leaves).max())}",
        },
        "ply-rules-leaves-beyond-ply-4": {"ours": ds.share_beyond(4)},
        "ply-rules-nodes-against-fixed-4": {
            "ours": float(ds.samuel_nodes.mean() / ds.fixed_nodes[4].mean()),
            "note": f"{ds.samuel_nodes.mean():,.0f} against {ds.fixed_nodes[4].mean():,.0f} nodes per search",
        },
    }


def rote_store_claims(rs: samuel_checkers.RoteStudy, measure_at: int) -> Checks:
    """§3.3: what the rote store finds in each phase of the game, and how fast it grows."""
    t = rs.training
    mid = rs.middle_game_catches_up()
    when = f"store {t.size[rs.at - 1]:,} boards after {rs.at} games" + (
        "" if rs.reached else " (the run never reached the measuring point)"
    )
    return {
        "rote-strong-opening-endgame-weak-middle": {
            "ours": rs.strong_opening_and_endgame(),
            "note": when
            + "; frontier hits per search: "
            + ", ".join(f"{k} {v['frontier']:.2f}" for k, v in rs.rates.items()),
        },
        "rote-million-positions-for-the-middle-game": {
            "ours": mid[0],
            "note": (f"reached after {mid[1]} games" if mid[1] > 0 else "not reached within the run")
            + f"; the opening's rate at the measuring point: {rs.rates['opening']['frontier']:.2f}",
        },
        "rote-games-to-53000-positions": {
            "ours": t.games_to(measure_at) or -1,
            "note": f"{t.games} games played, {t.size[-1]:,} boards stored; {t.merges:,} merges, "
            f"{t.expunged:,} expunged",
        },
    }


def rote_match_claims(rs: samuel_checkers.RoteStudy) -> Checks:
    """§3.3: the rote program's strength, the store frozen, from each phase of the game."""
    ph = rs.matches
    return {
        "rote-strength-strong-opening-endgame-weak-middle": {
            "ours": rs.strong_opening_and_endgame_play(),
            "note": "scores: " + ", ".join(f"{k} {100 * r.score:.1f} % ± {100 * r.stderr:.1f}" for k, r in ph.items()),
        },
        "rote-vs-material": {"ours": ph["opening"].estimate(), "note": ph["opening"].text()},
        "rote-vs-material-middle-game": {"ours": ph["middle game"].estimate(), "note": ph["middle game"].text()},
        "rote-vs-material-endgame": {"ours": ph["endgame"].estimate(), "note": ph["endgame"].text()},
    }


def learning_claims(
    sam: samuel_checkers.Learned, runs: dict[str, samuel_checkers.ShortRun], short_games: int, seed: int
) -> Checks:
    """§3.3: the list, the tally and the replacement queue of the shipped run, beside two short runs (the notes'
    tally and the second series; :func:`samuel_checkers.short_runs`)."""
    logs, g = sam.arrays, int(sam.meta["games"])
    notes, second = runs["notes' tally (lowest C)"], runs["second series"]
    return {
        "terms-in-the-list": {
            "ours": [len(samuel_checkers.TERM_NAMES), len(sam.active()), len(sam.reserve())],
            "note": "active after the run: " + ", ".join(sam.active()),
        },
        "tally-limit": {"ours": sam.tally_at_removal(), "note": f"all {sam.replacements:,} replacements"},
        "tally-limit-second-series": {
            "ours": second.tally_at_removal,
            "note": f"{len(second.run.events)} replacements in {short_games} second-series games",
        },
        "replacements-per-move": {
            "ours": float(sam.replacements / logs["log_cycles"].sum()),
            "note": f"{sam.replacements:,} replacements in {logs['log_cycles'].sum():,} moves of Alpha",
        },
        "replacements-per-move-notes-tally": {
            "ours": notes.replacements_per_move,
            "note": f"{short_games} self-play games from seed {seed}",
        },
        "first-28-games-won-lost-drawn": {"ours": sam.record(), "note": f"whole run: {sam.record(g)}"},
        "polynomial-changes-per-game": {
            "ours": float(logs["log_updates"].mean()),
            "note": f"of {logs['log_cycles'].mean():.1f} moves of Alpha per game; "
            f"{logs['log_adjustments'].sum() / logs['log_updates'].sum():.1f} terms adjusted per change",
        },
    }


def book_games_claims(bk: samuel_checkers.Learned) -> Checks:
    """Book games: how much more often the learner finds the master's move (:func:`samuel_checkers.book_games_gain`)."""
    first, last, gain = samuel_checkers.book_games_gain(bk)
    return {
        "book-games-agreement-gain": {
            "ours": gain,
            "note": f"first 1,000 book games {100 * first:.1f} %, last 1,000 {100 * last:.1f} % of the master's "
            "moves found",
        }
    }


def ladder_claims(lad: cl.LadderResult, r: Any) -> Checks:
    """The ladder's verdicts on rote with generalization, book games, book agreement and the learned players."""
    d_gen = r.difference("Samuel (learned) + rote", "Samuel (learned)")
    d_rote = r.difference("Samuel (learned) + rote", "rote program")
    d_book = r.difference("Samuel (book games)", "Samuel (learned)")
    agree = lad.agreement
    best = max(agree, key=lambda n: agree[n].share)
    learned = agree["Samuel (learned)"]
    out: Checks = {
        "rote-plus-generalization": {
            "ours": bool(d_gen[1] > 0 and d_rote[1] > 0),
            "note": f"+ rote minus learned alone {d_gen[0]:+.0f} Elo [{d_gen[1]:+.0f}, {d_gen[2]:+.0f}]; "
            f"minus the rote program {d_rote[0]:+.0f} [{d_rote[1]:+.0f}, {d_rote[2]:+.0f}]",
        },
        "ladder-book-games-vs-self-play": {"ours": d_book[0], "note": f"95 % [{d_book[1]:+.0f}, {d_book[2]:+.0f}] Elo"},
        "book-agreement-samuel-learned": {"ours": Estimate(learned.share, learned.stderr, learned.positions)},
        "book-agreement-best": {
            "ours": agree[best].share,
            "note": f"{best}: {100 * agree[best].share:.1f} % ± {100 * agree[best].stderr:.1f}",
        },
        "book-agreement-tracks-rating": {
            "ours": samuel_checkers.agreement_rank_correlation(lad, r),
            "note": f"{len([n for n in cl.EQUAL_SEARCH if n in lad.names])} players at the equal search",
        },
    }
    for cid, a, b in (
        ("learned-beats-initial", "Samuel (learned)", "Samuel (initial)"),
        ("learned-beats-material", "Samuel (learned)", "material α-β"),
        ("tdleaf-vs-samuel-learned", "TD-Leaf (learned)", "Samuel (learned)"),
        ("tdleaf-vs-material", "TD-Leaf (learned)", "material α-β"),
    ):
        m = lad.match(a, b)
        out[cid] = {"ours": m.estimate(), "note": m.text()}
    return out


def first_games_claims(st: ss.Study) -> Checks:
    """§4.5 on the learner's first games and its course, over the study's seeded runs."""
    fg = st.first_games()
    n7 = len(fg["losses"])
    avg = st.above_average(25)
    chi2, df, p = st.erratic()
    worse, z = st.worse_with_time()
    return {
        "first-7-games-leader-changes": {
            "ours": Spread.of(fg["top_changes"]),
            "note": f"{len(fg['top_changes'])} seeded runs: median {np.median(fg['top_changes']):.0f}, "
            f"range {fg['top_changes'].min()}–{fg['top_changes'].max()}",
        },
        "first-7-games-losses": {
            "ours": float(fg["losses"].mean()),
            "note": f"mean of {n7} runs ± {fg['losses'].std(ddof=1) / np.sqrt(n7):.2f}: Alpha lost "
            f"{100 * fg['losses'].sum() / (7 * n7):.0f} %, won {100 * fg['wins'].sum() / (7 * n7):.0f} % of its "
            "first games",
        },
        "better-than-average-after-25-games": {
            "ours": bool(avg[1] > 0),
            "note": f"25-game polynomials minus the ladder average: {avg[0]:+.0f} Elo [{avg[1]:+.0f}, {avg[2]:+.0f}]",
        },
        "erratic-and-none-too-stable": {
            "ours": bool(p < 0.05),
            "note": f"χ² = {chi2:.0f} on {df} degrees of freedom, p = {p:.2g}",
        },
        "worse-with-time": {
            "ours": worse,
            "note": "300-game minus 25-game rating in match-noise units per run: " + ", ".join(f"{x:+.1f}" for x in z),
        },
    }


def _fmt(x: tuple[float, float, float]) -> str:
    return f"{x[0]:+.1f} [{x[1]:+.1f}, {x[2]:+.1f}]"


def stabiliser_claims(st: ss.Study, eff: dict[str, dict[str, tuple[float, float, float]]]) -> Checks:
    """§3.3–§4.5's stabilisers, each one change at a time (:func:`samuel_checkers.stabiliser_effects`)."""
    every8 = st.effect("first series, coefficients every 8 moves", "volatility", base=ss.FIRST)
    return {
        "instability-unless-updated-each-move": {
            "ours": bool(every8[1] > 0),
            "note": f"volatility every 8 moves minus after each move: {_fmt(every8)}",
        },
        "asymmetric-update-stabilises": {
            "ours": bool(eff["asymmetric update"]["volatility"][1] > 0),
            "note": f"volatility without it minus with it: {_fmt(eff['asymmetric update']['volatility'])}",
        },
        "tally-32-stabilises": {
            "ours": bool(eff["tally limit 32"]["replacements"][1] > 0),
            "note": f"terms replaced per move at 8 minus at 32: {_fmt(eff['tally limit 32']['replacements'])}; "
            f"volatility at 8 minus at 32: {_fmt(eff['tally limit 32']['volatility'])}",
        },
        "beta-after-minimum-wins": {
            "ours": bool(eff["Beta after a majority of wins"]["elo"][1] > 0),
            "note": f"Elo with a majority minus after one win: {_fmt(eff['Beta after a majority of wins']['elo'])}",
        },
        "kick-start-reset-effect": {
            "ours": eff["kick-start reset"]["elo"][0],
            "note": f"95 % {_fmt(eff['kick-start reset']['elo'])} Elo; volatility "
            f"{_fmt(eff['kick-start reset']['volatility'])}",
        },
        "credit-assignment-fix-effect": {
            "ours": eff["credit-assignment fix"]["elo"][0],
            "note": f"95 % {_fmt(eff['credit-assignment fix']['elo'])} Elo; volatility "
            f"{_fmt(eff['credit-assignment fix']['volatility'])}",
        },
    }
