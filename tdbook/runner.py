"""Execute notebooks with papermill: name resolution, parameter checking, failure reports, summary.

Used by ``python -m tdbook run`` (and so by ``make figures``) and by the notebook tests.
Everything is validated before anything is written: an unknown notebook, parameter
or profile, or a parameter of the wrong type, raises :class:`UsageError` (exit code 2
at the command line) and leaves ``figures/``, ``data/`` and ``build/`` untouched.
"""

from __future__ import annotations

import ast
import os
import re
import sys
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .catalog import discover
from .core.paths import PROFILES, RECORD_ENV, executed_dir, output_root, record_root, results_dir
from .findings import FindingsError
from .findings import fill_file as fill_findings
from .results import OVERRIDES_ENV
from .stored import store

KERNEL = "tdbook"
ANSI = re.compile(r"\x1b\[[0-9;]*[A-Za-z]")


class UsageError(ValueError):
    """A bad request (unknown name, parameter, type or profile); nothing has been written."""


class Interrupted(KeyboardInterrupt):
    """Ctrl-C during a run; the message says what finished and how to run the rest."""


@dataclass
class RunResult:
    notebook: str
    seconds: float
    status: str  # "ok" | "failed"
    error: str = ""
    counts: dict[str, int] = field(default_factory=dict)
    retries: int = 0  # executions restarted after a cell timeout


# Longest any single cell may run before the execution is treated as hung.  A quick notebook
# must finish in 2 minutes, so 5 minutes in one cell means the run stopped making progress (the
# lost wake-up that _wait_in_slices prevents is the case we have seen); standard cells take
# minutes (the longest, notebook 08's ladder, about 10 under load); full-profile training cells
# take hours, so they get no limit.
CELL_TIMEOUT_S: dict[str, int | None] = {"quick": 300, "standard": 1800, "full": None}

#: Longest single wait on a kernel channel before the client looks again (seconds); see below.
POLL_SLICE_S = 0.5


def _wait_in_slices() -> None:
    """Make the notebook client's channel waits finite, so a missed wake-up cannot stall a run.

    Seen here with ipykernel 6 and 7 (notebook 05 quick beside other jobs: 4 of 25 runs stalled
    without this, 0 of 25 with it; ~5 % of widget-panel runs idle): the kernel
    has sent its ``execute_reply`` and gone idle, but papermill waits forever on the shell channel —
    an unbounded ``zmq.asyncio`` poll whose event-loop wake-up was lost.  A poll with a timeout ends
    in a real zmq poll, which finds the message; so every wait becomes a loop of short polls.
    Waiting semantics (timeout, ``queue.Empty``) are unchanged.
    """
    from queue import Empty

    from jupyter_client.channels import AsyncZMQSocketChannel

    if getattr(AsyncZMQSocketChannel.get_msg, "_tdbook_sliced", False):
        return

    async def get_msg(self, timeout: float | None = None) -> dict[str, Any]:
        deadline = None if timeout is None else time.monotonic() + timeout
        while True:
            left = None if deadline is None else deadline - time.monotonic()
            step = POLL_SLICE_S if left is None else max(0.0, min(POLL_SLICE_S, left))
            if await self.socket.poll(int(step * 1000)):
                return await self._recv()
            if left is not None and left <= step:
                raise Empty

    get_msg._tdbook_sliced = True  # type: ignore[attr-defined]
    AsyncZMQSocketChannel.get_msg = get_msg  # type: ignore[method-assign]


# ----------------------------------------------------------------------------- names


def resolve_names(names: Sequence[str]) -> list[Path]:
    """Notebook paths for ``names`` (number like ``5``/``05``, stem, or name part); all when empty.

    The index (00) always runs last, after the notebooks whose claims it renders.
    """
    books = discover()
    if not names:
        chosen = list(books)
    else:
        chosen = []
        for raw in names:
            key = raw.strip().lower().removesuffix(".ipynb").replace("-", "_")
            key = Path(key).name
            hits = [
                p
                for p in books
                if key in (p.stem.lower(), p.stem[:2])
                or (key.isdigit() and p.stem[:2] == key.zfill(2))
                or p.stem.lower()[3:] == key
            ]
            if not hits:
                hits = [p for p in books if key and key in p.stem.lower()[3:]]
            if len(hits) != 1:
                what = "ambiguous" if hits else "unknown"
                raise UsageError(f"{what} notebook {raw!r}; choose from: {', '.join(p.stem for p in books)}")
            if hits[0] not in chosen:
                chosen.append(hits[0])
    index = [p for p in chosen if p.stem.startswith("00")]
    return [p for p in chosen if p not in index] + index


# ----------------------------------------------------------------------------- parameters


def notebook_parameters(path: Path) -> dict[str, dict[str, Any]]:
    """The cell tagged ``parameters``: name → {inferred_type_name, default, help}.

    Parsed with :mod:`ast` (papermill's own inspector cannot read ``int | None``
    annotations): every top-level ``NAME = value`` or ``NAME: type = value`` counts,
    and a trailing ``# comment`` is the help text.
    """
    import json

    try:
        nb = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, ValueError) as e:
        raise UsageError(f"cannot read notebook {path}: {e}") from None
    cells = [c for c in nb.get("cells", []) if "parameters" in c.get("metadata", {}).get("tags", [])]
    if not cells:
        return {}
    src = cells[0]["source"]
    src = "".join(src) if isinstance(src, list) else src
    lines = src.splitlines()
    out: dict[str, dict[str, Any]] = {}
    for node in ast.parse(src).body:
        if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            name, ann = node.target.id, ast.get_source_segment(src, node.annotation)
            value = node.value
        elif isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            name, ann, value = node.targets[0].id, None, node.value
        else:
            continue
        line = lines[node.end_lineno - 1]
        help_text = line.split("#", 1)[1].strip() if "#" in line[node.end_col_offset :] else ""
        out[name] = {
            "name": name,
            "inferred_type_name": ann or "None",
            "default": ast.get_source_segment(src, value) if value is not None else "None",
            "help": help_text,
        }
    return out


def _parse_literal(text: str) -> Any:
    t = text.strip()
    if t.lower() in ("true", "false"):
        return t.lower() == "true"
    if t.lower() in ("none", "null"):
        return None
    try:
        return ast.literal_eval(t)
    except (ValueError, SyntaxError):
        return text


def _type_names(info: dict[str, Any]) -> list[str]:
    """Allowed base types from the annotation, or from the default when there is none."""
    t = str(info.get("inferred_type_name") or "None")
    if t != "None":
        m = re.fullmatch(r"\s*Optional\[(.*)\]\s*", t)
        if m:
            t = m.group(1) + " | None"
        names = [re.sub(r"\[.*\]$", "", s.strip()).strip().lower() for s in t.split("|") if s.strip()]
        if _parse_literal(str(info.get("default", ""))) is None and "none" not in names:
            names.append("none")  # `RUNS: int = None` means "None = profile default"
        return names
    default = _parse_literal(str(info.get("default", "None")))
    if default is None:
        return ["any"]
    return [type(default).__name__]


def coerce(name: str, text: str, info: dict[str, Any]) -> Any:
    """Parse the command-line text for parameter ``name`` and check it against its declared type."""
    allowed = _type_names(info)
    value = _parse_literal(text)
    if "any" in allowed:
        return value
    if value is None and "none" in allowed:
        return None
    for t in allowed:
        if t == "bool" and isinstance(value, bool):
            return value
        if t == "int" and isinstance(value, int) and not isinstance(value, bool):
            return value
        if t == "float" and isinstance(value, (int, float)) and not isinstance(value, bool):
            return float(value)
        if t == "str":
            return text
        if t in ("list", "tuple", "sequence") and isinstance(value, (list, tuple)):
            return list(value)
        if t == "dict" and isinstance(value, dict):
            return value
    raise UsageError(f"parameter {name} expects {' | '.join(allowed)}, got {text!r}")


def notebook_config(path: Path) -> tuple[str, str, dict[str, str]] | None:
    """Where a notebook resolves its knobs: ``(module, function, {keyword: parameter})`` of its call
    ``cfg = <entry>.config(PROFILE, RUNS=RUNS, …)``, the module named by the notebook's own import of it; None when
    it makes no such call (the index)."""
    import json

    nb = json.loads(Path(path).read_text(encoding="utf-8"))
    imported: dict[str, str] = {}
    for cell in nb.get("cells", []):
        if cell.get("cell_type") != "code":
            continue
        src = cell["source"]
        try:
            tree = ast.parse("".join(src) if isinstance(src, list) else src)
        except SyntaxError:
            continue
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                for a in node.names:
                    imported[a.asname or a.name] = f"{node.module}.{a.name}"
            elif isinstance(node, ast.Import):
                for a in node.names:
                    imported[a.asname or a.name.split(".")[0]] = a.name if a.asname else a.name.split(".")[0]
            elif (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Attribute)
                and node.func.attr == "config"
                and isinstance(node.func.value, ast.Name)
                and node.func.value.id in imported
            ):
                knobs = {k.arg: k.value.id for k in node.keywords if k.arg and isinstance(k.value, ast.Name)}
                return imported[node.func.value.id], "config", knobs
    return None


def check_config(path: Path, profile: str, values: dict[str, Any]) -> None:
    """Resolve the notebook's knobs as its own configuration call will, with the ``-p`` values given, before any
    kernel starts: a value the notebook would refuse is a UsageError naming the notebook, the parameter and why."""
    import importlib

    given = {k: v for k, v in values.items() if k != "PROFILE"}
    where = notebook_config(path) if given else None
    if where is None:
        return
    module, fn, knobs = where
    args = {kw: values[param] for kw, param in knobs.items() if param in given}
    if not args:
        return
    try:
        getattr(importlib.import_module(module), fn)(profile, **args)
    except (ValueError, TypeError) as e:
        names = ", ".join(f"-p {p} {values[p]!r}" for p in knobs.values() if p in given)
        raise UsageError(f"{path.stem}: {names}: {str(e).splitlines()[0] if str(e) else type(e).__name__}") from None


def check_seed(name: str, value: Any) -> None:
    """A ``SEED`` parameter is a whole number ≥ 0 (it picks the random streams): UsageError otherwise."""
    if name == "SEED" and value is not None and (isinstance(value, bool) or not isinstance(value, int) or value < 0):
        raise UsageError(f"parameter SEED must be a whole number >= 0 (it picks the random streams), got {value!r}")


def check_request(paths: Sequence[Path], profile: str, params: Iterable[tuple[str, str]]) -> dict[Path, dict[str, Any]]:
    """Validate profile and parameters for every chosen notebook — their types, a seed, and what the notebook's own
    configuration call would refuse (:func:`check_config`) — before any kernel starts; return per-notebook
    parameter dicts."""
    if profile not in PROFILES:
        raise UsageError(f"unknown profile {profile!r}; choose one of: {', '.join(PROFILES)}")
    params = list(params)
    out: dict[Path, dict[str, Any]] = {}
    for p in paths:
        declared = notebook_parameters(p)
        if "PROFILE" not in declared:
            raise UsageError(f"{p.name} has no PROFILE in a cell tagged 'parameters'")
        values: dict[str, Any] = {"PROFILE": profile}
        for key, text in params:
            if key == "PROFILE":
                raise UsageError("set the profile with --profile, not -p PROFILE")
            if key not in declared:
                valid = ", ".join(k for k in declared if k != "PROFILE")
                raise UsageError(f"unknown parameter {key!r} for {p.stem}; its parameters are: {valid}")
            values[key] = coerce(key, text, declared[key])
            check_seed(key, values[key])
        check_config(p, profile, values)
        out[p] = values
    return out


# ----------------------------------------------------------------------------- execution


def _failure_text(exc: BaseException) -> str:
    """The failing cell's line and the exception, not the notebook JSON."""
    ename = getattr(exc, "ename", type(exc).__name__)
    evalue = getattr(exc, "evalue", str(exc))
    source = getattr(exc, "source", "") or ""
    tb = ANSI.sub("", "\n".join(getattr(exc, "traceback", []) or []))
    where = ""
    m = re.search(r"Cell In\[\d+\], line (\d+)", tb)
    lines = source.splitlines()
    if m and lines:
        n = int(m.group(1))
        if 1 <= n <= len(lines):
            where = f"cell line {n}: {lines[n - 1].strip()}"
    if not where and lines:
        where = "cell: " + lines[-1].strip()
    cell = getattr(exc, "exec_count", None)
    head = f"in cell [{cell}] " if cell is not None else ""
    return f"{head}{where}\n    {ename}: {evalue}".strip()


def run_notebook(
    path: Path,
    profile: str,
    parameters: dict[str, Any],
    kernel: str = KERNEL,
    quiet: bool = True,
    cell_timeout: int | None | str = "profile",
    retries: int = 1,
) -> RunResult:
    """Execute one notebook; the executed copy goes to ``executed_dir(profile)``.

    A cell that runs longer than ``cell_timeout`` seconds (by default ``CELL_TIMEOUT_S[profile]``)
    stops the execution; it is then started again from the top up to ``retries`` times, because
    every notebook is deterministic given its seed and rewrites all of its outputs.
    """
    import json

    _wait_in_slices()
    timeout = CELL_TIMEOUT_S.get(profile) if cell_timeout == "profile" else cell_timeout
    # what the kernel must know: this run writes the record, and which parameters were overridden
    env = {RECORD_ENV: "1", OVERRIDES_ENV: json.dumps({k: v for k, v in parameters.items() if k != "PROFILE"})}
    saved = {k: os.environ.get(k) for k in env}
    os.environ.update(env)
    try:
        return _execute(path, profile, parameters, kernel, quiet, timeout, retries)
    finally:
        for k, v in saved.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v


def _execute(
    path: Path, profile: str, parameters: dict[str, Any], kernel: str, quiet: bool, timeout: int | None, retries: int
) -> RunResult:
    import json

    import papermill
    from nbclient.exceptions import CellTimeoutError
    from papermill.exceptions import PapermillExecutionError

    out = executed_dir(profile) / path.name
    out.parent.mkdir(parents=True, exist_ok=True)
    partial = out.with_name(f".{out.stem}.{os.getpid()}.partial.ipynb")  # renamed over ``out`` once complete
    overrides = {k: v for k, v in parameters.items() if k != "PROFILE"}
    declared = notebook_parameters(path).get("PROFILE", {})
    default_profile = _parse_literal(str(declared.get("default", "None")))
    if not overrides and parameters.get("PROFILE") == default_profile:
        parameters = {}  # nothing to inject: the stored notebook keeps its own parameters cell only
    attempt = 0
    started = time.time()
    while True:
        t0 = time.perf_counter()  # the wall time reported is that of the last attempt
        status, error, timed_out = "ok", "", False
        try:
            papermill.execute_notebook(
                str(path),
                str(partial),
                parameters=parameters,
                kernel_name=kernel,
                cwd=str(path.parent),
                progress_bar=not quiet,
                log_output=False,
                report_mode=False,
                execution_timeout=timeout,
            )
        except CellTimeoutError as e:
            status, error, timed_out = "failed", f"a cell ran past the {timeout} s cell timeout: {e}", True
        except PapermillExecutionError as e:
            if getattr(e, "ename", "") == "KeyboardInterrupt":  # Ctrl-C reached the kernel too
                raise KeyboardInterrupt from None
            status, error = "failed", _failure_text(e)
        except OSError as e:  # the disk is full, or the output folder went away
            status, error = "failed", f"could not write {out} ({e.strerror or e}); the previous file is intact"
        except Exception as e:  # kernel died, missing kernel, …
            status, error = "failed", f"{type(e).__name__}: {e}"
        finally:
            kept = _keep(partial, out)  # always: a partial file never stays behind
            error = error or kept
            status = "failed" if error else status
        if not timed_out or attempt >= retries:
            break
        attempt += 1
        print(
            f"[tdbook] {path.stem}: {error.splitlines()[0]}; running it again (attempt {attempt + 1} of {retries + 1})",
            file=sys.stderr,
            flush=True,
        )
    seconds = time.perf_counter() - t0
    if status == "ok":  # the chapter's findings, from the results file this run wrote
        try:
            fill_findings(out, results_dir(profile) / f"{path.stem}.json")
        except (FindingsError, ValueError, OSError) as e:
            status, error = "failed", f"findings: {e}"
    if status == "ok" and profile == "standard" and not overrides:
        # the readable record: notebooks/NN.ipynb with its outputs (a scratch root under TDBOOK_OUTPUT_ROOT)
        target = record_root(profile) / "notebooks" / path.name
        try:
            store(out, target)
        except OSError as e:
            status, error = "failed", f"could not write {target} ({e.strerror or e}); the previous file is intact"
    counts: dict[str, int] = {}
    rfile = results_dir(profile) / f"{path.stem}.json"
    if rfile.exists() and rfile.stat().st_mtime >= started:  # not a previous run's counts
        try:
            counts = json.loads(rfile.read_text())["counts"]
        except (ValueError, KeyError):
            counts = {}
    return RunResult(path.stem, seconds, status, error, counts, attempt)


def _keep(partial: Path, out: Path) -> str:
    """Move the executed notebook papermill wrote (``partial``) over ``out`` when it is a whole notebook; remove
    it otherwise.  Returns "" or the one-line reason ``out`` was left as it was."""
    import json

    if not partial.exists():
        return ""
    try:
        json.loads(partial.read_text(encoding="utf-8"))  # a truncated write is not JSON
        os.replace(partial, out)
        return ""
    except (OSError, ValueError) as e:
        reason = getattr(e, "strerror", None) or "the executed notebook was cut short"
        return f"could not write {out} ({reason}); the previous file is intact"
    finally:
        if partial.exists():
            partial.unlink()


def check_outputs(profile: str) -> None:
    """UsageError naming the folder unless the run's output roots exist (or can be made) and are writable:
    checked before the first notebook starts."""
    import tempfile

    where = "TDBOOK_OUTPUT_ROOT " if os.environ.get("TDBOOK_OUTPUT_ROOT") else ""
    for root in dict.fromkeys([output_root(profile), record_root(profile), executed_dir(profile)]):
        try:
            root.mkdir(parents=True, exist_ok=True)
            with tempfile.NamedTemporaryFile(dir=root, prefix=".tdbook-write-test-"):
                pass
        except OSError as e:
            raise UsageError(f"cannot write the outputs under {where}{root} ({e.strerror or e})") from None


def check_kernel(kernel: str) -> None:
    """UsageError unless a Jupyter kernel named ``kernel`` is installed."""
    from jupyter_client.kernelspec import KernelSpecManager

    names = sorted(KernelSpecManager().find_kernel_specs())
    if kernel not in names:
        raise UsageError(f"no Jupyter kernel named {kernel!r}; installed: {', '.join(names) or 'none'}")


#: A Dask scheduler's address: protocol://host:port
_ADDRESS = re.compile(r"^(tcp|tls|ucx|ws|wss)://(\[[0-9a-fA-F:]+\]|[\w.-]+):(\d{1,5})$")


def check_scheduler(address: str) -> None:
    """UsageError unless ``address`` reads as a Dask scheduler address (``tcp://HOST:PORT``)."""
    m = _ADDRESS.match(address)
    if not m or not 0 < int(m.group(3)) < 65536:
        raise UsageError(f"--scheduler {address!r} is not a scheduler address like tcp://HOST:PORT")


def summary_table(results: Sequence[RunResult]):
    from .results import VERDICTS, Table

    rows = []
    for r in results:
        c = r.counts
        status = r.status + (f" (after {r.retries} restart{'s' if r.retries > 1 else ''})" if r.retries else "")
        rows.append([r.notebook, f"{r.seconds:.1f}", status, *(str(c.get(v, "")) for v in VERDICTS)])
    return Table(["notebook", "wall s", "status", *VERDICTS], rows)


def run(
    names: Sequence[str],
    profile: str = "standard",
    params: Iterable[tuple[str, str]] = (),
    kernel: str = KERNEL,
    stream=sys.stdout,
    workers: int | None = None,
    scheduler: str | None = None,
) -> list[RunResult]:
    """Validate, then execute the chosen notebooks; print failures and a summary.

    The whole run is a recording run (:func:`tdbook.core.paths.recording`): in the standard profile its
    notebooks, their results and the scoreboard go to the committed record.  With ``workers`` > 1 the
    notebooks run concurrently on a Dask ``LocalCluster`` (one worker per notebook at a time, the longest
    first), with ``scheduler`` on an existing Dask cluster (whose workers see this checkout at the same
    path); the index (00) always runs last, here.  Each notebook is deterministic given its seed, so the
    outputs are the same bytes however many workers ran them.
    """
    paths = resolve_names(names)
    plan = check_request(paths, profile, params)
    if workers is not None and (isinstance(workers, bool) or not isinstance(workers, int) or workers < 1):
        raise UsageError(f"--workers must be a positive integer, got {workers!r}")
    if scheduler is not None:
        check_scheduler(scheduler)
    check_kernel(kernel)
    check_outputs(profile)
    saved = os.environ.get(RECORD_ENV)
    os.environ[RECORD_ENV] = "1"
    try:
        return _run_all(paths, plan, profile, kernel, stream, workers or 1, scheduler)
    finally:
        if saved is None:
            os.environ.pop(RECORD_ENV, None)
        else:
            os.environ[RECORD_ENV] = saved


def _interrupted(p: Path, paths: list[Path], done: list[RunResult], profile: str) -> Interrupted:
    finished = ", ".join(r.notebook for r in done) or "none"
    rest = [q.stem for q in paths if q.stem not in {r.notebook for r in done}]
    rerun = " ".join(["python -m tdbook run", *rest]) + ("" if profile == "standard" else f" --profile {profile}")
    return Interrupted(
        f"interrupted during {p.stem}: its results file is marked incomplete; finished before it: "
        f"{finished}. To run the rest: {rerun}"
    )


def _run_all(
    paths: list[Path],
    plan: dict[Path, dict[str, Any]],
    profile: str,
    kernel: str,
    stream,
    workers: int,
    scheduler: str | None,
) -> list[RunResult]:
    index = [p for p in paths if p.stem.startswith("00")]
    books = [p for p in paths if p not in index]
    results: list[RunResult] = []
    if scheduler or (workers > 1 and len(books) > 1):
        results += _run_on_dask(books, plan, profile, kernel, stream, workers, scheduler)
        books = []
    for p in books + index:
        print(f"[tdbook] running {p.stem} (profile {profile}) …", file=stream, flush=True)
        try:
            r = run_notebook(p, profile, plan[p], kernel=kernel, quiet=False)  # papermill's cell bar
        except KeyboardInterrupt:
            raise _interrupted(p, paths, results, profile) from None
        results.append(r)
        if r.status != "ok":
            print(f"[tdbook] {p.stem} FAILED {r.error}", file=stream, flush=True)
    from .results import write_scoreboard

    if results_dir(profile).is_dir():
        write_scoreboard(profile)
    print("", file=stream)
    print(summary_table(results), file=stream)
    print(f"\noutputs under {output_root(profile)}", file=stream)
    return results


#: What a notebook run needs to find in a worker's environment (set there for the task, then restored).
FORWARDED_ENV = ("TDBOOK_ROOT", "TDBOOK_OUTPUT_ROOT", "TDBOOK_CLAIMS_PATH", "MPLBACKEND", RECORD_ENV)


def _remote_run(path: str, profile: str, parameters: dict[str, Any], kernel: str, env: dict[str, str]) -> RunResult:
    """A notebook run as a Dask task: the caller's environment for the run, then the worker's own again."""
    saved = {k: os.environ.get(k) for k in FORWARDED_ENV}
    for k in FORWARDED_ENV:
        os.environ.pop(k, None)
    os.environ.update(env)
    try:
        return run_notebook(Path(path), profile, parameters, kernel=kernel, quiet=True)
    finally:
        for k, v in saved.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v


def _run_on_dask(
    books: list[Path],
    plan: dict[Path, dict[str, Any]],
    profile: str,
    kernel: str,
    stream,
    workers: int,
    scheduler: str | None,
) -> list[RunResult]:
    from distributed import Client, LocalCluster, as_completed
    from tqdm.auto import tqdm

    from .catalog import expected_minutes

    if scheduler:
        try:
            client, cluster = Client(scheduler, timeout="20s"), None
        except (OSError, ValueError, TypeError) as e:
            raise UsageError(f"no Dask scheduler answers at {scheduler}: {e}") from None
        where = f"the Dask cluster at {scheduler}"
    else:
        cluster = LocalCluster(n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=None)
        client = Client(cluster)
        where = f"a LocalCluster of {workers} workers"
    env = {k: os.environ[k] for k in FORWARDED_ENV if k in os.environ}
    order = sorted(books, key=lambda p: -expected_minutes(p.stem))  # the longest first: a shorter tail
    print(f"[tdbook] running {len(order)} notebooks (profile {profile}) on {where} …", file=stream, flush=True)
    done: list[RunResult] = []
    futures = [
        client.submit(
            _remote_run,
            str(p),
            profile,
            plan[p],
            kernel,
            env,
            key=f"tdbook-{p.stem}",
            priority=len(order) - i,
            pure=False,
        )
        for i, p in enumerate(order)
    ]
    try:
        with tqdm(total=len(futures), desc="notebooks", unit="nb") as bar:
            for fut in as_completed(futures):
                r = fut.result()
                done.append(r)
                bar.update()
                if r.status != "ok":
                    print(f"[tdbook] {r.notebook} FAILED {r.error}", file=stream, flush=True)
    except KeyboardInterrupt:
        client.cancel(futures)
        running = next((p for p in order if p.stem not in {r.notebook for r in done}), order[-1])
        raise _interrupted(running, books, done, profile) from None
    finally:
        client.close()
        if cluster is not None:
            cluster.close()
    rank = {p.stem: i for i, p in enumerate(books)}
    return sorted(done, key=lambda r: rank[r.notebook])
