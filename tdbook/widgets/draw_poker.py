"""The "train it yourself" panel of notebook 04: an ipywidgets front end to
:class:`tdbook.players.draw_poker_human.ManualSession` (manual training by a person, Waterman (1968)
§5.3, App. D)."""

from __future__ import annotations

import ipywidgets as W

from ..games.draw_poker import LASTBET, POT
from ..learners.draw_poker_heuristics import CLASS_NAMES, lisp
from ..players.draw_poker_human import HAND_WORDS, ManualSession
from . import preparing


@preparing("the training table")
def manual_training_widget(seed: int = 0):
    """An ipywidgets front end to :class:`ManualSession` (the notebook's "train it yourself" cell)."""

    s = ManualSession(seed)
    status, rules, msg = W.HTML(), W.HTML(), W.HTML()
    ok = W.Button(description="OK (accept)", button_style="success")
    dec = W.Dropdown(options=[n for n in CLASS_NAMES[:8]], description="decision")
    why = {
        n: W.Dropdown(options=["(irrelevant)"] + opts, description=n, style={"description_width": "60px"})
        for n, opts in [
            ("HAND", list(HAND_WORDS)),
            ("POT", ["LARGE", "SMALL"]),
            ("LASTBET", ["LARGE", "SMALL"]),
            ("BLUFFS", ["LARGE", "SMALL"]),
            ("PBRATIO", ["LARGE", "SMALL"]),
            (
                "ORP",
                ["(EQUAL TO -1)", "(NOT EQUAL TO -1)", "(EQUAL TO 0)", "(EQUAL TO 1)", "(EQUAL TO 2)", "(EQUAL TO 3)"],
            ),
            ("OSTYLE", ["LARGE", "SMALL"]),
        ]
    }
    train = W.Button(description="Train", button_style="warning")
    text = W.Text(
        placeholder="or type: BET SB BECAUSE YOUR HAND IS FAIR, AND THE POT IS SMALL", layout=W.Layout(width="95%")
    )
    mv = W.Text(placeholder="your move: drop / call / bet n", description="you")
    go = W.Button(description="Play")
    disc = W.Text(placeholder="cards to discard, e.g. H5 D9 (empty: stand pat)", description="discard")
    rep = W.Button(description="Replace")

    def refresh() -> None:
        st = s.st
        status.value = (
            f"<b>pot</b> {int(st[POT])} · <b>last bet</b> {int(st[LASTBET])} · r-o-p {s.table.rop} · "
            f"trials {s.trials}<br><b>your hand</b> {s.hand(1)} · <b>program's hand</b> {s.hand(0)}<br>"
            f"<b>{s.proposal_text() or ('your move' if s.waiting_for() == 'move' else 'discard')}</b>"
            f"<br><small>{'<br>'.join(s.log[-4:])}</small>"
        )
        rules.value = "<pre>" + lisp(s.prog).replace("<", "&lt;") + "</pre>"

    def guarded(fn):
        def run(_b=None):
            try:
                fn()
                msg.value = ""
            except ValueError as e:
                msg.value = f"<span style='color:#b00'>refused: {e}</span>"
            refresh()

        return run

    def advice():
        if text.value.strip():
            s.advise(text.value)
            text.value = ""
            return
        parts = [f"{n} IS {w.value}" for n, w in why.items() if w.value != "(irrelevant)"]
        s.advise(f"{dec.value} BECAUSE " + " AND ".join(parts))

    ok.on_click(guarded(s.accept))
    train.on_click(guarded(advice))
    go.on_click(guarded(lambda: s.play(mv.value)))
    rep.on_click(guarded(lambda: s.replace(disc.value)))
    refresh()
    box = W.VBox(
        [
            status,
            msg,
            W.HBox([ok, dec, train]),
            W.GridBox(list(why.values()), layout=W.Layout(grid_template_columns="repeat(4, 1fr)")),
            text,
            W.HBox([mv, go]),
            W.HBox([disc, rep]),
            rules,
        ]
    )
    box.session = s
    return box
