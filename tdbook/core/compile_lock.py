"""Each kernel compiled once by the processes that share numba's on-disk cache.

``make test`` runs the tests in two processes (pytest-xdist) and the notebooks' kernels beside them; ``make figures``
runs two notebooks side by side.  From a fresh clone the cache is empty, and two processes that call the same kernel
for the first time at about the same moment both compile it — a minute of CPU for the largest ones — though the
first to finish writes it to the cache for the other.  With :func:`install` (called on importing :mod:`tdbook` when
``TDBOOK_COMPILE_LOCK=1``, which ``make test`` and ``python -m tdbook run`` set for the processes they start) a
process takes a lock file per kernel before compiling it; a second process waits for that lock, then finds the
kernel in the cache and loads it.  A wait longer than :data:`WAIT_S` (two processes compiling each other's callers
would wait for ever) gives up the lock and compiles anyway, as without it.
"""

from __future__ import annotations

import fcntl
import hashlib
import os
import threading
import time
from pathlib import Path
from typing import Any

#: The environment variable that turns the lock on.
ENV = "TDBOOK_COMPILE_LOCK"
#: Longest wait for another process's compilation of the same kernel (seconds).
WAIT_S = 300.0

_held = threading.local()


def _acquire(fh: Any, wait_s: float) -> bool:
    """Lock ``fh`` (True), or give up after ``wait_s`` seconds (False)."""
    deadline = time.monotonic() + wait_s
    while True:
        try:
            fcntl.flock(fh, fcntl.LOCK_EX | fcntl.LOCK_NB)
            return True
        except BlockingIOError:
            if time.monotonic() >= deadline:
                return False
            time.sleep(0.05)


def install(cache_dir: str | Path) -> None:
    """Make numba's ``Dispatcher.compile`` take a lock file per kernel under ``cache_dir/locks`` (module docstring);
    a second call changes nothing."""
    from numba.core import dispatcher

    cls = dispatcher.Dispatcher
    if getattr(cls.compile, "_tdbook_locked", False):
        return
    locks = Path(cache_dir) / "locks"
    compile_unlocked = cls.compile

    def compile(self: Any, sig: Any) -> Any:
        func = getattr(self, "py_func", None)
        name = f"{getattr(func, '__module__', '')}.{getattr(func, '__qualname__', '')}"
        held = getattr(_held, "names", None)
        if held is None:
            held = _held.names = set()
        if func is None or name in held:  # a recursive kernel: this thread holds its lock already
            return compile_unlocked(self, sig)
        locks.mkdir(parents=True, exist_ok=True)
        path = locks / (hashlib.sha256(name.encode()).hexdigest()[:20] + ".lock")
        with open(path, "a+b") as fh:
            locked = _acquire(fh, WAIT_S)
            held.add(name)
            try:
                return compile_unlocked(self, sig)  # finds the kernel in the cache when another process made it
            finally:
                held.discard(name)
                if locked:
                    fcntl.flock(fh, fcntl.LOCK_UN)

    compile._tdbook_locked = True  # type: ignore[attr-defined]
    cls.compile = compile  # type: ignore[method-assign]


def install_from_environment() -> None:
    """:func:`install` under ``NUMBA_CACHE_DIR`` when ``TDBOOK_COMPILE_LOCK=1`` (and the cache directory is known)."""
    if os.environ.get(ENV) == "1" and os.environ.get("NUMBA_CACHE_DIR"):
        install(os.environ["NUMBA_CACHE_DIR"])
