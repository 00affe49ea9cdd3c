"""A small headless-Chromium driver for the screenshot tests (DevTools protocol over a pipe).

``--remote-debugging-pipe`` speaks the DevTools protocol on file descriptors 3 (to the
browser) and 4 (from it), NUL-separated JSON: no websocket library, no port. `Browser.page`
emulates a viewport of any width (plain ``--window-size`` cannot go below 500 px in headless
mode), loads a file, runs a check script and takes a full-page screenshot.
"""

from __future__ import annotations

import base64
import contextlib
import json
import os
import shutil
import subprocess
import tempfile
import time
from pathlib import Path
from typing import Any

__all__ = ["Browser", "chromium_path"]


def chromium_path() -> str | None:
    for name in ("chromium", "chromium-browser", "google-chrome"):
        found = shutil.which(name)
        if found:
            return found
    return None


class Browser:
    """One headless Chromium for a test module; `close` stops it (by its own PID)."""

    def __init__(self, binary: str, timeout: float = 60.0) -> None:
        self.profile = tempfile.mkdtemp(prefix="pbem-chromium-")
        to_browser_r, self._to_browser = os.pipe()
        self._from_browser, from_browser_w = os.pipe()
        # the child gets the pipe ends as fds 3 and 4
        self.proc = subprocess.Popen(
            [
                binary,
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--no-first-run",
                "--hide-scrollbars",
                "--disable-extensions",
                f"--user-data-dir={self.profile}",
                "--remote-debugging-pipe",
                "about:blank",
            ],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            pass_fds=(3, 4),
            preexec_fn=_dup_to(to_browser_r, from_browser_w),
        )
        os.close(to_browser_r)
        os.close(from_browser_w)
        self.timeout = timeout
        self._id = 0
        self._buf = b""

    # -- protocol ---------------------------------------------------------------------------
    def send(self, method: str, session: str | None = None, **params: Any) -> dict[str, Any]:
        self._id += 1
        msg: dict[str, Any] = {"id": self._id, "method": method, "params": params}
        if session:
            msg["sessionId"] = session
        os.write(self._to_browser, json.dumps(msg).encode() + b"\0")
        deadline = time.monotonic() + self.timeout
        while True:
            reply = self._read(deadline)
            if reply.get("id") == self._id:
                if "error" in reply:
                    raise RuntimeError(f"{method}: {reply['error']}")
                return dict(reply.get("result", {}))

    def _read(self, deadline: float) -> dict[str, Any]:
        while b"\0" not in self._buf:
            if time.monotonic() > deadline or self.proc.poll() is not None:
                raise TimeoutError("no answer from Chromium")
            chunk = os.read(self._from_browser, 1 << 16)
            if not chunk:
                raise EOFError("Chromium closed the pipe")
            self._buf += chunk
        raw, self._buf = self._buf.split(b"\0", 1)
        return dict(json.loads(raw))

    # -- pages ------------------------------------------------------------------------------
    def page(
        self,
        path: Path,
        width: int,
        check_js: str,
        screenshot: Path | None = None,
        settle: float = 0.3,
    ) -> Any:
        """Load ``path`` in a ``width`` px wide mobile-style viewport; return ``check_js``'s value."""
        target = self.send("Target.createTarget", url="about:blank")["targetId"]
        session = self.send("Target.attachToTarget", targetId=target, flatten=True)["sessionId"]
        try:
            self.send(
                "Emulation.setDeviceMetricsOverride",
                session,
                width=width,
                height=900,
                deviceScaleFactor=1,
                mobile=width < 600,
            )
            self.send("Page.enable", session)
            self.send("Page.navigate", session, url=path.resolve().as_uri())
            value = None
            deadline = time.monotonic() + self.timeout
            while time.monotonic() < deadline:  # wait for the load event and the images
                got = self.send(
                    "Runtime.evaluate",
                    session,
                    returnByValue=True,
                    expression="document.readyState",
                )["result"].get("value")
                if got == "complete":
                    break
                time.sleep(0.05)
            time.sleep(settle)
            value = self.send("Runtime.evaluate", session, expression=check_js, returnByValue=True)[
                "result"
            ].get("value")
            if screenshot is not None:
                shot = self.send(
                    "Page.captureScreenshot", session, format="png", captureBeyondViewport=True
                )
                screenshot.parent.mkdir(parents=True, exist_ok=True)
                screenshot.write_bytes(base64.b64decode(shot["data"]))
            return value
        finally:
            self.send("Target.closeTarget", targetId=target)

    def close(self) -> None:
        with contextlib.suppress(OSError, TimeoutError, EOFError, RuntimeError):
            self.send("Browser.close")
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        for fd in (self._to_browser, self._from_browser):
            with contextlib.suppress(OSError):
                os.close(fd)
        shutil.rmtree(self.profile, ignore_errors=True)


def _dup_to(read_end: int, write_end: int) -> Any:
    def setup() -> None:  # in the child, before exec: fd 3 = its input, fd 4 = its output
        os.dup2(read_end, 3)
        os.dup2(write_end, 4)

    return setup
