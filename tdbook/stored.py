"""Executed notebooks as the readable record: ``notebooks/NN_name.ipynb`` stored with its standard outputs.

A recording run in the standard profile (``make figures`` / ``python -m tdbook run``) writes each executed
notebook back over its source, so a reader sees every figure, table and number without running anything.
What would change from run to run is left out, so the same seed and code give the same bytes:

- papermill's and the kernel's timing metadata (start/end times, durations, ``execution`` timestamps),
  widget state and the injected-parameters cell (the parameters cell keeps ``PROFILE = "standard"``);
- progress bars and other stderr text (tqdm residue, warnings), and live widgets (their model ids are random);
- SVG duplicates of figures (PNG only inline; the SVGs are in ``figures/``);
- the outputs of a cell tagged ``timing`` (speeds measured on the machine that ran it), replaced by
  :data:`TIMING_NOTE`: such a cell measures and shows, and records nothing in the results file.

A cell tagged ``widget`` (a board to play, a panel that reruns the experiment) shows, in place of the live
widget a stored file cannot hold, the one-line :data:`WIDGET_NOTE`, so a reader on a code host or in the
book sees what would be there.

Execution counts are kept: a fresh kernel numbers the cells 1, 2, … the same way every time.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from .core.storage import atomic_write_bytes

WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"
DROPPED_MIME = (WIDGET_VIEW, "image/svg+xml")
TIMING_TAG = "timing"
TIMING_NOTE = (
    "Timings are measured afresh on every run and are not stored: they differ from machine to machine and "
    "from run to run. Run this cell (or `make bench`) to see this machine's.\n"
)


WIDGET_TAG = "widget"
WIDGET_NOTE = (
    "▶ An interactive widget appears here when the notebook runs in JupyterLab (`make lab`): "
    "run the notebook to play or to rerun the experiment with your own settings."
)
_WIDGET_OUTPUT = {
    "data": {"text/markdown": [f"*{WIDGET_NOTE}*"], "text/plain": [WIDGET_NOTE]},
    "metadata": {},
    "output_type": "display_data",
}


def _clean_output(out: dict[str, Any]) -> dict[str, Any] | None:
    kind = out.get("output_type")
    if kind == "stream":
        return None if out.get("name") == "stderr" else out
    if kind in ("display_data", "execute_result"):
        data = out.get("data", {})
        if WIDGET_VIEW in data:  # a live widget (a progress bar, a panel): nothing to show without a kernel
            return None
        out = dict(out, data={k: v for k, v in data.items() if k not in DROPPED_MIME})
        out["metadata"] = {k: v for k, v in out.get("metadata", {}).items() if k not in DROPPED_MIME}
        return out
    return out  # errors stay: a stored notebook that failed must show it


def clean(nb: dict[str, Any]) -> dict[str, Any]:
    """``nb`` (an executed notebook as JSON) without what differs from run to run (see the module docstring)."""
    nb = json.loads(json.dumps(nb))  # a deep copy
    meta = nb.get("metadata", {})
    for key in ("papermill", "widgets"):
        meta.pop(key, None)
    cells = []
    for cell in nb.get("cells", []):
        md = cell.get("metadata", {})
        if "injected-parameters" in md.get("tags", []):
            continue
        for key in ("papermill", "execution", "collapsed", "scrolled"):
            md.pop(key, None)
        if md.get("tags") == []:
            md.pop("tags")
        if cell.get("cell_type") == "code":
            cell["outputs"] = [o for o in map(_clean_output, cell.get("outputs", [])) if o is not None]
            if TIMING_TAG in md.get("tags", []) and cell["outputs"]:
                cell["outputs"] = [{"name": "stdout", "output_type": "stream", "text": [TIMING_NOTE]}]
            if WIDGET_TAG in md.get("tags", []) and cell.get("execution_count") is not None:
                cell["outputs"] = [o for o in cell["outputs"] if o != _WIDGET_OUTPUT] + [dict(_WIDGET_OUTPUT)]
        cells.append(cell)
    nb["cells"] = cells
    return nb


def dumps(nb: dict[str, Any]) -> bytes:
    """The bytes of a stored notebook: nbformat's layout (1-space indent, sorted keys, trailing newline)."""
    return (json.dumps(nb, indent=1, sort_keys=True, ensure_ascii=False) + "\n").encode("utf-8")


def store(executed: Path, target: Path) -> Path:
    """Write the cleaned ``executed`` notebook over ``target`` (atomically) and return ``target``."""
    nb = json.loads(Path(executed).read_text(encoding="utf-8"))
    atomic_write_bytes(Path(target), dumps(clean(nb)))
    return Path(target)
