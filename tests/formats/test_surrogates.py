"""Lone surrogates (JSON's ``\\ud800``): replaced by U+FFFD where a reader decodes JSON,
reported by record and field, and every command still writes its output (exit status 3)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from support import run_cli

from refbridge.formats.surrogates import repaired, text_repaired

#: a CSL-JSON file as a JSON writer of JavaScript strings leaves it: a lone high surrogate
CSL_JSON = ('[{"id": "ng2021", "type": "article-journal", "title": "Deep nets \\ud800",\n'
            '  "author": [{"family": "Ng\\udc00", "given": "Andrew"}]},\n'
            ' {"id": "ok2020", "type": "book", "title": "Smiles \\ud83d\\ude00"}]\n')
WARNINGS = [
    ("in.json:1: warning: record 'ng2021': field 'title' held a lone surrogate (half of a "
    "UTF-16 pair, which no file can hold): replaced by U+FFFD"),
    ("in.json:1: warning: record 'ng2021': field 'author[0].family' held a lone surrogate "
    "(half of a UTF-16 pair, which no file can hold): replaced by U+FFFD"),
    "refbridge: 2 value(s) changed to be written",
]


def test_a_lone_surrogate_becomes_the_replacement_character() -> None:
    assert text_repaired("a\ud800b\udfff") == "a\ufffdb\ufffd"


def test_two_halves_of_a_pair_become_their_character() -> None:
    assert text_repaired("\ud83d\ude00") == "\U0001f600"


def test_repaired_names_each_field_it_changed() -> None:
    changed: list[str] = []
    item = {"title": "x\ud800", "tags": [{"tag": "ok"}, {"tag": "\udc00"}], "ok": 1}
    assert repaired(item, changed.append) == {
        "title": "x\ufffd", "tags": [{"tag": "ok"}, {"tag": "\ufffd"}], "ok": 1}
    assert changed == ["title", "tags[1].tag"]


def test_a_value_without_a_surrogate_is_the_same_object() -> None:
    item = {"title": "Plain", "author": [{"family": "Doe"}]}
    assert repaired(item, pytest.fail) is item


@pytest.mark.parametrize("command", [
    ["convert", "in.json", "--to", "bibtex", "-o", "out.txt"],
    ["convert", "in.json", "--to", "ris", "-o", "out.txt"],
    ["format", "in.json", "-o", "out.txt"],
    ["cv", "in.json", "--to", "html", "-o", "out.txt"],
], ids=["convert-bibtex", "convert-ris", "format", "cv"])
def test_every_command_writes_with_a_warning_and_exit_status_3(
        command: list[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    Path("in.json").write_text(CSL_JSON, encoding="utf-8")
    status, _, stderr = run_cli(*command)
    assert (status, stderr.splitlines()) == (3, WARNINGS)
    written = Path("out.txt").read_text(encoding="utf-8")
    assert "Deep nets \ufffd" in written and "\U0001f600" in written


def test_the_csl_json_read_back_holds_the_replacement(tmp_path: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    Path("in.json").write_text(CSL_JSON, encoding="utf-8")
    assert run_cli("convert", "in.json", "--to", "csl-json", "-o", "out.json")[0] == 3
    items = json.loads(Path("out.json").read_text(encoding="utf-8"))
    assert [i["title"] for i in items] == ["Deep nets \ufffd", "Smiles \U0001f600"]
    assert items[0]["author"] == [{"family": "Ng\ufffd", "given": "Andrew"}]


@pytest.mark.parametrize(("reader", "answer", "field"), [
    ("openalex", ('{"results": [{"id": "https://openalex.org/W1", "title": "Graphs \\ud800", '
     '"type": "article", "publication_year": 2020}]}'), "results[0].title"),
    ("semantic-scholar", ('{"data": [{"paperId": "abc", "title": "Graphs \\ud800", '
     '"year": 2020}]}'), "data[0].title"),
])
def test_a_services_answer_is_repaired_and_the_field_named(
        reader: str, answer: str, field: str, tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    Path("answer.json").write_text(answer, encoding="utf-8")
    status, _, stderr = run_cli("convert", "answer.json", "--from", reader, "--to", "ris",
                                "-o", "out.ris")
    assert (status, stderr.splitlines()[0]) == (
        3, (f"answer.json: warning: field {field!r} held a lone surrogate (half of a UTF-16 "
        "pair, which no file can hold): replaced by U+FFFD"))
    assert "TI  - Graphs \ufffd\n" in Path("out.ris").read_text(encoding="utf-8")


def test_a_hayagriva_entry_is_repaired_and_the_field_named(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import yaml

    from refbridge.formats.hayagriva import codec as hayagriva

    # PyYAML's own loader decodes the escape (libyaml's refuses it, naming line and column)
    monkeypatch.setattr(hayagriva, "_LOADER", yaml.SafeLoader)
    monkeypatch.chdir(tmp_path)
    Path("refs.yml").write_text('ng2021:\n  type: article\n  title: "Deep nets \\ud800"\n',
                                encoding="utf-8")
    status, _, stderr = run_cli("convert", "refs.yml", "--from", "hayagriva", "--to", "ris",
                                "-o", "out.ris")
    assert (status, stderr.splitlines()[0]) == (
        3, ("refs.yml:1: warning: record 'ng2021': field 'title' held a lone surrogate (half "
        "of a UTF-16 pair, which no file can hold): replaced by U+FFFD"))
    assert "TI  - Deep nets \ufffd\n" in Path("out.ris").read_text(encoding="utf-8")
