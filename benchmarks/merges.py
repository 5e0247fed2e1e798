"""The merge driver replayed on real merges of .bib files, against git's line merge and the
result the authors committed.

    .venv/bin/python benchmarks/merges.py GIT_DIR [GIT_DIR ...] [--show N]

Each argument is a git directory (a clone, or a bare mirror) of a repository that keeps a
.bib in git. For each merge commit with two parents, each .bib that both parents changed
from their merge base is merged again three ways: by ``git merge-file`` (git's line merge),
by refbridge's driver (``refbridge.bibmerge``), and compared with the file the merge
committed. Printed: merges replayed; where git conflicts, how many the driver merges cleanly
(goal >= 90%); the driver's result equal to the committed one entry by entry and field by
field (goal >= 90% of all replayed); where git merges cleanly, the driver's result equal to
git's in content (goal 100%; a clean result of git that holds a key added on both sides
twice is counted apart: the driver marks it; where the driver differs from a clean result
of git that is defective, "git clean but defective", with the reason: a key added on both
sides kept twice, which bibtex and biber warn of, or a side's change applied to a later copy
of an entry, which they ignore; those are not counted as equal); entries both sides kept
that the driver's result lacks (goal 0); and the time of a merge of a 20,000-entry generated library (goal
< 2 s). ``--show N`` prints the first N cases that miss a goal, ``--detail`` all of them, each
with why the committed result differs (a side taken, a block dropped, edited during the
merge, committed with git's markers). The figures are also printed for each repository.
Nothing is written but
temporary files.
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import tempfile
import time
from collections import Counter
from collections.abc import Hashable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from refbridge.bibmerge.sequence import merge_libraries
from refbridge.bibmerge.units import Library, SpanCache, Unreadable, read_library


def git(directory: str, *arguments: str) -> str:
    return subprocess.run(["git", "--git-dir", directory, *arguments], capture_output=True,
                          check=False).stdout.decode("utf-8", "surrogateescape")


def blob(directory: str, commit: str, path: str) -> str:
    return git(directory, "show", f"{commit}:{path}")


@dataclass(frozen=True)
class Case:
    repository: str
    merge: str
    path: str
    base: str
    ours: str
    theirs: str
    committed: str


def cases(directory: str) -> Iterator[Case]:
    """Every .bib that both parents of a two-parent merge changed from their merge base."""
    for line in git(directory, "log", "--all", "--merges", "--format=%H %P").splitlines():
        commit, *parents = line.split()
        if len(parents) != 2:
            continue
        base = git(directory, "merge-base", *parents).strip()
        if not base:
            continue
        changed = [set(git(directory, "diff", "--name-only", base, parent).splitlines())
                   for parent in parents]
        for path in sorted(changed[0] & changed[1]):
            if path.lower().endswith(".bib"):
                yield Case(directory, commit, path, blob(directory, base, path),
                           blob(directory, parents[0], path), blob(directory, parents[1], path),
                           blob(directory, commit, path))


def line_merge(case: Case) -> tuple[str, int]:
    with tempfile.TemporaryDirectory() as work:
        names = []
        for side in ("ours", "base", "theirs"):
            name = Path(work) / side
            name.write_bytes(getattr(case, side).encode("utf-8", "surrogateescape"))
            names.append(str(name))
        done = subprocess.run(["git", "merge-file", "-p", *names], capture_output=True,
                              check=False)
    return done.stdout.decode("utf-8", "surrogateescape"), done.returncode


def entries(library: Library) -> dict[str, tuple[str, dict[str, str]]]:
    return {unit.block.key: (unit.block.entry_type, unit.fields) for unit in library.units
            if unit.kind == "entry" and unit.block is not None}


def contents(library: Library) -> Counter[Hashable]:
    return Counter(unit.content for unit in library.units if unit.kind != "text")


#: An entry's head in a merged text (conflict markers and all): its key.
_ENTRY_KEY = re.compile(r"@[ \t]*\w+[ \t]*[{(][ \t]*([^,\s{}=\"#]*)[ \t]*,")


def readable(text: str, cache: SpanCache | None = None) -> Library | None:
    """``text``'s units, a broken block as text (as the driver reads it), or None when no
    block of it can be read."""
    try:
        return read_library(text, cache, broken_as_text=True)
    except Unreadable:
        return None


def _entry_values(library: Library | None) -> dict[str, Hashable]:
    """Every block's content by its id (an entry's key, a comment's words ...)."""
    if library is None:
        return {}
    return {unit.id: unit.content for unit in library.units if unit.kind != "text"}


#: Git's conflict markers (``=======`` too: one left alone) at the start of a line.
_MARKERS = re.compile(r"^(<{7}|={7}|>{7})( |$)", re.MULTILINE)


#: Why a result differs from the committed one, the weightiest first: a merge is counted
#: under the first that applies.
_REASONS = ("edited during the merge", "committed dropped a block", "committed lacks a block",
            "committed took ours", "committed took theirs", "committed kept the base")


def classify(case: Case, merged_text: str, conflicts: int) -> str:
    """Why the driver's result is not the committed one, in a few words: the committed
    result kept git's markers, holds what no version had (edited during the merge), dropped a
    block a side had, lacks one the driver wrote, or took one side of a block where they
    differ."""
    if _MARKERS.search(case.committed):
        return "committed with conflict markers"
    cache: SpanCache = {}
    committed, merged, ours, theirs, base = (
        _entry_values(readable(text, cache)) for text in (
            case.committed, merged_text, case.ours, case.theirs, case.base))
    kinds = set()
    for block_id in sorted(set(committed) | set(merged)):
        wanted, got = committed.get(block_id), merged.get(block_id)
        if wanted == got:
            continue
        if wanted is None:
            kinds.add("committed dropped a block" if block_id in ours or block_id in theirs
                      else "committed lacks a block")
        elif wanted == ours.get(block_id) and wanted != theirs.get(block_id):
            kinds.add("committed took ours")
        elif wanted == theirs.get(block_id):
            kinds.add("committed took theirs")
        elif wanted == base.get(block_id):
            kinds.add("committed kept the base")
        else:
            kinds.add("edited during the merge")
    prefix = "driver conflicts; " if conflicts else ""
    first = min(kinds, key=_REASONS.index) if kinds else "same blocks, another order or layout"
    return prefix + first


@dataclass
class Tally:
    replayed: int = 0
    unreadable: int = 0
    broken: int = 0
    git_conflicts: int = 0
    driver_clean_where_git_conflicts: int = 0
    readable_git_conflicts: int = 0
    equal_to_committed: int = 0
    git_clean: int = 0
    equal_to_git_where_clean: int = 0
    git_clean_with_duplicate_keys: int = 0
    git_clean_but_defective: list[str] = field(default_factory=list)
    kept_entries_missing: int = 0
    misses: list[str] = field(default_factory=list)
    differences: Counter[str] = field(default_factory=Counter)

    def add(self, other: Tally) -> None:
        """``other``'s counts added to these (one repository's to the total)."""
        for name, value in vars(other).items():
            if isinstance(value, int):
                setattr(self, name, getattr(self, name) + value)
        self.misses.extend(other.misses)
        self.git_clean_but_defective.extend(other.git_clean_but_defective)
        self.differences.update(other.differences)


def _same(one: str, other: str) -> bool:
    """Two texts the same entry by entry and field by field (as text, when either is not
    readable .bib)."""
    first, second = readable(one), readable(other)
    if first is None or second is None:
        return one.split() == other.split()
    return contents(first) == contents(second)  # every block with its key and fields


def _duplicated(text: str) -> set[str]:
    counts = Counter(_ENTRY_KEY.findall(text))
    return {key for key, count in counts.items() if count > 1}


def _ignored_change(case: Case, git_text: str) -> str | None:
    """A key that git's clean result holds more than once where a side's change of that
    entry landed on a later copy, which BibTeX and biber ignore (they read the first)."""
    merged, base = readable(git_text), readable(case.base)
    if merged is None or base is None:
        return None
    copies: dict[str, list[Hashable]] = {}
    for unit in merged.units:
        if unit.kind == "entry" and unit.block is not None:
            copies.setdefault(unit.block.key, []).append(unit.content)
    before = _entry_values(base)
    for side in (case.ours, case.theirs):
        changed = _entry_values(readable(side))
        for key, contents in copies.items():
            new, old = changed.get("entry:" + key), before.get("entry:" + key)
            if len(contents) > 1 and old is not None and new not in (None, old) \
                    and contents[0] != new and new in contents[1:]:
                return key
    return None


def git_defect(case: Case, git_text: str) -> str | None:
    """Why git's clean line merge is a result BibTeX and biber would not read as the people
    meant, or None: a key both sides added kept twice (both warn of the repeated key), a
    side's change applied to a copy of an entry they ignore."""
    twice = _duplicated(git_text) - _duplicated(case.ours) - _duplicated(case.theirs)
    if twice:
        return (f"git kept key {min(twice)} twice, added on both sides (bibtex: "
                "'Repeated entry'; biber: 'Duplicate entry key')")
    ignored = _ignored_change(case, git_text)
    if ignored:
        return (f"git applied a side's change of {ignored} to the later of its copies, which "
                "bibtex and biber ignore (they read the first)")
    return None


def replay(case: Case, tally: Tally) -> None:
    tally.replayed += 1
    where = f"{case.repository} {case.merge[:10]} {case.path}"
    git_text, git_conflicts = line_merge(case)
    cache: SpanCache = {}
    libraries = [readable(text, cache) for text in (case.base, case.ours, case.theirs)]
    base, ours, theirs = libraries
    tally.broken += any(library is not None and library.problems for library in libraries)
    fallback = True
    if base is None or ours is None or theirs is None or not any(
            unit.kind != "text" for library in (base, ours, theirs) for unit in library.units):
        tally.unreadable += 1  # the driver falls back to git's line merge: the same result
        merged_text, merged_conflicts = git_text, git_conflicts
    else:
        fallback = False
        result = merge_libraries(base, ours, theirs)
        merged_text, merged_conflicts = result.text, result.conflicts
        kept = set(entries(ours)) & set(entries(theirs))
        missing = kept - set(_ENTRY_KEY.findall(merged_text))
        tally.kept_entries_missing += len(missing)
        if missing:
            tally.misses.append(f"{where}: entries both sides kept are missing: "
                                f"{sorted(missing)[:5]}")
    if not merged_conflicts and _same(merged_text, case.committed):
        tally.equal_to_committed += 1
    else:
        why = classify(case, merged_text, merged_conflicts)
        tally.differences[why] += 1
        first, second = readable(merged_text), readable(case.committed)
        detail = (_difference(entries(first), entries(second))
                  if first is not None and second is not None else "as text")
        tally.misses.append(f"{where}: {merged_conflicts} conflict(s); differs from the "
                            f"committed result: {why} ({detail})")
    if git_conflicts:
        tally.git_conflicts += 1
        tally.driver_clean_where_git_conflicts += not merged_conflicts
        tally.readable_git_conflicts += not fallback
        return
    tally.git_clean += 1
    if _duplicated(git_text) - _duplicated(case.ours) - _duplicated(case.theirs):
        tally.git_clean_with_duplicate_keys += 1  # a key added on both sides, kept twice
    if not merged_conflicts and _same(merged_text, git_text):
        tally.equal_to_git_where_clean += 1
    elif (defect := git_defect(case, git_text)) is not None:
        tally.git_clean_but_defective.append(f"{where}: {defect}")
        tally.misses.append(f"{where}: git merges cleanly, the driver differs; git clean but "
                            f"defective: {defect}")
    else:
        tally.misses.append(f"{where}: git merges cleanly, the driver differs")


def _difference(ours: dict[str, tuple[str, dict[str, str]]],
                theirs: dict[str, tuple[str, dict[str, str]]]) -> str:
    only = sorted(set(ours) ^ set(theirs))
    changed = sorted(key for key in set(ours) & set(theirs) if ours[key] != theirs[key])
    return f"keys on one side only: {only[:4]}; entries that differ: {changed[:4]}"


def synthetic(size: int) -> tuple[str, str, str]:
    """A generated library of ``size`` entries, and two versions of it: each changes a
    different 500 entries and adds 100; theirs also deletes 100."""
    def entry(number: int, title: str) -> str:
        return (f"@article{{key{number},\n  author = {{Author{number}, Ann and Other, Bo}},\n"
                f"  title = {{{title} {number}}},\n  journal = {{Journal {number % 50}}},\n"
                f"  year = {{{1990 + number % 30}}},\n  doi = {{10.1000/j.{number}}},\n}}\n\n")
    base = [entry(number, "A study of things") for number in range(size)]
    ours, theirs = list(base), list(base)
    for number in range(0, 5000, 10):
        ours[number] = entry(number, "A study of many things")
        theirs[number + 5] = entry(number + 5, "A study of some things")
    ours += [entry(size + number, "Ours") for number in range(100)]
    theirs += [entry(2 * size + number, "Theirs") for number in range(100)]
    del theirs[10000:10100]
    return "".join(base), "".join(ours), "".join(theirs)


def percent(part: int, whole: int) -> str:
    return f"{part}/{whole} ({100 * part / whole:.0f}%)" if whole else "0/0"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("directories", nargs="*", metavar="GIT_DIR")
    parser.add_argument("--show", type=int, default=0, metavar="N")
    parser.add_argument("--detail", action="store_true",
                        help="print every merge that misses a goal, with why")
    arguments = parser.parse_args()
    tally = Tally()
    each: dict[str, Tally] = {}
    for directory in arguments.directories:
        each[directory] = Tally()
        for case in cases(directory):
            replay(case, each[directory])
        tally.add(each[directory])
    print(f"merges replayed (a .bib changed by both parents): {tally.replayed}"
          f" ({tally.broken} with a broken block merged as text; {tally.unreadable} with a "
          "version that holds no readable block: git's line merge)")
    print("where git conflicts, the driver merges cleanly: "
          + percent(tally.driver_clean_where_git_conflicts, tally.git_conflicts)
          + f" (merged by the driver, not git's fallback: {tally.readable_git_conflicts})")
    print("driver's result = committed result, entry by entry and field by field: "
          + percent(tally.equal_to_committed, tally.replayed))
    print("where git merges cleanly, driver = git in content: "
          + percent(tally.equal_to_git_where_clean, tally.git_clean)
          + f" (git's clean result holds a key twice that no side did: "
            f"{tally.git_clean_with_duplicate_keys})")
    print(f"  of the others, git clean but defective: {len(tally.git_clean_but_defective)} "
          "(the driver's result differs from a git result that BibTeX and biber misread)")
    for defect in tally.git_clean_but_defective:
        print("    " + defect)
    print(f"entries both sides kept that the result lacks: {tally.kept_entries_missing}")
    print("where the driver's result is not the committed one, why:")
    for why, count in tally.differences.most_common():
        print(f"  {count:4}  {why}")
    texts = synthetic(20000)
    start, cpu = time.perf_counter(), time.process_time()
    cache: SpanCache = {}
    result = merge_libraries(*(read_library(text, cache) for text in texts))
    elapsed, cpu = time.perf_counter() - start, time.process_time() - cpu
    print(f"20,000-entry generated library merged (read x3 + merge): {elapsed:.2f} s "
          f"({cpu:.2f} s CPU; load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} "
          f"CPUs), {result.conflicts} conflict(s)")
    print("by repository: merges replayed; where git conflicts, the driver clean; equal to "
          "the committed result; where git is clean, equal to git")
    for directory, part in each.items():
        print(f"  {directory}: {part.replayed}; "
              f"{percent(part.driver_clean_where_git_conflicts, part.git_conflicts)}; "
              f"{percent(part.equal_to_committed, part.replayed)}; "
              f"{percent(part.equal_to_git_where_clean, part.git_clean)}")
    for miss in tally.misses if arguments.detail else tally.misses[:arguments.show]:
        print("  " + miss)


if __name__ == "__main__":
    main()
