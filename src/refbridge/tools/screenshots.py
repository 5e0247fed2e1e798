"""Takes the screenshots of ``refbridge serve``'s app that ``docs/serve.md`` shows, in headless
Chromium, of the app serving the repository's samples:

    python -m refbridge.tools.screenshots            # writes docs/images/serve-*.png
    python -m refbridge.tools.screenshots --check    # writes nothing; fails when one is missing

Run it from the repository's root after changing the app's pages. Each view is one section of
the app's page (``records-view``...), taken once the page's scripts have filled it, through
Chromium's DevTools protocol on a pipe (``Browser``, no dependency; the serve tests drive the
page with it too); Chromium is ``chromium`` (or ``chromium-browser``) on ``PATH``, or
``--chromium``. Screenshots differ
from machine to machine (fonts), so they are not compared, only checked to exist and to stay
small. This module must never be imported by refbridge at run time, and never writes outside
``docs/images/``.
"""

from __future__ import annotations

import argparse
import base64
import fcntl
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, cast

#: The samples the app serves in the screenshots (relative to the repository's root).
SAMPLES = ("samples/varied-types.json", "samples/varied.json")
#: Where the screenshots go.
FOLDER = "docs/images"
#: The largest a screenshot may be, in bytes.
LARGEST = 200_000


@dataclass(frozen=True, slots=True)
class View:
    """A screenshot: its file name, the section of the page it shows, its largest height."""

    name: str
    section: str
    height: int


VIEWS = (
    View("serve-records.png", "records-view", 560),
    View("serve-preview.png", "preview-view", 480),
    View("serve-cv.png", "cv-view", 560),
)
#: The window's width, in CSS pixels.
WIDTH = 1000


def _chromium(given: str | None) -> str:
    found = given or shutil.which("chromium") or shutil.which("chromium-browser")
    if found is None:
        raise SystemExit("screenshots: Chromium is not installed (chromium on PATH, or "
                         "--chromium)")
    return found


class Browser:
    """Headless Chromium driven through the DevTools protocol on a pipe (file descriptors 3
    and 4 of the browser, messages ended by a NUL): one page, its commands answered in turn."""

    def __init__(self, chromium: str, profile: Path) -> None:
        to_browser, self._to_browser = os.pipe()
        self._from_browser, from_browser = os.pipe()

        def descriptors() -> None:  # in the browser's process, before it starts
            high = [fcntl.fcntl(fd, fcntl.F_DUPFD, 10) for fd in (to_browser, from_browser)]
            os.dup2(high[0], 3)
            os.dup2(high[1], 4)

        self._process = subprocess.Popen(
            [chromium, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
             "--remote-debugging-pipe", f"--user-data-dir={profile}", "about:blank"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, pass_fds=(3, 4),
            preexec_fn=descriptors)  # noqa: PLW1509 -- the descriptors must be 3 and 4
        os.close(to_browser)
        os.close(from_browser)
        self._buffer = b""
        self._count = 0
        target = self.send("Target.createTarget", url="about:blank")["targetId"]
        self._session = self.send("Target.attachToTarget", targetId=target,
                                  flatten=True)["sessionId"]

    def send(self, method: str, session: bool = False, **params: Any) -> dict[str, Any]:
        """The result of ``method`` (sent to the page with ``session``, else the browser)."""
        self._count += 1
        message: dict[str, Any] = {"id": self._count, "method": method, "params": params}
        if session:
            message["sessionId"] = self._session
        os.write(self._to_browser, json.dumps(message).encode("utf-8") + b"\0")
        while True:
            while b"\0" not in self._buffer:
                chunk = os.read(self._from_browser, 1 << 20)
                if not chunk:
                    raise RuntimeError(f"Chromium closed its pipe during {method}")
                self._buffer += chunk
            raw, _, self._buffer = self._buffer.partition(b"\0")
            answer = json.loads(raw)
            if answer.get("id") == self._count:
                if "error" in answer:
                    raise RuntimeError(f"{method}: {answer['error']}")
                return cast(dict[str, Any], answer["result"])

    def evaluate(self, expression: str) -> Any:
        return self.send("Runtime.evaluate", True, expression=expression,
                         returnByValue=True)["result"].get("value")

    def wait(self, condition: str, timeout: float = 60.0) -> None:
        """Wait until the JavaScript ``condition`` holds in the page."""
        deadline = time.monotonic() + timeout
        while not self.evaluate(condition):
            if time.monotonic() > deadline:
                raise RuntimeError(f"the page did not get ready: {condition}")
            time.sleep(0.1)

    def close(self) -> None:
        os.close(self._to_browser)
        os.close(self._from_browser)
        self._process.terminate()
        self._process.wait(30)


#: True once the page's scripts have filled the records, the preview and the CV.
LOADED = ("document.querySelectorAll('#records tbody tr').length > 0"
          " && document.querySelector('#preview .csl-entry') !== null"
          " && document.getElementById('cv-preview').textContent.length > 0")


def _section(browser: Browser, view: View) -> dict[str, float]:
    """Where ``view``'s section is on the page, at most ``view.height`` high."""
    box = browser.evaluate(
        f"(() => {{ const b = document.getElementById('{view.section}')"
        ".getBoundingClientRect(); return {x: b.x + scrollX - 8, y: b.y + scrollY - 8,"
        " width: b.width + 16, height: b.height + 16}; })()")
    return {**box, "height": min(box["height"], view.height), "scale": 1}


def take(root: Path, chromium: str) -> list[Path]:
    """Serve the samples and write each view's screenshot; the files written."""
    from refbridge.enrich import EnrichOptions
    from refbridge.errors import Diagnostics
    from refbridge.serve.library import Library
    from refbridge.serve.server import Served, serve_in_thread

    library = Library()
    library.read_paths([str(root / sample) for sample in SAMPLES], Diagnostics())
    with tempfile.TemporaryDirectory(prefix="refbridge-screenshots-") as folder:
        served = Served(library, lambda address: None,
                        EnrichOptions(offline=True, cache_dir=Path(folder) / "cache"))
        server = serve_in_thread(served)
        browser = Browser(chromium, Path(folder) / "profile")
        written = []
        try:
            browser.send("Emulation.setDeviceMetricsOverride", True, width=WIDTH,
                         height=900, deviceScaleFactor=1, mobile=False)
            browser.send("Page.navigate", True, url=served.address())
            browser.wait(LOADED)
            for view in VIEWS:
                target = root / FOLDER / view.name
                target.parent.mkdir(parents=True, exist_ok=True)
                shot = browser.send("Page.captureScreenshot", True, format="png",
                                    clip=_section(browser, view), captureBeyondViewport=True)
                target.write_bytes(base64.b64decode(shot["data"]))
                written.append(target)
        finally:
            browser.close()
            server.shutdown()
            server.server_close()
    return written


def check(root: Path) -> list[str]:
    """The problems of the committed screenshots: missing, or larger than ``LARGEST``."""
    problems = []
    for view in VIEWS:
        path = root / FOLDER / view.name
        if not path.is_file():
            problems.append(f"{path}: missing")
        elif path.stat().st_size > LARGEST:
            problems.append(f"{path}: {path.stat().st_size} bytes, more than {LARGEST}")
    return problems


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true",
                        help="write nothing; fail when a screenshot is missing or too large")
    parser.add_argument("--chromium", help="the Chromium to run")
    parser.add_argument("--root", type=Path, default=Path.cwd(),
                        help="the repository's root (default: here)")
    options = parser.parse_args(argv)
    if not options.check:
        for path in take(options.root, _chromium(options.chromium)):
            print(f"wrote {path} ({path.stat().st_size} bytes)")
    problems = check(options.root)
    for problem in problems:
        print(f"screenshots: {problem}", file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
