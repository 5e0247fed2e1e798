"""The commands that convert and format records: ``convert``, ``formats``, ``format``,
``styles`` and ``cv``. Each parses its options and calls the library; nothing more."""

from __future__ import annotations

from typing import Any

import click

from refbridge.cli.enrichment import _enrich_and_write, run_enrichment
from refbridge.cli.options import (
    _client_settings,
    _key_lock,
    _require_enrich_flag,
    _usable_key_pattern,
    enrich_options,
    input_options,
    key_lock_option,
)
from refbridge.cli.reporting import _report, handle_errors
from refbridge.errors import Diagnostics
from refbridge.vocab import ENGINES, OUTPUT_FORMATS


@click.command()
@input_options
@click.option("--to", "to_format", required=True, metavar="FORMAT",
              help="Output format (see `refbridge formats`).")
@click.option("-o", "--output", default="-", show_default=True, metavar="FILE",
              help="Output file; - for standard output.")
@click.option("--unicode", is_flag=True, help="LaTeX outputs: UTF-8 instead of LaTeX commands.")
@click.option("--normalize", is_flag=True,
              help=".bib: write every value and entry the writer's way, not as the input did.")
@click.option("--key-pattern", metavar="PATTERN", callback=_usable_key_pattern,
              help="Citation-key pattern, e.g. '[auth:lower][year][shorttitle:1:lower]'.")
@click.option("--regenerate-keys", is_flag=True, help="Replace keys read from the input.")
@key_lock_option
@click.option("--fields", metavar="LIST", help="Write only these fields (comma-separated).")
@click.option("--exclude-fields", metavar="LIST", default="",
              help="Never write these fields (comma-separated), e.g. abstract,keywords.")
@click.option("--indent", default=2, show_default=True, type=click.IntRange(0, 16),
              help="Spaces of indentation.")
@click.option("--field-order", metavar="LIST", default="",
              help=".bib: write these fields first, in this order (comma-separated).")
@click.option("--collection", metavar="NAME",
              help="Name of the collection holding the records (Zotero).")
@click.option("--enrich", is_flag=True,
              help="Complete the records from arXiv, Crossref and OpenAlex first.")
@click.option("--jobs", type=click.IntRange(0), default=1, show_default=True,
              help="Processes for one large .bib (1: one process; 0: one per CPU).")
@click.option("--abbreviate-journals/--unabbreviate-journals", "journals", default=None,
              help="Journals as ISO 4 abbreviations, or written out (each change reported; "
                   "exit 3).")
@click.option("--merge", is_flag=True,
              help="Merge records of the same work across the inputs (each merge reported).")
@click.option("--shard-size", type=click.IntRange(1), metavar="N",
              help="Write -o FOLDER/part-000000.EXT ... of N records each, every one "
                   "atomically; a rerun skips the shards already there.")
@click.option("--engine", type=click.Choice(ENGINES), default="duckdb", show_default=True,
              help="With --shard-size: read and write in this process, or on Spark (one "
                   "input a partition, one shard a task; REFBRIDGE_SPARK_MASTER).")
@enrich_options
@handle_errors
def convert(inputs: tuple[str, ...], from_format: str | None, encoding: str | None,
            strict: bool, skip_invalid: bool, to_format: str, output: str, unicode: bool,
            normalize: bool, key_pattern: str | None, regenerate_keys: bool,
            key_lock: str | None, fields: str | None, exclude_fields: str, indent: int, field_order: str, collection: str | None,
            enrich: bool, jobs: int, journals: bool | None, merge: bool,
            shard_size: int | None, engine: str,
            enrichment: dict[str, Any]) -> None:
    """Convert INPUT files (- for standard input) to another format."""
    from refbridge.pipeline import convert as run
    from refbridge.registry import WriteOptions
    from refbridge.runs import ReadOptions

    def field_set(text: str) -> frozenset[str]:
        return frozenset(f.strip() for f in text.split(",") if f.strip())

    lock = _key_lock(key_lock, output, *inputs)
    write_options = WriteOptions(
        unicode=unicode, normalize=normalize, key_pattern=key_pattern,
        regenerate_keys=regenerate_keys, key_lock=lock,
        include_fields=field_set(fields) if fields else None,
        exclude_fields=field_set(exclude_fields), indent=" " * indent, collection=collection,
        field_order=tuple(f.strip().lower() for f in field_order.split(",") if f.strip()))
    _require_enrich_flag(enrich, enrichment)
    if engine != "duckdb" and shard_size is None:
        raise click.UsageError(f"--engine {engine} writes shards: use --shard-size N")
    if shard_size is not None and (enrich or merge or journals is not None):
        raise click.UsageError("--shard-size streams the records: not with --enrich, --merge "
                               "or --abbreviate-journals")
    if enrich or merge or journals is not None:
        _enrich_and_write(inputs, output, to_format, ReadOptions(from_format, encoding),
                          write_options, strict, skip_invalid,
                          enrichment if enrich else None, merge, journals)
        return
    if shard_size is not None:
        _convert_sharded(inputs, output, to_format, shard_size,
                         ReadOptions(from_format, encoding), write_options, strict,
                         skip_invalid, engine)
        return
    report = run(list(inputs), output, to_format, ReadOptions(from_format, encoding),
                 write_options, strict=strict, jobs=jobs)
    if lock is not None:
        lock.save()
    _report(report.diagnostics, skip_invalid)


def _convert_sharded(inputs: tuple[str, ...], folder: str, to_format: str, size: int,
                     read_options: Any, write_options: Any, strict: bool,
                     skip_invalid: bool, engine: str) -> None:
    from refbridge.sharding import convert_sharded

    if folder == "-" or write_options.key_lock is not None:
        raise click.UsageError("--shard-size writes a folder (-o FOLDER), without --key-lock")
    report = convert_sharded(list(inputs), folder, to_format, size, read_options,
                             write_options, strict, engine)
    click.echo(f"refbridge: {report.shards_written} shard(s) written, "
               f"{report.shards_present} already there, in {folder}", err=True)
    _report(report.diagnostics, skip_invalid)


@click.command()
@handle_errors
def formats() -> None:
    """List the registered readers and writers."""
    from refbridge.registry import reader_info, reader_names, writer_info, writer_names

    click.echo("Readers (--from):")
    for name in reader_names():
        click.echo(f"  {name:<19} {reader_info(name).description}")
    click.echo("Writers (--to):")
    for name in writer_names():
        click.echo(f"  {name:<19} {writer_info(name).description}")


def _comma_list(text: str) -> tuple[str, ...]:
    """The items of a comma-separated option value, stripped, empty ones left out."""
    return tuple(item.strip() for item in text.split(",") if item.strip())


@click.command("format")
@input_options
@click.option("--style", default="apa", show_default=True, metavar="STYLE",
              help="A .csl file, a style id or alias (see `refbridge styles`).")
@click.option("--to", "output_format", default="text", show_default=True,
              type=click.Choice(OUTPUT_FORMATS), help="Output.")
@click.option("--locale", metavar="xx-XX", help="Locale (default: the style's).")
@click.option("--cite", is_flag=True, help="Print each item's in-text citation instead.")
@click.option("--highlight", metavar="NAME",
              help="Set this author in bold: 'Family' or 'Family, Given' (CV lists).")
@click.option("--style-dir", "style_dirs", multiple=True, metavar="DIR",
              help="Folder of your own styles (.csl files, style modules); repeatable.")
@click.option("--links", is_flag=True,
              help="Link URLs and DOIs (" + ", ".join(o for o in OUTPUT_FORMATS if o != "text")
              + "); default: plain text.")
@click.option("--split-by", metavar="KEY",
              help="One bibliography per part, under headings: type, keyword, subject or a "
                   "field (container-title, publisher...).")
@click.option("--split-order", default="", metavar="KEYS",
              help="Comma-separated parts to write first, in this order.")
@click.option("--numbering", default="continuous", show_default=True,
              type=click.Choice(["continuous", "per-part"]),
              help="Numeric styles: number the parts on, or each from 1.")
@click.option("--abbreviate-journals", is_flag=True,
              help="A style's short journal titles from the journal list where a record has "
                   "none (default: the title the record has, as citeproc-js).")
@click.option("-o", "--output", default="-", show_default=True, metavar="FILE",
              help="Output file; - for standard output.")
@handle_errors
def format_command(inputs: tuple[str, ...], from_format: str | None, encoding: str | None,
                   strict: bool, skip_invalid: bool, style: str, output_format: str,
                   locale: str | None, cite: bool, highlight: str | None,
                   style_dirs: tuple[str, ...], links: bool, split_by: str | None,
                   split_order: str, numbering: str, abbreviate_journals: bool,
                   output: str) -> None:
    """Format INPUT files as a bibliography (or in-text citations) in a citation style."""
    from refbridge.formatting import FormatOptions, format_files
    from refbridge.runs import ReadOptions

    diagnostics = Diagnostics(strict=strict)
    format_files(list(inputs), output,
                 FormatOptions(style, output_format, locale, cite, highlight, style_dirs, links,
                               split_by, _comma_list(split_order), numbering,
                               abbreviate_journals),
                 diagnostics, ReadOptions(from_format, encoding))
    _report(diagnostics, skip_invalid)


@click.command("styles")
@click.option("--search", metavar="WORDS", help="Only styles whose id or title has these words.")
@click.option("--style-dir", "style_dirs", multiple=True, metavar="DIR",
              help="Folder of your own styles to include; repeatable.")
@handle_errors
def styles_command(search: str | None, style_dirs: tuple[str, ...]) -> None:
    """List citation styles: refbridge's style modules (marked *), aliases, CSL catalogue ids."""
    from refbridge.styles import list_styles

    listings = list_styles(search, style_dirs)
    for listing in listings:
        marker = "*" if listing.kind == "module" else " "
        click.echo(f"{marker} {listing.name}\t{listing.title}")
    if not listings:
        click.echo(f"refbridge: no style matches {search!r}", err=True)


@click.command("cv")
@input_options
@click.option("--owner", "owners", multiple=True, metavar="NAME",
              help="Your name, highlighted in author lists ('Given Family' or 'Family, "
                   "Given'); repeat for other forms, e.g. a former name.")
@click.option("--owner-id", "owner_ids", multiple=True, metavar="SCHEME:ID",
              help="Your identifier (orcid:..., dblp:..., openalex:..., s2:...): names that "
                   "carry it are highlighted, namesakes with another one are not; "
                   "repeatable.")
@click.option("--style", default="cv", show_default=True, metavar="STYLE",
              help="Entry style: cv, apa, ieee-cv, a .csl file... (see `refbridge styles`).")
@click.option("--style-dir", "style_dirs", multiple=True, metavar="DIR",
              help="Folder of your own styles (.csl files, style modules); repeatable.")
@click.option("--locale", metavar="xx-XX", help="Locale (default: the style's).")
@click.option("--to", "to", default="markdown", show_default=True, metavar="FORMAT",
              help="markdown, html, html-interactive, latex, text or docx.")
@click.option("-o", "--output", default="-", show_default=True, metavar="FILE",
              help="Output file; - for standard output.")
@click.option("--fragment", is_flag=True, help="HTML: a fragment to paste, not a whole page.")
@click.option("--title", default="Publications", show_default=True, help="Heading of the list.")
@click.option("--group-by", "--split-by", "group_by", default="year", show_default=True,
              metavar="KEY", help="year (newest first), type, subject (arXiv category), "
                                  "keyword, a field (publisher...) or none.")
@click.option("--split-order", default="", metavar="KEYS",
              help="Comma-separated groups to list first, in this order.")
@click.option("--sort", default="newest", show_default=True, metavar="ORDER",
              help="Order within a group: newest, oldest or title.")
@click.option("--numbering", metavar="HOW",
              help="count-down (the newest is [N]; the default, unless the style numbers its "
                   "entries itself), count-up, none, or continuous / per-part (in display "
                   "order, across groups or within each; numeric styles' own numbers too).")
@click.option("--highlight", default="bold", show_default=True, metavar="HOW",
              help="How the owner's name is set: bold, underline or none.")
@click.option("--since", type=int, metavar="YEAR", help="Only records from this year on.")
@click.option("--until", type=int, metavar="YEAR", help="Only records up to this year.")
@click.option("--type", "kinds", multiple=True, metavar="TYPE",
              help="Only this type: preprint, journal, conference, book, chapter, thesis, "
                   "report, talk, software, patent, other, or a CSL type; repeatable.")
@click.option("--subject", "subjects", multiple=True, metavar="CATEGORY",
              help="Only this arXiv category (cs.DB) or archive (cs); repeatable.")
@click.option("--match", "text", metavar="WORDS", help="Only records containing every word.")
@click.option("--abstracts", is_flag=True, help="Include abstracts.")
@click.option("--no-links", is_flag=True, help="Leave out the DOI, arXiv and URL links.")
@click.option("--no-summary", is_flag=True, help="Leave out the summary line.")
@click.option("--no-merge", is_flag=True, help="Keep duplicates found across the inputs.")
@click.option("--all-records", is_flag=True,
              help="List every record, also those that do not name the owner.")
@click.option("--enrich", is_flag=True,
              help="Complete the records from arXiv, Crossref and OpenAlex first.")
@click.option("--published", is_flag=True,
              help="Show each preprint as its published version, when the match is certain "
                   "(see `refbridge upgrade`).")
@enrich_options
@handle_errors
def cv_command(inputs: tuple[str, ...], from_format: str | None, encoding: str | None,
               strict: bool, skip_invalid: bool, owners: tuple[str, ...],
               owner_ids: tuple[str, ...], style: str,
               style_dirs: tuple[str, ...], locale: str | None, to: str, output: str,
               fragment: bool, title: str, group_by: str, split_order: str, sort: str,
               numbering: str | None,
               highlight: str, since: int | None, until: int | None, kinds: tuple[str, ...],
               subjects: tuple[str, ...], text: str | None, abstracts: bool, no_links: bool,
               no_summary: bool, no_merge: bool, all_records: bool, enrich: bool,
               published: bool, enrichment: dict[str, Any]) -> None:
    """Write a CV or website publication list of INPUT files (merged, grouped, numbered)."""
    from refbridge.cv import CvOptions, Filters, write_cv
    from refbridge.names.ids import PersonIdError, parse_person_id
    from refbridge.runs import ReadOptions

    try:
        ids = tuple(parse_person_id(text) for text in owner_ids)
    except PersonIdError as exc:
        raise click.BadParameter(str(exc), param_hint="--owner-id") from None
    options = CvOptions(owners, style, style_dirs, locale, group_by, sort, numbering, highlight,
                        links=not no_links, abstracts=abstracts, summary=not no_summary,
                        merge=not no_merge, title=title,
                        filters=Filters(since, until, kinds, subjects, text), owner_ids=ids,
                        all_records=all_records, split_order=_comma_list(split_order))
    if not published:
        _require_enrich_flag(enrich, enrichment)

    def prepare(records: list[Any]) -> list[Any]:
        if enrich:
            records = run_enrichment(records, enrichment)
        if published:
            from refbridge.verify.command import published_records
            from refbridge.verify.settings import VerifyOptions

            records = published_records(records, VerifyOptions(**_client_settings(enrichment)),
                                        lambda line: click.echo(line, err=True))
        return records

    report = write_cv(list(inputs), output, options, to, fragment,
                      ReadOptions(from_format, encoding), strict=strict,
                      prepare=prepare if enrich or published else None)
    for line in report.merge.describe():
        click.echo(f"refbridge: {line}", err=True)
    _report(report.diagnostics, skip_invalid)
