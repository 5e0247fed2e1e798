"""Every generated table and document of the repository is what ``python -m
refbridge.tools.regenerate`` writes from its source (skipped when that source is not on this
machine, or is another version than the committed file was written from)."""

from __future__ import annotations

import pytest
from support import FROM_CHECKOUT, ROOT

from refbridge.tools.regenerate import GENERATED, Generated, Unavailable, main


@pytest.mark.parametrize("generated", GENERATED, ids=lambda generated: generated.path)
def test_the_committed_file_is_what_its_source_gives(generated: Generated) -> None:
    try:
        made = generated.make(ROOT)
    except Unavailable as missing:
        pytest.skip(str(missing))
    committed = (ROOT / generated.path).read_text(encoding="utf-8")
    if generated.version is not None:
        versions = [m.group(1) if (m := generated.version.search(text)) else None
                    for text in (made, committed)]
        if versions[0] != versions[1]:
            pytest.skip(f"the source here is version {versions[0]}, the file's {versions[1]}")
    assert made == committed, f"{generated.path} is stale: python -m refbridge.tools.regenerate"


RUNS_FROM_A_CHECKOUT = pytest.mark.skipif(
    not FROM_CHECKOUT, reason="the tool writes into a checkout; this run's refbridge is an "
                              "installed copy (the compiled build's run)")


@RUNS_FROM_A_CHECKOUT
def test_checking_an_up_to_date_file_writes_nothing_and_exits_0(
        monkeypatch: pytest.MonkeyPatch) -> None:
    before = {g.path: (ROOT / g.path).read_text(encoding="utf-8") for g in GENERATED}
    monkeypatch.setattr("refbridge.tools.regenerate.GENERATED", (GENERATED[0],))
    assert main(["--check"]) == 0
    assert before == {g.path: (ROOT / g.path).read_text(encoding="utf-8") for g in GENERATED}


@RUNS_FROM_A_CHECKOUT
def test_checking_names_a_stale_file_and_exits_1(monkeypatch: pytest.MonkeyPatch,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    stale = Generated("docs/field-coverage.md", lambda root: "# Field coverage\n")
    monkeypatch.setattr("refbridge.tools.regenerate.GENERATED", (stale,))
    assert main(["--check"]) == 1
    assert capsys.readouterr().err == "regenerate: docs/field-coverage.md: stale\n"
