"""Widget panels: every notebook ends with one that reruns its experiment with new parameters.

A panel is two lines in a notebook::

    from tdbook.widgets import panel
    panel(rw.explore, rwplots.explore, method=["td0", "mc"], alpha=(0.01, 0.5, 0.01, 0.1), runs=(1, 1000, 1, 100))

``run(**values)`` computes (its own ``tqdm.auto`` bars show progress), ``show(data)``
returns a matplotlib figure (or anything displayable).  Spec entries:

- ``(min, max, step, default)`` → slider (an ``IntSlider`` if all four are ints);
- ``("log", min, max, default)`` → logarithmic float slider;
- ``[choice0, choice1, ...]`` → dropdown, first choice is the default;
- ``True`` / ``False`` → checkbox; an ``int``/``float`` → number box; a ``str`` → text box;
- an ``ipywidgets`` widget → used as it is.

The panel runs once when it is first shown and then only when Run is pressed (it says so above its controls);
while that first run goes, the panel is on screen saying so, and that the first call of a kernel in a session
compiles it (up to a minute).  A combination the experiment refuses (``ValueError``) or a failure of the
experiment itself is shown in the panel as one sentence, the last result stays, and the panel is ready again;
``check=fn`` (``fn(**values)`` returning a sentence or None) explains before Run why a combination cannot run and
disables Run meanwhile.  Every panel checks its ``seed`` itself, in the same words (:func:`seed_problem`), before
the experiment's own checks.

A board or other widget that compiles kernels while it is built shows :func:`preparing`'s one-line notice
meanwhile.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from html import escape
from typing import Any

import ipywidgets as W
import matplotlib.pyplot as plt
from IPython.display import display


def control(name: str, spec: Any) -> W.Widget:
    """The widget for one spec entry (see module docstring)."""
    style = {"description_width": "initial"}
    if isinstance(spec, W.Widget):
        return spec
    if isinstance(spec, bool):
        return W.Checkbox(value=spec, description=name, style=style)
    if isinstance(spec, tuple):
        if len(spec) == 4 and spec[0] == "log":
            _, lo, hi, default = spec
            import math

            if not (0 < lo <= default <= hi):
                raise ValueError(f"log slider {name}: need 0 < min <= default <= max, got {spec!r}")
            return W.FloatLogSlider(
                value=default,
                min=math.log10(lo),
                max=math.log10(hi),
                step=0.05,
                description=name,
                continuous_update=False,
                style=style,
                readout_format=".3g",
            )
        if len(spec) == 3:
            spec = (*spec, spec[0])
        if len(spec) != 4:
            raise ValueError(f"slider {name}: expected (min, max, step, default), got {spec!r}")
        lo, hi, step, default = spec
        if not (lo <= default <= hi) or step <= 0:
            raise ValueError(f"slider {name}: need min <= default <= max and step > 0, got {spec!r}")
        if all(isinstance(v, int) and not isinstance(v, bool) for v in spec):
            return W.IntSlider(
                value=default, min=lo, max=hi, step=step, description=name, continuous_update=False, style=style
            )
        return W.FloatSlider(
            value=default,
            min=lo,
            max=hi,
            step=step,
            description=name,
            continuous_update=False,
            style=style,
            readout_format=".3g",
        )
    if isinstance(spec, list):
        if not spec:
            raise ValueError(f"dropdown {name}: needs at least one choice")
        first = spec[0][1] if isinstance(spec[0], tuple) else spec[0]  # (label, value) pairs show the label
        return W.Dropdown(options=spec, value=first, description=name, style=style)
    if isinstance(spec, int):
        return W.IntText(value=spec, description=name, style=style)
    if isinstance(spec, float):
        return W.FloatText(value=spec, description=name, style=style)
    if isinstance(spec, str):
        return W.Text(value=spec, description=name, style=style, continuous_update=False)
    raise ValueError(f"cannot build a control for {name} from {spec!r}")


#: what every panel says above its controls: nothing reruns until Run is pressed
HOWTO = "Change the settings, then press <b>Run</b>: nothing reruns until you do."
#: what a panel says during its first run, and a board while it is built
FIRST_RUN = "running… (a first run in a session compiles the jitted kernels: up to a minute; later runs start at once)"
PREPARING = "Preparing {what}… the first use in a session compiles the jitted kernels: up to a minute."


def seed_problem(value: Any) -> str | None:
    """Why ``value`` cannot be a seed (a sentence naming the setting), or None: every panel's one check of ``seed``."""
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        return f"seed must be a whole number ≥ 0 (it picks the random streams), got {value!r}"
    return None


def _in_kernel() -> bool:
    from IPython import get_ipython

    return getattr(get_ipython(), "kernel", None) is not None


@contextmanager
def preparing(what: str) -> Iterator[None]:
    """While the block runs (a board built, its kernels compiled), show a one-line notice saying so in the cell's
    output; it is removed when the block ends.  Nothing is shown outside a Jupyter kernel."""
    if not _in_kernel():
        yield
        return
    note = W.HTML(f"<i>{escape(PREPARING.format(what=what))}</i>")
    display(note)
    try:
        yield
    finally:
        note.close()


def failure_sentence(e: BaseException) -> str:
    """One sentence for a run that failed: a refused combination (``ValueError``) in its own words, anything
    else named as an error of the experiment (a bug to report, not the reader's mistake)."""
    msg = str(e).strip().splitlines()[0] if str(e).strip() else type(e).__name__
    if isinstance(e, ValueError):
        return f"not run: {msg}"
    return f"failed with {type(e).__name__}: {msg} (an error in the experiment, not in your settings)"


class Panel(W.VBox):
    """Controls + a Run button + an output area.  Runs when Run is pressed (``auto=True`` reruns on every
    change instead); ``check(**values)`` may explain before Run why a combination cannot run (the button is
    disabled while it does).  A failed run says why in one sentence and the panel is ready again."""

    def __init__(
        self,
        run: Callable[..., Any],
        show: Callable[[Any], Any] | None,
        auto: bool = False,
        run_now: bool = True,
        check: Callable[..., str | None] | None = None,
        **spec: Any,
    ) -> None:
        if not callable(run):
            raise ValueError("panel: run must be callable")
        if check is not None and not callable(check):
            raise ValueError("panel: check must be callable or None")
        self.run_fn, self.show_fn, self.check_fn = run, show, check
        self.controls = {k: control(k, v) for k, v in spec.items()}
        self.button = W.Button(description="Run", button_style="primary", icon="play")
        self.status = W.HTML()
        self.howto = W.HTML(HOWTO if not auto else "The panel reruns whenever a setting changes.")
        self.progress = W.Output()  # the rerun's progress bars show here, and are cleared when it ends
        self.out = W.Output()
        self.last: Any = None
        self.error: BaseException | None = None
        self.button.on_click(lambda _b: self.refresh())
        for c in self.controls.values():
            c.observe(lambda _chg: self.refresh() if auto else self._checked(), names="value")
        grid = W.GridBox(
            list(self.controls.values()), layout=W.Layout(grid_template_columns="repeat(2, minmax(280px, 1fr))")
        )
        super().__init__([self.howto, grid, W.HBox([self.button, self.status]), self.progress, self.out])
        self.runs = 0
        # the first run happens when the panel is first shown, so that it is on screen saying so meanwhile; a panel
        # that is never shown (built in a script or a test) runs at once, as before
        self._pending = self._checked() is None and run_now
        if self._pending and not _in_kernel():
            self._pending = False
            self.refresh()

    def _ipython_display_(self) -> None:
        """Show the panel, then do its first run if it is waiting for that (the module docstring)."""
        display(self._repr_mimebundle_(), raw=True)
        if self._pending:
            self._pending = False
            self.refresh()

    def values(self) -> dict[str, Any]:
        return {k: c.value for k, c in self.controls.items()}

    def _checked(self) -> str | None:
        """Explain (and disable Run) when the current combination cannot run; None when it can."""
        why = seed_problem(self.controls["seed"].value) if "seed" in self.controls else None
        if why is None and self.check_fn is not None:
            try:
                why = self.check_fn(**self.values())
            except Exception as e:  # a checker that fails must not hang the panel either
                why = failure_sentence(e)
        self.button.disabled = why is not None
        self.status.value = f"<span style='color:#b00'>cannot run: {why}</span>" if why else "ready"
        return why

    def refresh(self) -> Any:
        """Run the experiment with the current values and show the result; on failure say why in one sentence,
        keep the last result, and return None (the panel is ready again either way)."""
        if self._checked() is not None:
            return None
        vals = self.values()
        self.status.value = f"<i>{escape(FIRST_RUN if self.runs == 0 else 'running…')}</i>"
        self.runs += 1
        self.button.disabled = True
        err: BaseException | None = None
        try:
            # ipywidgets' Output swallows an exception raised inside it (it shows it there), so catch it here
            with self.progress:  # tqdm.auto bars display into the panel, not the log console
                try:
                    data = self.run_fn(**vals)
                except Exception as e:
                    err = e
            if err is None:
                self.out.clear_output(wait=True)
                with self.out:
                    try:
                        self._show(data)
                    except Exception as e:
                        err = e
        finally:
            self.progress.clear_output()
            self.button.disabled = False
        self.error = err
        if err is not None:
            kept = " The result below is from the last run that worked." if self.last is not None else ""
            self.status.value = f"<span style='color:#b00'>{escape(failure_sentence(err))}.{escape(kept)}</span> ready"
            return None
        self.last = data
        self.status.value = "done · ready"
        return data

    def _show(self, data: Any) -> None:
        if self.show_fn is None:
            display(data)
            return
        shown = self.show_fn(data)
        if shown is not None:
            display(shown)
            if isinstance(shown, plt.Figure):
                plt.close(shown)


def panel(
    run: Callable[..., Any],
    show: Callable[[Any], Any] | None = None,
    *,
    auto: bool = False,
    run_now: bool = True,
    check: Callable[..., str | None] | None = None,
    **spec: Any,
) -> Panel:
    """Build (and display when returned last in a cell) a panel that reruns ``run`` when Run is pressed."""
    return Panel(run, show, auto=auto, run_now=run_now, check=check, **spec)
