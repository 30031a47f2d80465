"""Processes sharing numba's cache compile a kernel once between them (tdbook.core.compile_lock, issue 52 §2)."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
import time

KERNEL = """
from numba import njit


@njit(cache=True)
def kernel(n):
    s = 0.0
    for i in range(n):
        s += (i % 7) * 0.5 - (i % 3) * 0.25
    return s
"""

CALLER = """
import os, sys, time
sys.path.insert(0, {folder!r})
from numba.core import event
compiled = []


class Count(event.Listener):
    def on_start(self, ev):
        pass

    def on_end(self, ev):
        compiled.append(1)


event.register("numba:compile", Count())
if {lock}:
    from tdbook.core.compile_lock import install

    install(os.environ["NUMBA_CACHE_DIR"])
import kernel_module

while not os.path.exists({go!r}):
    time.sleep(0.01)
print(kernel_module.kernel(1000), len(compiled))
"""


def _race(tmp_path, lock: bool) -> list[tuple[str, int]]:
    """Two processes call a kernel no cache holds at the same moment: (result, compilations) of each."""
    folder = tmp_path / ("locked" if lock else "free")
    folder.mkdir()
    (folder / "kernel_module.py").write_text(KERNEL)
    go = folder / "go"
    env = {**os.environ, "NUMBA_CACHE_DIR": str(folder / "cache")}
    code = textwrap.dedent(CALLER.format(folder=str(folder), lock=lock, go=str(go)))
    procs = [
        subprocess.Popen([sys.executable, "-c", code], env=env, stdout=subprocess.PIPE, text=True) for _ in range(2)
    ]
    time.sleep(3)  # both have imported numba and wait at the line
    go.touch()
    out = [p.communicate(timeout=300)[0].split() for p in procs]
    assert all(p.returncode == 0 for p in procs)
    return [(r, int(n)) for r, n in out]


def test_two_processes_compile_a_new_kernel_once_with_the_lock(tmp_path):
    """Without the lock both processes compile it (``_race(tmp_path, lock=False)`` counts 2 here); with it the
    second waits for the first, then loads the kernel from the cache."""
    runs = _race(tmp_path, lock=True)
    assert runs[0][0] == runs[1][0] and sum(n for _, n in runs) == 1
