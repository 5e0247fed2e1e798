"""Writing an output keeps the file's identity: links are written through, a hard-linked file
stays the same file, owner, mode and extended attributes stay, devices and pipes are written to
as streams; every failure of the system is a one-line ``OutputError`` and the old file stays."""

from __future__ import annotations

import errno
import os
import socket
import stat
import subprocess
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from support import mounted, run_cli

from refbridge.errors import OutputError
from refbridge.textio import atomic_output

ENTRY = "@article{knuth1984,\n  author = {Knuth, Donald E.},\n  title = {Literate Programming},\n" \
        "  journal = {The Computer Journal},\n  year = {1984},\n}\n"
MESSY = "@article{knuth1984, author={Knuth, Donald E.}, title={Literate Programming},\n" \
        "journal={The Computer Journal}, year=1984}\n"
FORMATTED = "@article{knuth1984,\n  author  = {Knuth, Donald E.},\n" \
            "  title   = {Literate Programming},\n  journal = {The Computer Journal},\n" \
            "  year    = 1984,\n}\n"
OLD = "@misc{old,\n  title = {The old text},\n}\n"
NEW = "@misc{new,\n  title = {The new, longer text of the library},\n}\n"

posix_only = pytest.mark.skipif(sys.platform == "win32", reason="POSIX files")
as_root = pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() != 0,
                             reason="giving a file another owner needs root")


def write(path: Path | str, text: str = NEW) -> None:
    with atomic_output(str(path)) as out:
        out.write(text)


def entries(directory: Path) -> list[str]:
    return sorted(p.name for p in directory.iterdir())


def test_a_symbolic_link_is_written_through_and_kept(tmp_path: Path) -> None:
    (tmp_path / "shared").mkdir()
    (tmp_path / "project").mkdir()
    library = tmp_path / "shared" / "library.bib"
    library.write_text(OLD)
    link = tmp_path / "project" / "refs.bib"
    link.symlink_to("../shared/library.bib")  # relative to the link's own folder
    write(link)
    assert (os.readlink(link), library.read_text()) == ("../shared/library.bib", NEW)
    assert entries(tmp_path / "project") == ["refs.bib"]
    assert entries(tmp_path / "shared") == ["library.bib"]


def test_a_chain_of_links_is_followed_to_its_last_target(tmp_path: Path) -> None:
    (tmp_path / "a").mkdir()
    (tmp_path / "a" / "b").mkdir()
    final = tmp_path / "a" / "b" / "final.bib"
    final.write_text(OLD)
    (tmp_path / "a" / "middle.bib").symlink_to("b/final.bib")
    (tmp_path / "first.bib").symlink_to("a/middle.bib")
    write(tmp_path / "first.bib")
    assert final.read_text() == NEW
    assert [(tmp_path / "first.bib").is_symlink(), (tmp_path / "a" / "middle.bib").is_symlink()
            ] == [True, True]


def test_a_dangling_link_creates_its_target(tmp_path: Path) -> None:
    (tmp_path / "refs.bib").symlink_to("library.bib")
    write(tmp_path / "refs.bib")
    assert ((tmp_path / "refs.bib").is_symlink(), (tmp_path / "library.bib").read_text()) == (
        True, NEW)


def test_a_loop_of_links_is_an_output_error(tmp_path: Path) -> None:
    (tmp_path / "a.bib").symlink_to("b.bib")
    (tmp_path / "b.bib").symlink_to("a.bib")
    with pytest.raises(OutputError, match=r"a\.bib: cannot write: Too many levels of "
                                          r"symbolic links$"):
        write(tmp_path / "a.bib")


@posix_only
def test_a_file_of_several_hard_links_keeps_its_identity(tmp_path: Path) -> None:
    original = tmp_path / "library.bib"
    original.write_text(OLD)
    other = tmp_path / "backup-link.bib"
    os.link(original, other)
    inode = original.stat().st_ino
    write(original)
    assert (original.stat().st_ino, original.stat().st_nlink) == (inode, 2)
    assert other.read_text() == NEW
    assert entries(tmp_path) == ["backup-link.bib", "library.bib"]


@posix_only
def test_a_shorter_text_leaves_nothing_of_the_longer_one_in_a_hard_linked_file(
        tmp_path: Path) -> None:
    original = tmp_path / "library.bib"
    original.write_text(NEW)
    os.link(original, tmp_path / "other.bib")
    write(original, OLD)
    assert (tmp_path / "other.bib").read_text() == OLD


@posix_only
def test_a_failed_run_leaves_a_hard_linked_file_as_it_was(tmp_path: Path) -> None:
    original = tmp_path / "library.bib"
    original.write_text(OLD)
    os.link(original, tmp_path / "other.bib")
    with pytest.raises(RuntimeError), atomic_output(str(original)) as out:
        out.write(NEW)
        raise RuntimeError("the writer failed")
    assert (tmp_path / "other.bib").read_text() == OLD
    assert entries(tmp_path) == ["library.bib", "other.bib"]


@pytest.mark.skipif(not hasattr(os, "posix_fallocate"), reason="needs posix_fallocate")
def test_a_full_disk_leaves_a_hard_linked_file_as_it_was(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # Simulated: the space for the longer text cannot be reserved.
    def full(fd: int, offset: int, length: int) -> None:
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(os, "posix_fallocate", full)
    original = tmp_path / "library.bib"
    original.write_text(OLD)
    os.link(original, tmp_path / "other.bib")
    with pytest.raises(OutputError, match=r"library\.bib: cannot write: No space left on "
                                          r"device$"):
        write(original)
    assert (tmp_path / "other.bib").read_text() == OLD
    assert entries(tmp_path) == ["library.bib", "other.bib"]


@posix_only
@as_root
def test_owner_group_and_mode_of_a_rewritten_file_are_kept(tmp_path: Path) -> None:
    library = tmp_path / "library.bib"
    library.write_text(OLD)
    os.chown(library, 1234, 5678)
    os.chmod(library, 0o640)
    write(library)
    status = library.stat()
    assert (status.st_uid, status.st_gid, stat.S_IMODE(status.st_mode)) == (1234, 5678, 0o640)
    assert library.read_text() == NEW


def test_a_new_file_gets_the_mode_the_umask_gives(tmp_path: Path) -> None:
    previous = os.umask(0o027)
    try:
        write(tmp_path / "new.bib")
    finally:
        os.umask(previous)
    assert stat.S_IMODE((tmp_path / "new.bib").stat().st_mode) == 0o640


def test_extended_attributes_of_a_rewritten_file_are_kept(tmp_path: Path) -> None:
    library = tmp_path / "library.bib"
    library.write_text(OLD)
    try:
        os.setxattr(library, "user.xdg.origin.url", b"https://example.org/library.bib")
    except (AttributeError, OSError):
        pytest.skip("this system or file system keeps no user extended attributes")
    write(library)
    assert os.getxattr(library, "user.xdg.origin.url") == b"https://example.org/library.bib"


def test_a_system_without_extended_attributes_is_written_all_the_same(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def unsupported(path: str) -> list[str]:
        raise OSError(errno.ENOTSUP, os.strerror(errno.ENOTSUP))

    monkeypatch.setattr(os, "listxattr", unsupported, raising=False)
    library = tmp_path / "library.bib"
    library.write_text(OLD)
    write(library)
    assert library.read_text() == NEW


def test_fmt_of_a_linked_library_formats_the_shared_file_and_keeps_the_link(
        tmp_path: Path) -> None:
    shared = tmp_path / "shared.bib"
    shared.write_text(MESSY)
    link = tmp_path / "refs.bib"
    link.symlink_to(shared.name)
    status, _, stderr = run_cli("fmt", str(link))
    assert (status, stderr) == (0, "refbridge: fmt: 1 of 1 file(s) changed\n")
    assert link.is_symlink()
    assert shared.read_text() == FORMATTED


# The devices written to are the test's own (a link made as /dev/stdout is, a node made as
# /dev/null is): an implementation that replaced them must never damage the system's.


@pytest.mark.skipif(not Path("/proc/self/fd").exists(), reason="needs /proc")
def test_output_to_a_link_to_standard_output_goes_there_and_leaves_the_link(
        tmp_path: Path) -> None:
    (tmp_path / "refs.bib").write_text(MESSY)
    stdout = tmp_path / "stdout"
    stdout.symlink_to("/proc/self/fd/1")  # what /dev/stdout is
    runs = [subprocess.run([sys.executable, "-m", "refbridge", "fmt",
                            str(tmp_path / "refs.bib"), "-o", output],
                           capture_output=True, text=True, timeout=60, check=False)
            for output in (str(stdout), "-")]
    assert [(ran.returncode, ran.stdout) for ran in runs] == [(0, FORMATTED)] * 2
    assert os.readlink(stdout) == "/proc/self/fd/1"
    assert (tmp_path / "refs.bib").read_text() == MESSY


@posix_only
@pytest.mark.skipif(not Path("/dev/fd").exists(), reason="needs /dev/fd")
def test_a_descriptor_is_written_to_as_a_stream(tmp_path: Path) -> None:
    read_end, write_end = os.pipe()
    try:
        write(f"/dev/fd/{write_end}")
    finally:
        os.close(write_end)
    with os.fdopen(read_end, "rb") as pipe:
        assert pipe.read() == NEW.encode()
    assert entries(tmp_path) == []


@posix_only
@pytest.mark.skipif(not Path("/dev/fd").exists(), reason="needs /dev/fd")
def test_a_descriptor_that_is_a_socket_is_written_to(tmp_path: Path) -> None:
    ours, theirs = socket.socketpair()
    with ours, theirs:
        write(f"/dev/fd/{ours.fileno()}")
        ours.shutdown(socket.SHUT_WR)
        assert theirs.makefile("rb").read() == NEW.encode()
    assert entries(tmp_path) == []


@posix_only
@pytest.mark.skipif(not Path("/proc/self/fd").exists(), reason="needs /proc")
def test_a_failed_run_writes_nothing_to_a_descriptor() -> None:
    read_end, write_end = os.pipe()
    try:
        with pytest.raises(RuntimeError), atomic_output(f"/proc/self/fd/{write_end}") as out:
            out.write(NEW)
            raise RuntimeError("the writer failed")
    finally:
        os.close(write_end)
    with os.fdopen(read_end, "rb") as pipe:
        assert pipe.read() == b""


@contextmanager
def reading(fifo: Path) -> Iterator[list[bytes]]:
    """What a reader of ``fifo`` receives, once the block ended."""
    received: list[bytes] = []

    def read() -> None:
        with open(fifo, "rb") as stream:
            received.append(stream.read())

    reader = threading.Thread(target=read)
    reader.start()
    try:
        yield received
    finally:
        reader.join(timeout=10)


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs named pipes")
def test_a_named_pipe_is_written_to_and_stays_a_pipe(tmp_path: Path) -> None:
    fifo = tmp_path / "refs.pipe"
    os.mkfifo(fifo)
    with reading(fifo) as received:
        write(fifo)
    assert received == [NEW.encode()]
    assert stat.S_ISFIFO(fifo.stat().st_mode)
    assert entries(tmp_path) == ["refs.pipe"]


def test_a_character_device_is_written_to_and_stays_a_device(tmp_path: Path) -> None:
    null = tmp_path / "null"
    try:
        os.mknod(null, stat.S_IFCHR | 0o666, os.makedev(1, 3))  # what /dev/null is on Linux
    except (AttributeError, OSError):
        pytest.skip("needs to make a device node (root on Linux)")
    write(null)
    assert stat.S_ISCHR(null.stat().st_mode)


def test_a_directory_is_an_output_error_naming_it(tmp_path: Path) -> None:
    (tmp_path / "refs.bib").write_text(ENTRY)
    (tmp_path / "out").mkdir()
    status, _, stderr = run_cli("convert", str(tmp_path / "refs.bib"), "--to", "bibtex",
                                "-o", str(tmp_path / "out"))
    assert (status, stderr) == (1, (f"refbridge: error: {tmp_path / 'out'}: cannot write: "
                                   "is a directory\n"))
    assert entries(tmp_path / "out") == []


def test_a_full_disk_is_an_output_error_and_keeps_the_old_file(tmp_path: Path) -> None:
    with mounted(tmp_path / "disk", "size=64k") as disk:
        (disk / "out.bib").write_text(OLD)
        with pytest.raises(OutputError, match=r"out\.bib: cannot write: No space left on "
                                              r"device$"):
            write(disk / "out.bib", NEW * 4000)
        assert ((disk / "out.bib").read_text(), entries(disk)) == (OLD, ["out.bib"])


def test_a_read_only_file_system_is_an_output_error_and_keeps_the_old_file(
        tmp_path: Path) -> None:
    with mounted(tmp_path / "disk", "size=64k") as disk:
        (disk / "out.bib").write_text(OLD)
        subprocess.run(["mount", "-o", "remount,ro", str(disk)], check=True)
        with pytest.raises(OutputError, match=r"out\.bib: cannot write: Read-only file "
                                              r"system$"):
            write(disk / "out.bib")
        assert (disk / "out.bib").read_text() == OLD


def test_a_full_disk_through_the_command_line_is_one_line_and_status_1(tmp_path: Path) -> None:
    big = tmp_path / "big.bib"
    big.write_text("".join(ENTRY.replace("knuth1984", f"knuth{n}") for n in range(3000)))
    with mounted(tmp_path / "disk", "size=64k") as disk:
        status, _, stderr = run_cli("convert", str(big), "--to", "bibtex",
                                    "-o", str(disk / "out.bib"))
        assert (status, stderr) == (1, (f"refbridge: error: {disk / 'out.bib'}: cannot write: "
                                       "No space left on device\n"))
        assert entries(disk) == []


def test_the_temporary_file_is_the_only_name_a_run_adds(tmp_path: Path) -> None:
    with atomic_output(str(tmp_path / "out.bib")) as out:
        out.write(NEW)
        assert [name.startswith(".out.bib.") and name.endswith(".tmp")
                for name in entries(tmp_path)] == [True]
    assert entries(tmp_path) == ["out.bib"]
