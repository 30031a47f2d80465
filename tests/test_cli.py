"""`python -m tdbook run/scoreboard`: clear usage errors (exit 2, nothing written), failure reports, summary."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest
from nbformat.v4 import new_code_cell, new_notebook

from tests.conftest import ROOT


def _notebook(path: Path, params: str, *cells: str) -> None:
    p = new_code_cell(params)
    p.metadata["tags"] = ["parameters"]
    nb = new_notebook(cells=[p, *(new_code_cell(c) for c in cells)])
    nb.metadata["kernelspec"] = {"name": "tdbook", "display_name": "Python (tdbook)", "language": "python"}
    nbformat.write(nb, path)


@pytest.fixture
def fake_repo(tmp_path) -> Path:
    """A checkout with two small notebooks: one that records a claim, one that raises."""
    repo = tmp_path / "repo"
    (repo / "notebooks").mkdir(parents=True)
    (repo / "claims").mkdir()
    (repo / "pyproject.toml").write_text("")
    (repo / "claims" / "fake.toml").write_text(
        '[document]\ncitation = "Fake (2026)"\n\n'
        '[[claim]]\nid = "n"\nnotebook = "01_ok"\nkind = "paper"\nsource = "Fake (2026) §1"\npaper = 3\n'
    )
    _notebook(
        repo / "notebooks" / "01_ok.ipynb",
        'PROFILE = "standard"  # quick | standard | full\nN: int = 3  # a knob\nALPHAS: list = None  # list knob',
        "from tdbook import results\nresults.start('01_ok', profile=PROFILE, seed=N)\n"
        "results.check('n', ours=N)\nresults.finish()",
    )
    _notebook(
        repo / "notebooks" / "02_bad.ipynb",
        'PROFILE = "standard"',
        "x = 1\ny = x / 0  # boom\nz = 2",
    )
    return repo


def _tdbook(*args: str, repo: Path | None = None, timeout: int = 300) -> subprocess.CompletedProcess:
    env = dict(os.environ)
    env.pop("TDBOOK_OUTPUT_ROOT", None)
    if repo is not None:
        env["TDBOOK_ROOT"] = str(repo)
        env["TDBOOK_CLAIMS_PATH"] = str(repo / "claims")
    return subprocess.run(
        [sys.executable, "-m", "tdbook", *args],
        capture_output=True,
        text=True,
        env=env,
        timeout=timeout,
        cwd=repo or ROOT,
    )


def _tree(repo: Path) -> set[str]:
    return {
        str(p.relative_to(repo))
        for d in ("figures", "data", "build")
        if (repo / d).exists()
        for p in (repo / d).rglob("*")
    }


@pytest.mark.parametrize(
    "args, message",
    [
        (["run", "nothere"], "unknown notebook 'nothere'; choose from: 01_ok, 02_bad"),
        (["run", "01", "-p", "RUNS", "3"], "unknown parameter 'RUNS' for 01_ok; its parameters are: N, ALPHAS"),
        (["run", "01", "-p", "N", "three"], "parameter N expects int"),
        (["run", "01", "-p", "N", "2.5"], "parameter N expects int"),
        (["run", "01", "-p", "ALPHAS", "0.1"], "parameter ALPHAS expects list"),
        (["run", "--profile", "fast"], "invalid choice: 'fast' (choose from 'quick', 'standard', 'full')"),
        (["run", "1", "2", "-p", "N", "4"], "unknown parameter 'N' for 02_bad"),
    ],
)
def test_usage_errors_exit_2_and_write_nothing(fake_repo, args, message):
    before = _tree(fake_repo)
    r = _tdbook(*args, repo=fake_repo)
    assert r.returncode == 2, r.stderr
    assert message in r.stderr
    assert _tree(fake_repo) == before == set()


def test_failing_notebook_is_reported_and_others_still_run(fake_repo):
    r = _tdbook("run", "--profile", "quick", "-p", "N", "5", "01", repo=fake_repo)
    assert r.returncode == 0, r.stdout + r.stderr
    stale = fake_repo / "build" / "quick" / "data" / "results" / "02_bad.json"
    import json

    old = json.loads(stale.with_name("01_ok.json").read_text())  # as if from an earlier, good run
    stale.write_text(json.dumps(old | {"notebook": "02_bad", "counts": {"reproduced": 77, "differs": 66}}))
    os.utime(stale, (1e9, 1e9))
    r = _tdbook("run", "--profile", "quick", repo=fake_repo)
    out = r.stdout
    assert r.returncode == 1
    assert "02_bad FAILED" in out and "y = x / 0  # boom" in out and "ZeroDivisionError: division by zero" in out
    assert '"cells"' not in out  # not a wall of notebook JSON
    summary = out[out.index("notebook  ") :]
    assert "01_ok" in summary and "ok" in summary and "02_bad" in summary and "failed" in summary
    bad_row = next(line for line in summary.splitlines() if line.startswith("02_bad"))
    assert "77" not in bad_row and "66" not in bad_row  # a failed run does not show stale counts
    res = fake_repo / "build" / "quick" / "data" / "results" / "01_ok.json"
    assert '"seed": 3' in res.read_text()  # the second run used the default N = 3
    assert (fake_repo / "build" / "quick" / "notebooks" / "01_ok.ipynb").exists()
    assert not (fake_repo / "figures").exists() and not (fake_repo / "data").exists()


def test_help_and_scoreboard(fake_repo):
    for args in (["--help"], ["run", "--help"], ["scoreboard", "--help"]):
        r = _tdbook(*args, repo=fake_repo)
        assert r.returncode == 0 and "usage:" in r.stdout
    _tdbook("run", "--profile", "quick", "01", repo=fake_repo)
    r = _tdbook("scoreboard", "--profile", "quick", "--claims", repo=fake_repo)
    assert r.returncode == 0 and "01_ok" in r.stdout and "reproduced" in r.stdout


def test_name_resolution_orders_index_last():
    from tdbook.runner import resolve_names

    names = [p.stem for p in resolve_names([])]
    assert names[-1] == "00_index"
    assert [p.stem for p in resolve_names(["0"])] == ["00_index"]


@pytest.mark.notebook
def test_a_hung_cell_times_out_and_the_notebook_is_run_again(tmp_path, monkeypatch):
    """A cell that outlives the cell timeout (a kernel that stopped answering) does not block the
    run forever: the notebook is started again once, and a second hang is reported as a failure."""
    from tdbook.runner import run_notebook

    monkeypatch.setenv("TDBOOK_OUTPUT_ROOT", str(tmp_path / "out"))
    marker = tmp_path / "hung-once"
    once = tmp_path / "once.ipynb"
    _notebook(
        once,
        'PROFILE = "quick"',
        f"import pathlib, time\nm = pathlib.Path({str(marker)!r})\n"
        "if not m.exists():\n    m.touch()\n    time.sleep(120)",
    )
    r = run_notebook(once, "quick", {"PROFILE": "quick"}, cell_timeout=5)
    assert r.status == "ok" and r.retries == 1 and marker.exists(), r.error
    assert r.seconds < 60
    always = tmp_path / "always.ipynb"
    _notebook(always, 'PROFILE = "quick"', "import time\ntime.sleep(120)")
    r = run_notebook(always, "quick", {"PROFILE": "quick"}, cell_timeout=3, retries=1)
    assert r.status == "failed" and r.retries == 1
    assert "ran past the 3 s cell timeout" in r.error


def test_channel_waits_are_sliced_but_keep_their_meaning():
    """runner._wait_in_slices: a channel wait is a loop of short polls (a lost event-loop wake-up
    cannot stall a run), yet get_msg still returns a message that arrives later and raises
    queue.Empty when the timeout passes."""
    import asyncio
    import time
    from queue import Empty

    import zmq
    import zmq.asyncio
    from jupyter_client.channels import AsyncZMQSocketChannel
    from jupyter_client.session import Session

    from tdbook import runner

    runner._wait_in_slices()
    runner._wait_in_slices()  # idempotent
    assert getattr(AsyncZMQSocketChannel.get_msg, "_tdbook_sliced", False)

    async def main():
        ctx = zmq.asyncio.Context()
        a, b = ctx.socket(zmq.PAIR), ctx.socket(zmq.PAIR)
        a.bind("inproc://tdbook-slices")
        b.connect("inproc://tdbook-slices")
        session = Session()
        chan = AsyncZMQSocketChannel(b, session)
        t0 = time.monotonic()
        with pytest.raises(Empty):
            await chan.get_msg(timeout=1.2)
        assert 1.1 < time.monotonic() - t0 < 3.0

        async def later():
            await asyncio.sleep(1.3)  # longer than one slice
            session.send(a, "execute_reply", {"status": "ok"})

        task = asyncio.ensure_future(later())
        msg = await chan.get_msg()  # no timeout: waits across slices
        await task
        assert msg["msg_type"] == "execute_reply" and msg["content"]["status"] == "ok"
        a.close(0)
        b.close(0)
        ctx.term()

    asyncio.run(main())


def test_parameter_overrides_are_recorded_next_to_profile_and_seed(fake_repo):
    import json

    res = fake_repo / "build" / "quick" / "data" / "results" / "01_ok.json"
    assert (
        _tdbook(
            "run", "--profile", "quick", "01", "-p", "N", "5", "-p", "ALPHAS", "[0.1, 0.2]", repo=fake_repo
        ).returncode
        == 0
    )
    data = json.loads(res.read_text())
    assert data["parameters"] == {"N": 5, "ALPHAS": [0.1, 0.2]} and data["seed"] == 5
    assert _tdbook("run", "--profile", "quick", "01", repo=fake_repo).returncode == 0
    assert "parameters" not in json.loads(res.read_text())  # defaults only: nothing to record


def test_an_interactive_standard_run_writes_under_build_not_the_record(fake_repo, monkeypatch, capsys):
    """Run All in JupyterLab (no `tdbook run`) must not overwrite figures/ or data/results/."""
    import matplotlib.pyplot as plt

    from tdbook import claims, plotting, results

    monkeypatch.delenv("TDBOOK_OUTPUT_ROOT", raising=False)
    monkeypatch.delenv("TDBOOK_RECORD", raising=False)
    monkeypatch.setenv("TDBOOK_ROOT", str(fake_repo))
    monkeypatch.setenv("TDBOOK_CLAIMS_PATH", str(fake_repo / "claims"))
    claims.reload()
    try:
        results.start("01_ok", profile="standard", seed=3)
        assert "An interactive run: figures and results go to build/interactive/" in capsys.readouterr().out
        results.check("n", ours=3)
        fig, _ = plt.subplots()
        shown = repr(plotting.save(fig, "f"))
        results.finish()
        assert shown == "build/interactive/figures/01_ok/f.png (+svg)"  # where it went, one short relative path
        assert _tree(fake_repo) == {
            "build/interactive",
            "build/interactive/data",
            "build/interactive/data/results",
            "build/interactive/data/results/01_ok.json",
            "build/interactive/figures",
            "build/interactive/figures/01_ok",
            "build/interactive/figures/01_ok/f.png",
            "build/interactive/figures/01_ok/f.svg",
        }
        monkeypatch.setenv("TDBOOK_RECORD", "1")  # what `tdbook run` sets for its kernels
        results.start("01_ok", profile="standard", seed=3)
        assert "interactive" not in capsys.readouterr().out
        assert (fake_repo / "data" / "results" / "01_ok.json").exists()
    finally:
        results._current = None
        monkeypatch.delenv("TDBOOK_CLAIMS_PATH")
        claims.reload()


@pytest.mark.notebook
def test_ctrl_c_during_run_ends_with_one_line_and_exit_130(fake_repo, ctrl_c_reaches_child):
    import signal
    import time

    _notebook(
        fake_repo / "notebooks" / "03_slow.ipynb",
        'PROFILE = "standard"',
        "from tdbook import results\nresults.start('03_slow', profile=PROFILE, seed=1)\nimport time\ntime.sleep(120)",
    )
    env = dict(os.environ, TDBOOK_ROOT=str(fake_repo), TDBOOK_CLAIMS_PATH=str(fake_repo / "claims"))
    env.pop("TDBOOK_OUTPUT_ROOT", None)
    proc = subprocess.Popen(
        [sys.executable, "-m", "tdbook", "run", "--profile", "quick", "03"],
        cwd=fake_repo,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=ctrl_c_reaches_child,
    )
    started = fake_repo / "build" / "quick" / "data" / "results" / "03_slow.json"
    t0 = time.monotonic()
    while not started.exists() and time.monotonic() - t0 < 90:
        time.sleep(0.5)
    assert started.exists(), "the notebook never started"
    time.sleep(1)
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, err
    assert "Traceback" not in err and "KeyboardInterrupt" not in err
    lines = [ln for ln in err.splitlines() if ln.startswith("tdbook run:")]
    assert lines == [
        "tdbook run: interrupted during 03_slow: its results file is marked incomplete; finished "
        "before it: none. To run the rest: python -m tdbook run 03_slow --profile quick"
    ]
    assert '"complete": false' in started.read_text()


def test_list_names_documents_by_citation_and_says_what_is_coming():
    r = _tdbook("list")
    assert r.returncode == 0
    assert "reproduces Powell (2000): Reinforcement Learning in Game Play (M.S. thesis, 2000)" in r.stdout
    assert "reproduces Waterman (1968): Machine Learning of Heuristics (Ph.D. dissertation, 1968)" in r.stdout
    assert "seed" not in r.stdout.lower() and ".txt" not in r.stdout
    assert "(coming)" in r.stdout or all(f"{n:02d}_" in r.stdout for n in range(10))


def test_list_gives_each_notebook_its_claims_file_and_the_experiments_modules_its_cells_import(tmp_path):
    from tdbook.catalog import BY_NUMBER, claims_file, discover, entry_modules

    nb = nbformat.v4.new_notebook()
    nb.cells = [
        nbformat.v4.new_markdown_cell("from tdbook.experiments import not_code"),
        nbformat.v4.new_code_cell(
            "from tdbook import results\nfrom tdbook.experiments.kenju import ram, search as kenju_search\n"
            "from tdbook.experiments.backgammon.analysis import agreement\nfrom tdbook.experiments.kenju import kenju"
        ),
    ]
    p = tmp_path / "03_kenju.ipynb"
    nbformat.write(nb, p)
    assert entry_modules(p) == [
        f"tdbook/experiments/{m}.py" for m in ("kenju/kenju", "kenju/ram", "kenju/search", "backgammon/analysis")
    ]
    r = _tdbook("list")
    for path in discover():
        e = BY_NUMBER[path.stem[:2]]
        block = r.stdout.split(path.stem, 1)[1].split("\n0", 1)[0]
        for f in [claims_file(e), *entry_modules(path)] if e.document else []:
            assert f in block and (ROOT / f).is_file(), f"{path.stem}: {f}"
        assert e.number == "00" or entry_modules(path), f"{path.stem} imports no experiments module"
        if e.number != "00":  # one step from a notebook to its code: the entry module is named after the notebook
            entry = entry_modules(path)[0]
            assert entry.endswith(f"/{path.stem[3:]}.py") and f"entry {entry}" in block, path.stem


def test_no_notebook_cell_imports_an_experiments_module_under_a_short_alias():
    import json
    import re

    from tdbook.catalog import discover

    for path in discover():
        code = "\n".join(
            "".join(c["source"]) for c in json.loads(path.read_text())["cells"] if c["cell_type"] == "code"
        )
        for m in re.finditer(r"^\s*from tdbook\.experiments\.(\w+) import ([^\n]+)", code, re.M):
            for part in m.group(2).split(","):
                module, _, alias = part.strip().partition(" as ")
                # under its own name, or its own name with its game in front where the bare name is taken
                assert not alias or alias == f"{m.group(1)}_{module}", f"{path.stem}: {part.strip()}"


def test_train_without_a_game_lists_every_trainer_and_its_options():
    from tdbook.cli import TRAINERS

    r = _tdbook("train", "--help")
    assert r.returncode == 0, r.stderr
    for game in TRAINERS:
        assert f"== {game} " in r.stdout and f"python -m tdbook train {game}" in r.stdout
    assert "--games" in r.stdout and "--out" in r.stdout
    bare = _tdbook("train")
    assert bare.returncode == 2 and "name a GAME" in bare.stderr and "== backgammon" in bare.stderr
    assert "the following arguments are required" not in bare.stderr
    unknown = _tdbook("train", "chess")
    assert unknown.returncode == 2 and "unknown game 'chess'; choose from: " in unknown.stderr


def test_run_on_an_existing_cluster_by_its_address(fake_repo):
    """--scheduler sends the notebooks to a Dask cluster started elsewhere (here a LocalCluster in this process,
    reached only by its tcp:// address, exactly as a remote one would be); a dead address is a usage error."""
    import json

    from distributed import LocalCluster

    with LocalCluster(n_workers=1, threads_per_worker=1, processes=True, dashboard_address=None) as cluster:
        address = cluster.scheduler_address
        assert address.startswith("tcp://")
        r = _tdbook("run", "--profile", "quick", "01", "-p", "N", "4", "--scheduler", address, repo=fake_repo)
    assert r.returncode == 0, r.stdout + r.stderr
    assert f"on the Dask cluster at {address}" in r.stderr + r.stdout
    res = json.loads((fake_repo / "build" / "quick" / "data" / "results" / "01_ok.json").read_text())
    assert res["complete"] and res["seed"] == 4 and res["claims"][0]["verdict"] == "differs"
    r = _tdbook("run", "--profile", "quick", "01", "--scheduler", "tcp://127.0.0.1:9", repo=fake_repo, timeout=120)
    assert r.returncode == 2 and "no Dask scheduler answers at tcp://127.0.0.1:9" in r.stderr


def test_each_entry_module_says_which_notebook_section_uses_which_of_its_names():
    """Issue 31: the docstring of a notebook's entry module lists, by section, what the notebook calls from it."""
    import re

    from tdbook.catalog import USES_MARK, discover, entry_modules, notebook_uses, uses_block, write_uses

    assert write_uses(check=True) == [], "run `python -m tdbook.catalog --write` and commit the entry modules"
    for path in discover()[1:]:
        name, uses = notebook_uses(path)
        assert name == path.stem[3:] and uses, path.stem
        text = (ROOT / entry_modules(path)[0]).read_text()
        assert USES_MARK in text and uses_block(path) in text
        for names in uses.values():  # every listed name is the module's own
            for n in names:
                assert re.search(rf"^(def|class) {n}\b|^{n}\b.*=|import .*\b{n}\b", text, re.M), (path.stem, n)


# ----------------------------------------------------------------------------- issue 49: -p checked before a kernel


@pytest.mark.parametrize(
    "args, words",
    [
        (["05", "-p", "RUNS", "-5"], ["05_random_walk: -p RUNS -5:", "runs must be"]),
        (["03", "-p", "MODE_GAMES", "0"], ["03_kenju: -p MODE_GAMES 0:", "MODE_GAMES must be >= 1"]),
        (["05", "-p", "SEED", "-1"], ["parameter SEED must be a whole number >= 0", "-1"]),
    ],
)
def test_a_bad_parameter_is_refused_by_the_notebooks_own_configuration_before_any_kernel(
    args, words, monkeypatch, tmp_path, capsys
):
    """Issue 49 §9: `run 05 --profile quick -p RUNS -5` started a kernel and failed in cell [3] with exit 1; the
    notebook's configuration call now sees the value first: one line, exit 2, no kernel."""
    import papermill

    from tdbook.cli import main

    monkeypatch.setenv("TDBOOK_OUTPUT_ROOT", str(tmp_path / "out"))
    monkeypatch.setattr(papermill, "execute_notebook", lambda *a, **k: pytest.fail("a kernel was started"))
    assert main(["run", "--profile", "quick", *args]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("tdbook run: error:") and all(w in err[0] for w in words), err
    assert not (tmp_path / "out").exists() or not any((tmp_path / "out").rglob("*.ipynb"))


def test_every_notebooks_configuration_call_is_found_with_its_knobs():
    from tdbook.catalog import discover
    from tdbook.runner import notebook_config, notebook_parameters

    for path in discover():
        found = notebook_config(path)
        if path.stem.startswith("00"):
            assert found is None
            continue
        module, fn, knobs = found
        assert module.startswith("tdbook.experiments.") and fn == "config", path.stem
        assert knobs and set(knobs.values()) <= set(notebook_parameters(path)), path.stem


def test_scoreboard_of_a_profile_nothing_was_run_in_says_so(fake_repo):
    r = _tdbook("scoreboard", "--profile", "full", repo=fake_repo)
    assert r.returncode == 1 and "0 claims" not in r.stdout
    assert "no results for the full profile" in r.stderr and "python -m tdbook run --profile full" in r.stderr
