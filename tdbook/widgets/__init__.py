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

A bad combination of values (the experiment raises ``ValueError``) is shown as a
message in the panel and changes nothing else.
"""

from __future__ import annotations

from collections.abc import Callable
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
        return W.Dropdown(options=spec, value=spec[0], description=name, style=style)
    if isinstance(spec, int):
        return W.IntText(value=spec, description=name, style=style)
    if isinstance(spec, float):
        return W.FloatText(value=spec, description=name, style=style)
    if isinstance(spec, str):
        return W.Text(value=spec, description=name, style=style, continuous_update=False)
    raise ValueError(f"cannot build a control for {name} from {spec!r}")


class Panel(W.VBox):
    """Controls + a Run button + an output area; reruns on change when ``auto``."""

    def __init__(
        self,
        run: Callable[..., Any],
        show: Callable[[Any], Any] | None,
        auto: bool = True,
        run_now: bool = True,
        **spec: Any,
    ) -> None:
        if not callable(run):
            raise ValueError("panel: run must be callable")
        self.run_fn, self.show_fn = run, show
        self.controls = {k: control(k, v) for k, v in spec.items()}
        self.button = W.Button(description="Run", button_style="primary", icon="play")
        self.status = W.HTML()
        self.progress = W.Output()  # the rerun's progress bars show here, and are cleared when it ends
        self.out = W.Output()
        self.last: Any = None
        self.button.on_click(lambda _b: self.refresh())
        if auto:
            for c in self.controls.values():
                c.observe(lambda _chg: self.refresh(), names="value")
        grid = W.GridBox(
            list(self.controls.values()), layout=W.Layout(grid_template_columns="repeat(2, minmax(280px, 1fr))")
        )
        super().__init__([grid, W.HBox([self.button, self.status]), self.progress, self.out])
        if run_now:
            self.refresh()

    def values(self) -> dict[str, Any]:
        return {k: c.value for k, c in self.controls.items()}

    def refresh(self) -> Any:
        """Run the experiment with the current values and show the result."""
        vals = self.values()
        self.status.value = "<i>running…</i>"
        try:
            with self.progress:  # tqdm.auto bars display into the panel, not the log console
                data = self.run_fn(**vals)
        except ValueError as e:  # bad parameter combination: say so, keep the last result
            self.status.value = f"<span style='color:#b00'>not run: {e}</span>"
            return None
        finally:
            self.progress.clear_output()
        self.last = data
        self.out.clear_output(wait=True)
        with self.out:
            if self.show_fn is not None:
                shown = self.show_fn(data)
                if shown is not None:
                    display(shown)
                    if isinstance(shown, plt.Figure):
                        plt.close(shown)
            else:
                display(data)
        self.status.value = "done"
        return data


def panel(
    run: Callable[..., Any],
    show: Callable[[Any], Any] | None = None,
    *,
    auto: bool = True,
    run_now: bool = True,
    **spec: Any,
) -> Panel:
    """Build (and display when returned last in a cell) a panel that reruns ``run`` on change."""
    return Panel(run, show, auto=auto, run_now=run_now, **spec)
