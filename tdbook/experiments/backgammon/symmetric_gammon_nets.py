"""The shipped nets of notebook 09 (Symmetric gammon post (2011); notebook 09 §4 and Appendix A): each net's one
name, the file stem by the rule ``symgammon_<arch><hidden>_<inputs>[_bg][_<lever>…]_<games>k``, and the labels the
notebook's tables and figures give the nets and the four rivals, read from the sidecars by one rule; the single
changes whose gains are claims.  The code, the re-measure panel and ``data/MANIFEST.md`` (:mod:`tdbook.manifest`)
all name a net by :data:`NETS`.
"""

from __future__ import annotations

from pathlib import Path

from ...core.paths import data_dir
from ...core.storage import read_sidecar
from ...learners.backgammon_symmetric import ARCHS
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
#: Every shipped net of notebook 09 (``python -m tdbook train symmetric-gammon …``; its sidecar says how it was
#: made), in the order of the notebook's tables, by its one name: the file stem ``data/<name>.npz``, built by one rule
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
#: its weights at every 50,000 games from 7.65 M on.
NETS: dict[str, str] = {
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
}
#: The shipped net of each rival (a)–(c) that §1 and §2 measure (§3 trains the rivals anew).
RIVAL_NETS = {
    "symmetric": "symgammon_symmetric40_raw_150k",
    "naive": "symgammon_naive40_raw_150k",
    "free": "symgammon_free40_raw_150k",
}


def net_path(name: str) -> Path:
    """The weights file of shipped net ``name`` (ValueError naming the choices, and the new name of a net renamed
    since, for a name :data:`NETS` lacks)."""
    if name not in NETS:
        old = f"{Path(name).stem}.npz"
        for n in NETS:
            if (data_dir() / f"{n}.json").is_file() and read_sidecar(data_dir() / f"{n}.npz").get(
                "renamed_from"
            ) == old:
                raise ValueError(f"shipped net {name!r} is now called {n!r} (its sidecar's renamed_from)")
        raise ValueError(f"no shipped net {name!r}; choose from: {', '.join(NETS)}")
    return data_dir() / f"{name}.npz"


def short_name(name: str) -> str:
    """A shipped net's short name from its sidecar, by the notebook's one rule: ``(a)``–``(c)`` for the post's nets;
    else the rival's letter, ′ for (c) with 80 hidden units and the longer schedule, ″ with hand-made inputs, then
    the hidden units unless 80, the games unless 0.8 M, an annealed step size, ``bg`` for backgammon outputs, the
    inputs beyond the expanded ones, ``bear-off`` for the table at play, ``lookahead F`` for lookahead targets on a
    share ``F`` of contact positions, ``averaged`` for the mean of the run's last weights (``--average-from``):
    ``(c″, 160, 4.8 M, bg, contact)``."""
    side = read_sidecar(net_path(name))
    sp, games = side["spec"], side["games"]
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
    return "(" + ", ".join(parts) + ")"


def label_of(name: str) -> str:
    """A shipped net's label: the rival's for the post's nets; else its short name (:func:`short_name`) and what
    :data:`NETS` says of it, or, when that is empty, how it was made from its ``--warm-start`` parent (the inputs or
    the bear-off table it gained, the games it was trained on to)."""
    rival = {n: r for r, n in RIVAL_NETS.items()}.get(name)
    if rival:
        return LABELS[rival]
    short = short_name(name)
    if NETS[name]:
        return f"{short} {NETS[name]}"
    side = read_sidecar(net_path(name))
    sp = side["spec"]
    warm = sp.get("warm_start")
    if not warm:
        return short
    parent = Path(warm["file"]).stem
    pside = read_sidecar(net_path(parent))
    changes = []
    if sp.get("inputs") != pside["spec"].get("inputs"):
        changes.append(f"the {sp.get('inputs')} inputs")
    if sp.get("bearoff") and not pside["spec"].get("bearoff"):
        changes.append("the bear-off table")
    if "alpha_final" in sp and "alpha_final" not in pside["spec"]:
        changes.append(f"the step size annealed to {sp['alpha_final']}")
    how = f"trained on to {side['games'] / 1e6:.1f} M games" if side["games"] > warm["games"] else "as it is"
    return f"{short} {short_label(parent)} {how}" + (f", with {' and '.join(changes)}" if changes else "")


def short_label(name: str) -> str:
    """A rival's or a net's name: the four rivals' and the post's nets' whole labels (they are named by what they
    are), for the larger budgets the short name alone, ``(c″, 160, 4.8 M, bg, contact)``, without how it was made."""
    if name in RIVALS:
        return LABELS[name]
    return label_of(name) if name in RIVAL_NETS.values() else short_name(name)


for _name in NETS:
    if (data_dir() / f"{_name}.json").is_file():  # a label needs its sidecar; the module imports without them
        LABELS[_name] = label_of(_name)
#: What each single change bought, as claims: (claim id prefix, net with the change, net without it).
CHANGES = (
    ("inputs-gain", "symgammon_free80_expanded_800k", "symgammon_free80_raw_800k"),
    ("games-gain", "symgammon_free80_expanded_1600k", "symgammon_free80_expanded_800k"),
    ("games-gain-2", "symgammon_free80_expanded_3200k", "symgammon_free80_expanded_1600k"),
    ("games-gain-3", "symgammon_free80_expanded_5600k", "symgammon_free80_expanded_3200k"),
    ("hidden-gain", "symgammon_free160_expanded_800k", "symgammon_free80_expanded_800k"),
    ("hidden-gain-2", "symgammon_free160_expanded_1600k", "symgammon_free80_expanded_1600k"),
    ("hidden-gain-3", "symgammon_free160_expanded_3200k", "symgammon_free80_expanded_3200k"),
    ("games-gain-4", "symgammon_free160_expanded_4000k", "symgammon_free160_expanded_3200k"),
    ("anneal-gain", "symgammon_free160_expanded_anneal_4000k", "symgammon_free160_expanded_4000k"),
    ("contact-gain", "symgammon_free160_contact_4000k", "symgammon_free160_expanded_4000k"),
    ("bg-gain", "symgammon_free160_expanded_bg_4000k", "symgammon_free160_expanded_4000k"),
    ("games-gain-5", "symgammon_free160_expanded_bg_4800k", "symgammon_free160_expanded_bg_4000k"),
    ("contact-gain-2", "symgammon_free160_contact_bg_4800k", "symgammon_free160_expanded_bg_4800k"),
    ("expanded-a-minus-c", "symgammon_symmetric80_expanded_800k", "symgammon_free80_expanded_800k"),
    ("games-gain-6", "symgammon_free160_contact_bg_5000k", "symgammon_free160_contact_bg_4800k"),
    ("positional-gain", "symgammon_free160_positional_bg_5000k", "symgammon_free160_contact_bg_5000k"),
    ("bearoff-play-gain", "symgammon_free160_contact_bg_bearoff_4800k", "symgammon_free160_contact_bg_4800k"),
    ("games-gain-7", "symgammon_free160_positional_bg_5200k", "symgammon_free160_positional_bg_5000k"),
    ("anneal-gain-2", "symgammon_free160_positional_bg_anneal_5200k", "symgammon_free160_positional_bg_5200k"),
    ("games-gain-8", "symgammon_free160_positional_bg_6000k", "symgammon_free160_positional_bg_5200k"),
    ("anneal-gain-3", "symgammon_free160_positional_bg_anneal_6000k", "symgammon_free160_positional_bg_6000k"),
    ("games-gain-9", "symgammon_free160_positional_bg_7000k", "symgammon_free160_positional_bg_6000k"),
    ("anneal-gain-4", "symgammon_free160_positional_bg_anneal_7000k", "symgammon_free160_positional_bg_7000k"),
    ("games-gain-10", "symgammon_free160_positional_bg_7200k", "symgammon_free160_positional_bg_7000k"),
    ("lookahead-gain", "symgammon_free160_positional_bg_lookahead_7200k", "symgammon_free160_positional_bg_7200k"),
    ("games-gain-11", "symgammon_free160_positional_bg_7400k", "symgammon_free160_positional_bg_7200k"),
    ("lookahead-gain-2", "symgammon_free160_positional_bg_lookahead_7400k", "symgammon_free160_positional_bg_7400k"),
    ("games-gain-12", "symgammon_free160_positional_bg_7600k", "symgammon_free160_positional_bg_7400k"),
    ("averaged-gain", "symgammon_free160_positional_bg_averaged_7600k", "symgammon_free160_positional_bg_7600k"),
    ("games-gain-13", "symgammon_free160_positional_bg_8600k", "symgammon_free160_positional_bg_7600k"),
    ("averaged-gain-2", "symgammon_free160_positional_bg_averaged_8600k", "symgammon_free160_positional_bg_8600k"),
)
