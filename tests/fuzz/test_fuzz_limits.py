"""Inputs at the limits, generated as streams so the suite stays fast: deeply nested braces and
arrays, a very long field, many tiny records. No recursion error, no record lost; the big
figures (50 MB field, 1 GB file, a million records) come from tests/fuzz/limits.py."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from fuzz.harness import read_bytes

from refbridge.richtext import Style, Styled, plain, rich


def test_deeply_nested_braces_in_a_bib_field_read_without_recursion() -> None:
    depth = 100_000
    data = b"@article{deep, title = " + b"{" * depth + b"x" + b"}" * depth + b"}\n"
    outcome = read_bytes("bibtex", data)
    assert outcome.error is None
    assert [r.fields["title"] for r in outcome.records] == [rich([Styled(Style.NOCASE, ("x",))])]


def test_unclosed_nested_braces_break_one_entry_read_up_to_the_break() -> None:
    data = b"@article{deep, title = " + b"{" * 100_000 + b"\n\n@article{next, title = {Kept}}\n"
    outcome = read_bytes("bibtex", data)
    assert [(r.citation_key, r.get("title")) for r in outcome.records] == [
        ("deep", None), ("next", "Kept")]
    assert (outcome.diagnostics.read_in_part, outcome.diagnostics.skipped) == (1, 0)


def test_deeply_nested_json_is_an_error_not_a_crash() -> None:
    outcome = read_bytes("csl-json", b"[" * 100_000 + b"]" * 100_000)
    assert outcome.error is not None
    assert str(outcome.error).endswith("not CSL-JSON: arrays or objects nested too deeply")


def test_a_5_mb_field_is_read_whole() -> None:
    title = "word " * 1_000_000
    outcome = read_bytes("bibtex", b"@article{long, title = {" + title.encode() + b"}}\n")
    assert [len(plain(r.fields["title"])) for r in outcome.records] == [len(title.strip())]


def test_20_000_tiny_records_are_all_read() -> None:
    data = b"".join(b"@misc{k%d, title = {T%d}}\n" % (i, i) for i in range(20_000))
    outcome = read_bytes("bibtex", data)
    assert (len(outcome.records), outcome.diagnostics.skipped) == (20_000, 0)


def test_a_20_mb_field_is_read_in_bounded_memory(tmp_path: Path) -> None:
    source = tmp_path / "long.bib"
    source.write_text("@article{long, title = {" + "word " * 4_000_000 + "}}\n")
    # The peak of this process alone: Linux's ru_maxrss keeps the high-water mark of the
    # process that forked it across exec (the test runner's), /proc's VmHWM starts afresh.
    program = ("import re, resource, sys\nfrom refbridge.errors import Diagnostics\n"
               "from refbridge.pipeline import read_records\n"
               "records = list(read_records([sys.argv[1]], Diagnostics()))\n"
               "try:\n"
               "    status = open('/proc/self/status').read()\n"
               "    peak = int(re.search(r'VmHWM:\\s*(\\d+)', status).group(1))\n"
               "except OSError:\n"
               "    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss\n"
               "print(len(records), peak)")
    done = subprocess.run([sys.executable, "-c", program, str(source)], capture_output=True,
                          text=True, check=True)
    count, peak_kb = map(int, done.stdout.split())
    assert count == 1
    assert peak_kb < 400 * 1024  # the value is 20 MB; a per-character regex stack took 1.6 GB


def test_an_ris_value_of_100_000_continuation_lines_is_read_whole() -> None:
    lines = [f"line {i} of a pasted abstract" for i in range(100_000)]
    data = ("TY  - JOUR\nTI  - Long\nAB  - " + "\n".join(lines) + "\nER  - \n").encode()
    outcome = read_bytes("ris", data)
    assert [r.fields["abstract"] for r in outcome.records] == ["\n".join(lines)]
