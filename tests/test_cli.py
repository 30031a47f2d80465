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
    (repo / "pyproject.toml").write_text("")
    _notebook(
        repo / "notebooks" / "01_ok.ipynb",
        'PROFILE = "standard"  # quick | standard | full\nN: int = 3  # a knob\nALPHAS: list = None  # list knob',
        "from tdbook import results\nresults.start('01_ok', profile=PROFILE, seed=N)\n"
        "results.record('n', 3, N, 0, '000 §1')\nresults.finish()",
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
