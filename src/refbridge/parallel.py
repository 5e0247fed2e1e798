"""Converting one large input on several processes, with the output of converting it whole.

The reader cuts the input into shards (``ShardedReader.shards``); each worker process reads one
shard and writes its records' texts (``FramedWriter.record_text``); the texts are put together
in input order, laid out by the writer's framing, into the same atomic output the serial
pipeline uses, and the shards' diagnostics are reported in input order. It applies when the
reader can cut, the writer writes each record on its own, and every record keeps the citation
key it was read with. When a shard turns out not to stand on its own, or two records share a
key, nothing is written and the caller converts the input whole.

Why: converting a .bib spends about 80 us of CPU per entry in Python, a single core's worth;
the conversions of a large .bib run on the machine's cores side by side. Passing records
between processes was measured too (pickling a record costs 29-35 us, a third of the work),
so workers pass text. On Linux the workers are forked (they start with what the caller has
loaded; the library converts on one process unless asked, since forking a program that runs
threads is unsafe); elsewhere they are spawned.

A stopped run leaves nothing behind: on Ctrl-C or SIGTERM the main process removes its
temporary output and stops its workers (then dies of the SIGTERM, as it would have); a worker
watches its parent and, when the parent is gone (killed outright: ``kill -9``), removes the
parent's temporary output and exits. (A worker killed outright too leaves the temporary file
``.OUTPUT.RANDOM.tmp`` beside the output.) This module must never write an output that
converting the input whole would not write.
"""

from __future__ import annotations

import os
import re
import signal
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, replace

from refbridge import runs
from refbridge.errors import Diagnostic, Diagnostics, RefbridgeError
from refbridge.registry import (
    FramedWriter,
    Shard,
    ShardedReader,
    ShardIncomplete,
    WriteOptions,
    detect_reader,
    get_reader,
    get_writer,
    write_framed,
)
from refbridge.runs import ReadOptions, RunReport
from refbridge.textio import STDIO, atomic_output, display_name, open_input

#: Each worker gets about this many shards (smaller shards even out the workers' loads at the
#: end; each costs a little to send and to set up)...
SHARDS_PER_WORKER = 6
#: ... of at least and at most this many bytes.
SHARD_BYTES = (256 << 10, 4 << 20)
#: How often, in seconds, a worker looks whether its parent is still there.
PARENT_WATCH_SECONDS = 0.2
#: In a worker: the temporary outputs of its parent, removed if the parent dies.
_PARENTS_TEMPORARY: set[str] = set()


def available_cpus() -> int:
    """How many CPUs this process may run on."""
    if hasattr(os, "sched_getaffinity"):
        return len(os.sched_getaffinity(0))
    return os.cpu_count() or 1


@dataclass(frozen=True, slots=True)
class _Task:
    reader: str
    writer: str
    shard: Shard
    source: str
    strict: bool
    options: WriteOptions
    temporary: str | None  #: the main process's temporary output


@dataclass(frozen=True, slots=True)
class _Done:
    text: str  #: the records' texts joined by the writer's separator
    count: int
    keys: tuple[str | None, ...]
    messages: tuple[Diagnostic, ...]
    skipped: int
    read_in_part: int
    changed: int


def _convert_shard(task: _Task) -> _Done:
    """Read one shard and write its records' texts (runs in a worker process)."""
    if task.temporary is not None:
        _PARENTS_TEMPORARY.add(task.temporary)
    reader: ShardedReader = get_reader(task.reader)  # type: ignore[assignment]
    writer: FramedWriter = get_writer(task.writer)  # type: ignore[assignment]
    diagnostics = Diagnostics(strict=task.strict)
    options = replace(task.options, diagnostics=diagnostics)  # its changes are this shard's
    texts: list[str] = []
    keys: list[str | None] = []
    for record in reader.read_shard(task.shard, task.source, diagnostics):
        texts.append(writer.record_text(record, options))
        keys.append(record.citation_key)
    return _Done(writer.framing.separator.join(texts), len(texts), tuple(keys),
                 tuple(diagnostics.messages), diagnostics.skipped, diagnostics.read_in_part,
                 diagnostics.changed)


class _SharedKey(Exception):
    """Two records share a citation key, or one has a key the output cannot hold: the
    serial pipeline gives it a new key, and reports it."""


def convert_in_parallel(path: str, output: str, to_format: str, read_options: ReadOptions,
                        write_options: WriteOptions, strict: bool, jobs: int,
                        *, from_bytes: int | None = None, shard_bytes: int | None = None
                        ) -> RunReport | None:
    """Convert ``path`` on ``jobs`` processes; None when it has to be converted whole (smaller
    than ``from_bytes``, a format that cannot be cut or written a record at a time, keys to
    generate). Shards are about ``shard_bytes`` long (default: from ``SHARD_BYTES`` and
    ``SHARDS_PER_WORKER``)."""
    writer = get_writer(to_format)
    if jobs < 2 or path == STDIO or write_options.regenerate_keys or \
            not hasattr(writer, "record_text") or not os.path.isfile(path):
        return None
    size = os.path.getsize(path)
    if size < (runs.PARALLEL_FROM_BYTES if from_bytes is None else from_bytes):
        return None
    source = display_name(path)
    opened = Diagnostics(strict=strict)  # what opening says (the encoding), kept on success
    with open_input(path, opened, read_options.encoding) as (stream, head):
        encoding = stream.encoding
        reader = (get_reader(read_options.from_format) if read_options.from_format
                  else detect_reader(source, head))
    if not hasattr(reader, "shards"):
        return None
    if shard_bytes is None:
        smallest, largest = SHARD_BYTES
        shard_bytes = min(max(size // (jobs * SHARDS_PER_WORKER), smallest), largest)
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor
    from concurrent.futures.process import BrokenProcessPool

    context = multiprocessing.get_context("fork" if sys.platform == "linux" else "spawn")
    workers = ProcessPoolExecutor(min(jobs, -(-size // shard_bytes)), context, _prepare,
                                  (reader.name, to_format, os.getpid()))
    with _sigterm_unwinds():  # the temporary output removed, the workers stopped
        terminated = False
        try:
            with _ctrl_c_held():  # the workers start and get ready while the input is cut
                workers.submit(_ready)
            shards = reader.shards(path, encoding, shard_bytes)
            if shards is None:
                return None
            report = RunReport(Diagnostics(strict=strict, messages=list(opened.messages)))
            framed: FramedWriter = writer  # type: ignore[assignment]
            with atomic_output(output, [path]) as out:
                temporary = getattr(out, "name", None)
                tasks = [_Task(reader.name, to_format, shard, source, strict, write_options,
                               temporary if isinstance(temporary, str) else None)
                         for shard in shards]
                write_framed(_texts(workers.map(_convert_shard, tasks), report,
                                    getattr(writer, "key_unsafe", None)), out, framed.framing)
        except (ShardIncomplete, _SharedKey):
            return None
        except BrokenProcessPool:
            raise RefbridgeError("a worker process ended unexpectedly (out of memory?); "
                                 "convert with --jobs 1") from None
        except _Terminated:  # this process ends at once, and the workers with it
            terminated = True
            _terminate_workers(workers)
            raise
        finally:  # after an error or Ctrl-C, shards not begun are dropped
            # Wait for the pool to wind down: a pool left running when the interpreter exits
            # has its management thread write to a pipe the exit already closed (a traceback
            # at exit, "Bad file descriptor", about one run in twenty). Shards are small, so
            # the shards already begun end quickly.
            workers.shutdown(wait=not terminated, cancel_futures=True)
        return report


@contextmanager
def _ctrl_c_held() -> Iterator[None]:
    """Hold Ctrl-C back while workers start: they must never take it (the initializer makes
    them ignore it, but only once it runs); a Ctrl-C meanwhile reaches this process after."""
    if not hasattr(signal, "pthread_sigmask"):
        yield
        return
    signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})


class _Terminated(BaseException):
    """SIGTERM arrived: unwind (the temporary output removed, the workers stopped)."""


def _unwind(signum: int, frame: object) -> None:
    raise _Terminated


@contextmanager
def _sigterm_unwinds() -> Iterator[None]:
    """Make a SIGTERM unwind the block, then end the process by it as it would have: only
    where SIGTERM would end the process at once (its default action, the main thread)."""
    if threading.current_thread() is not threading.main_thread() \
            or signal.getsignal(signal.SIGTERM) is not signal.SIG_DFL:
        yield
        return
    signal.signal(signal.SIGTERM, _unwind)
    try:
        yield
    except _Terminated:
        signal.signal(signal.SIGTERM, signal.SIG_DFL)
        os.kill(os.getpid(), signal.SIGTERM)
        raise
    finally:
        signal.signal(signal.SIGTERM, signal.SIG_DFL)


def _terminate_workers(workers: object) -> None:
    """Stop the workers now where the pool can (Python 3.14); elsewhere each ends by itself
    once this process has (``_watch_parent``)."""
    terminate = getattr(workers, "terminate_workers", None)
    if terminate is not None:
        terminate()


def _ready() -> None:
    """Nothing: a first task, so that the workers start."""


def _watch_parent(parent: int) -> None:
    """End this worker once ``parent`` is gone, removing the parent's temporary output."""
    while os.getppid() == parent:
        time.sleep(PARENT_WATCH_SECONDS)
    for temporary in _PARENTS_TEMPORARY:
        try:
            os.unlink(temporary)
        except OSError:
            continue
    os._exit(1)


def _prepare(reader: str, writer: str, parent: int) -> None:
    """Get a new worker ready: leave Ctrl-C to the main process (which stops the workers),
    end with its parent, load the reader and writer, and let the reader prepare."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    threading.Thread(target=_watch_parent, args=(parent,), daemon=True,
                     name="refbridge-parent-watch").start()
    get_writer(writer)
    sharded: ShardedReader = get_reader(reader)  # type: ignore[assignment]
    sharded.prepare()


def _texts(converted: Iterator[_Done], report: RunReport,
           unsafe: re.Pattern[str] | None) -> Iterator[str]:
    """The texts of the ``converted`` shards, in input order; the shards' diagnostics and
    counts go to ``report``. A key read twice or holding what ``unsafe`` finds stops it."""
    keys: set[str | None] = set()
    for done in converted:
        for key in done.keys:
            if key in keys or key and unsafe is not None and unsafe.search(key):
                raise _SharedKey(key)
            keys.add(key)
        report.diagnostics.messages.extend(done.messages)
        report.diagnostics.skipped += done.skipped
        report.diagnostics.read_in_part += done.read_in_part
        report.diagnostics.changed += done.changed
        report.records_written += done.count
        if done.count:
            yield done.text
    report.records_read = report.records_written
