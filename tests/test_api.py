"""The Python face: ``refbridge.read``, ``write``, ``format_bibliography`` and ``cv``."""

from __future__ import annotations

import io
import re
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from support import ROOT, SAMPLES

import refbridge
from refbridge import BrokenRecords, ParseError, RefbridgeError

BIB = """\
@article{knuth1984,
  author = {Knuth, Donald E.},
  title = {Literate Programming},
  journal = {The Computer Journal},
  year = {1984},
  volume = {27},
  number = {2},
  pages = {97--111},
}
"""
RIS = """\
TY  - JOUR
AU  - Lovelace, Ada
TI  - Sketch of the Analytical Engine
T2  - Scientific Memoirs
PY  - 1843
ER  - 
"""
BROKEN = """\
@article{good, title = {Kept}, year = 2001}
@article{bad, title = {Unbalanced, year = 2002}
"""


def _write(folder: Path, name: str, text: str) -> Path:
    path = folder / name
    path.write_text(text, encoding="utf-8")
    return path


def test_importing_the_package_loads_no_module_of_its_own() -> None:
    script = ("import sys, refbridge\n"
              "print(sorted(m for m in sys.modules if m.startswith('refbridge')))")
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                            check=True)
    assert result.stdout == "['refbridge']\n"


def test_the_exported_names_are_the_api_functions() -> None:
    from refbridge import api

    assert (refbridge.read, refbridge.write, refbridge.format_bibliography, refbridge.cv) == \
        (api.read, api.write, api.format_bibliography, api.cv)


def test_the_cv_function_keeps_its_name_when_the_cv_package_is_imported() -> None:
    from refbridge.cv import render_cv

    assert callable(render_cv)
    assert refbridge.cv.__module__ == "refbridge.api"


def test_an_unknown_name_is_an_attribute_error() -> None:
    with pytest.raises(AttributeError, match="no attribute 'reed'"):
        refbridge.reed  # noqa: B018


def test_a_str_is_one_path_never_its_letters(tmp_path: Path) -> None:
    path = _write(tmp_path, "refs.bib", BIB)
    found = refbridge.read(str(path))
    assert [record.citation_key for record in found] == ["knuth1984"]


def test_a_str_that_names_no_file_is_a_missing_file() -> None:
    with pytest.raises(ParseError, match=r"^refs\.json: cannot open: No such file"):
        refbridge.read("refs.json")


def test_several_paths_are_read_in_order(tmp_path: Path) -> None:
    found = refbridge.read([_write(tmp_path, "a.ris", RIS), _write(tmp_path, "b.bib", BIB)])
    assert [(record.type, record.title) for record in found] == [
        ("article-journal", "Sketch of the Analytical Engine"),
        ("article-journal", "Literate Programming")]


def test_text_is_read_as_the_format_named() -> None:
    found = refbridge.read(text=RIS, format="ris")
    assert [(name.family, name.given) for name in found[0].authors] == [("Lovelace", "Ada")]


def test_text_without_a_format_is_detected_from_its_content() -> None:
    assert refbridge.read(text=BIB)[0].citation_key == "knuth1984"


def test_an_open_text_file_is_read() -> None:
    assert refbridge.read(io.StringIO(RIS))[0].year == 1843


def test_an_open_binary_file_is_decoded_as_files_are() -> None:
    latin = "@misc{k, title = {Caf\xe9 society}, year = 1999}\n".encode("cp1252")
    found = refbridge.read(io.BytesIO(latin), name="old.bib")
    assert found[0].title == "Café society"
    assert [str(message) for message in found.diagnostics.messages] == [
        ("old.bib:1: warning: not UTF-8 (byte 0xe9); reading as cp1252 (name another "
        "encoding with --encoding)")]


def test_a_path_and_text_together_are_refused() -> None:
    with pytest.raises(TypeError, match="not both"):
        refbridge.read("refs.bib", text=BIB)


def test_a_list_holding_something_else_than_paths_is_refused() -> None:
    with pytest.raises(TypeError, match=r"not int \(3\)"):
        refbridge.read(["refs.bib", 3])  # type: ignore[list-item]


def test_a_broken_record_is_read_up_to_the_break_and_reported() -> None:
    found = refbridge.read(text=BROKEN, format="bibtex", name="mixed.bib")
    assert [(record.citation_key, record.title) for record in found] == [
        ("good", "Kept"), ("bad", "Unbalanced, year = 2002")]
    assert found.diagnostics.read_in_part == 1
    assert [(problem.file, problem.line) for problem in found.diagnostics.errors] == [
        ("mixed.bib", 2)]


def test_strict_reading_raises_one_error_naming_every_broken_record() -> None:
    with pytest.raises(BrokenRecords) as raised:
        refbridge.read(text=BROKEN, format="bibtex", name="mixed.bib", strict=True)
    assert str(raised.value).startswith("1 broken record(s): mixed.bib:2: error: ")
    assert len(raised.value.diagnostics.errors) == 1


def test_writing_without_a_path_returns_the_text() -> None:
    found = refbridge.read(text=RIS, format="ris")
    assert refbridge.write(found, format="bibtex") == textwrap.dedent("""\
        @article{lovelace1843sketch,
          author = {Lovelace, Ada},
          title = {Sketch of the Analytical Engine},
          journal = {Scientific Memoirs},
          year = {1843},
        }
        """)


def test_writing_to_a_path_takes_the_writer_of_its_ending(tmp_path: Path) -> None:
    target = tmp_path / "out.ris"
    assert refbridge.write(refbridge.read(text=BIB), target) == 1
    assert target.read_text(encoding="utf-8").splitlines()[:3] == [
        "TY  - JOUR", "ID  - knuth1984", "TI  - Literate Programming"]


def test_writing_to_an_open_text_file() -> None:
    out = io.StringIO()
    assert refbridge.write(refbridge.read(text=BIB), out, format="csl-json") == 1
    assert '"id": "knuth1984"' in out.getvalue()


def test_a_path_whose_ending_names_no_writer_is_refused(tmp_path: Path) -> None:
    with pytest.raises(RefbridgeError, match="cannot tell the output format"):
        refbridge.write(refbridge.read(text=BIB), tmp_path / "out.data")
    assert list(tmp_path.iterdir()) == []


def test_records_given_as_a_path_are_refused() -> None:
    with pytest.raises(TypeError, match="read them with refbridge.read"):
        refbridge.write("refs.bib", format="ris")  # type: ignore[call-overload]


def test_format_bibliography_is_what_refbridge_format_writes() -> None:
    text = refbridge.format_bibliography(refbridge.read(text=BIB), style="apa")
    assert text == ("Knuth, D. E. (1984). Literate Programming. The Computer Journal, "
                    "27(2), 97–111.\n")


def test_format_bibliography_writes_html() -> None:
    html = refbridge.format_bibliography(refbridge.read(text=BIB), style="apa", output="html")
    assert html == ('<div class="csl-bib-body">\n  <div class="csl-entry">Knuth, D. E. '
                    "(1984). Literate Programming. <i>The Computer Journal</i>, <i>27</i>(2), "
                    "97–111.</div>\n</div>\n")


def test_cv_lists_the_owners_records_only() -> None:
    records = [*refbridge.read(text=BIB), *refbridge.read(text=RIS, format="ris")]
    markdown = refbridge.cv(records, owner="Ada Lovelace", to="markdown")
    assert "- \\[1\\] **Ada Lovelace**. Sketch of the Analytical Engine." in markdown
    assert "Literate Programming" not in markdown


def test_cv_in_docx_is_bytes() -> None:
    pytest.importorskip("docx")
    content = refbridge.cv(refbridge.read(text=RIS, format="ris"), owner="Ada Lovelace",
                           to="docx")
    assert content[:2] == b"PK"


def _documented_example() -> str:
    """The first Python example of the Python API's page of the documentation."""
    page = (ROOT / "docs" / "python-api.md").read_text(encoding="utf-8")
    found = re.search(r"```python\n(.*?)```", page, re.DOTALL)
    assert found is not None
    return found.group(1)


def test_the_documented_example_runs(tmp_path: Path) -> None:
    _write(tmp_path, "refs.bib", BIB)
    _write(tmp_path, "more.ris", RIS)
    result = subprocess.run([sys.executable, "-c", _documented_example()], cwd=tmp_path,
                            capture_output=True, text=True, check=False)
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines()[:2] == [
        "2 records, 0 problems",
        "Knuth, D. E. (1984). Literate Programming. The Computer Journal, 27(2), 97–111."]
    assert (tmp_path / "refs.json").exists()


USER_SCRIPT = '''\
from pathlib import Path

import refbridge
from refbridge import ReadResult, Record


def titles(found: ReadResult) -> list[str]:
    return [record.title or "" for record in found]


found = refbridge.read(Path("refs.bib"), strict=True)
more: ReadResult = refbridge.read(text="TY  - GEN\\nER  - \\n", format="ris")
first: Record = found[0]
bib: str = refbridge.write([first, *more], format="bibtex")
count: int = refbridge.write(found, Path("refs.json"))
entries: str = refbridge.format_bibliography(found, style="ieee", output="html")
page: str = refbridge.cv(found, owner="Ada Lovelace", to="html", fragment=True,
                        options=refbridge.CvOptions(group_by="type"))
document: bytes = refbridge.cv(found, owner=["Lovelace, Ada"], to="docx")
library = refbridge.to_bibtexparser(found)
again: ReadResult = refbridge.from_pybtex(refbridge.to_pybtex(found))
print(titles(found), bib, count, entries, page, document, library, again)
'''


def test_a_user_script_is_mypy_strict_clean(tmp_path: Path) -> None:
    if shutil.which("mypy") is None and not _has_module("mypy"):
        pytest.skip("needs mypy")
    script = _write(tmp_path, "user.py", USER_SCRIPT)
    result = subprocess.run([sys.executable, "-m", "mypy", "--strict", "--no-incremental",
                             "--cache-dir", str(tmp_path / ".mypy"), str(script)],
                            cwd=tmp_path, capture_output=True, text=True, check=False)
    assert result.stdout.strip() == "Success: no issues found in 1 source file"


def _has_module(name: str) -> bool:
    import importlib.util

    return importlib.util.find_spec(name) is not None


@pytest.mark.parametrize("module", ["refbridge.api", "refbridge.interop"])
def test_the_examples_in_the_docstrings_hold(module: str) -> None:
    import doctest
    import importlib

    failed, tried = doctest.testmod(importlib.import_module(module))
    assert (failed, tried > 0) == (0, True)


def test_the_pipeline_reads_one_path_given_as_a_string_as_one_input() -> None:
    from refbridge.errors import Diagnostics
    from refbridge.pipeline import read_records

    path = str(SAMPLES / "zhengping-qian.profile.txt")
    assert [r.id for r in read_records(path, Diagnostics())] == \
        [r.id for r in read_records([path], Diagnostics())]
