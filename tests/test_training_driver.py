"""The one training driver (tdbook.experiments.common.training_driver) behind every ``python -m tdbook train GAME``:
each numbered point of issue 33 as a test, over every trainer where it applies, and the committed record
untouched by every refused command (the SHA-256 of every file in ``data/`` is the same before and after).

The commands run in a stand-in checkout (``TDBOOK_ROOT``) holding a copy of the repository's ``data/``, so a
regression damages a copy, never the record.  With ``TDBOOK_FULL_CHECKS=1`` a real process of every trainer is
killed (SIGKILL) mid-run and started again with the same command, and must end with the weights of an
uninterrupted run."""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import numpy as np
import pytest

from tdbook.cli import TRAINERS
from tdbook.cli import main as tdbook
from tdbook.core.paths import repo_root
from tdbook.experiments.common import training_driver as driver

FULL = os.environ.get("TDBOOK_FULL_CHECKS") == "1"
DATA = repo_root() / "data"

#: a tiny run of every trainer (seconds), without --out/--checkpoint
TINY: dict[str, list[str]] = {
    "backgammon": ["--hidden", "3", "--games", "40", "--eval-every", "0", "--checkpoint-every", "20"],
    "checkers": ["--method", "tdleaf", "--games", "2", "--checkpoint-every", "1"],
    "signature-book": [
        "--positions",
        "6",
        "--games-per-ballot",
        "1",
        "--depth",
        "2",
        "--endgame-depth",
        "2",
        "--play-depth",
        "1",
        "--checkpoint-every",
        "2",
    ],  # fmt: skip
    "symmetric-gammon": [
        "--arch",
        "free",
        "--hidden",
        "3",
        "--games",
        "40",
        "--checkpoint-every",
        "20",
        "--pubeval-pairs",
        "1",
    ],  # fmt: skip
    "tictactoe-net": ["--games", "2000", "--hidden", "4", "--check-every", "1000", "--checkpoint-every", "1000"],
    # issue 51's loop on the smallest shipped net (the stand-in checkout's copy; the tests run in its parent folder)
    "symmetric-gammon-rollouts": [
        "--warm-start",
        "repo/data/symgammon_free40_raw_150k.npz",
        "--iterations",
        "2",
        "--positions",
        "6",
        "--trials",
        "2",
        "--truncate",
        "2",
        "--checkpoint-every",
        "3",
        "--pubeval-pairs",
        "1",
    ],  # fmt: skip
}
#: a run long enough to be interrupted after its first checkpoints, and short enough to finish in seconds
LONGER: dict[str, list[str]] = {
    "backgammon": ["--hidden", "3", "--games", "3000", "--eval-every", "0", "--checkpoint-every", "100"],
    "checkers": ["--method", "tdleaf", "--games", "12", "--checkpoint-every", "1"],
    "checkers-samuel-book": ["--method", "samuel-book", "--games", "40", "--checkpoint-every", "5"],
    "signature-book": [
        "--positions",
        "60",
        "--games-per-ballot",
        "1",
        "--depth",
        "3",
        "--endgame-depth",
        "3",
        "--play-depth",
        "1",
        "--checkpoint-every",
        "5",
    ],  # fmt: skip
    "symmetric-gammon": [
        "--arch",
        "free",
        "--hidden",
        "3",
        "--games",
        "3000",
        "--checkpoint-every",
        "100",
        "--pubeval-pairs",
        "1",
    ],  # fmt: skip
    "tictactoe-net": ["--games", "20000", "--hidden", "4", "--check-every", "5000", "--checkpoint-every", "1000"],
}
#: a shipped file of each trainer, and one of another trainer (a foreign .npz to offer as a checkpoint)
SHIPPED = {
    "backgammon": "td_gammon_40.npz",
    "checkers": "checkers_tdleaf.npz",
    "signature-book": "signature_book.npz",
    "symmetric-gammon": "symgammon_free40_raw_150k.npz",
    "tictactoe-net": "tictactoe_net_perfect.npz",
    "symmetric-gammon-rollouts": "symgammon_free40_raw_150k.npz",  # no loop net is shipped: its parent's kind
}
FOREIGN = {
    "backgammon": "checkers_tdleaf.npz",
    "checkers": "symgammon_free40_raw_150k.npz",
    "signature-book": "td_gammon_40.npz",
    "symmetric-gammon": "signature_book.npz",
    "tictactoe-net": "symgammon_free40_raw_150k.npz",
    "symmetric-gammon-rollouts": "signature_book.npz",
}
GAMES = list(TRAINERS)


def test_every_trainer_is_covered():
    assert set(TINY) == set(SHIPPED) == set(FOREIGN) == set(TRAINERS)


def _game(key: str) -> str:
    return "checkers" if key.startswith("checkers") else key


def hashes(folder: Path) -> dict[str, str]:
    """SHA-256 of every file under ``folder``."""
    return {
        str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(folder.rglob("*"))
        if p.is_file()
    }


@pytest.fixture
def repo(tmp_path, monkeypatch):
    """A stand-in checkout with a copy of the shipped data/; yields it, then checks the copy is untouched only
    where a test says so (``record``)."""
    root = tmp_path / "repo"
    shutil.copytree(DATA, root / "data")
    (root / "notebooks").mkdir()
    monkeypatch.setenv("TDBOOK_ROOT", str(root))
    monkeypatch.chdir(tmp_path)
    return root


def refused(repo: Path, capsys, game: str, *args: str) -> str:
    """Run ``train game args``, which must be refused (exit 2) with the record unchanged; its stderr."""
    before = hashes(repo / "data")
    t0 = time.perf_counter()
    code = tdbook(["train", game, *args])
    err = capsys.readouterr().err
    assert code == 2, err
    assert hashes(repo / "data") == before, "a refused command changed the shipped data/"
    assert time.perf_counter() - t0 < 60  # refused before the work
    assert "Traceback" not in err
    return err


def weights(path: Path) -> dict[str, np.ndarray]:
    """The numeric arrays of a weights file and its meta without wall times and code version."""

    def clean(x):
        if isinstance(x, dict):
            return {
                k: clean(v)
                for k, v in x.items()
                if "wall" not in k and k not in ("code_version", "resumed_at", "command")
            }
        return [clean(v) for v in x] if isinstance(x, list) else x

    with np.load(path, allow_pickle=False) as z:
        out = {k: z[k] for k in z.files}
    for k in ("meta", "info"):
        if k in out and out[k].dtype.kind == "U":
            out[k] = np.array(json.dumps(clean(json.loads(str(out[k]))), sort_keys=True))
    return out


def same_weights(a: Path, b: Path) -> None:
    wa, wb = weights(a), weights(b)
    assert sorted(wa) == sorted(wb)
    for k in wa:
        assert wa[k].dtype == wb[k].dtype and np.array_equal(wa[k], wb[k]), k


# ----------------------------------------------------------------------------- 1. the checkpoint


@pytest.mark.parametrize("game", GAMES)
def test_1_a_checkpoint_in_the_shipped_data_is_refused_even_with_force(repo, tmp_path, capsys, game):
    ckpt = repo / "data" / SHIPPED[game]
    for force in ([], ["--force"]):
        err = refused(repo, capsys, game, *TINY[game], "--out", str(tmp_path / "w.npz"), "--checkpoint", str(ckpt),
                      *force)  # fmt: skip
        assert f"--checkpoint {ckpt}" in err and "data/" in err
    assert not (tmp_path / "w.npz").exists()


# ----------------------------------------------------------------------------- 2. --out in data/, --force


@pytest.mark.parametrize("game", GAMES)
def test_2_out_in_the_shipped_data_needs_force_and_the_default_is_under_build(repo, capsys, game):
    out = repo / "data" / SHIPPED[game]
    err = refused(repo, capsys, game, *TINY[game], "--out", str(out))
    assert f"--out {out}" in err and "--force" in err
    err = refused(repo, capsys, game, *TINY[game], "--out", str(repo / "data" / "new_file.npz"))
    assert "--force" in err and not (repo / "data" / "new_file.npz").exists()
    before = hashes(repo / "data")
    assert tdbook(["train", game, *TINY[game], "--no-progress"]) == 0  # the defaults write under build/
    assert hashes(repo / "data") == before
    assert any(p.suffix == ".npz" for p in (repo / "build").rglob("*.npz"))


def test_2_signature_book_has_force(repo, capsys):
    out = repo / "data" / "signature_book.npz"
    before = out.read_bytes()
    ckpt = repo / "build" / "sb.ckpt.npz"
    assert tdbook(["train", "signature-book", *TINY["signature-book"], "--out", str(out), "--checkpoint", str(ckpt),
                   "--force", "--no-progress"]) == 0  # fmt: skip
    assert out.read_bytes() != before and json.loads(out.with_suffix(".json").read_text())["positions"] == 6


def test_2_force_into_the_shipped_data_needs_committed_code(repo, capsys, monkeypatch):
    """Issue 31: a shipped sidecar names the commit whose code made it — uncommitted code is refused before the
    first position (nothing written) unless TDBOOK_ALLOW_DIRTY=1."""
    from tdbook.core import storage

    monkeypatch.setattr(storage, "code_version", lambda: "tdbook 0.1.0 git 0123456789ab+dirty")
    monkeypatch.delenv(storage.ALLOW_DIRTY, raising=False)
    out = repo / "data" / "signature_book.npz"
    args = [*TINY["signature-book"], "--out", str(out), "--checkpoint", str(repo / "build" / "sb.ckpt.npz")]
    err = refused(repo, capsys, "signature-book", *args, "--force", "--no-progress")
    assert "uncommitted changes" in err and "TDBOOK_ALLOW_DIRTY=1" in err and "--out" in err
    monkeypatch.setenv(storage.ALLOW_DIRTY, "1")
    assert tdbook(["train", "signature-book", *args, "--force", "--no-progress"]) == 0  # told: written
    assert json.loads(out.with_suffix(".json").read_text())["positions"] == 6


# ----------------------------------------------------------------------------- 3. the sidecar


@pytest.mark.parametrize("game", GAMES)
def test_3_the_sidecar_of_out_is_checked_too(repo, capsys, game):
    # data/pubeval_weights.json is shipped; data/pubeval_weights.npz is not: the sidecar would replace it
    assert (repo / "data" / "pubeval_weights.json").is_file() and not (repo / "data" / "pubeval_weights.npz").exists()
    err = refused(repo, capsys, game, *TINY[game], "--out", str(repo / "data" / "pubeval_weights.npz"))
    assert "pubeval_weights.json" in err and "--force" in err


@pytest.mark.parametrize("game", GAMES)
def test_3_the_sidecar_may_not_be_the_checkpoint(repo, tmp_path, capsys, game):
    out = tmp_path / "w.npz"
    err = refused(repo, capsys, game, *TINY[game], "--out", str(out), "--checkpoint", str(out))
    assert "same file" in err


# ----------------------------------------------------------------------------- 4. --out before the first game


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize(
    "target, message",
    [("a_file/w.npz", "cannot create the directory"), ("w.txt", "must end in .npz"), ("a_dir.npz", "is a directory")],
    ids=["parent-is-a-file", "suffix", "directory"],
)
def test_4_out_is_checked_before_the_first_game(repo, tmp_path, capsys, game, target, message):
    (tmp_path / "a_file").write_text("a file, not a directory")
    (tmp_path / "a_dir.npz").mkdir()
    ckpt = tmp_path / "ck.npz"
    err = refused(repo, capsys, game, *TINY[game], "--out", str(tmp_path / target), "--checkpoint", str(ckpt))
    assert message in err and "--out" in err and not ckpt.exists()


@pytest.mark.parametrize("game", GAMES)
def test_4_the_checkpoint_is_checked_before_the_first_game(repo, tmp_path, capsys, game):
    (tmp_path / "a_file").write_text("a file, not a directory")
    err = refused(repo, capsys, game, *TINY[game], "--out", str(tmp_path / "w.npz"), "--checkpoint",
                  str(tmp_path / "a_file" / "ck.npz"))  # fmt: skip
    assert "--checkpoint" in err and "cannot create the directory" in err and not (tmp_path / "w.npz").exists()


# ----------------------------------------------------------------------------- 5. bad checkpoints, Ctrl-C


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("kind", ["empty", "random", "foreign-npz", "other-trainer"])
def test_5_a_bad_checkpoint_is_one_message_naming_the_file(repo, tmp_path, capsys, game, kind):
    ckpt = tmp_path / "ck.npz"
    if kind == "empty":
        ckpt.write_bytes(b"")
    elif kind == "random":
        ckpt.write_bytes(np.random.default_rng(0).bytes(1000))
    elif kind == "foreign-npz":
        np.savez(ckpt, x=np.zeros(3))
    else:
        shutil.copy(repo / "data" / FOREIGN[game], ckpt)
    before = ckpt.read_bytes()
    err = refused(repo, capsys, game, *TINY[game], "--out", str(tmp_path / "w.npz"), "--checkpoint", str(ckpt))
    lines = [line for line in err.splitlines() if line.startswith("tdbook train: error:")]
    assert len(lines) == 1 and str(ckpt) in lines[0], err
    assert f"expected a checkpoint of `python -m tdbook train {game}`" in lines[0]
    assert ckpt.read_bytes() == before and not (tmp_path / "w.npz").exists()


def _interrupt_once(path: Path, at_least: float = 0.0, new: bool = False) -> threading.Thread:
    """Send this process SIGINT (Ctrl-C) once ``path`` exists (a first checkpoint was written; with ``new``, once it
    is another file than the one there now: a checkpoint written since).  Under a
    background job (``make test &``, ``nohup``) the process starts with SIGINT ignored, as a terminal's Ctrl-C
    would never reach it; the test restores Python's own handler first, as a terminal gives it."""
    if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
        signal.signal(signal.SIGINT, signal.default_int_handler)

    def ino() -> int | None:
        try:
            return path.stat().st_ino
        except FileNotFoundError:
            return None

    before = ino() if new else None

    def fire() -> None:
        t0 = time.monotonic()
        while time.monotonic() - t0 < 300:
            now = ino()
            if now is not None and now != before and time.monotonic() - t0 >= at_least:
                os.kill(os.getpid(), signal.SIGINT)
                return
            time.sleep(0.01)

    th = threading.Thread(target=fire, daemon=True)
    th.start()
    return th


@pytest.mark.parametrize("key", list(LONGER))
def test_5_ctrl_c_names_the_checkpoint_and_the_resume_command_and_resume_equals_an_uninterrupted_run(
    repo, tmp_path, capsys, key
):
    game, args = _game(key), LONGER[key]
    whole, ckpt_whole = tmp_path / "whole.npz", tmp_path / "whole.ckpt.npz"
    assert tdbook(["train", game, *args, "--out", str(whole), "--checkpoint", str(ckpt_whole), "--no-progress"]) == 0
    capsys.readouterr()
    out, ckpt = tmp_path / "cut.npz", tmp_path / "cut.ckpt.npz"
    argv = [*args, "--out", str(out), "--checkpoint", str(ckpt), "--no-progress"]
    th = _interrupt_once(ckpt)
    code = tdbook(["train", game, *argv])
    th.join()
    cap = capsys.readouterr()
    assert code == 130, f"the run ended ({code}) before Ctrl-C reached it: make LONGER[{key!r}] longer"
    assert "interrupted" not in cap.out
    line = [x for x in cap.err.splitlines() if "interrupted" in x]
    assert len(line) == 1 and line[0].startswith("tdbook train: interrupted") and str(ckpt) in line[0]
    assert line[0].endswith(f"resume with: python -m tdbook train {game} " + " ".join(argv))
    assert not out.exists()
    assert tdbook(["train", game, *argv]) == 0  # the same command resumes
    same_weights(out, whole)
    assert not ckpt.with_name(ckpt.name + ".lock").exists()


# ----------------------------------------------------------------------------- 6. the lock


def _hold_lock(ckpt: Path) -> subprocess.Popen:
    code = (
        "import sys, time; from pathlib import Path\n"
        "from tdbook.experiments.common.training_driver import CheckpointLock\n"
        f"with CheckpointLock(Path({str(ckpt)!r})):\n"
        "    print('locked', flush=True); time.sleep(120)\n"
    )
    p = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, text=True)
    assert p.stdout.readline().strip() == "locked"
    return p


@pytest.mark.parametrize("game", GAMES)
def test_6_a_second_run_on_one_checkpoint_is_refused_naming_the_first_and_a_dead_ones_lock_is_taken_over(
    repo, tmp_path, capsys, game
):
    ckpt, out = tmp_path / "ck.npz", tmp_path / "w.npz"
    first = _hold_lock(ckpt)
    try:
        err = refused(repo, capsys, game, *TINY[game], "--out", str(out), "--checkpoint", str(ckpt))
        assert f"process {first.pid}" in err and str(ckpt) in err and not out.exists()
    finally:
        first.kill()  # SIGKILL: its lock file stays behind, naming a dead process
        first.wait()
    assert ckpt.with_name("ck.npz.lock").read_text().strip() == str(first.pid)
    assert tdbook(["train", game, *TINY[game], "--out", str(out), "--checkpoint", str(ckpt), "--no-progress"]) == 0
    assert out.is_file() and not ckpt.with_name("ck.npz.lock").exists()


def test_6_the_lock_is_exclusive_in_one_process_too(tmp_path):
    ckpt = tmp_path / "ck.npz"
    with driver.CheckpointLock(ckpt):
        with pytest.raises(driver.UsageError, match=f"process {os.getpid()}"):
            with driver.CheckpointLock(ckpt):
                pass
    with driver.CheckpointLock(ckpt):  # released
        pass


# ----------------------------------------------------------------------------- 8. smaller points


@pytest.mark.parametrize("game", GAMES)
def test_8_checkpoint_every_0_is_refused(repo, tmp_path, capsys, game):
    err = refused(repo, capsys, game, *TINY[game], "--out", str(tmp_path / "w.npz"), "--checkpoint-every", "0")
    assert "--checkpoint-every" in err and err.strip().splitlines()[-1].startswith("tdbook train: error:")


@pytest.mark.parametrize(
    "game, args, option",
    [
        ("checkers", ["--method", "samuel", "--games", "2", "--alpha", "0.5"], "--alpha"),
        ("checkers", ["--method", "samuel-book", "--games", "2", "--lambda", "0.5"], "--lambda"),
        ("checkers", ["--method", "tdleaf", "--games", "2", "--series", "2"], "--series"),
        ("checkers", ["--method", "samuel-book", "--games", "2", "--adopt", "win"], "--adopt"),
        ("backgammon", [*TINY["backgammon"], "--pubeval-pairs", "10"], "--pubeval-pairs"),
        ("backgammon", [*TINY["backgammon"], "--average-every", "10"], "--average-every"),
        ("symmetric-gammon", [*TINY["symmetric-gammon"], "--late-after", "10"], "--late-after"),
    ],
)
def test_8_an_option_the_settings_ignore_is_refused(repo, tmp_path, capsys, game, args, option):
    err = refused(repo, capsys, game, *args, "--out", str(tmp_path / "w.npz"))
    assert option in err and "nothing" in err


@pytest.mark.parametrize(
    "game, args, words",
    [
        ("backgammon", ["--late-after", "10"], ["--alpha-late", "--late-after"]),
        ("backgammon", ["--average-from", "99999"], ["--average-from"]),
        ("signature-book", ["--positions", "0"], ["--positions"]),
        ("signature-book", ["--depth", "4", "--endgame-depth", "3"], ["--endgame-depth"]),
    ],
)
def test_8_messages_name_the_options_the_user_typed(repo, tmp_path, capsys, game, args, words):
    err = refused(repo, capsys, game, *TINY[game], *args, "--out", str(tmp_path / "w.npz"))
    last = err.strip().splitlines()[-1]
    assert last.startswith("tdbook train: error:") and all(w in last for w in words), last
    for internal in ("late_after", "alpha_late", "average_from", "endgame_depth", "checkpoint_every", " lam "):
        assert internal not in last


@pytest.mark.parametrize("game", GAMES)
def test_8_every_error_has_one_prefix_on_stderr(repo, tmp_path, capsys, game):
    for args in (["--no-such-option"], ["--checkpoint-every", "x"], ["--out", str(tmp_path / "w.txt")]):
        code = tdbook(["train", game, *TINY[game], *args])
        cap = capsys.readouterr()
        assert code == 2 and cap.out == ""
        assert cap.err.strip().splitlines()[-1].startswith("tdbook train: error:"), cap.err


# ----------------------------------------------------------------------------- 9. a finished run (issue 49)


@pytest.mark.parametrize("game", GAMES)
def test_9_a_finished_run_can_be_repeated_and_another_run_made_in_its_place(repo, tmp_path, capsys, game):
    """Issue 49 §4: the checkpoint of a finished run made the same command fail ("the saved state has 10 games
    done; this run plays 10"), and a run of other settings to the same place was refused as another run's.  A
    finished run's checkpoint is marked finished: the same command trains again from scratch, to the same weights;
    other settings to the same --out start from scratch too (the finished run's result was written); likewise with
    the defaults under build/."""
    out = tmp_path / "runs" / "w.npz"
    argv = ["train", game, *TINY[game], "--out", str(out), "--no-progress"]
    assert tdbook(argv) == 0
    first = tmp_path / "first.npz"
    shutil.copy(out, first)
    ckpt = out.with_name("w.ckpt.npz")
    assert driver.finished_marker(ckpt).is_file() or not ckpt.exists()  # a trainer may finish with no checkpoint
    capsys.readouterr()
    assert tdbook(argv) == 0, capsys.readouterr().err  # the same command again
    assert "training again from scratch" in capsys.readouterr().err or not ckpt.exists()
    same_weights(out, first)
    other = [*TINY[game], "--seed", "5"]  # other settings, the same --out
    assert tdbook(["train", game, *other, "--out", str(out), "--no-progress"]) == 0, capsys.readouterr().err
    for _ in range(2):  # the defaults, twice
        assert tdbook(["train", game, *TINY[game], "--no-progress"]) == 0, capsys.readouterr().err
    assert not list(out.parent.glob("*.lock"))


@pytest.mark.parametrize("game", ["tictactoe-net", "backgammon"])
def test_9_an_unfinished_run_blocks_neither_a_run_elsewhere_nor_a_restart(repo, tmp_path, capsys, game):
    """Issue 49 §4: a run with other settings and the same file name in another folder was refused as "made by
    another run" (the default checkpoint was under build/ whatever --out said); the checkpoint now goes beside
    --out, and --restart starts afresh over an unfinished run's checkpoint (the resume command then leaves it
    out)."""
    args = LONGER[game]
    here = tmp_path / "a" / "w.npz"
    argv = [*args, "--out", str(here), "--no-progress"]
    th = _interrupt_once(here.with_name("w.ckpt.npz"))
    assert tdbook(["train", game, *argv]) == 130
    th.join()
    capsys.readouterr()
    ckpt = here.with_name("w.ckpt.npz")
    assert ckpt.is_file() and not here.exists()
    elsewhere = tmp_path / "b" / "w.npz"  # other settings, same file name, another folder: its own checkpoint
    assert tdbook(["train", game, *TINY[game], "--out", str(elsewhere), "--no-progress"]) == 0, capsys.readouterr()
    assert ckpt.is_file()  # the unfinished run's checkpoint is still there to resume
    err = refused(repo, capsys, game, *TINY[game], "--out", str(here))  # other settings on it: refused, told how
    assert str(ckpt) in err and "--restart" in err
    th = _interrupt_once(ckpt, new=True)  # --restart: discarded, and the resume command has no --restart
    assert tdbook(["train", game, *argv, "--restart"]) == 130
    th.join()
    err = capsys.readouterr().err
    assert f"--restart: discarded the checkpoint {ckpt}" in err
    line = [x for x in err.splitlines() if "interrupted" in x][0]
    assert line.endswith("resume with: python -m tdbook train " + game + " " + " ".join(argv)), line
    assert tdbook(["train", game, *argv]) == 0  # resumes
    whole = tmp_path / "whole.npz"
    assert tdbook(["train", game, *args, "--out", str(whole), "--no-progress"]) == 0
    same_weights(here, whole)


# ----------------------------------------------------------------------------- 7. run


def test_7_run_checks_the_kernel_the_scheduler_and_the_output_root_before_any_notebook(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("TDBOOK_OUTPUT_ROOT", str(tmp_path / "out"))
    for args, words in [
        (["--kernel", "nosuch"], ["no Jupyter kernel named 'nosuch'"]),
        (["--scheduler", "notanaddress"], ["--scheduler", "tcp://HOST:PORT"]),
    ]:
        assert tdbook(["run", "05", "--profile", "quick", *args]) == 2
        err = capsys.readouterr().err
        assert len(err.strip().splitlines()) == 1 and all(w in err for w in words), err
    (tmp_path / "a_file").write_text("a file, not a directory")
    for root in (tmp_path / "a_file", tmp_path / "a_file" / "below"):
        monkeypatch.setenv("TDBOOK_OUTPUT_ROOT", str(root))
        assert tdbook(["run", "05", "--profile", "quick"]) == 2
        err = capsys.readouterr().err
        assert len(err.strip().splitlines()) == 1 and "TDBOOK_OUTPUT_ROOT" in err and str(root) in err, err


def test_7_a_full_disk_leaves_the_previous_executed_notebook_intact(tmp_path, monkeypatch):
    import papermill

    from tdbook import runner
    from tdbook.core.paths import executed_dir

    monkeypatch.setenv("TDBOOK_OUTPUT_ROOT", str(tmp_path / "out"))
    nb = sorted((repo_root() / "notebooks").glob("05_*.ipynb"))[0]
    out = executed_dir("quick") / nb.name
    out.parent.mkdir(parents=True)
    out.write_text('{"previous": "run"}')

    def full_disk(src, dst, **kw):
        Path(dst).write_text('{"cells": [')  # cut short by the full disk
        raise OSError(28, "No space left on device", dst)

    monkeypatch.setattr(papermill, "execute_notebook", full_disk)
    r = runner.run_notebook(nb, "quick", {"PROFILE": "quick"}, retries=0)
    assert r.status == "failed" and "No space left on device" in r.error and "previous file is intact" in r.error
    assert out.read_text() == '{"previous": "run"}'
    assert [p.name for p in out.parent.iterdir()] == [out.name]  # no partial file left


# ----------------------------------------------------------------------------- kill -9 in a real process


@pytest.mark.skipif(not FULL, reason="slow (real processes); TDBOOK_FULL_CHECKS=1")
@pytest.mark.parametrize("key", list(LONGER))
def test_kill_9_and_resume_equal_an_uninterrupted_run(repo, tmp_path, key):
    game, args = _game(key), LONGER[key]
    env = {**os.environ, "TDBOOK_ROOT": str(repo)}

    def cmd(out: Path, ckpt: Path) -> list[str]:
        return [sys.executable, "-m", "tdbook", "train", game, *args, "--out", str(out), "--checkpoint", str(ckpt),
                "--no-progress"]  # fmt: skip

    whole = tmp_path / "whole.npz"
    subprocess.run(cmd(whole, tmp_path / "whole.ckpt.npz"), env=env, check=True, capture_output=True)
    out, ckpt = tmp_path / "cut.npz", tmp_path / "cut.ckpt.npz"
    p = subprocess.Popen(cmd(out, ckpt), env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    t0 = time.monotonic()
    while not ckpt.exists() and p.poll() is None and time.monotonic() - t0 < 600:
        time.sleep(0.01)
    p.send_signal(signal.SIGKILL)
    p.wait()
    assert not out.exists(), "the run ended before the kill: make the run longer"
    subprocess.run(cmd(out, ckpt), env=env, check=True, capture_output=True)
    same_weights(out, whole)


def test_a_shipped_sidecar_is_written_from_committed_code_only(tmp_path, monkeypatch):
    """Issue 31: a sidecar in data/ names the commit whose code made it; uncommitted code is refused unless told."""
    from tdbook.core import storage

    monkeypatch.setattr(storage, "data_dir", lambda: tmp_path)
    monkeypatch.delenv(storage.ALLOW_DIRTY, raising=False)
    inside, outside = tmp_path / "net.npz", tmp_path.parent / f"{tmp_path.name}-elsewhere.npz"
    with pytest.raises(storage.UncommittedCode, match="net.json is in the shipped data/.*commit them first"):
        storage.write_sidecar(inside, {"code_version": "tdbook 0.1.0 git abc+dirty"})
    assert not storage.sidecar_path(inside).exists()  # nothing written
    storage.write_sidecar(outside, {"code_version": "tdbook 0.1.0 git abc+dirty"})  # outside data/: anything goes
    storage.write_sidecar(inside, {"code_version": "tdbook 0.1.0 git abc"})  # committed code
    monkeypatch.setenv(storage.ALLOW_DIRTY, "1")
    storage.write_sidecar(inside, {"code_version": "tdbook 0.1.0 git abc+dirty"})  # told
    assert storage.read_sidecar(inside)["code_version"].endswith("+dirty")
    storage.sidecar_path(outside).unlink()
