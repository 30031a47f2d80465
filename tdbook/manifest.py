"""``data/MANIFEST.md``: every shipped file of ``data/``, what it is, who reads it and how it was made.

The manifest is written from the files themselves (size), their sidecars (``data/X.json`` beside ``data/X.npz``:
the exact command, the code version, the net, the training spec, the ``--warm-start`` parent) and :data:`USES`,
the table of which notebook or test reads each file through which function.  ``python -m tdbook.manifest
--write`` writes it; ``tests/test_manifest.py`` fails when the committed manifest differs from a fresh one, when
a file has no row in :data:`USES` (or a row has no file), and when a notebook or test named there no longer
calls the function it is listed under.  ``data/results/`` (the notebooks' outputs) is not a shipped input and is
left out.
"""

from __future__ import annotations

import argparse
import json
import re
import shlex
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from .core.paths import data_dir
from .core.storage import atomic_write_bytes
from .experiments.backgammon.symmetric_gammon_nets import CHANGES, LABELS, NETS, RIVAL_NETS

MANIFEST = "MANIFEST.md"
COMMAND = "python -m tdbook.manifest --write"
#: Folders of ``data/`` that hold outputs, not shipped inputs.
OUTPUTS = ("results",)


@dataclass(frozen=True)
class Use:
    """A reader of a shipped file: ``by`` (``"09"`` a notebook, or a test file ``"tests/test_x.py"``) calls
    ``via`` (a function name the notebook's code cells or the test file contain), which reads ``reads`` of it."""

    by: str
    via: str
    reads: str


@dataclass(frozen=True)
class Shipped:
    """A shipped file: what it is in plain words, and who reads it (empty: nothing does)."""

    what: str
    uses: tuple[Use, ...] = ()


_W, _S = "the weights", "the sidecar"
_SYM_SIDECAR = (Use("09", "ladder_rows", _S), Use("09", "budget_rows", _S), Use("09", "best_shipped", _S))
_SYM_TEST = (
    Use("tests/test_backgammon_strength.py", "best_shipped", "the sidecar's selection match"),
    Use("09", "shipped_nets", _W + " (the re-measure panel: any net of the tables, picked by its label)"),
    Use("tests/test_backgammon_remeasure.py", "remeasure", _W + " (every shipped net plays)"),
)
_SYM_LOSS = (Use("09", "shipped_losses", _W + " (the equity-loss diagnosis)"),)
#: The nets of the recipe table (§4.2): each side of every single change, whose sidecar ``recipe_rows`` reads.
_RECIPE_NETS = {n for _, with_it, without in CHANGES for n in (with_it, without)}


def _sym(name: str, note: str = "", uses: tuple[Use, ...] = ()) -> Shipped:
    """A net of notebook 09: what it is is its label there (built from its sidecar), and a note; a net of the
    recipe table is read by ``recipe_rows`` too."""
    label = LABELS.get(name, name)
    recipe = (Use("09", "recipe_rows", _S),) if name in _RECIPE_NETS else ()
    return Shipped(label + (f": {note}" if note else ""), (*uses, *recipe, *_SYM_SIDECAR, *_SYM_TEST))


_LOAD_NETS = Use("09", "load_nets", _W)
#: What notebook 09 reads of some nets beyond the tables, the panel and the tests every net is read by.
_SYM_MORE: dict[str, tuple[str, tuple[Use, ...]]] = {
    RIVAL_NETS["symmetric"]: ("the post's net (a)", (_LOAD_NETS,)),
    RIVAL_NETS["naive"]: ("the post's net (b)", (_LOAD_NETS,)),
    RIVAL_NETS["free"]: ("the post's net (c)", (_LOAD_NETS,)),
    "symgammon_free160_expanded_4000k": ("", _SYM_LOSS),
    "symgammon_free160_contact_4000k": ("", _SYM_LOSS),
    "symgammon_free160_expanded_bg_4000k": ("", _SYM_LOSS),
    "symgammon_free160_contact_bg_4800k": ("", _SYM_LOSS),
    "symgammon_free160_contact_bg_5000k": (
        "the best net on the selection match before the positional run's annealed net",
        _SYM_LOSS,
    ),
    "symgammon_free160_positional_bg_5000k": (
        "eleven positional inputs per side more than its parent",
        (),
    ),
    "symgammon_free160_positional_bg_5200k": (
        "the control of the annealed net",
        (),
    ),
    "symgammon_free160_positional_bg_anneal_5200k": (
        "the positional run's games from 5.0 M to 5.2 M at the step size 0.005 instead of 0.02 (the best net on the "
        "selection match before the annealed 6.0 M net)",
        (),
    ),
    "symgammon_free160_positional_bg_6000k": (
        "the control of the annealed 6.0 M net",
        (Use("09", "curve_rows", _S + " (its learning curve, to 6.0 M games)"),),
    ),
    "symgammon_free160_positional_bg_anneal_6000k": (
        "the best net on the selection match before the 7.0 M net",
        (),
    ),
    "symgammon_free160_positional_bg_7000k": (
        "the best net on the selection match before the lookahead net, the control of the annealed 7.0 M net, and the "
        "parent of the lookahead net",
        (Use("09", "curve_rows", _S + " (its learning curve, 6.0 M to 7.0 M games)"),),
    ),
    "symgammon_free160_positional_bg_7200k": (
        "the control of the lookahead net",
        (),
    ),
    "symgammon_free160_positional_bg_lookahead_7200k": (
        "a tenth of the contact positions looked ahead; the best net on the selection match before the 7.4 M nets, "
        "and the parent of the lookahead run at 7.4 M",
        (),
    ),
    "symgammon_free160_positional_bg_7400k": (
        "the control of the lookahead run at 7.4 M, the parent of the 7.6 M net (--warm-start), "
        "and the best net on the selection match (its ladder and its 2-ply figure are the aims' figures)",
        (
            Use("09", "load_shipped", _W + " (the best net: the lookahead diagnosis, the position picker)"),
            Use("09", "expert_claims", _S),
            *_SYM_LOSS,
        ),
    ),
    "symgammon_free160_positional_bg_lookahead_7400k": (
        "a tenth of the contact positions looked ahead throughout",
        (),
    ),
    "symgammon_free160_positional_bg_7600k": (
        "the control of the averaged net, the parent of the 8.6 M net (--warm-start)",
        (),
    ),
    "symgammon_free160_positional_bg_averaged_7600k": (
        "the averaging lever, against the 7.6 M net",
        (),
    ),
    "symgammon_free160_positional_bg_8600k": (
        "the control of the averaged 8.6 M net",
        (Use("09", "curve_rows", _S + " (its learning curve, 7.6 M to 8.6 M games)"),),
    ),
    "symgammon_free160_positional_bg_averaged_8600k": (
        "the averaging lever over 1 M games (twenty snapshots from 7.65 M), against the 8.6 M net",
        (),
    ),
    "symgammon_free160_contact_bg_bearoff_4800k": (
        "valuing bear-off positions by the exact one-sided table when it chooses a move",
        (),
    ),
}


def _learned(what: str) -> Shipped:
    return Shipped(what, (Use("02", "learned", _W), Use("tests/test_checkers_study.py", "learned", _W)))


#: Every shipped file of ``data/`` (sidecars go with their ``.npz``) and who reads it.
USES: dict[str, Shipped] = {
    "acf_checkers/ACF.txt.gz": Shipped(
        "the ACF archive of master checkers games (gzip of the original ACF.txt; README.md and LICENSE beside it "
        "say where it comes from and under which licence): the book positions of the signature tables and of "
        "Samuel's book learning",
        (
            Use("01", "whole_archive", "the games (book positions)"),
            Use("02", "ladder_and_ratings", "the games (book models, held-out agreement)"),
            Use("tests/test_checkers_book.py", "read_games", "the games"),
        ),
    ),
    "acf_checkers/LICENSE": Shipped("the licence of the ACF archive"),
    "acf_checkers/README.md": Shipped("where the ACF archive comes from and how it was checked"),
    "checkers_ladder.npz": Shipped(
        "the checkers ladder: a round robin of the players, with their Elo ratings and book agreement",
        (Use("02", "ladder_and_ratings", "the games"),),
    ),
    "checkers_samuel.npz": _learned("Samuel's learned scoring polynomial (self-play, Alpha against Beta)"),
    "checkers_samuel_book.npz": _learned("Samuel's scoring polynomial learned from the book moves of the ACF archive"),
    "checkers_samuel_study.npz": Shipped(
        "the study of Samuel's learner: one change at a time from the first series, several seeds each, "
        "rated against the ladder's anchors",
        (Use("02", "study", "the games"),),
    ),
    "checkers_tdleaf.npz": _learned("TD-Leaf(λ) weights of the checkers terms, learned in self-play"),
    "pubeval_weights.json": Shipped(
        "Tesauro's public evaluation function (pubeval): the linear weights of its contact and race parts, "
        "the benchmark opponent of notebooks 08 and 09",
        (
            Use("08", "ladder_matches", _W + " (the opponent of the ladder)"),
            Use("09", "train_rival", _W + " (the opponent of the learning curves)"),
            Use("tests/test_backgammon.py", "load_pubeval_weights", _W),
        ),
    ),
    "signature_book.npz": Shipped(
        "checkers positions labelled by a deep-searching teacher (the preferred move of each), to train "
        "signature tables on",
        (Use("01", "load", "the positions"), Use("01", "book_sidecar", _S)),
    ),
    "signature_tables_acf.npz": Shipped(
        "the three signature-table models fitted on the ACF archive's book moves",
        (Use("01", "matches", "the models (checked against the ones fitted now: tables exactly, weights to 1e-9)"),),
    ),
    "signature_tables_matches.npz": Shipped(
        "the round robin of the three signature-table models at search depths 3, 4 and 5",
        (Use("01", "matches", "the games"),),
    ),
    "td_gammon_matches.npz": Shipped(
        "the record of notebook 08's own matches: every pair's points of both nets against pubeval and of pubeval "
        "against gnubg-expert (read in the standard profile, the first 40 pairs of each played again)",
        (Use("08", "ladder_matches", "the matches"),),
    ),
    "tictactoe_net_ablations.npz": Shipped(
        "the record of notebook 07's ablations: every configuration's row (read in the standard profile, the first "
        "configuration trained again)",
        (Use("07", "ablation", "the thesis nets' ablation rows"), Use("07", "recipe_ablation", "the recipe's rows")),
    ),
    "waterman_poker_sweeps.npz": Shipped(
        "the record of notebook 04's sensitivity studies: every run's numbers at every value (read in the standard "
        "profile, the first run of each value measured again)",
        (Use("04", "sweep", "the studies of the unstated constants"), Use("04", "noise_sweep", "the noise sweep")),
    ),
    **{f"{n}.npz": _sym(n, *_SYM_MORE.get(n, ("", ()))) for n in NETS},
    "td_gammon_40.npz": Shipped(
        "TD-Gammon with 40 hidden units (Powell's chapter 5 net)",
        (Use("08", "nets", _W + " and the learning curve in the sidecar"),),
    ),
    "td_gammon_80.npz": Shipped(
        "TD-Gammon with 80 hidden units (Powell's chapter 5 net); notebook 09's Tesauro-style baseline",
        (Use("08", "nets", _W + " and the learning curve in the sidecar"), Use("09", "load_nets", _W)),
    ),
    "td_gammon_80_lambda07_curve.json": Shipped(
        "the learning curve of a λ = 0.7 comparison run of the 80-hidden net (no weights: the run was stopped)",
        (Use("08", "learning_curves", "the curve"),),
    ),
    "tictactoe_net_perfect.npz": Shipped(
        "a tic-tac-toe TD(λ) net trained until it plays every reachable position optimally",
        (Use("07", "perfect_net", _W), Use("tests/test_tictactoe_net.py", "load_perfect", _W)),
    ),
}


def shipped_files(root: Path | None = None) -> list[str]:
    """The shipped files of ``data/`` relative to it, sorted: sidecars (``X.json`` beside ``X.npz``), the
    manifest itself and the output folders left out."""
    root = Path(root) if root is not None else data_dir()
    out = []
    for p in sorted(root.rglob("*")):
        rel = p.relative_to(root)
        if not p.is_file() or rel.parts[0] in OUTPUTS or rel.name == MANIFEST or rel.name.startswith("."):
            continue
        if p.suffix == ".json" and p.with_suffix(".npz").is_file():
            continue
        out.append(rel.as_posix())
    return out


def _sidecar(root: Path, name: str) -> dict:
    p = root / name
    side = p.with_suffix(".json") if p.suffix == ".npz" else p if p.suffix == ".json" else None
    if side is None or not side.is_file():
        return {}
    d = json.loads(side.read_text())
    return d if isinstance(d, dict) else {}


def _num(v) -> str:
    return f"{v:,}" if isinstance(v, int) and not isinstance(v, bool) else f"{v:g}" if isinstance(v, float) else str(v)


def _facts(side: dict) -> str:
    """What the sidecar says the file is: the net, the games, the step sizes, λ, the levers and the seed."""
    spec = side.get("spec", {}) if isinstance(side.get("spec"), dict) else {}
    parts = []
    if "net" in side:
        parts.append(str(side["net"]))
    if isinstance(side.get("games"), int):
        parts.append(f"{side['games']:,} games")
    if "alpha" in spec:
        a = f"step size α {_num(spec['alpha'])}"
        if spec.get("alpha_late") is not None:
            a += f", {_num(spec['alpha_late'])} after {_num(spec.get('late_after'))} games"
        if spec.get("alpha_final") is not None and spec.get("final_after") is not None:
            a += f", {_num(spec['alpha_final'])} after {_num(spec['final_after'])} games"
        parts.append(a)
    if spec.get("beta") is not None:
        parts.append(f"β {_num(spec['beta'])}")
    if spec.get("lam") is not None:
        parts.append(f"λ {_num(spec['lam'])}")
    for k in ("inputs", "encoding", "backgammons", "bearoff", "lookahead"):
        if spec.get(k) not in (None, False):
            parts.append(k if spec[k] is True else f"{k} {spec[k]}")
    if spec.get("average_from") is not None:
        parts.append(
            f"weights averaged from {_num(spec['average_from'])} games, every {_num(spec.get('average_every'))}"
        )
    if "seed" in side or "seed" in spec:
        parts.append(f"seed {side.get('seed', spec.get('seed'))}")
    return "; ".join(parts)


def _parent(side: dict) -> str:
    """The file this one was trained on from: the spec's ``warm_start``, else ``--warm-start`` in the command."""
    warm = side.get("spec", {}).get("warm_start") if isinstance(side.get("spec"), dict) else None
    if isinstance(warm, dict) and warm.get("file"):
        extra = [f"{warm['games']:,} games" if isinstance(warm.get("games"), int) else ""]
        extra += [f"sha256 {warm['sha256'][:12]}…" if warm.get("sha256") else ""]
        extra = [e for e in extra if e]
        return f"`{Path(warm['file']).name}`" + (f" ({', '.join(extra)})" if extra else "")
    argv = shlex.split(side.get("command", "")) if isinstance(side.get("command"), str) else []
    if "--warm-start" in argv[:-1]:
        return f"`{Path(argv[argv.index('--warm-start') + 1]).name}`"
    return ""


def _version(v: str) -> str:
    if "+dirty" in v:
        rev = re.search(r"git ([0-9a-f]+)\+dirty", v)
        on = f" on top of commit {rev.group(1)}" if rev else ""
        return f"`{v}` — **made from uncommitted changes{on}**: the commit alone may not rebuild it"
    return f"`{v}`"


def _size(n: int) -> str:
    return f"{n / 1000:,.1f} kB"


def _who(u: Use) -> str:
    return f"notebook {u.by}" if u.by.isdigit() else f"`{u.by}`"


def render(root: Path | None = None) -> str:
    """The manifest of ``root`` (default ``data/``) as Markdown."""
    root = Path(root) if root is not None else data_dir()
    files = shipped_files(root)
    lines = [
        "# Shipped files of `data/`",
        "",
        f"Generated by `{COMMAND}` from the files, their sidecars and the table of readers in "
        "`tdbook/manifest.py` (`USES`); do not edit by hand. `tests/test_manifest.py` fails when it is stale. "
        "A sidecar `X.json` beside `X.npz` holds the command that made the file and the code version; "
        "`data/results/` holds the notebooks' outputs and is not listed.",
        "",
        "| file | size | the file read by | only its sidecar read by | made from committed code |",
        "|---|---|---|---|---|",
    ]
    body = []
    for name in files:
        p = root / name
        side = _sidecar(root, name)
        row = USES.get(name)
        size = p.stat().st_size + (p.with_suffix(".json").stat().st_size if p.suffix == ".npz" else 0)
        uses = row.uses if row else ()
        readers = sorted({_who(u) for u in uses if not u.reads.startswith(_S)}, key=_order)
        side_only = sorted({_who(u) for u in uses if u.reads.startswith(_S)} - set(readers), key=_order)
        who = ", ".join(readers) if readers else ("**nothing**" if row else "**not in `USES`**")
        made = "—" if "code_version" not in side else "no" if "+dirty" in str(side["code_version"]) else "yes"
        lines.append(f"| [`{name}`](#{_anchor(name)}) | {_size(size)} | {who} | {', '.join(side_only)} | {made} |")
        body += ["", f"## {name}", ""]
        what = row.what if row else "*(no row in `tdbook/manifest.py`'s `USES` yet)*"
        facts = _facts(side)
        body.append(f"- **what:** {what}" + (f" — {facts}" if facts else ""))
        if side.get("renamed_from"):
            body.append(f"- **renamed from:** `{side['renamed_from']}` (the name it was made under)")
        if (parent := _parent(side)) != "":
            body.append(f"- **trained on from:** {parent}")
        body.append(
            f"- **size:** {_size(p.stat().st_size)}"
            + (
                f" + sidecar `{p.with_suffix('.json').name}` {_size(size - p.stat().st_size)}"
                if size > p.stat().st_size
                else ""
            )
        )
        if row and row.uses:
            body.append("- **read by:**")
            body += [f"  - {_who(u)}: `{u.via}` reads {u.reads}" for u in row.uses]
        elif row:
            body.append("- **read by:** nothing in the notebooks or tests")
        if isinstance(side.get("command"), str):
            body.append(f"- **command:** `{side['command']}`")
        elif "source" in side:
            body.append(f"- **source:** {side['source']}")
        if "code_version" in side:
            body.append(f"- **code version:** {_version(str(side['code_version']))}")
        if "code_note" in side:
            body.append(f"- **code note:** {side['code_note']}")
        for key, sub in side.items():
            if isinstance(sub, dict) and isinstance(sub.get("command"), str):
                v = f" ({_version(str(sub['code_version']))})" if "code_version" in sub else ""
                body.append(f"- **{key} measured by:** `{sub['command']}`{v}")
    return "\n".join(lines + body) + "\n"


def _order(who: str) -> tuple[bool, str]:
    return who.startswith("`"), who


def _anchor(name: str) -> str:
    """GitHub's anchor of the heading ``## name``."""
    return re.sub(r"[^a-z0-9_\- ]", "", name.lower()).replace(" ", "-")


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m tdbook.manifest", description=__doc__.splitlines()[0])
    ap.add_argument("--write", action="store_true", help=f"write data/{MANIFEST} (default: print it)")
    a = ap.parse_args(argv)
    text = render()
    if a.write:
        atomic_write_bytes(data_dir() / MANIFEST, text.encode())
        print(f"wrote data/{MANIFEST} ({len(shipped_files())} files)")
    else:
        sys.stdout.write(text)
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
