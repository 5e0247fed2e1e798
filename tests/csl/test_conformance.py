"""The official CSL processor test suite must not regress below the recorded floors (the
fixtures of the specification, and apart those of its off-spec folder: citeproc-js behaviour
the specification does not define)."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

FLOOR_FILE = Path(__file__).with_name("conformance_floor.txt")
OFF_SPEC_FLOOR_FILE = Path(__file__).with_name("conformance_off_spec_floor.txt")


def test_conformance_suite_stays_at_or_above_the_floor(shared_dir: Path) -> None:
    suite = shared_dir / "csl-test-suite" / "processor-tests" / "humans"
    result = subprocess.run(
        [sys.executable, "-m", "refbridge.csl.conformance", str(suite), str(shared_dir / "csl")],
        capture_output=True, text=True, timeout=600, check=True,
    )
    lines = result.stdout.splitlines()
    match = re.fullmatch(r"csl-suite: (\d+) of (\d+) passed", lines[-1])
    assert match, result.stdout[-2000:]
    passed, total = int(match.group(1)), int(match.group(2))
    floor = int(FLOOR_FILE.read_text().strip())
    assert total >= 845
    assert passed >= floor, f"{passed} of {total} passed, below the floor of {floor}:\n{result.stdout}"
    off_spec = re.fullmatch(r"csl-suite off-spec: (\d+) of (\d+) passed", lines[-2])
    assert off_spec, result.stdout[-2000:]
    off_spec_floor = int(OFF_SPEC_FLOOR_FILE.read_text().strip())
    assert int(off_spec.group(1)) >= off_spec_floor, result.stdout
