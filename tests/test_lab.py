"""``make lab`` leaves the stored notebooks alone: JupyterLab works on copies in build/lab/, a reader's edits to
a copy are kept, unedited copies follow the stored notebooks, and a real JupyterLab session that saves (as
autosave does) writes only the copy."""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from tdbook import lab
from tests.conftest import ROOT


@pytest.fixture()
def checkout(tmp_path, monkeypatch):
    """A small checkout: two stored notebooks and the template."""
    nbs = tmp_path / "notebooks"
    nbs.mkdir()
    for name in ("00_index.ipynb", "05_random_walk.ipynb", "_template.ipynb"):
        shutil.copy(ROOT / "notebooks" / name, nbs / name)
    (tmp_path / "pyproject.toml").write_text("")
    monkeypatch.setenv("TDBOOK_ROOT", str(tmp_path))
    return tmp_path


def _snapshot(d: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(d.iterdir())}


def test_working_copies_are_made_refreshed_and_an_edited_one_kept(checkout, capsys):
    stored = _snapshot(checkout / "notebooks")
    d = lab.prepare()
    assert d == checkout / "build" / "lab"
    assert {k: v for k, v in _snapshot(d).items() if k != lab.LEDGER} == stored
    # the stored notebook changes (a git pull); the reader edited one copy but not the other
    (checkout / "notebooks" / "05_random_walk.ipynb").write_bytes(stored["05_random_walk.ipynb"] + b" ")
    (checkout / "notebooks" / "00_index.ipynb").write_bytes(stored["00_index.ipynb"] + b" ")
    (d / "00_index.ipynb").write_bytes(b'{"edited": true}')
    lab.prepare()
    assert (d / "05_random_walk.ipynb").read_bytes() == stored["05_random_walk.ipynb"] + b" "  # followed
    assert (d / "00_index.ipynb").read_bytes() == b'{"edited": true}'  # kept, and said
    assert "kept your edited working copy build/lab/00_index.ipynb" in capsys.readouterr().out
    lab.prepare(fresh=True)
    assert (d / "00_index.ipynb").read_bytes() == stored["00_index.ipynb"] + b" "


def test_the_lab_command_roots_jupyter_at_the_copies_and_passes_the_readers_options(checkout):
    cmd = lab.command(["--port", "8899", "--IdentityProvider.token=secret"])
    assert cmd[1:4] == ["-m", "jupyter", "lab"]
    assert f"--ServerApp.root_dir={checkout / 'build' / 'lab'}" in cmd
    assert cmd[-2:] == ["--port", "8899", "--IdentityProvider.token=secret"] or cmd[-3:-1] == ["--port", "8899"]


def test_the_lab_starts_without_the_news_question_unless_told(checkout):
    """Issue 49 §10: JupyterLab's first start asked about its news feed."""
    cmd = lab.command([])
    assert "--LabApp.news_url=None" in cmd and any("NeverCheckForUpdate" in c for c in cmd)
    mine = lab.command(["--LabApp.news_url=https://example.org/feed.xml"])
    assert "--LabApp.news_url=None" not in mine and mine[-1] == "--LabApp.news_url=https://example.org/feed.xml"


def test_the_kernels_are_compiled_in_the_background_once_per_code(checkout, tmp_path, monkeypatch):
    """Issue 49 §7: unless numba's cache for this code is filled, ``tdbook lab`` fills it in the background with the
    notebooks' quick runs (writing under build/lab/warm-up/), once: not again while that runs, nor once it is done."""
    cache = tmp_path / "numba-cache"
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(cache))
    started = []

    class Proc:
        pid = os.getpid()  # alive while the test runs

    def popen(cmd, **kw):
        started.append((cmd, kw))
        return Proc()

    monkeypatch.setattr(lab.subprocess, "Popen", popen)
    lab.prepare()
    assert "compiling in the background" in lab.warm()
    ((cmd, kw),) = started
    assert cmd[-1] == str(cache / lab.WARM_STAMP)
    assert kw["env"]["TDBOOK_OUTPUT_ROOT"] == str(checkout / "build" / "lab" / "warm-up")
    assert kw["start_new_session"] and '"--profile", "quick"' in cmd[-2]
    assert "still being compiled" in lab.warm() and len(started) == 1  # its process is alive
    (cache / lab.WARM_STAMP).write_text("done")
    assert "compiled for this code already" in lab.warm() and len(started) == 1


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _api(port: int, token: str, path: str, method: str = "GET", body: dict | None = None) -> dict:
    req = urllib.request.Request(
        f"http://127.0.0.1:{port}/api/contents/{path}",
        method=method,
        data=None if body is None else json.dumps(body).encode(),
        headers={"Authorization": f"token {token}", "Content-Type": "application/json"},
    )
    with urllib.request.urlopen(req, timeout=10) as r:
        return json.loads(r.read() or b"{}")


@pytest.mark.notebook
def test_a_real_jupyterlab_session_that_saves_leaves_notebooks_untouched(checkout):
    stored = _snapshot(checkout / "notebooks")
    port, token = _free_port(), "tdbook-test-token"
    env = dict(os.environ, TDBOOK_ROOT=str(checkout), JUPYTER_CONFIG_DIR=str(checkout / "jupyter-config"))
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "tdbook",
            "lab",
            "--no-warm",
            "--no-browser",
            f"--port={port}",
            f"--IdentityProvider.token={token}",
        ],  # fmt: skip
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
    )
    try:
        deadline = time.time() + 60
        while True:
            try:
                listing = _api(port, token, "")
                break
            except (urllib.error.URLError, ConnectionError):
                if time.time() > deadline or proc.poll() is not None:
                    out = proc.stdout.read().decode() if proc.poll() is not None else ""
                    pytest.fail(f"JupyterLab did not start: {out[-2000:]}")
                time.sleep(0.5)
        names = {c["name"] for c in listing["content"]}
        assert "05_random_walk.ipynb" in names and "notebooks" not in names
        nb = _api(port, token, "05_random_walk.ipynb")
        nb["content"]["cells"][1]["source"] = 'PROFILE = "quick"  # a reader\'s quick run'
        _api(port, token, "05_random_walk.ipynb", "PUT", {"type": "notebook", "content": nb["content"]})
        with pytest.raises(urllib.error.HTTPError):  # nothing outside the copies is reachable
            _api(port, token, "../../notebooks/05_random_walk.ipynb")
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()
    assert _snapshot(checkout / "notebooks") == stored
    with pytest.raises((urllib.error.URLError, ConnectionError)):  # stopping the command stopped the server too
        _api(port, token, "")
    copy = json.loads((checkout / "build" / "lab" / "05_random_walk.ipynb").read_text())
    assert "a reader's quick run" in "".join(copy["cells"][1]["source"])
