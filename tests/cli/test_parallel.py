"""Converting one .bib on several processes writes what converting it whole writes: the same
bytes, the same diagnostics, the same failures; inputs that cannot be cut are converted whole."""

from __future__ import annotations

import codecs
import os
import pickle
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner
from support import biblatex_examples

from refbridge import parallel
from refbridge import runs as run_settings
from refbridge.cli import main
from refbridge.errors import Diagnostic, Diagnostics, ExitStatus, ParseError, RefbridgeError
from refbridge.formats.bibtex import reader as bibtex_reader
from refbridge.formats.bibtex import shards as bibtex_shards
from refbridge.formats.bibtex.shards import plan_shards
from refbridge.parallel import convert_in_parallel
from refbridge.pipeline import convert
from refbridge.registry import WriteOptions, get_reader
from refbridge.runs import ReadOptions

#: Small enough that a test file of a few kilobytes is cut into many shards.
SHARD_BYTES = 400

ARTICLE = """@article{{knuth{n},
  author  = {{Knuth, Donald E. and Garc{{\\'\\i}}a, Jos{{\\'e}}}},
  title   = {{The {{Art}} of Computer Programming, part {n}}},
  journal = jacm,
  year    = {n:04d},
  month   = mar,
  pages   = {{1--{n}}},
}}
"""
STRING = "@string{{jacm = {{Journal of the {{ACM}}, series {n}}}}}\n"
COLLECTION = """@collection{{frontier{n},
  editor    = {{Westfahl, Gary}},
  title     = {{Space and Beyond, volume {n}}},
  publisher = {{Greenwood}},
  year      = {{2000}},
}}
"""
CHAPTER = """@incollection{{chapter{n},
  author   = {{M{{\\"u}}ller, J{{\\"o}}rg}},
  title    = {{The True Frontier {n}}},
  crossref = {{frontier{n}}},
  pages    = {{55--65}},
}}
"""
COMMENT = "@comment{{jabref-meta: group {n};}}\n"
BROKEN = "@article{{broken{n},\n  title = {{never closed,\n}}\n"


def many_entries(count: int, every: dict[int, str]) -> str:
    """``count`` blocks: articles, and the block ``every[k]`` at each multiple of ``k``."""
    blocks = [STRING.format(n=0)]
    for n in range(1, count + 1):
        extra = [template.format(n=n) for k, template in every.items() if n % k == 0]
        blocks += [*extra, ARTICLE.format(n=n)]
    return "\n".join(blocks)


def converted(path: Path, tmp_path: Path, to_format: str = "csl-json", jobs: int = 1,
              strict: bool = False, encoding: str | None = None
              ) -> tuple[str, list[Diagnostic], int]:
    """The output, diagnostics and count of broken records (skipped or read in part) of
    converting ``path`` (in parallel when ``jobs`` > 1, failing the test when it is not
    converted in parallel)."""
    output = tmp_path / f"out-{jobs}.txt"
    options = ReadOptions(encoding=encoding)
    if jobs == 1:
        report = convert([str(path)], str(output), to_format, options, strict=strict)
    else:
        parallel = convert_in_parallel(str(path), str(output), to_format, options,
                                       WriteOptions(), strict, jobs, from_bytes=0,
                                       shard_bytes=SHARD_BYTES)
        assert parallel is not None, "converted whole"
        report = parallel
    return (output.read_text(encoding="utf-8"), report.diagnostics.messages,
            report.diagnostics.skipped + report.diagnostics.read_in_part)


def write(tmp_path: Path, text: str, name: str = "refs.bib", encoding: str = "utf-8") -> Path:
    path = tmp_path / name
    path.write_bytes(text.encode(encoding))
    return path


@pytest.mark.parametrize("to_format", ["csl-json", "bibtex", "biblatex", "ris"])
def test_parallel_output_is_the_serial_output_byte_for_byte(tmp_path: Path,
                                                             to_format: str) -> None:
    path = write(tmp_path, many_entries(60, {7: STRING}))
    assert converted(path, tmp_path, to_format, jobs=2) == converted(path, tmp_path, to_format)


def test_macros_redefined_along_the_file_resolve_as_in_the_whole_file(tmp_path: Path) -> None:
    path = write(tmp_path, many_entries(60, {5: STRING}))
    output, _, _ = converted(path, tmp_path, jobs=2)
    assert '"container-title": "Journal of the <span class=\\"nocase\\">ACM</span>, ' \
        'series 55"' in output
    assert output == converted(path, tmp_path)[0]


def test_crossref_children_and_parents_on_either_side_stay_together(tmp_path: Path) -> None:
    text = many_entries(40, {6: CHAPTER + "\n" + COLLECTION, 7: COLLECTION + "\n" + CHAPTER})
    path = write(tmp_path, text)
    output, messages, _ = converted(path, tmp_path, jobs=2)
    assert output.count('"container-title": "Space and Beyond, volume') == 11
    assert (output, messages) == converted(path, tmp_path)[:2]


def test_broken_entries_are_reported_with_their_lines_as_in_the_whole_file(
        tmp_path: Path) -> None:
    path = write(tmp_path, many_entries(50, {8: BROKEN}))
    parallel = converted(path, tmp_path, jobs=2)
    serial = converted(path, tmp_path)
    assert parallel == serial
    assert parallel[2] == 6
    assert [(m.level, m.line) for m in parallel[1]][:2] == [("error", 66), ("error", 142)]


def test_comments_go_with_the_entry_after_them_as_in_the_whole_file(tmp_path: Path) -> None:
    path = write(tmp_path, many_entries(40, {3: COMMENT}))
    output, _, _ = converted(path, tmp_path, "biblatex", jobs=2)
    assert output.count("@comment{jabref-meta: group") == 13
    assert output == converted(path, tmp_path, "biblatex")[0]


@pytest.mark.parametrize(("encoding", "newline"), [
    ("utf-8", "\r\n"), ("utf-8-sig", "\n"), ("cp1252", "\n")])
def test_encodings_and_line_breaks_read_as_in_the_whole_file(
        tmp_path: Path, encoding: str, newline: str) -> None:
    text = many_entries(40, {4: BROKEN}).replace("Knuth", "Kn\u00fcth").replace("\n", newline)
    path = write(tmp_path, text, encoding=encoding)
    assert converted(path, tmp_path, jobs=2) == converted(path, tmp_path)


def test_a_strict_run_fails_at_the_first_broken_entry_and_writes_nothing(
        tmp_path: Path) -> None:
    path = write(tmp_path, many_entries(50, {30: BROKEN}))
    with pytest.raises(ParseError) as parallel:
        convert_in_parallel(str(path), str(tmp_path / "out.json"), "csl-json", ReadOptions(),
                            WriteOptions(), True, 2, from_bytes=0, shard_bytes=SHARD_BYTES)
    assert str(parallel.value) == (
        f"{path}:264: broken entry: the value of 'title' runs to the end of the entry: a '{{' "
        "in it is never closed (it opens on line 265); the 0 field(s) before it are read, as "
        "BibTeX reads them")
    assert not (tmp_path / "out.json").exists()


def test_cuts_fall_only_between_two_entries_outside_crossref_spans(tmp_path: Path) -> None:
    text = many_entries(40, {6: CHAPTER + "\n" + COLLECTION, 4: COMMENT})
    path = write(tmp_path, text)
    shards = plan_shards(str(path), "utf-8", SHARD_BYTES)
    assert shards is not None and len(shards) > 5
    data = path.read_bytes()
    for shard in shards[1:]:
        before, after = data[:shard.start].decode(), data[shard.start:].decode()
        previous_block = before[before.rindex("\n@"):]
        assert after.startswith(("@article{", "@incollection{", "@collection{"))
        assert previous_block.startswith(("\n@article{", "\n@incollection{", "\n@collection{"))
        assert shard.first_line == before.count("\n") + 1
    for n in range(6, 41, 6):
        assert [f"chapter{n}," in data[s.start:s.end].decode() for s in shards] == \
            [f"frontier{n}," in data[s.start:s.end].decode() for s in shards]
    assert [s.last for s in shards] == [False] * (len(shards) - 1) + [True]
    assert shards[-1].end == len(data)


def test_each_shard_carries_the_macros_defined_before_it(tmp_path: Path) -> None:
    path = write(tmp_path, many_entries(30, {10: STRING}))
    shards = plan_shards(str(path), "utf-8", SHARD_BYTES)
    assert shards is not None
    data = path.read_bytes()
    for shard in shards[1:]:
        series = data[:shard.start].decode().count("@string")
        macro = f"Journal of the {{ACM}}, series {10 * (series - 1)}"
        assert shard.context == (("jacm", macro),)


@pytest.mark.parametrize(("why", "text"), [
    ("a key twice", many_entries(20, {}) + ARTICLE.format(n=3)),
    ("a crossref to no entry", many_entries(20, {}) + CHAPTER.format(n=99)),
    ("a crossref through a macro", many_entries(20, {}) + "@misc{x, crossref = jacm}\n"),
    ("a lone carriage return", many_entries(20, {}).replace("The {Art}", "The\r{Art}", 1)),
])
def test_a_file_that_cannot_be_cut_is_converted_whole(tmp_path: Path, why: str,
                                                      text: str) -> None:
    path = write(tmp_path, text)
    assert plan_shards(str(path), "utf-8", SHARD_BYTES) is None, why
    report = convert([str(path)], str(tmp_path / "out.json"), "csl-json", jobs=2)
    assert report.records_written == convert(
        [str(path)], str(tmp_path / "serial.json"), "csl-json").records_written
    assert (tmp_path / "out.json").read_bytes() == (tmp_path / "serial.json").read_bytes()


def test_notes_before_a_broken_entry_go_with_it_as_in_the_whole_file(tmp_path: Path) -> None:
    path = write(tmp_path, many_entries(30, {5: COMMENT + "\n" + BROKEN}))
    assert converted(path, tmp_path, "biblatex", jobs=2) == converted(path, tmp_path,
                                                                       "biblatex")


def test_notes_before_an_entry_that_cannot_be_read_make_the_file_convert_whole(
        tmp_path: Path) -> None:
    unreadable = "@article{{ title = {{no key}}}}\n"
    path = write(tmp_path, many_entries(30, {5: COMMENT + "\n" + unreadable}))
    assert convert_in_parallel(str(path), str(tmp_path / "out.json"), "biblatex",
                               ReadOptions(), WriteOptions(), False, 2, from_bytes=0,
                               shard_bytes=SHARD_BYTES) is None
    assert not (tmp_path / "out.json").exists()


@pytest.mark.parametrize(("why", "to_format", "options", "jobs"), [
    ("one process", "csl-json", WriteOptions(), 1),
    ("keys to generate", "csl-json", WriteOptions(regenerate_keys=True), 2),
    ("a writer that lays out the records together", "zotero", WriteOptions(), 2),
])
def test_runs_that_cannot_be_parallel_are_left_to_the_serial_pipeline(
        tmp_path: Path, why: str, to_format: str, options: WriteOptions, jobs: int) -> None:
    path = write(tmp_path, many_entries(30, {}))
    assert convert_in_parallel(str(path), str(tmp_path / "out"), to_format, ReadOptions(),
                               options, False, jobs, from_bytes=0,
                               shard_bytes=SHARD_BYTES) is None, why


def test_a_small_file_is_converted_in_one_process(tmp_path: Path) -> None:
    path = write(tmp_path, many_entries(30, {}))
    assert convert_in_parallel(str(path), str(tmp_path / "out.json"), "csl-json",
                               ReadOptions(), WriteOptions(), False, 2) is None


def test_biblatex_examples_in_parallel_is_the_serial_output(tmp_path: Path) -> None:
    source = biblatex_examples()
    path = write(tmp_path, codecs.decode(source.read_bytes(), "utf-8"))
    assert converted(path, tmp_path, jobs=2) == converted(path, tmp_path)


def test_the_command_line_converts_a_large_bib_on_every_cpu_with_the_serial_output(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(run_settings, "PARALLEL_FROM_BYTES", 0)
    monkeypatch.setattr(parallel, "SHARD_BYTES", (SHARD_BYTES, SHARD_BYTES))
    monkeypatch.setattr(parallel, "available_cpus", lambda: 2)
    path = write(tmp_path, many_entries(40, {9: BROKEN}))
    runs = {jobs: CliRunner().invoke(main, ["convert", str(path), "--to", "bibtex", "--jobs",
                                            jobs, "-o", str(tmp_path / f"{jobs}.bib")])
            for jobs in ("0", "1")}
    assert [r.exit_code for r in runs.values()] == [ExitStatus.SKIPPED, ExitStatus.SKIPPED]
    assert runs["0"].stderr == runs["1"].stderr
    assert (tmp_path / "0.bib").read_text() == (tmp_path / "1.bib").read_text()


def test_the_command_line_converts_on_one_process_unless_asked_for_more(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # on two CPUs the shards cost two to three times the CPU time of one process: slower
    monkeypatch.setattr(run_settings, "PARALLEL_FROM_BYTES", 0)
    monkeypatch.setattr(parallel, "available_cpus", lambda: 2)

    def refuse(*args: object, **kwargs: object) -> None:
        raise AssertionError("converted on several processes")

    monkeypatch.setattr(parallel, "convert_in_parallel", refuse)
    path = write(tmp_path, many_entries(3, {}))
    result = CliRunner().invoke(main, ["convert", str(path), "--to", "bibtex",
                                       "-o", str(tmp_path / "out.bib")])
    assert (result.exit_code, result.stderr) == (ExitStatus.OK, "")
    assert (tmp_path / "out.bib").read_text().count("@article{") == 3


def test_a_parse_error_from_a_worker_keeps_its_file_line_and_column() -> None:
    error = pickle.loads(pickle.dumps(ParseError("broken entry", "refs.bib", 12, 3)))
    assert (error.message, error.file, error.line, error.column, str(error)) == (
        "broken entry", "refs.bib", 12, 3, "refs.bib:12:3: broken entry")


@pytest.mark.parametrize("newline", ["\n", "\r\n"])
def test_the_scan_finds_the_same_cuts_whatever_its_reading_chunk(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, newline: str) -> None:
    text = many_entries(40, {6: CHAPTER + "\n" + COLLECTION, 5: STRING, 4: COMMENT})
    path = write(tmp_path, text.replace("\n", newline), encoding="utf-8-sig")
    whole = plan_shards(str(path), "utf-8-sig", SHARD_BYTES)
    monkeypatch.setattr(bibtex_shards, "SCAN_CHUNK", 37)
    assert plan_shards(str(path), "utf-8-sig", SHARD_BYTES) == whole
    assert whole is not None and len(whole) > 5


@pytest.mark.skipif(not Path("/proc/self/task").exists(), reason="needs Linux's /proc")
def test_ctrl_c_stops_a_parallel_conversion_with_status_130_and_no_traceback(
        tmp_path: Path) -> None:
    path = write(tmp_path, many_entries(12_000, {}))
    output = tmp_path / "out.json"
    # A shell starts a command in its own process group, with Ctrl-C not ignored (exec turns
    # a handled signal back to its default, an ignored one stays ignored).
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        command = subprocess.Popen(
            [sys.executable, "-m", "refbridge", "convert", str(path), "--to", "csl-json",
             "--jobs", "2", "-o", str(output)],
            stderr=subprocess.PIPE, text=True, start_new_session=True)
    finally:
        signal.signal(signal.SIGINT, previous)
    workers = Path(f"/proc/{command.pid}/task/{command.pid}/children")
    deadline = time.monotonic() + 10
    while not workers.read_text().split() and time.monotonic() < deadline:
        time.sleep(0.005)  # until the workers have started: the conversion is under way
    os.killpg(command.pid, signal.SIGINT)  # Ctrl-C reaches every process of the group
    _, stderr = command.communicate(timeout=30)
    assert (command.returncode, stderr) == (130, "refbridge: interrupted\n")
    assert not output.exists()


def _dies(task: object) -> None:
    """A shard conversion whose worker process is killed (as the system does when memory
    runs out)."""
    os._exit(137)


def test_a_worker_that_dies_fails_the_run_with_a_clear_error_and_no_output(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(parallel, "_convert_shard", _dies)
    path = write(tmp_path, many_entries(30, {}))
    with pytest.raises(RefbridgeError, match=r"^a worker process ended unexpectedly \(out of "
                                             r"memory\?\); convert with --jobs 1$"):
        convert_in_parallel(str(path), str(tmp_path / "out.json"), "csl-json", ReadOptions(),
                            WriteOptions(), False, 2, from_bytes=0, shard_bytes=SHARD_BYTES)
    assert not (tmp_path / "out.json").exists()


def test_a_biblatex_file_cut_in_shards_is_reported_once_as_in_the_whole_file(
        tmp_path: Path) -> None:
    path = write(tmp_path, many_entries(40, {2: COLLECTION}))
    output, messages, _ = converted(path, tmp_path, jobs=2)
    assert (output, messages) == converted(path, tmp_path)[:2]
    assert [m.message for m in messages if m.level == "info"] == [
        "read as BibLaTeX (@collection in 20 entries)"]


@pytest.mark.skipif(not bibtex_reader.__file__.endswith(".py"),
                    reason="the reader is compiled: its methods cannot be counted")
def test_one_process_judges_the_dialect_of_a_file_once_for_all_its_shards(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Judging scans up to 4 MB of the file: a worker reading several shards does it once."""
    path = write(tmp_path, many_entries(40, {2: COLLECTION}))
    scanned: list[int] = []
    scan = bibtex_reader.DialectEvidence.scan
    monkeypatch.setattr(bibtex_reader.DialectEvidence, "scan",
                        lambda evidence, text: (scanned.append(len(text)), scan(evidence, text))[1])
    reader = get_reader("bibtex")
    shards = reader.shards(str(path), "utf-8", SHARD_BYTES)
    records = [record for shard in shards
               for record in reader.read_shard(shard, str(path), Diagnostics())]
    assert (len(shards) > 2, len(records), scanned) == (True, 60, [path.stat().st_size])
