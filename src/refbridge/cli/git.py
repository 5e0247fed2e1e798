"""The commands for libraries kept in git: ``merge-driver``, ``diff`` and ``dedupe``. Each
parses its options and calls the library; nothing more."""

from __future__ import annotations

import sys

import click

from refbridge.cli.options import _key_lock
from refbridge.cli.reporting import _report, handle_errors
from refbridge.errors import ExitStatus, RefbridgeError


@click.command("merge-driver")
@click.argument("versions", nargs=-1, metavar="%O %A %B %P")
@click.option("--install", is_flag=True,
              help="Set this repository to merge and diff *.bib, *.bibtex, *.csl.json, "
                   "*.csljson and *.ris with refbridge (git config, .gitattributes).")
@handle_errors
def merge_driver_command(versions: tuple[str, ...], install: bool) -> None:
    """Git's merge driver for .bib files: base, ours, theirs and the path; the merge is
    written into ours (exit 0: clean, 1: conflicts marked)."""
    if install:
        from refbridge.bibmerge.install import install as install_driver

        for line in install_driver() or ["refbridge: merge-driver: already installed"]:
            click.echo(line, err=True)
        return
    if len(versions) != 4:
        raise click.UsageError("give base, ours, theirs and the path (%O %A %B %P)")
    from refbridge.bibmerge.driver import merge_files

    sys.exit(merge_files(*versions))


@click.command("diff")
@click.argument("paths", nargs=-1, metavar="OLD NEW")
@click.option("--format", "output_format", type=click.Choice(["text", "json", "markdown"]),
              default="text", show_default=True, help="How the changes are written.")
@click.option("--textconv", is_flag=True, help="Write one library as text for git's textconv.")
def diff_command(paths: tuple[str, ...], output_format: str, textconv: bool) -> None:
    """What changed between two libraries: entries added, removed, renamed, and changed
    field by field, layout left out (exit 0: same, 1: different, 2: error). With git's seven
    arguments it is an external diff (diff.refbridge.command)."""
    from refbridge.libdiff.command import GIT_ARGUMENTS, run_diff
    from refbridge.libdiff.command import textconv as textconv_of

    if len(paths) != (1 if textconv else 2) and (textconv or len(paths) not in GIT_ARGUMENTS):
        raise click.UsageError("give OLD and NEW (or one library with --textconv)")
    try:
        if textconv:
            click.echo(textconv_of(paths[0]), nl=False)
            return
        report, different = run_diff(paths, output_format)
    except RefbridgeError as exc:
        click.echo(f"refbridge: diff: error: {exc}", err=True)
        sys.exit(ExitStatus.USAGE)
    click.echo(report, nl=False)
    sys.exit(ExitStatus.FAILED if different and len(paths) == 2 else ExitStatus.OK)


@click.command("dedupe")
@click.argument("libraries", nargs=-1, required=True, metavar="LIB...")
@click.option("-o", "--output", required=True, metavar="FILE",
              help="The library written, each work once; - for standard output.")
@click.option("--to", "to_format", metavar="FORMAT",
              help="Output format (default: biblatex for a .bib, else the output file's).")
@click.option("--map", "map_file", metavar="FILE",
              help="Write the keys that went and the keys that replace them (JSON).")
@click.option("--rewrite", "documents", multiple=True, metavar="DOC",
              help="Rewrite the citations of the keys that went in DOC (.tex, .md, .qmd, "
                   ".typ); repeatable.")
@click.option("--dry-run", is_flag=True, help="Report what would be merged; write nothing.")
@click.option("--interactive", is_flag=True, help="Ask before merging each group.")
@click.option("--key-lock", metavar="FILE",
              help="Key lock (default: refbridge.keys.json beside the first LIB, if there).")
@click.option("--from", "from_format", metavar="FORMAT",
              help="Library format (default: detected from name and content).")
@click.option("--encoding", metavar="NAME",
              help="Library encoding (default: BOM, UTF-8, else cp1252).")
@click.option("--strict", is_flag=True, help="Stop at the first broken entry.")
@click.option("--skip-invalid", is_flag=True, help="Exit 0 even if broken entries were skipped.")
@handle_errors
def dedupe_command(libraries: tuple[str, ...], output: str, to_format: str | None,
                   map_file: str | None, documents: tuple[str, ...], dry_run: bool,
                   interactive: bool, key_lock: str | None, from_format: str | None,
                   encoding: str | None, strict: bool, skip_invalid: bool) -> None:
    """Merge the entries of LIB files that record the same work (same DOI, arXiv id or ISBN;
    else same title, year and authors), keeping one key and the others in `ids`."""
    from refbridge.dedupe.run import DedupeOptions, Group, dedupe
    from refbridge.registry import WriteOptions
    from refbridge.runs import ReadOptions

    def ask(group: Group) -> bool:
        for record in group.records:
            click.echo(f"  {record.citation_key}: {record.source}: {record.title}", err=True)
        for line in group.describe():
            click.echo(line, err=True)
        return bool(click.confirm("merge these?", default=True, err=True))

    lock = _key_lock(key_lock, *libraries)
    report = dedupe(libraries, output, DedupeOptions(
        to_format, map_file, documents, dry_run, ReadOptions(from_format, encoding),
        WriteOptions(key_lock=lock), strict), ask if interactive else None)
    for line in report.lines(dry_run):
        click.echo(f"refbridge: dedupe: {line}", err=True)
    click.echo(f"refbridge: dedupe: {report.summary(dry_run)}", err=True)
    if lock is not None and not dry_run:
        lock.save()
    _report(report.diagnostics, skip_invalid)
