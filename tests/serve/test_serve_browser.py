"""``refbridge serve``'s pages in a real browser (headless Chromium): a file loaded through
the app's own request is listed and previewed by the page's scripts, its hostile title shown as
text; the picker lists the library, and closing it cancels the pick. Skipped when Chromium is
not installed."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import httpx
import pytest
from serve_support import running

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")

pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="needs Chromium (chromium) on PATH")

LOADED = ("@article{vasquez2023,\n  author = {V\u00e1squez, Rosa},\n"
          "  title = {Kelp Forests at Dusk},\n  journal = {Marine Letters},\n"
          "  year = {2023},\n  volume = {8},\n  pages = {5--9},\n}\n")


def test_a_loaded_file_is_listed_and_previewed_by_the_page(tmp_path: Path) -> None:
    with running(tmp_path, text="@misc{hostile, author = {Mallory, Eve}, "
                                "title = {<script>alert(1)</script>}, year = 2020}\n") as server:
        loaded = httpx.post(server.base + "/api/load", headers=server.token,
                            json={"name": "kelp.bib", "text": LOADED})
        assert loaded.json() == {"added": 1, "problems": []}
        assert CHROMIUM is not None
        dom = subprocess.run(
            [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu",
             f"--user-data-dir={tmp_path / 'profile'}", "--virtual-time-budget=15000",
             "--dump-dom", server.served.address()],
            check=False, capture_output=True, text=True, timeout=120).stdout
    assert ("<tr><td>vasquez2023</td><td>Rosa Vásquez</td><td>2023</td>"
            "<td>Kelp Forests at Dusk</td>") in dom
    assert "<td>&lt;script&gt;alert(1)&lt;/script&gt;</td>" in dom
    assert ('<div class="csl-entry">Vásquez, R. (2023). Kelp Forests at Dusk. '
            "<i>Marine Letters</i>, <i>8</i>, 5–9.</div>") in dom
    assert "<script>alert(1)</script>" not in dom


def test_the_picker_lists_the_library_and_closing_it_cancels_the_pick(tmp_path: Path) -> None:
    import threading

    with running(tmp_path) as server:
        answers: list[httpx.Response] = []
        waiting = threading.Thread(target=lambda: answers.append(
            httpx.get(f"{server.base}/better-bibtex/cayw?format=pandoc", timeout=60)))
        waiting.start()
        assert CHROMIUM is not None
        dom = subprocess.run(
            [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu",
             f"--user-data-dir={tmp_path / 'profile'}", "--virtual-time-budget=5000",
             "--dump-dom", server.next_opened()],
            check=False, capture_output=True, text=True, timeout=120).stdout
        waiting.join(60)
    assert ('<li><button type="button">Add</button> <b>lindqvist2018</b> '
            "<span>Maja Lindqvist. 2018. Salt and Silt</span></li>") in dom
    assert "<span>Eve Mallory. 2020. &lt;script&gt;alert(1)&lt;/script&gt;</span>" in dom
    assert (answers[0].status_code, answers[0].text) == (200, "")


def test_a_gzip_file_chosen_in_the_page_is_sent_as_bytes_and_listed(tmp_path: Path) -> None:
    """The page's own file input, driven through Chromium's DevTools protocol: the file's
    bytes go to the server, which unpacks them."""
    import gzip

    from refbridge.tools.screenshots import Browser

    packed = tmp_path / "kelp.bib.gz"
    packed.write_bytes(gzip.compress(LOADED.encode("utf-8")))
    assert CHROMIUM is not None
    with running(tmp_path) as server:
        browser = Browser(CHROMIUM, tmp_path / "profile")
        try:
            browser.send("Page.navigate", True, url=server.served.address())
            browser.wait("document.querySelectorAll('#records tbody tr').length === 3")
            document = browser.send("DOM.getDocument", True)["root"]["nodeId"]
            chooser = browser.send("DOM.querySelector", True, nodeId=document,
                                   selector="#files")["nodeId"]
            browser.send("DOM.setFileInputFiles", True, files=[str(packed)], nodeId=chooser)
            browser.wait("document.querySelectorAll('#records tbody tr').length === 4")
            status = browser.evaluate("document.getElementById('status').textContent")
            keys = browser.evaluate("[...document.querySelectorAll('#records tbody tr')]"
                                    ".map(row => row.cells[0].textContent)")
        finally:
            browser.close()
    assert status == "kelp.bib.gz: 1 records"
    assert keys == ["hartmann2021", "lindqvist2018", "hostile", "vasquez2023"]
