"""A headless Chromium for the book's tests, driven over the DevTools protocol with no package beyond the venv's.

:func:`chromium` is the browser's path or None (the tests that need it skip then: CI installs no browser);
:class:`Browser` starts it with the flags a machine without outside network needs (no background networking,
no sync, no component updates; a new empty profile), opens one tab and evaluates JavaScript in it;
:func:`serve` serves a folder on the loopback address, as a reader's ``python -m http.server`` would.
"""

from __future__ import annotations

import contextlib
import functools
import http.server
import json
import shutil
import subprocess
import tempfile
import threading
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

FLAGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-extensions",
    "--hide-scrollbars",
    "--remote-debugging-port=0",
    # no network but the loopback: every other host name fails to resolve, as on a machine that is offline
    "--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE 127.0.0.1",
)


def chromium() -> str | None:
    """The Chromium executable, or None when there is none (or no websocket client to drive it)."""
    try:
        import websocket  # noqa: F401  (websocket-client, which jupyter_server installs)
    except ImportError:
        return None
    return shutil.which("chromium") or shutil.which("chromium-browser") or shutil.which("google-chrome")


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args: Any) -> None:
        pass


@contextlib.contextmanager
def serve(folder: Path) -> Iterator[str]:
    """Serve ``folder`` on 127.0.0.1 (a free port) while the block runs; yields the base URL."""
    handler = functools.partial(_Quiet, directory=str(folder))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()
        server.server_close()


class Browser:
    """One headless Chromium with one tab.  ``with Browser() as b: b.open(url, width=390); b.eval("…")``."""

    def __init__(self, executable: str | None = None, timeout: float = 60.0) -> None:
        self.executable = executable or chromium()
        if not self.executable:
            raise RuntimeError("no Chromium here")
        self.timeout = timeout
        self._id = 0
        self.events: list[dict[str, Any]] = []

    def __enter__(self) -> Browser:
        import websocket

        self._profile = tempfile.TemporaryDirectory(prefix="tdbook-chromium-", ignore_cleanup_errors=True)
        profile = Path(self._profile.name)
        cmd = [self.executable, *FLAGS, f"--user-data-dir={profile}", "about:blank"]
        self._proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        port_file = profile / "DevToolsActivePort"
        t0 = time.monotonic()
        while not (port_file.is_file() and port_file.read_text().strip()):
            if self._proc.poll() is not None or time.monotonic() - t0 > self.timeout:
                self.__exit__()
                raise RuntimeError(f"{self.executable} did not start")
            time.sleep(0.05)
        port = int(port_file.read_text().split()[0])
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/json/list", timeout=self.timeout) as r:
            page = next(t for t in json.load(r) if t["type"] == "page")
        self._ws = websocket.create_connection(page["webSocketDebuggerUrl"], timeout=self.timeout)
        self.call("Page.enable")
        self.call("Runtime.enable")
        self.call("Network.enable")
        return self

    def __exit__(self, *exc: object) -> None:
        with contextlib.suppress(Exception):
            self._ws.close()
        if getattr(self, "_proc", None) is not None:
            self._proc.terminate()
            try:
                self._proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self._proc.kill()
                self._proc.wait()
        self._profile.cleanup()

    def call(self, method: str, **params: Any) -> dict[str, Any]:
        """One DevTools command; its result (events that arrive meanwhile are kept in ``self.events``)."""
        self._id += 1
        me = self._id
        self._ws.send(json.dumps({"id": me, "method": method, "params": params}))
        while True:
            msg = json.loads(self._ws.recv())
            if msg.get("id") == me:
                if "error" in msg:
                    raise RuntimeError(f"{method}: {msg['error']}")
                return msg.get("result", {})
            self.events.append(msg)

    def open(self, url: str, width: int = 1400, height: int = 900) -> None:
        """Load ``url`` in a window ``width`` × ``height`` CSS pixels and wait for its load event."""
        self.resize(width, height)
        self.events = []
        self.call("Page.navigate", url=url)
        t0 = time.monotonic()
        while not any(e.get("method") == "Page.loadEventFired" for e in self.events):
            if time.monotonic() - t0 > self.timeout:
                raise TimeoutError(f"{url} did not load in {self.timeout:.0f} s")
            self.events.append(json.loads(self._ws.recv()))

    def eval(self, expression: str) -> Any:
        """The value of a JavaScript expression in the page (a promise is awaited)."""
        r = self.call("Runtime.evaluate", expression=expression, returnByValue=True, awaitPromise=True)
        if "exceptionDetails" in r:
            raise RuntimeError(f"{expression[:80]}…: {r['exceptionDetails'].get('exception', {}).get('description')}")
        return r["result"].get("value")

    def until(self, expression: str, timeout: float | None = None) -> Any:
        """Poll ``expression`` until it is truthy; its value (TimeoutError after ``timeout`` s)."""
        t0 = time.monotonic()
        while True:
            v = self.eval(expression)
            if v:
                return v
            if time.monotonic() - t0 > (timeout or self.timeout):
                raise TimeoutError(f"never true: {expression[:120]}")
            time.sleep(0.1)

    def failed_requests(self) -> list[str]:
        """Requests of the page opened last, for a file over the network, that failed or were answered with an error
        status (a 404 favicon).  A probe of a page's own (MathJax asks for a font at ``about:blank`` to learn whether
        web fonts load) is no request for a file and is left out."""
        urls = {e["params"]["requestId"]: e["params"]["request"]["url"] for e in self.events
                if e.get("method") == "Network.requestWillBeSent"}  # fmt: skip
        out = []
        for e in self.events:
            if e.get("method") == "Network.loadingFailed":
                url = urls.get(e["params"]["requestId"], "?")
                if not url.startswith(("about:", "data:")):
                    out.append(f"{e['params'].get('errorText')} {url} ({e['params'].get('type')})")
            elif e.get("method") == "Network.responseReceived" and e["params"]["response"]["status"] >= 400:
                out.append(f"{e['params']['response']['status']} {e['params']['response']['url']}")
        return out

    def drain(self, seconds: float = 0.3) -> None:
        """Collect the events that arrive within ``seconds`` (requests a page makes after its load event)."""
        self._ws.settimeout(seconds)
        try:
            while True:
                self.events.append(json.loads(self._ws.recv()))
        except Exception:  # the timeout: nothing more came
            pass
        finally:
            self._ws.settimeout(self.timeout)

    def resize(self, width: int, height: int = 900) -> None:
        """The window's size in CSS pixels (the page reflows; no reload)."""
        self.call("Emulation.setDeviceMetricsOverride", width=width, height=height, deviceScaleFactor=1, mobile=False)

    def console_errors(self) -> list[str]:
        """Console errors and failed loads logged since the page was opened."""
        out = []
        for e in self.events:
            if e.get("method") == "Runtime.consoleAPICalled" and e["params"]["type"] in ("error", "warning"):
                out.append(" ".join(str(a.get("value", a.get("description", ""))) for a in e["params"]["args"]))
            if e.get("method") == "Runtime.exceptionThrown":
                out.append(e["params"]["exceptionDetails"].get("text", "exception"))
        return out
