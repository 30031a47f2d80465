"""``data/MANIFEST.md``: every shipped file of ``data/``, what it is, who reads it and how it was made.

The manifest is written from the files themselves (size), their sidecars (``data/X.json`` beside ``data/X.npz``:
the exact command, the code version, the net, the training spec, the ``--warm-start`` parent) and :data:`USES`,
the table of which notebook or test reads each file through which function.  ``python -m tdbook.manifest
--write`` writes it; ``tests/test_manifest.py`` fails when the committed manifest differs from a fresh one, when
a file has no row in :data:`USES` (or a row has no file), and when a notebook or test named there no longer
calls the function it is listed under.  ``data/results/`` (the notebooks' outputs) is not a shipped input and is
left out.

``data/`` holds what the chapters read (issue 48 §5): a symmetric-gammon net whose weights no chapter reads keeps only
its sidecar there, listed as the record, with the SHA-256 of its weights; ``python -m tdbook restore NAME``
(:func:`restore`) brings the weights back from git history, checking that hash.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import re
import shlex
import subprocess
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from .core.paths import data_dir, repo_root
from .core.storage import atomic_write_bytes
from .experiments.backgammon.equity_loss import LOSS_NETS
from .experiments.backgammon.expert_backgammon import CURVE_NET, MATCH_ORDER
from .experiments.backgammon.rollout_consistency import CONSISTENCY_NETS
from .experiments.backgammon.symmetric_gammon_nets import (
    BEST,
    CONSTRAINT_AT_BUDGET,
    LABELS,
    LEVERS,
    NETS,
    RIVAL_NETS,
    RUNS,
    SHA256_KEY,
    TRAINED,
)
from .experiments.backgammon.symmetric_gammon_records import RIVALS_RECORD

MANIFEST = "MANIFEST.md"
COMMAND = "python -m tdbook.manifest --write"
#: The command that brings a net's weights back from git history (:func:`restore`).
RESTORE = "python -m tdbook restore"
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
#: Every net's sidecar is read by notebook 10's table of nets and by the choice of the best net (09 and 10).
_SYM_SIDECAR = (
    Use("10", "net_rows", _S),
    Use("10", "best_net", _S + " (its selection match)"),
    Use("09", "best_shipped", _S + " (its selection match)"),
)
#: What reads the weights of every net the chapters ship: notebook 10's re-measure panel and its test.
_SYM_WEIGHTS = (
    Use("10", "panel_nets", _W + " (the re-measure panel: any net a chapter reads, picked by its label)"),
    Use("tests/test_backgammon_remeasure.py", "remeasure", _W + " (every shipped net plays)"),
    Use("10", "historical_rows", _S + " (its code version)"),
)


def _sym_uses(name: str) -> tuple[Use, ...]:
    """Who reads a symmetric-gammon net, from the chapters' design (:mod:`~tdbook.experiments.backgammon.
    symmetric_gammon_nets` and the diagnoses' net lists): its weights if they are shipped, and its sidecar."""
    uses: list[Use] = []
    if name in RIVAL_NETS.values():
        uses.append(Use("09", "load_nets", _W + " (the post's net)"))
    if name == RIVAL_NETS["free"]:
        uses.append(Use("09", "ladder_figure", _S + " (its ladder)"))
    if name in CONSTRAINT_AT_BUDGET:
        uses.append(Use("09", "constraint_claims", _S + " (its ladder)"))
    if name == BEST:
        uses += [
            Use("09", "load_shipped", _W + " (the position picker)"),
            Use("09", "strength_rows", _S + " (its ladder)"),
            Use("10", "aim_claims", _S + " (its ladder: the aims)"),
            Use("10", "lookahead", _W + " (the lookahead diagnosis)"),
        ]
    if name in LOSS_NETS:
        uses.append(Use("10", "losses", _W + " (the equity-loss diagnosis)"))
    if name in CONSISTENCY_NETS or name == BEST:
        uses.append(Use("10", "rollouts", _W + " and the rollout record in its sidecar (the rollout diagnosis)"))
    if name in MATCH_ORDER:
        uses.append(Use("10", "sample_checks", _W + " (its trainer's match against pubeval, replayed)"))
    if name == CURVE_NET:
        uses.append(Use("10", "sample_checks", _W + " (its learning-curve point against gnubg-expert, replayed)"))
    if any(name in (lev.child, lev.parent) for lev in LEVERS):
        uses.append(Use("10", "lever_rows", _S + " (its ladder: a lever's net or parent)"))
    if any(name in run.nets or name in run.curve for run in RUNS.values()):
        uses.append(Use("10", "run_claims", _S + " (its ladder or learning curve: a run's points)"))
    if name in NETS:
        uses += _SYM_WEIGHTS
    return (*uses, *_SYM_SIDECAR)


def _sym(name: str) -> Shipped:
    """A symmetric-gammon net: what it is is its label in the chapters (built from its sidecar); a net whose weights
    are not shipped is listed by its sidecar, the record."""
    what = LABELS.get(name, name)
    if name not in NETS:
        what += " — weights not shipped (no chapter reads them): `python -m tdbook restore " + name + "`"
    return Shipped(what, _sym_uses(name))


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
            Use("09", "rival_curves", _W + " (the opponent of the learning curves)"),
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
    "kenju_performance_curves.npz": Shipped(
        "the record of notebook 03's Fig. 4.4 performance curves, every replicate as run and powered (read in the "
        "standard profile, the first replicate run again)",
        (Use("03", "performance_curves", "the curves"),),
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
    **{f"{n}.npz" if n in NETS else f"{n}.json": _sym(n) for n in TRAINED},
    RIVALS_RECORD: Shipped(
        "the learning curves of notebook 09 §3's four rivals at equal budgets (each rival, each seed), the record its "
        "standard profile reads",
        (Use("09", "rival_curves", "the curves (rival (a)'s first points trained again)"),),
    ),
    "td_gammon_40.npz": Shipped(
        "TD-Gammon with 40 hidden units (Powell's chapter 5 net)",
        (Use("08", "nets", _W + " and the learning curve in the sidecar"),),
    ),
    "td_gammon_80.npz": Shipped(
        "TD-Gammon with 80 hidden units (Powell's chapter 5 net); notebook 09's Tesauro-style baseline",
        (
            Use("08", "nets", _W + " and the learning curve in the sidecar"),
            Use("09", "load_nets", _W),
            Use("09", "ladder_figure", _S + " (its ladder)"),
        ),
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
    loop = spec.get("loop")
    if isinstance(loop, dict):
        targets = "2-ply values" if loop.get("search") else "rollouts"
        parts.append(f"{_num(side.get('iterations'))} iteration(s) of the rollout loop, {_num(loop.get('positions'))} "
                     f"positions each, fitted to the net's own {targets}")  # fmt: skip
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
        sidecar_only = p.suffix == ".json"  # the record itself: what reads "the sidecar" reads this file
        readers = sorted({_who(u) for u in uses if sidecar_only or not u.reads.startswith(_S)}, key=_order)
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
        if SHA256_KEY in side:
            where = "" if p.suffix == ".npz" else f" (in git history: `{RESTORE} {Path(name).stem}`)"
            body.append(f"- **weights sha256:** `{side[SHA256_KEY]}`{where}")
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


# ----------------------------------------------------------------------------- weights in git history


def sha256_of(path: Path) -> str:
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


def record_sha256(names: Sequence[str], root: Path | None = None) -> list[str]:
    """Write the SHA-256 of each net's weights ``data/NAME.npz`` into its sidecar (:data:`~tdbook.experiments.
    backgammon.symmetric_gammon_nets.SHA256_KEY`, all else kept, the sidecar's code version untouched: the hash is
    of the file as it is); the names whose sidecar changed.  ValueError naming a net whose weights or sidecar are
    missing, or whose sidecar holds another hash (nothing is written then)."""
    root = Path(root) if root is not None else data_dir()
    todo = {}
    for n in names:
        npz, side_path = root / f"{n}.npz", root / f"{n}.json"
        if not npz.is_file() or not side_path.is_file():
            raise ValueError(f"{n}: no weights {npz.name} or no sidecar {side_path.name} in {root}")
        side = json.loads(side_path.read_text())
        h = sha256_of(npz)
        if side.get(SHA256_KEY) not in (None, h):
            raise ValueError(f"{n}: its sidecar says sha256 {side[SHA256_KEY]}, the file is {h}")
        if side.get(SHA256_KEY) != h:
            todo[side_path] = {**side, SHA256_KEY: h}
    for side_path, side in todo.items():
        atomic_write_bytes(side_path, (json.dumps(side, indent=1) + "\n").encode())
    return [p.stem for p in todo]


def _git(*args: str, root: Path) -> subprocess.CompletedProcess:
    return subprocess.run(["git", *args], cwd=root, capture_output=True, timeout=120)


def restore(name: str, root: Path | None = None) -> tuple[Path, str]:
    """Bring the weights ``data/NAME.npz`` of a net whose sidecar ``data/NAME.json`` stayed in ``data/`` back from this
    checkout's git history: the newest committed version whose SHA-256 is the one its sidecar holds.  Returns the path
    and the commit it came from ('' when the file was already there, with that hash).  ValueError naming the problem
    (no such sidecar, no hash in it, a different file in the way, no git, a shallow clone, no matching version);
    nothing is written then."""
    repo = Path(root) if root is not None else repo_root()
    data = repo / "data"
    side_path, target = data / f"{name}.json", data / f"{name}.npz"
    if "/" in name or name.endswith((".npz", ".json")) or not side_path.is_file():
        have = sorted(p.stem for p in data.glob("*.json") if SHA256_KEY in json.loads(p.read_text() or "{}"))
        raise ValueError(f"no sidecar data/{name}.json; a net's name is its file stem, one of: {', '.join(have)}")
    want = json.loads(side_path.read_text()).get(SHA256_KEY)
    if not want:
        raise ValueError(f"data/{name}.json holds no {SHA256_KEY}: its weights cannot be checked, so none are restored")
    if target.is_file():
        if sha256_of(target) == want:
            return target, ""
        raise ValueError(f"data/{name}.npz is there and is not the file its sidecar names (sha256 {want[:12]}…)")
    try:
        log = _git("log", "--format=%H", "HEAD", "--", f"data/{name}.npz", root=repo)
    except (OSError, subprocess.SubprocessError) as e:
        raise ValueError(f"cannot run git in {repo}: {e}") from None
    if log.returncode:
        raise ValueError(
            f"{repo} is not a git checkout ({log.stderr.decode().strip()}): the weights live in its history"
        )
    for commit in log.stdout.decode().split():
        blob = _git("show", f"{commit}:data/{name}.npz", root=repo)
        if blob.returncode == 0 and hashlib.sha256(blob.stdout).hexdigest() == want:
            atomic_write_bytes(target, blob.stdout)
            return target, commit
    shallow = _git("rev-parse", "--is-shallow-repository", root=repo).stdout.decode().strip() == "true"
    hint = " (this clone is shallow: `git fetch --unshallow` first)" if shallow else ""
    raise ValueError(f"no commit of data/{name}.npz in this checkout's history has the sidecar's sha256 {want}{hint}")


def restore_main(argv: Sequence[str] | None = None) -> int:
    """``python -m tdbook restore NAME …``: bring nets' weights back from git history (:func:`restore`)."""
    ap = argparse.ArgumentParser(
        prog=RESTORE,
        description="Bring back the weights data/NAME.npz of a net whose sidecar data/NAME.json is the record, from "
        "git history, checked against the SHA-256 the sidecar holds.",
    )
    ap.add_argument(
        "names", nargs="*", metavar="NAME", help="a net's name (its file stem), e.g. symgammon_free80_raw_800k"
    )
    ap.add_argument("--list", action="store_true", help="list the nets whose weights are not in data/")
    a = ap.parse_args(argv)
    if a.list or not a.names:
        for p in sorted(data_dir().glob("*.json")):
            side = json.loads(p.read_text() or "{}")
            if isinstance(side, dict) and SHA256_KEY in side and not p.with_suffix(".npz").is_file():
                print(p.stem)
        return 0 if a.list else 2
    for n in a.names:
        try:
            path, commit = restore(n)
        except ValueError as e:
            print(f"tdbook restore: error: {e}", file=sys.stderr)
            return 2
        how = f"from commit {commit[:12]}" if commit else "already there"
        print(f"data/{path.name}: {how}; sha256 matches its sidecar")
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m tdbook.manifest", description=__doc__.splitlines()[0])
    ap.add_argument("--write", action="store_true", help=f"write data/{MANIFEST} (default: print it)")
    ap.add_argument(
        "--record-sha256",
        nargs="+",
        metavar="NAME",
        help="write the SHA-256 of data/NAME.npz into its sidecar (before its weights leave data/)",
    )
    a = ap.parse_args(argv)
    if a.record_sha256:
        try:
            changed = record_sha256(a.record_sha256)
        except ValueError as e:
            print(f"tdbook.manifest: error: {e}", file=sys.stderr)
            return 2
        print(f"recorded the sha256 of {len(changed)} nets")
        return 0
    text = render()
    if a.write:
        atomic_write_bytes(data_dir() / MANIFEST, text.encode())
        print(f"wrote data/{MANIFEST} ({len(shipped_files())} files)")
    else:
        sys.stdout.write(text)
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
