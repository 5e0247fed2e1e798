"""``refbridge site`` reads, writes and removes files only inside its folder, never through a
symbolic link, trusts no manifest it did not write, never names a file as a Windows device,
and writes its manifest last."""

from __future__ import annotations

import json
import os
import subprocess
from datetime import date
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from support import ROOT, mounted, run_cli

from refbridge.errors import OutputError
from refbridge.site import SiteOptions, write_site
from refbridge.site.folder import is_inside
from refbridge.site.slugs import slugify

LIBRARY = str(ROOT / "tests" / "fixtures" / "site" / "library.bib")
OWNER = "Zhengping Qian"
TODAY = date(2026, 1, 15)
GENERATORS = ["hugo", "jekyll", "html"]
#: The page of the fixture's first work, by generator.
LEARNED = {"hugo": "content/publication/qian2024learned/index.md",
           "jekyll": "_publications/2024-03-01-qian2024learned.md",
           "html": "publication/qian2024learned/index.html"}
VICTIM = "Notes the site must never touch.\n"


def site(directory: Path, generator: str, *inputs: str, prune: bool = False) -> None:
    write_site(list(inputs) or [LIBRARY], str(directory),
               SiteOptions(generator=generator, owners=(OWNER,), prune=prune), today=TODAY)


def manifest(directory: Path, generator: str, works: dict[str, object]) -> Path:
    path = directory / ".refbridge-site.json"
    path.write_text(json.dumps({"refbridge-site": 1, "generator": generator, "works": works}))
    return path


def victims(tmp_path: Path) -> list[Path]:
    outside = [tmp_path / "victim.txt", tmp_path / "victimdir" / "index.md"]
    for path in outside:
        path.parent.mkdir(exist_ok=True)
        path.write_text(VICTIM)
    return outside


@pytest.mark.parametrize("generator", GENERATORS)
def test_a_manifest_naming_files_outside_the_folder_is_refused_and_nothing_is_removed(
        tmp_path: Path, generator: str) -> None:
    outside = victims(tmp_path)
    directory = tmp_path / "site"
    directory.mkdir()
    path = manifest(directory, generator, {"gone": {
        "identities": ["key:gone2020"], "files": {"page": "../victim.txt"}}})
    status, _, stderr = run_cli("site", LIBRARY, "--to", generator, "-o", str(directory),
                                "--owner", OWNER, "--prune")
    assert (status, stderr) == (1, (f"refbridge: error: {path}: not a refbridge site manifest: "
                                   "the page of work 'gone' ('../victim.txt') is not inside "
                                   "the folder (remove it to start the site's pages afresh)\n"))
    assert [p.read_text() for p in outside] == [VICTIM, VICTIM]
    assert sorted(p.name for p in directory.iterdir()) == [".refbridge-site.json"]


@pytest.mark.parametrize("generator", GENERATORS)
def test_a_manifest_whose_slug_climbs_out_of_the_folder_is_refused(
        tmp_path: Path, generator: str) -> None:
    outside = victims(tmp_path)
    directory = tmp_path / "site"
    directory.mkdir()
    path = manifest(directory, generator, {"../../../victimdir": {
        "identities": ["key:qian2024learned"], "files": {}}})
    with pytest.raises(OutputError, match=(
            rf"^{path}: not a refbridge site manifest: work '\.\./\.\./\.\./victimdir' is not "
            r"one refbridge writes \(remove it to start the site's pages afresh\)$")):
        site(directory, generator)
    assert [p.read_text() for p in outside] == [VICTIM, VICTIM]


@pytest.mark.parametrize("file", ["/etc/refbridge-victim.md", "..", "a/../../victim.txt",
                                  "a//b.md", "C:/victim.md", "a\\..\\victim.md", ""])
def test_no_path_outside_the_folder_passes_for_a_work_of_the_manifest(
        tmp_path: Path, file: str) -> None:
    manifest(tmp_path, "hugo", {"qian2024learned": {
        "identities": ["key:qian2024learned"], "files": {"page": file}}})
    with pytest.raises(OutputError, match="is not inside the folder"):
        site(tmp_path, "hugo")


@given(st.lists(st.sampled_from(["..", ".", "", "a", "b.md", "/", "\\", "C:", "\0"]),
                min_size=1, max_size=6).map("/".join))
def test_a_path_taken_as_inside_the_folder_stays_inside_it(relative: str) -> None:
    root = os.path.join(os.sep, "site")
    if is_inside(relative):
        resolved = os.path.normpath(os.path.join(root, *relative.split("/")))
        assert resolved.startswith(root + os.sep)


def test_a_manifest_of_the_wrong_shape_is_one_line_naming_it(tmp_path: Path) -> None:
    path = manifest(tmp_path, "hugo", {"qian2024learned": ["not", "a", "work"]})
    with pytest.raises(OutputError, match=(rf"^{path}: not a refbridge site manifest \(remove "
                                           r"it to start the site's pages afresh\)$")):
        site(tmp_path, "hugo")


@pytest.mark.parametrize("generator", GENERATORS)
def test_a_page_linked_elsewhere_is_neither_read_nor_written(tmp_path: Path,
                                                             generator: str) -> None:
    directory = tmp_path / "site"
    site(directory, generator)
    secret = tmp_path / "secret.md"
    secret.write_text(VICTIM)
    page = directory / LEARNED[generator]
    page.unlink()
    page.symlink_to(secret)
    status, _, stderr = run_cli("site", LIBRARY, "--to", generator, "-o", str(directory),
                                "--owner", OWNER)
    assert (status, stderr) == (1, (f"refbridge: error: {page}: a symbolic link inside the "
                                   "site's folder; refbridge reads, writes and removes nothing "
                                   "through it\n"))
    assert (secret.read_text(), page.is_symlink()) == (VICTIM, True)


def test_a_page_folder_linked_elsewhere_is_not_entered(tmp_path: Path) -> None:
    directory = tmp_path / "site"
    site(directory, "hugo")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (elsewhere / "index.md").write_text(VICTIM)
    bundle = directory / "content" / "publication" / "qian2024learned"
    for file in bundle.iterdir():
        file.unlink()
    bundle.rmdir()
    bundle.symlink_to(elsewhere)
    with pytest.raises(OutputError, match="a symbolic link inside the site's folder"):
        site(directory, "hugo")
    assert sorted(p.name for p in elsewhere.iterdir()) == ["index.md"]
    assert (elsewhere / "index.md").read_text() == VICTIM


def test_pruning_removes_nothing_through_a_link(tmp_path: Path) -> None:
    directory = tmp_path / "site"
    site(directory, "jekyll")
    secret = tmp_path / "secret.md"
    secret.write_text(VICTIM)
    page = directory / LEARNED["jekyll"]
    page.unlink()
    page.symlink_to(secret)
    empty = tmp_path / "empty.bib"
    empty.write_text("")
    with pytest.raises(OutputError, match="a symbolic link inside the site's folder"):
        site(directory, "jekyll", str(empty), prune=True)
    assert (secret.read_text(), page.is_symlink()) == (VICTIM, True)


@pytest.mark.parametrize(("key", "slug"), [
    ("con", "con-work"), ("AUX", "aux-work"), ("Nul", "nul-work"), ("prn", "prn-work"),
    ("com1", "com1-work"), ("LPT9", "lpt9-work"), ("com¹", "com1-work"),
    ("console", "console"), ("com10", "com10"), ("con-2", "con-2"),
])
def test_no_slug_is_a_name_windows_keeps_for_a_device(key: str, slug: str) -> None:
    assert slugify(key) == slug


def test_a_work_keyed_as_a_windows_device_gets_a_page_windows_can_hold(tmp_path: Path) -> None:
    library = tmp_path / "aux.bib"
    library.write_text("@article{aux,\n  title = {Auxiliary Views},\n  author = {Qian, "
                       "Zhengping},\n  journal = {VLDB},\n  year = {2024},\n}\n")
    site(tmp_path / "site", "hugo", str(library))
    assert sorted(p.name for p in (tmp_path / "site" / "content" / "publication").iterdir()) \
        == ["aux-work"]


def listed_files(directory: Path) -> list[str]:
    data = json.loads((directory / ".refbridge-site.json").read_text())
    return sorted(path for work in data["works"].values() for path in work["files"].values())


def test_a_disk_that_fills_up_leaves_a_manifest_of_only_what_is_there(tmp_path: Path) -> None:
    smaller = tmp_path / "smaller.bib"
    smaller.write_text(Path(LIBRARY).read_text("utf-8").split("@inproceedings")[0])
    with mounted(tmp_path / "disk", "size=16k") as disk:  # four pages of memory
        site(disk, "hugo", str(smaller))
        assert listed_files(disk) == ["content/publication/qian2024learned/cite.bib",
                                      "content/publication/qian2024learned/index.md"]
        status, _, stderr = run_cli("site", LIBRARY, "--to", "hugo", "-o", str(disk),
                                    "--owner", OWNER)
        assert (status, stderr.endswith(": cannot write: No space left on device\n"),
                stderr.count("\n")) == (1, True, 1)
        assert all((disk / path).is_file() for path in listed_files(disk))
        assert listed_files(disk) == ["content/publication/qian2024learned/cite.bib",
                                      "content/publication/qian2024learned/index.md"]


def test_the_run_after_a_stopped_one_takes_the_pages_it_left(tmp_path: Path) -> None:
    with mounted(tmp_path / "disk", "size=16k") as disk:
        status, _, _ = run_cli("site", LIBRARY, "--to", "hugo", "-o", str(disk),
                               "--owner", OWNER)
        assert (status, (disk / ".refbridge-site.json").exists()) == (1, False)
        subprocess.run(["mount", "-o", "remount,size=1m", str(disk)], check=True)
        site(disk, "hugo")
        assert listed_files(disk) == [f"content/publication/{slug}/{name}"
                                      for slug in ("qian2024learned", "qian2025survey",
                                                   "yang2023speculative")
                                      for name in ("cite.bib", "index.md")]
        assert sorted(p.name for p in (disk / "content" / "publication").iterdir()) == [
            "qian2024learned", "qian2025survey", "yang2023speculative"]


def test_a_read_only_site_folder_is_one_line_naming_the_folder(tmp_path: Path) -> None:
    with mounted(tmp_path / "disk", "size=64k", "ro") as disk:
        status, _, stderr = run_cli("site", LIBRARY, "--to", "hugo", "-o", str(disk),
                                    "--owner", OWNER)
        assert (status, stderr) == (1, (f"refbridge: error: {disk}/content/publication/"
                                       "qian2025survey: cannot write: Read-only file system\n"))
