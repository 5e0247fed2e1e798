"""How fast ``refbridge lsp`` answers on a large library, driven as an editor drives it.

    .venv/bin/python benchmarks/lsp.py [--entries 10000] [--no-check] [--work DIR]
                                       [--cache warm|cold] [--server refbridge|texlab]

The library is made of TeX Live's .bib files (/usr/share/texlive/texmf-dist/bibtex/bib): their
entries read once by refbridge, written by its BibTeX writer (macros resolved, crossref'd
entries left out) and repeated with numbered keys up to ``--entries`` (kept in ``--work`` for
the next run). The server runs as its own process, over pipes; the figures:

- first completion: from the initialize request to the first completion's answer (the
  library is read in between), and of it the server's start (its imports: until initialize
  is answered);
- completion p95, hover p95: 200 requests each (keys' prefixes and title words; cited keys);
- change: from one entry's key changed in the file on disk (written whole) until completion
  offers the new key (the watched-files notification sent as an editor sends it);
- RSS: the server process's resident memory at the end, and its peak (VmHWM); ``check``
  runs in a process of its own, whose peak is printed beside it;
- CPU: the server process's CPU time over the run (on a loaded machine the wall times are
  those of a server that got a share of a CPU).

The server's index cache is in ``--work``'s ``cache`` folder. ``--cache warm`` (the default):
the library's index is in the cache when the server starts (a restart on an unchanged
library; made beforehand in this process, as a first start of the server makes it, when it
is not); ``--cache cold``: the cache is emptied first (a first start: the library is indexed
from its text while the benchmark runs).

refbridge's modules are compiled to bytecode first, as installing it does (an environment
with PYTHONDONTWRITEBYTECODE set would have the server compile them at each start, some
0.3 s of CPU that no installed server spends). ``--server texlab``: the same session with
texlab (the LaTeX language server, its ``texlab`` command) instead, for comparison; the
benchmark says so and stops when it is not installed.

Goals (100,000 entries): first completion <= 1 s, completion p95 <= 50 ms, hover p95 <= 20 ms,
change <= 200 ms, RSS <= 400 MB.
"""

from __future__ import annotations

import argparse
import asyncio
import compileall
import glob
import os
import random
import re
import shutil
import sys
import time
from pathlib import Path

from lsprotocol import types
from pygls.lsp.client import LanguageClient

import refbridge
from refbridge.lsp.server import SAVING_DELAY

TEXLIVE_BIBS = "/usr/share/texlive/texmf-dist/bibtex/bib/**/*.bib"
_ENTRY_KEY = re.compile(r"^(@\w+\{)([^,\s]+),")


def entry_texts() -> list[str]:
    """Every standalone entry of TeX Live's .bib files as refbridge's BibTeX writer writes it."""
    from refbridge.errors import Diagnostics, RefbridgeError
    from refbridge.pipeline import read_records, record_texts

    texts: list[str] = []
    for path in sorted(glob.glob(TEXLIVE_BIBS, recursive=True)):
        try:
            records = [r for r in read_records([path], Diagnostics())
                       if "bibtex.crossref" not in r.extra]
            texts += record_texts(records, "bibtex")
        except RefbridgeError:
            continue
    return [text for text in texts if _ENTRY_KEY.match(text) and "crossref" not in text]


def make_library(path: Path, entries: int) -> None:
    base = entry_texts()
    with open(path, "w", encoding="utf-8") as out:
        for number in range(entries):
            text = base[number % len(base)]
            numbered = _ENTRY_KEY.sub(rf"\g<1>\g<2>-{number},", text, count=1)
            out.write(numbered.rstrip() + "\n\n")


def keys_of(path: Path) -> list[str]:
    with open(path, encoding="utf-8") as stream:
        return [match.group(2) for line in stream if (match := _ENTRY_KEY.match(line))]


def memory(pid: int) -> tuple[float, float]:
    """Resident and peak memory of process ``pid``, in MB."""
    fields = dict(line.split(":", 1) for line in Path(f"/proc/{pid}/status").read_text()
                  .splitlines() if ":" in line)
    return (int(fields["VmRSS"].split()[0]) / 1024, int(fields["VmHWM"].split()[0]) / 1024)


def cpu_seconds(pid: int) -> float:
    """The CPU time process ``pid`` has used (user and system), in seconds."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def warm_cache(library: Path) -> None:
    """Make the server's index cache of ``library`` (and of the problems of reading it) as
    a first start of the server does, unless it holds it already."""
    from refbridge.lsp.library import Library, reading_problems

    made = time.perf_counter()
    indexed = Library()
    indexed.follow([str(library)])
    while not indexed.advance(1.0):
        pass
    file = indexed.files[str(library)]
    if file.pending:  # as the server learns them, from a process of its own
        file.problems, file.pending = reading_problems(str(library)), False
    if not file.save():
        print("index cache not made: the library is read whole (macros, crossref...)")
    print(f"index cache ready in {time.perf_counter() - made:.1f} s", flush=True)


def p95(times: list[float]) -> float:
    return sorted(times)[int(len(times) * 0.95) - 1] * 1000


def edit(client: LanguageClient, uri: str, lines: list[str], second_line: str,
         version: int) -> None:
    """The document's second line replaced (the whole text sent, as many editors do)."""
    lines[1] = second_line
    client.text_document_did_change(types.DidChangeTextDocumentParams(
        text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=version),
        content_changes=[types.TextDocumentContentChangeWholeDocument(
            text="\n".join(lines) + "\n")]))


async def completion(client: LanguageClient, uri: str, line: int, character: int
                     ) -> types.CompletionList:
    answer = await client.text_document_completion_async(types.CompletionParams(
        text_document=types.TextDocumentIdentifier(uri=uri),
        position=types.Position(line=line, character=character)))
    assert isinstance(answer, types.CompletionList)
    return answer


#: Each server measured: its command line.
SERVERS = {"refbridge": [sys.executable, "-m", "refbridge", "lsp", "--stdio"],
           "texlab": ["texlab"]}


async def run(library: Path, check: bool, server: list[str]) -> None:
    keys = keys_of(library)
    chooser = random.Random(45)
    cited = chooser.sample(keys, 200)
    work = library.parent
    paper = work / "paper.tex"
    lines = ["\\bibliography{" + library.stem + "}", "\\cite{}",
             *(f"\\cite{{{key}}}" for key in cited)]
    text = "\n".join(lines) + "\n"
    paper.write_text(text, encoding="utf-8")
    client = LanguageClient("benchmark", "1")
    client.feature(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)(lambda params: None)
    await client.start_io(*server)
    assert client._server is not None
    pid = client._server.pid
    started = time.perf_counter()
    await client.initialize_async(types.InitializeParams(
        capabilities=types.ClientCapabilities(), root_uri=work.as_uri(),
        initialization_options={"check": check}))
    ready_time = time.perf_counter() - started
    client.initialized(types.InitializedParams())
    uri = paper.as_uri()
    client.text_document_did_open(types.DidOpenTextDocumentParams(
        text_document=types.TextDocumentItem(uri=uri, language_id="latex", version=1,
                                             text=text)))
    first = await completion(client, uri, 1, 6)
    first_time = time.perf_counter() - started
    first_cpu = cpu_seconds(pid)
    assert first.items, "no completion"

    completions = []
    for number, key in enumerate(chooser.sample(keys, 200)):
        word = re.match(r"[A-Za-z]*", key)
        typed = (word.group().lower() if word else "") if number % 3 == 0 else \
            key[:3] if number % 3 == 1 else key.split("-")[0][:6]
        edit(client, uri, lines, "\\cite{" + typed + "}", number + 2)
        began = time.perf_counter()
        await completion(client, uri, 1, 6 + len(typed))
        completions.append(time.perf_counter() - began)
    edit(client, uri, lines, "\\cite{}", 300)

    hovers = []
    for number in range(200):
        began = time.perf_counter()
        hover = await client.text_document_hover_async(types.HoverParams(
            text_document=types.TextDocumentIdentifier(uri=uri),
            position=types.Position(line=2 + number, character=8)))
        hovers.append(time.perf_counter() - began)
        assert hover is not None, f"no hover for {cited[number]}"

    old = cited[0]
    content = library.read_text(encoding="utf-8")
    changed_key = old + "-changed"
    library.write_text(content.replace("{" + old + ",", "{" + changed_key + ",", 1),
                       encoding="utf-8")
    began, cpu_before = time.perf_counter(), cpu_seconds(pid)  # once the change is on disk
    client.workspace_did_change_watched_files(types.DidChangeWatchedFilesParams(changes=[
        types.FileEvent(uri=library.as_uri(), type=types.FileChangeType.Changed)]))
    edit(client, uri, lines, "\\cite{" + changed_key + "}", 301)
    while time.perf_counter() - began < 120:
        answer = await completion(client, uri, 1, 6 + len(changed_key))
        if any(item.label == changed_key for item in answer.items):
            break
    change_time, change_cpu = time.perf_counter() - began, cpu_seconds(pid) - cpu_before
    rss, peak = memory(pid)
    cpu = cpu_seconds(pid)
    library.write_text(content, encoding="utf-8")  # and the server's cache of it, as before
    client.workspace_did_change_watched_files(types.DidChangeWatchedFilesParams(changes=[
        types.FileEvent(uri=library.as_uri(), type=types.FileChangeType.Changed)]))
    await completion(client, uri, 1, 6)
    await asyncio.sleep(SAVING_DELAY + 2)
    await client.shutdown_async(None)
    client.exit(None)
    await client.stop()  # type: ignore[no-untyped-call]
    print(f"entries: {len(keys)}")
    print(f"first completion after initialize: {first_time:.2f} s (the server's start, until "
          f"initialize is answered: {ready_time:.2f} s; server CPU until then {first_cpu:.2f} s)")
    print(f"completion p95: {p95(completions):.1f} ms (median "
          f"{sorted(completions)[100] * 1000:.1f} ms)")
    print(f"hover p95: {p95(hovers):.1f} ms (median {sorted(hovers)[100] * 1000:.1f} ms)")
    print(f"one-entry change reflected: {change_time * 1000:.0f} ms (server CPU "
          f"{change_cpu * 1000:.0f} ms)")
    print(f"server RSS: {rss:.0f} MB (peak {peak:.0f} MB); server CPU: {cpu:.1f} s")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--entries", type=int, default=10000)
    parser.add_argument("--no-check", action="store_true")
    parser.add_argument("--cache", choices=["warm", "cold"], default="warm")
    parser.add_argument("--server", choices=sorted(SERVERS), default="refbridge")
    parser.add_argument("--work", default=os.path.join(os.environ.get("TMPDIR", "/tmp"),
                                                       "refbridge-lsp-benchmark"))
    arguments = parser.parse_args()
    server = SERVERS[arguments.server]
    if shutil.which(server[0]) is None:
        sys.exit(f"{arguments.server} is not installed here ({server[0]} is not on the PATH): "
                 "nothing measured")
    work = Path(arguments.work)
    work.mkdir(parents=True, exist_ok=True)
    library = work / f"bench{arguments.entries}.bib"
    if not library.exists():
        made = time.perf_counter()
        make_library(library, arguments.entries)
        print(f"library made in {time.perf_counter() - made:.0f} s: {library}", flush=True)
    if arguments.server == "refbridge":
        compileall.compile_dir(os.path.dirname(refbridge.__file__), quiet=1)
        cache = work / "cache"
        os.environ["REFBRIDGE_CACHE_DIR"] = str(cache)  # the server's too
        if arguments.cache == "cold":
            shutil.rmtree(cache, ignore_errors=True)
        else:
            warm_cache(library)
        print(f"index cache: {arguments.cache}", flush=True)
    print(f"server: {arguments.server}; load average "
          f"{' '.join(f'{load:.1f}' for load in os.getloadavg())}", flush=True)
    asyncio.run(run(library, not arguments.no_check, server))


if __name__ == "__main__":
    main()
