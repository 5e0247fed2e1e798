"""The CSL engine renders like citeproc-js, the processor inside Zotero: exact strings.

For each style of ``reference.STYLES`` and each item set, every bibliography entry (text and
HTML) and every in-text citation must equal the fixture made by ``make_fixtures.sh``. A failure
names the style, the set, the item and both strings. Links are off (``links=False``), as in
citeproc-js's default output, which writes URLs and DOIs as plain text. ``python tests/csl/styles/parity_matrix.py``
prints the whole style x item table.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

import pytest

from .reference import STYLES, item_sets, items, reference

pytestmark = pytest.mark.csl_parity

CASES = [(style, set_name, output) for style in STYLES for set_name in item_sets()
         for output in ("text", "html")]


@cache
def rendered(shared: Path, style: str, set_name: str, output: str) -> tuple[list[str], list[str],
                                                                           dict[str, str]]:
    """(entry ids, entries, citations by id) from refbridge's CSL engine."""
    from refbridge.csl import CslStyle, make_processor

    processor = make_processor(CslStyle.from_path(shared / "csl" / f"{style}.csl"),
                               [dict(item) for item in items(set_name)], output=output,
                               links=False)
    citations = {str(item["id"]): processor.cite([{"id": str(item["id"])}])
                 for item in items(set_name)}
    return (processor.bibliography_ids(), [entry.strip() for entry in processor.bibliography()],
            citations)


def _cases(kind: str) -> list[pytest.param]:
    params = []
    for style, set_name, output in CASES:
        count = (len(reference(style, set_name, output).entries) if kind == "entry"
                 else len(items(set_name)))
        params += [pytest.param(style, set_name, output, index,
                                id=f"{style}-{set_name}-{output}-{index:02d}")
                   for index in range(count)]
    return params


@pytest.mark.parametrize(("style", "set_name", "output", "index"), _cases("entry"))
def test_bibliography_entry_matches_citeproc_js(shared_dir: Path, style: str, set_name: str,
                                                output: str, index: int) -> None:
    ids, entries, _ = rendered(shared_dir, style, set_name, output)
    expected = reference(style, set_name, output).entries[index]
    got = entries[index] if index < len(entries) else None
    item = ids[index] if index < len(ids) else "<no entry>"
    assert got == expected, f"{style} / {set_name} / entry {index + 1} (our item {item})"


@pytest.mark.parametrize(("style", "set_name", "output", "index"), _cases("citation"))
def test_citation_matches_citeproc_js(shared_dir: Path, style: str, set_name: str, output: str,
                                      index: int) -> None:
    item_id = str(items(set_name)[index]["id"])
    _, _, citations = rendered(shared_dir, style, set_name, output)
    expected = reference(style, set_name, output).citations[item_id]
    assert citations[item_id] == expected, f"{style} / {set_name} / citation of {item_id}"
