"""The symmetric-gammon nets of notebooks 09 and 10 (Symmetric gammon post (2011), and the campaign beyond it): each
net's one name, the file stem by the rule ``symgammon_<arch><hidden>_<inputs>[_bg][_<lever>…]_<games>k``, and the
labels the chapters' tables and figures give the nets and the four rivals, read from the sidecars by one rule.

Two lists, one rule between them (issue 48 §5, ``data/`` holds what the chapters read):

- :data:`TRAINED` — every net ever trained for the chapters, in the order it was made; its sidecar
  ``data/<name>.json`` stays in ``data/`` as the record (command, code version, parent, ladders);
- :data:`NETS` — the nets whose *weights* ``data/<name>.npz`` are shipped: those a chapter's table, figure or
  panel reads.  The weights of the others are in git history, and ``python -m tdbook restore NAME`` brings one back,
  checking its SHA-256 against the sidecar's ``weights_sha256`` (:func:`tdbook.manifest.restore`).

And the campaign's design as data: :data:`LEVERS`, one row per single change (a pair of sidecars, the net with the
change and its parent without it), grouped into :data:`FAMILIES` (each family one claim of notebook 10), and
:data:`RUNS`, the runs whose learning curves notebook 10 fits.  Adding a lever is adding a row of :data:`LEVERS`.
The code, the re-measure panel and ``data/MANIFEST.md`` (:mod:`tdbook.manifest`) all name a net by its name.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from ...core.paths import data_dir
from ...core.storage import read_sidecar
from ...learners.backgammon_symmetric import ARCHS, SymmetricGammon
from .symmetric_gammon_rivals import RIVALS

#: The four rivals of §1–§3, the post's architectures (a)–(d), by their labels; every shipped net's label follows
#: (by its name, :data:`NETS`), so that one dictionary labels whatever a table or figure shows.
LABELS = {
    "symmetric": "(a) symmetric, biased gammon node",
    "naive": "(b) symmetric, unbiased gammon nodes",
    "free": "(c) unconstrained 3-output, side on roll",
    "tesauro": "(d) TD-Gammon 4-output (notebook 08)",
}
#: Notebook 08's net that stands for (d).
TESAURO_SHIPPED = "td_gammon_80.npz"
#: Every net trained for notebooks 09 and 10 (``python -m tdbook train symmetric-gammon …``; its sidecar says how it
#: was made), in the order it was made, by its one name: the file stem ``data/<name>.npz``, built by one rule
#: for every net, ``symgammon_<arch><hidden>_<inputs>[_bg][_<lever>…]_<games>k``.  The value says what the net is
#: beyond its short name (:func:`short_name`, read from the sidecar); empty: the post's own nets, labelled as their
#: rival, and nets trained on from a ``--warm-start`` parent, labelled by what changed from it (:func:`label_of`).
#:
#: The post's nets (a)–(c), 40 hidden units, 150,000 games; then the larger budgets for the strength aim, one change
#: at a time from (c′) on: (c′) 80 hidden units, more games, α 0.1 → 0.02; (c″) the same with the expanded inputs
#: (:mod:`tdbook.games.backgammon_features`); (c″) trained on to twice, four and seven times the games; (c″) with
#: twice the hidden units, and that net trained on to twice, four and five times the games, the last also, over the
#: same extra games, with its step size annealed from 0.02 to 0.005, or with the contact inputs, or with backgammon
#: outputs (one change each), and the last of these trained on to six times the games without and with the contact
#: inputs; (a″) the symmetric net with (c″)'s budget and inputs.  Last, the nets toward gnubg-expert at equal search
#: (one change each from a parent): (c″, 160, 4.8 M, bg, contact) trained on 0.2 M games as it was (the games lever,
#: and the control of the others) and with the positional inputs; the same net with the bear-off table at play; the
#: positional run trained on to 5.2 M games, and over the same games with its step size annealed to 0.005; the
#: positional run trained on to 6.0 M games, and its last 0.2 M games again with the step size annealed to 0.005;
#: the same pair at 7.0 M games; last, the positional run trained on to 7.2 M games as it was, and the 7.0 M net over
#: the same games with lookahead targets on a tenth of the contact positions (``--lookahead 0.1``); and both runs
#: trained on over the next 0.2 M games, to 7.4 M, each as it was; then the positional run trained on to 7.6 M
#: games as it was, and the mean of its weights over those games (``--average-from``, a snapshot every 10,000 games);
#: last, the same pair over a window five times longer: the run trained on to 8.6 M games as it was, and the mean of
#: its weights at every 50,000 games from 7.65 M on.  Then the first lever on the training signal that beat its parent
#: on the selection match (issue 51): the 7.4 M net fitted, one iteration of the rollout loop, to its own 2-ply values
#: of 16,000 positions of its self-play (``train symmetric-gammon-rollouts --targets 2-ply``).
TRAINED: dict[str, str] = {
    "symgammon_symmetric40_raw_150k": "",
    "symgammon_naive40_raw_150k": "",
    "symgammon_free40_raw_150k": "",
    "symgammon_free80_raw_800k": "unconstrained 3-output, 80 hidden, longer, α 0.1 → 0.02",
    "symgammon_free80_expanded_800k": "as (c′), plus 4 hand-made inputs per side",
    "symgammon_free80_expanded_1600k": "(c″) trained on to 1.6 M games",
    "symgammon_free80_expanded_3200k": "(c″) trained on to 3.2 M games",
    "symgammon_free80_expanded_5600k": "(c″) trained on to 5.6 M games",
    "symgammon_free160_expanded_800k": "(c″) with 160 hidden units",
    "symgammon_free160_expanded_1600k": "(c″, 160) trained on to 1.6 M games",
    "symgammon_free160_expanded_3200k": "(c″, 160) trained on to 3.2 M games",
    "symgammon_free160_expanded_4000k": "(c″, 160) trained on to 4.0 M games",
    "symgammon_free160_expanded_anneal_4000k": "(c″, 160, 3.2 M) trained on to 4.0 M games at α 0.005",
    "symgammon_free160_contact_4000k": "(c″, 160, 3.2 M) trained on to 4.0 M games with 3 more inputs per side",
    "symgammon_free160_expanded_bg_4000k": "(c″, 160, 3.2 M) trained on to 4.0 M games with backgammon outputs",
    "symgammon_free160_expanded_bg_4800k": "(c″, 160, 4.0 M, bg) trained on to 4.8 M games",
    "symgammon_free160_contact_bg_4800k": "(c″, 160, 4.0 M, bg) trained on to 4.8 M games, contact inputs",
    "symgammon_symmetric80_expanded_800k": "symmetric, as (c″): 80 hidden, longer, hand-made inputs",
    "symgammon_free160_contact_bg_5000k": "",
    "symgammon_free160_positional_bg_5000k": "",
    "symgammon_free160_contact_bg_bearoff_4800k": "",
    "symgammon_free160_positional_bg_5200k": "",
    "symgammon_free160_positional_bg_anneal_5200k": "",
    "symgammon_free160_positional_bg_6000k": "the positional run trained on to 6.0 M games as it was (α 0.02)",
    "symgammon_free160_positional_bg_anneal_6000k": "the positional run's games from 5.8 M to 6.0 M at α 0.005",
    "symgammon_free160_positional_bg_7000k": "the positional run trained on to 7.0 M games as it was (α 0.02)",
    "symgammon_free160_positional_bg_anneal_7000k": "the positional run's games from 6.8 M to 7.0 M at α 0.005",
    "symgammon_free160_positional_bg_7200k": "the positional run trained on to 7.2 M games as it was (α 0.02)",
    "symgammon_free160_positional_bg_lookahead_7200k": "the 7.0 M net's next 0.2 M games with lookahead targets",
    "symgammon_free160_positional_bg_7400k": "the positional run trained on to 7.4 M games as it was (α 0.02)",
    "symgammon_free160_positional_bg_lookahead_7400k": "the lookahead run trained on to 7.4 M games as it was",
    "symgammon_free160_positional_bg_7600k": "the positional run trained on to 7.6 M games as it was (α 0.02)",
    "symgammon_free160_positional_bg_averaged_7600k": "the mean of the positional run's weights from 7.41 M to 7.6 M",
    "symgammon_free160_positional_bg_8600k": "the positional run trained on to 8.6 M games as it was (α 0.02)",
    "symgammon_free160_positional_bg_averaged_8600k": "the mean of the positional run's weights from 7.65 M to 8.6 M",
    "symgammon_free160_positional_bg_search1_7400k": "the 7.4 M net fitted to its own 2-ply values of 16,000 positions",
}
#: The shipped net of each rival (a)–(c) that notebook 09's §1 and §2 measure (§3 trains the rivals anew).
RIVAL_NETS = {
    "symmetric": "symgammon_symmetric40_raw_150k",
    "naive": "symgammon_naive40_raw_150k",
    "free": "symgammon_free40_raw_150k",
}
#: The best net by the protocol (the best selection match of :data:`TRAINED`; ``expert_backgammon.best_net`` finds
#: it from the sidecars and a test checks that it is this one): notebook 09's "How strong can it get" and notebook
#: 10's aims, diagnoses and sample checks read its weights.
BEST = "symgammon_free160_positional_bg_search1_7400k"
#: The nets whose weights are shipped in ``data/``, because a chapter's table, figure or panel reads them: the post's
#: nets (a)–(c) (notebook 09 §1–§2); the best net; the nets of notebook 10's diagnoses — (c″) (the weakest net the
#: rollout diagnosis takes), the 160-hidden net at 4.0 M games without and with the backgammon outputs (the
#: equity-loss diagnosis; the second also the rollout diagnosis) — and the last net of the positional run, whose
#: learning-curve point the standard profile replays.  ``tests/test_backgammon_records.py`` checks that every one is
#: read and that every net a chapter reads is here.
NETS: tuple[str, ...] = (
    "symgammon_symmetric40_raw_150k",
    "symgammon_naive40_raw_150k",
    "symgammon_free40_raw_150k",
    "symgammon_free80_expanded_800k",
    "symgammon_free160_expanded_4000k",
    "symgammon_free160_expanded_bg_4000k",
    BEST,
    "symgammon_free160_positional_bg_8600k",
)
#: Duplicate pairs of the selection match every candidate plays (:mod:`~tdbook.experiments.backgammon.selection`):
#: 50,000 games against pubeval on the selection seed, ±0.006 ppg, where the trainers' own 4,000 games (±0.02)
#: could not tell apart nets 0.02 ppg apart.  Fixed before (c″, 5.6 M) finished training.
SELECTION_PAIRS = 25_000
#: The ladder plan of the net the aims read (pairs of duplicate games; each pair is two games): four times the
#: gnubg games of the other nets' ladders and twice the pubeval games.  Decided when (c″, 1.6 M)'s first ladder
#: left the gnubg-expert aim within one standard error of its bar, before any larger ladder ran.
AIM_PLAN = {"pubeval_pairs": 50_000, "gnubg_pairs": 10_000}
#: The sidecar key of a net's SHA-256 (of its ``.npz``), by which ``python -m tdbook restore`` checks the weights it
#: brings back from git history.
SHA256_KEY = "weights_sha256"


def net_path(name: str) -> Path:
    """The weights file of net ``name`` of :data:`TRAINED` (its sidecar beside it; the file itself only for the nets
    of :data:`NETS`).  ValueError naming the choices, and the new name of a net renamed since, for a name
    :data:`TRAINED` lacks."""
    if name not in TRAINED:
        old = f"{Path(name).stem}.npz"
        for n in TRAINED:
            if (data_dir() / f"{n}.json").is_file() and read_sidecar(data_dir() / f"{n}.npz").get(
                "renamed_from"
            ) == old:
                raise ValueError(f"shipped net {name!r} is now called {n!r} (its sidecar's renamed_from)")
        raise ValueError(f"no shipped net {name!r}; choose from: {', '.join(TRAINED)}")
    return data_dir() / f"{name}.npz"


def weights_path(name: str) -> Path:
    """The weights file of a net whose weights are shipped; ValueError naming the restore command for a net of
    :data:`TRAINED` whose weights left ``data/`` (no chapter reads them), and the choices for an unknown name."""
    path = net_path(name)
    if name not in NETS and not path.is_file():
        raise ValueError(
            f"the weights of {name} are not shipped (no chapter reads them; its sidecar {name}.json is the record): "
            f"bring them back from git history with  python -m tdbook restore {name}"
        )
    return path


def load_shipped(name: str) -> SymmetricGammon:
    """A net of :data:`NETS` by its name (ValueError naming the choices, or the restore command for a net whose
    weights left ``data/``)."""
    return SymmetricGammon.load(weights_path(name))


def best_shipped() -> str:
    """The net of :data:`TRAINED` with the best selection match in its sidecar
    (:mod:`~tdbook.experiments.backgammon.selection`, :data:`SELECTION_PAIRS` pairs on the selection seed: choosing on
    report seeds would bias the figure); ValueError naming the command for a net without one."""
    ppg = {}
    for r in TRAINED:
        sel = read_sidecar(net_path(r)).get("selection", {})
        if sel.get("pairs", 0) < SELECTION_PAIRS:
            raise ValueError(
                f"{r}.npz has no selection match of {SELECTION_PAIRS:,} pairs (has {sel.get('pairs', 0):,}); run: "
                f"python -m tdbook.experiments.backgammon.selection data/{r}.npz"
            )
        ppg[r] = sel["vs_pubeval"]["ppg"]
    return max(ppg, key=lambda r: ppg[r])


def net_spec(side: dict) -> dict:
    """What a net is, from its sidecar: the trainer's ``spec``; for a net of the rollout loop (whose ``spec`` is the
    loop's run, ``loop`` and ``warm_start``: :mod:`~.rollout_training`), its parent's, with the loop's ``warm_start``
    and what the loop changed — ``targets`` (``"2-ply"`` or ``"rollouts"``) and its ``iterations``."""
    sp = side["spec"]
    if "loop" not in sp:
        return sp
    parent = net_spec(read_sidecar(net_path(Path(sp["warm_start"]["file"]).stem)))
    targets = "2-ply" if sp["loop"].get("search") else "rollouts"
    return {**parent, "warm_start": sp["warm_start"], "targets": targets, "iterations": side["iterations"]}


def short_name(name: str) -> str:
    """A shipped net's short name from its sidecar, by the notebook's one rule: ``(a)``–``(c)`` for the post's nets;
    else the rival's letter, ′ for (c) with 80 hidden units and the longer schedule, ″ with hand-made inputs, then
    the hidden units unless 80, the games unless 0.8 M, an annealed step size, ``bg`` for backgammon outputs, the
    inputs beyond the expanded ones, ``bear-off`` for the table at play, ``lookahead F`` for lookahead targets on a
    share ``F`` of contact positions, ``averaged`` for the mean of the run's last weights (``--average-from``),
    ``2-ply targets`` or ``rollout targets`` for a net of the rollout loop: ``(c″, 160, 4.8 M, bg, contact)``."""
    side = read_sidecar(net_path(name))
    sp, games = net_spec(side), side["games"]
    letter = "abc"[ARCHS[sp["arch"]]]
    inputs = sp.get("inputs", "raw")
    if sp["hidden"] == 40 and inputs == "raw" and "alpha_late" not in sp:
        return f"({letter})"
    parts = [letter + ("′" if inputs == "raw" else "″")]
    parts += [str(sp["hidden"])] if sp["hidden"] != 80 else []
    parts += [f"{games / 1e6:.1f} M"] if games != 800_000 else []
    parts += [f"α {sp['alpha_final']}"] if "alpha_final" in sp else []
    parts += ["bg"] if sp.get("backgammons") else []
    parts += [inputs] if inputs not in ("raw", "expanded") else []
    parts += ["bear-off"] if sp.get("bearoff") else []
    parts += [f"lookahead {sp['lookahead']}"] if sp.get("lookahead") else []
    parts += ["averaged"] if sp.get("average_from") is not None else []
    parts += [{"2-ply": "2-ply targets", "rollouts": "rollout targets"}[sp["targets"]]] if sp.get("targets") else []
    return "(" + ", ".join(parts) + ")"


def label_of(name: str) -> str:
    """A shipped net's label: the rival's for the post's nets; else its short name (:func:`short_name`) and what
    :data:`TRAINED` says of it, or, when that is empty, how it was made from its ``--warm-start`` parent (the inputs or
    the bear-off table it gained, the games it was trained on to)."""
    rival = {n: r for r, n in RIVAL_NETS.items()}.get(name)
    if rival:
        return LABELS[rival]
    short = short_name(name)
    if TRAINED[name]:
        return f"{short} {TRAINED[name]}"
    side = read_sidecar(net_path(name))
    sp = net_spec(side)
    warm = sp.get("warm_start")
    if not warm:
        return short
    parent = Path(warm["file"]).stem
    psp = net_spec(read_sidecar(net_path(parent)))
    changes = []
    if sp.get("inputs") != psp.get("inputs"):
        changes.append(f"the {sp.get('inputs')} inputs")
    if sp.get("bearoff") and not psp.get("bearoff"):
        changes.append("the bear-off table")
    if "alpha_final" in sp and "alpha_final" not in psp:
        changes.append(f"the step size annealed to {sp['alpha_final']}")
    how = f"trained on to {side['games'] / 1e6:.1f} M games" if side["games"] > warm["games"] else "as it is"
    return f"{short} {short_label(parent)} {how}" + (f", with {' and '.join(changes)}" if changes else "")


def short_label(name: str) -> str:
    """A rival's or a net's name: the four rivals' and the post's nets' whole labels (they are named by what they
    are), for the larger budgets the short name alone, ``(c″, 160, 4.8 M, bg, contact)``, without how it was made."""
    if name in RIVALS:
        return LABELS[name]
    return label_of(name) if name in RIVAL_NETS.values() else short_name(name)


for _name in TRAINED:
    if (data_dir() / f"{_name}.json").is_file():  # a label needs its sidecar; the module imports without them
        LABELS[_name] = label_of(_name)


# ----------------------------------------------------------------------------- the campaign's design, as data


@dataclass(frozen=True)
class Family:
    """A kind of change (a lever): its claim in notebook 10 (None: none — the games lever is read from the learning
    curves instead), the section of notebook 10 that reports it, and what the change is, in a few words."""

    claim: str | None
    section: str
    what: str


#: The sections of notebook 10's results, in order, by the key :class:`Family` gives.
SECTIONS = {
    "inputs and outputs": "what the inputs and outputs bought",
    "training": "what games, width, step size and averaging did not",
    "targets and play": "what deeper targets and exact play did",
}
#: The kinds of change, in notebook 10's order (its findings first).  A family's claim is the gain of its levers
#: against gnubg-expert, pooled over its trials (:func:`~tdbook.experiments.backgammon.symmetric_gammon_expert.
#: family_gain`).
FAMILIES: dict[str, Family] = {
    "hand-made inputs": Family(
        "lever-hand-made-inputs", "inputs and outputs", "four hand-made inputs per side beside the raw units"
    ),
    "contact inputs": Family("lever-contact-inputs", "inputs and outputs", "three of GNU Backgammon's contact inputs"),
    "backgammon outputs": Family(
        "lever-backgammon-outputs", "inputs and outputs", "P(backgammon win) and P(backgammon loss) outputs"
    ),
    "positional inputs": Family("lever-positional-inputs", "inputs and outputs", "eleven positional inputs per side"),
    "games": Family(None, "training", "more self-play games as the run was"),
    "width": Family("lever-width", "training", "twice the hidden units"),
    "step size": Family("lever-step-size", "training", "the last games at α 0.005 instead of 0.02"),
    "averaging": Family("lever-averaging", "training", "the mean of the run's weights over its last games"),
    "bear-off table": Family("lever-bearoff-table", "targets and play", "the exact one-sided bear-off table at play"),
    "lookahead targets": Family(
        "lever-lookahead-targets", "targets and play", "a tenth of the contact positions trained one ply deeper"
    ),
    "2-ply targets": Family(
        "lever-2ply-targets", "targets and play", "one fit to the net's own 2-ply values of its self-play positions"
    ),
}


@dataclass(frozen=True)
class Lever:
    """One single change: the net ``child`` made from ``parent`` by a change of ``family`` (on the same dice), what it
    bought being the difference of their report-seed ladders.  ``pooled`` False: a stage of a longer trial of the same
    run (its last stage speaks for it), shown in the table, left out of its family's claim."""

    id: str
    family: str
    child: str
    parent: str
    pooled: bool = True


#: Every single change of the campaign, in the order tried: one row of notebook 10's lever table each.
LEVERS: tuple[Lever, ...] = (
    Lever("inputs-gain", "hand-made inputs", "symgammon_free80_expanded_800k", "symgammon_free80_raw_800k"),
    Lever("games-gain", "games", "symgammon_free80_expanded_1600k", "symgammon_free80_expanded_800k"),
    Lever("games-gain-2", "games", "symgammon_free80_expanded_3200k", "symgammon_free80_expanded_1600k"),
    Lever("games-gain-3", "games", "symgammon_free80_expanded_5600k", "symgammon_free80_expanded_3200k"),
    Lever("hidden-gain", "width", "symgammon_free160_expanded_800k", "symgammon_free80_expanded_800k"),
    Lever("hidden-gain-2", "width", "symgammon_free160_expanded_1600k", "symgammon_free80_expanded_1600k"),
    Lever("hidden-gain-3", "width", "symgammon_free160_expanded_3200k", "symgammon_free80_expanded_3200k"),
    Lever("games-gain-4", "games", "symgammon_free160_expanded_4000k", "symgammon_free160_expanded_3200k"),
    Lever("anneal-gain", "step size", "symgammon_free160_expanded_anneal_4000k", "symgammon_free160_expanded_4000k"),
    Lever("contact-gain", "contact inputs", "symgammon_free160_contact_4000k", "symgammon_free160_expanded_4000k"),
    Lever("bg-gain", "backgammon outputs", "symgammon_free160_expanded_bg_4000k", "symgammon_free160_expanded_4000k"),
    Lever("games-gain-5", "games", "symgammon_free160_expanded_bg_4800k", "symgammon_free160_expanded_bg_4000k"),
    Lever(
        "contact-gain-2", "contact inputs", "symgammon_free160_contact_bg_4800k", "symgammon_free160_expanded_bg_4800k"
    ),
    Lever("games-gain-6", "games", "symgammon_free160_contact_bg_5000k", "symgammon_free160_contact_bg_4800k"),
    Lever(
        "positional-gain",
        "positional inputs",
        "symgammon_free160_positional_bg_5000k",
        "symgammon_free160_contact_bg_5000k",
    ),
    Lever(
        "bearoff-play-gain",
        "bear-off table",
        "symgammon_free160_contact_bg_bearoff_4800k",
        "symgammon_free160_contact_bg_4800k",
    ),
    Lever("games-gain-7", "games", "symgammon_free160_positional_bg_5200k", "symgammon_free160_positional_bg_5000k"),
    Lever(
        "anneal-gain-2",
        "step size",
        "symgammon_free160_positional_bg_anneal_5200k",
        "symgammon_free160_positional_bg_5200k",
    ),
    Lever("games-gain-8", "games", "symgammon_free160_positional_bg_6000k", "symgammon_free160_positional_bg_5200k"),
    Lever(
        "anneal-gain-3",
        "step size",
        "symgammon_free160_positional_bg_anneal_6000k",
        "symgammon_free160_positional_bg_6000k",
    ),
    Lever("games-gain-9", "games", "symgammon_free160_positional_bg_7000k", "symgammon_free160_positional_bg_6000k"),
    Lever(
        "anneal-gain-4",
        "step size",
        "symgammon_free160_positional_bg_anneal_7000k",
        "symgammon_free160_positional_bg_7000k",
    ),
    Lever("games-gain-10", "games", "symgammon_free160_positional_bg_7200k", "symgammon_free160_positional_bg_7000k"),
    Lever(
        "lookahead-gain",
        "lookahead targets",
        "symgammon_free160_positional_bg_lookahead_7200k",
        "symgammon_free160_positional_bg_7200k",
        pooled=False,
    ),
    Lever("games-gain-11", "games", "symgammon_free160_positional_bg_7400k", "symgammon_free160_positional_bg_7200k"),
    Lever(
        "lookahead-gain-2",
        "lookahead targets",
        "symgammon_free160_positional_bg_lookahead_7400k",
        "symgammon_free160_positional_bg_7400k",
    ),
    Lever("games-gain-12", "games", "symgammon_free160_positional_bg_7600k", "symgammon_free160_positional_bg_7400k"),
    Lever(
        "averaged-gain",
        "averaging",
        "symgammon_free160_positional_bg_averaged_7600k",
        "symgammon_free160_positional_bg_7600k",
    ),
    Lever("games-gain-13", "games", "symgammon_free160_positional_bg_8600k", "symgammon_free160_positional_bg_7600k"),
    Lever(
        "averaged-gain-2",
        "averaging",
        "symgammon_free160_positional_bg_averaged_8600k",
        "symgammon_free160_positional_bg_8600k",
    ),
    Lever(
        "search-gain",
        "2-ply targets",
        "symgammon_free160_positional_bg_search1_7400k",
        "symgammon_free160_positional_bg_7400k",
    ),
)
#: What the constraint costs at a large budget (notebook 09 §3): (a″), the symmetric net with (c″)'s inputs and
#: budget, against (c″).
CONSTRAINT_AT_BUDGET = ("symgammon_symmetric80_expanded_800k", "symgammon_free80_expanded_800k")


@dataclass(frozen=True)
class Run:
    """A training run whose learning curve notebook 10 fits: its label, its claim, and where its points are — the
    report-seed ladders of the nets it passed through (``nets``), or the curves recorded in the sidecars of ``curve``
    (selection seed; :func:`~tdbook.experiments.backgammon.symmetric_gammon_expert.record_curve`), fitted from
    ``since`` games on."""

    label: str
    claim: str
    nets: tuple[str, ...] = ()
    curve: tuple[str, ...] = ()
    since: int = 0


#: The runs of notebook 10's learning curves: one claim each, the slope of the line through its points.
RUNS: dict[str, Run] = {
    "80": Run(
        "(c″) 80 hidden, expanded inputs",
        "curve-slope-80",
        nets=(
            "symgammon_free80_expanded_800k",
            "symgammon_free80_expanded_1600k",
            "symgammon_free80_expanded_3200k",
            "symgammon_free80_expanded_5600k",
        ),
    ),
    "160": Run(
        "(c″, 160) 160 hidden, expanded inputs",
        "curve-slope-160",
        nets=(
            "symgammon_free160_expanded_800k",
            "symgammon_free160_expanded_1600k",
            "symgammon_free160_expanded_3200k",
            "symgammon_free160_expanded_4000k",
        ),
    ),
    "positional": Run(
        "the positional run (160 hidden, bg outputs, positional inputs)",
        "curve-slope-positional",
        curve=(
            "symgammon_free160_positional_bg_6000k",
            "symgammon_free160_positional_bg_7000k",
            "symgammon_free160_positional_bg_8600k",
        ),
        since=6_000_000,
    ),
}
