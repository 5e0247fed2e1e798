"""An independent reader agrees: Citation.js reads our RIS and .bib files to the same titles,
authors, years and containers.

Citation.js's own blind spots (../shared/README.md and its RIS type tables) are allowed for,
each named in ``BLIND_SPOTS``: it drops eprint fields, reads ``@misc`` as a document and
``and others`` as an author called "others", and maps some RIS tags by type (a newspaper's
``AU`` is its "reporter", a conference paper's ``T2`` its event, a web page's ``T2`` a
collection title). Skipped when node or the reference npm packages are missing.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

import pytest
from support import SAMPLES, requires_reference_js

from refbridge.errors import Diagnostics
from refbridge.formats.csljson import to_csl
from refbridge.pipeline import read_records, with_keys, write_records
from refbridge.registry import WriteOptions

pytestmark = requires_reference_js()

INPUTS = ("varied.json", "zhengping-qian.profile.txt", "qinwei-yang.profile.txt")
#: Our format -> (file extension, Citation.js input mode).
FORMATS = {"ris": (".ris", "ris"), "bibtex": (".bib", "bibtex"), "biblatex": (".bib", "bib")}

#: Where Citation.js puts a variable in some CSL types of RIS input (the first key present).
RIS_TAG_READINGS: dict[str, dict[str, tuple[str, ...]]] = {
    "article-newspaper": {"author": ("reporter",)},
    "paper-conference": {"container-title": ("event-title",)},
    "webpage": {"container-title": ("collection-title", "container-title")},
}
#: CSL types Citation.js gives .bib entries whose container it does not read (@misc, @online).
BIB_ENTRIES_WITHOUT_CONTAINER = frozenset({"document", "webpage"})
BLIND_SPOTS = (
    ("RIS: a newspaper's AU is read as 'reporter' text, a conference paper's T2 as its "
    "event, a web page's T2 as a collection title when it has an author"),
    (".bib: 'and others' is read as an author named 'others'; @misc/@online entries lose "
    "their container"),
)


def _name(name: dict[str, str]) -> str:
    family = " ".join(p for p in (name.get("non-dropping-particle"), name.get("family"),
                                  name.get("literal")) if p)
    return f"{family}, {name['given']}" if name.get("given") else family


def _reading(item: dict[str, Any], readings: dict[str, tuple[str, ...]], key: str) -> Any:
    return next((item[k] for k in readings.get(key, (key,)) if k in item), None)


def essentials(item: dict[str, Any], readings: dict[str, tuple[str, ...]]) -> dict[str, Any]:
    """Title, authors, year and container, where Citation.js would put them."""
    authors = _reading(item, readings, "author") or []
    issued = item.get("issued", {}).get("date-parts", [[None]])[0][0] if "issued" in item \
        else None
    return {
        "title": item.get("title"),
        "authors": authors if isinstance(authors, str) else [_name(n) for n in authors
                                                             if n.get("family") != "others"],
        "year": int(issued) if issued is not None else None,
        "container": _reading(item, readings, "container-title"),
    }


def citationjs(shared: Path, path: Path, mode: str) -> list[dict[str, Any]]:
    script = shared / "tools" / "citationjs-parse.js"
    done = subprocess.run(["node", str(script), str(path), mode], capture_output=True,
                          text=True, timeout=300, check=True)
    return json.loads(done.stdout)


@pytest.mark.parametrize("format_name", sorted(FORMATS))
def test_citationjs_reads_our_files_to_the_same_essentials(
        format_name: str, shared_dir: Path, tmp_path: Path) -> None:
    extension, mode = FORMATS[format_name]
    records = with_keys(read_records([str(SAMPLES / name) for name in INPUTS], Diagnostics()),
                        WriteOptions())
    output = tmp_path / f"records{extension}"
    write_records(records, str(output), format_name)
    theirs = citationjs(shared_dir, output, mode)
    assert len(theirs) == len(records)
    for record, item in zip(records, theirs):
        ours = to_csl(record)
        ris_readings = RIS_TAG_READINGS.get(record.type, {}) if format_name == "ris" else {}
        expected = essentials(ours, {})
        if "author" in ris_readings:
            expected["authors"] = "; ".join(expected["authors"])
        if format_name != "ris" and item.get("type") in BIB_ENTRIES_WITHOUT_CONTAINER:
            expected["container"] = None
        got = essentials(item, ris_readings)
        assert got == expected, f"{record.citation_key}: {BLIND_SPOTS}"
