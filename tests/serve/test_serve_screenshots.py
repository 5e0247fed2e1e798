"""The screenshots of the app in ``docs/serve.md``: committed, small, shown by the page, and
taken again by ``python -m refbridge.tools.screenshots`` in headless Chromium (skipped when
Chromium is not installed)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from support import ROOT

from refbridge.tools import screenshots

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def test_the_committed_screenshots_exist_and_are_small() -> None:
    assert screenshots.check(ROOT) == []


def test_the_docs_page_shows_each_screenshot() -> None:
    page = (ROOT / "docs" / "serve.md").read_text(encoding="utf-8")
    assert [view.name for view in screenshots.VIEWS
            if f"(images/{view.name})" in page] == [view.name for view in screenshots.VIEWS]


@pytest.mark.skipif(CHROMIUM is None, reason="needs Chromium (chromium) on PATH")
def test_the_tool_takes_each_view_of_the_app_serving_the_samples(tmp_path: Path) -> None:
    (tmp_path / "samples").mkdir()
    for sample in screenshots.SAMPLES:
        shutil.copy(ROOT / sample, tmp_path / sample)
    assert CHROMIUM is not None
    written = screenshots.take(tmp_path, CHROMIUM)
    assert written == [tmp_path / "docs" / "images" / view.name for view in screenshots.VIEWS]
    for path in written:
        assert path.read_bytes().startswith(PNG_SIGNATURE)
    assert screenshots.check(tmp_path) == []
