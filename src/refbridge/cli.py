"""The ``refbridge`` command line: parses options and calls the library, nothing more.

Every command reports input problems as ``file:line: level: message`` on standard error and
exits with a documented status (``refbridge.errors.ExitStatus``); no traceback reaches the user
(set ``REFBRIDGE_DEBUG=1`` to see one for an internal error). Library modules are imported
inside the commands so that ``refbridge`` starts fast.
"""

from __future__ import annotations

import contextlib
import errno
import functools
import gc
import os
import sys
from collections.abc import Callable
from typing import Any, TypeVar, final

import click

from refbridge import __version__
from refbridge.errors import Diagnostics, EntryFailed, ExitStatus, RefbridgeError

F = TypeVar("F", bound=Callable[..., Any])


def _report(diagnostics: Diagnostics, accept_skipped: bool) -> None:
    """Print the run's messages; exit with SKIPPED if records were skipped unaccepted or
    citation keys were changed."""
    for message in diagnostics.messages:
        click.echo(str(message), err=True)
    if diagnostics.read_in_part:
        click.echo(f"refbridge: {diagnostics.read_in_part} broken record(s) read up to the "
                   "break", err=True)
    if diagnostics.skipped:
        click.echo(f"refbridge: {diagnostics.skipped} broken record(s) skipped", err=True)
    if diagnostics.changed:
        click.echo(f"refbridge: {diagnostics.changed} value(s) changed to be written",
                   err=True)
    if diagnostics.keys_changed:
        click.echo(f"refbridge: {diagnostics.keys_changed} citation key(s) changed", err=True)
    if (diagnostics.skipped or diagnostics.read_in_part or diagnostics.changed) \
            and not accept_skipped or diagnostics.keys_changed:
        sys.exit(ExitStatus.SKIPPED)


#: Errors of writing that no bug causes: every file refbridge writes reports them itself
#: (``textio.atomic_output``), so one that reaches ``handle_errors`` is standard output's.
_WRITE_FAULTS = frozenset({errno.ENOSPC, errno.EDQUOT, errno.EFBIG, errno.EIO})


def _stdout_refusal(fault: Exception) -> str | None:
    """Why standard output refused what was printed to it (a full disk, ``> /dev/full``),
    when ``fault`` is that; it is then pointed at the null device, so that nothing fails
    again at exit."""
    if not isinstance(fault, OSError) or fault.errno not in _WRITE_FAULTS:
        return None
    with contextlib.suppress(OSError, ValueError):
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    return fault.strerror or str(fault)


def handle_errors(command: F) -> F:
    """Turn refbridge's errors into a message and an exit status, never a traceback."""

    @functools.wraps(command)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return command(*args, **kwargs)
        except RefbridgeError as exc:
            if isinstance(exc, EntryFailed) and os.environ.get("REFBRIDGE_DEBUG"):
                raise  # with the fault's own traceback before it
            click.echo(f"refbridge: error: {exc}", err=True)
            sys.exit(exc.exit_status)
        except KeyboardInterrupt:
            click.echo("refbridge: interrupted", err=True)
            sys.exit(130)
        except BrokenPipeError:  # the reader of our output went away (`refbridge ... | head`)
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())
            sys.exit(ExitStatus.OK)
        except (click.exceptions.Exit, click.ClickException, SystemExit):
            raise
        except Exception as exc:  # a bug: say so plainly, with the traceback on request
            refusal = _stdout_refusal(exc)
            if refusal is not None:
                click.echo(f"refbridge: error: <stdout>: cannot write: {refusal}", err=True)
                sys.exit(ExitStatus.FAILED)
            if os.environ.get("REFBRIDGE_DEBUG"):
                raise
            click.echo(f"refbridge: internal error: {type(exc).__name__}: {exc} "
                       "(set REFBRIDGE_DEBUG=1 for details)", err=True)
            sys.exit(ExitStatus.FAILED)

    return wrapper  # type: ignore[return-value]


def _usable_key_pattern(context: click.Context, parameter: click.Parameter,
                        pattern: str | None) -> str | None:
    """``--key-pattern``, refused as bad usage when it cannot make keys (before any input is
    read)."""
    if pattern is not None:
        from refbridge.citekeys import PatternError, compile_pattern

        try:
            compile_pattern(pattern)
        except PatternError as exc:
            raise click.BadParameter(str(exc)) from None
    return pattern


def input_options(command: F) -> F:
    """Options every command that reads records shares."""
    for option in reversed([
        click.argument("inputs", nargs=-1, required=True, metavar="INPUT..."),
        click.option("--from", "from_format", metavar="FORMAT",
                     help="Input format (default: detected from name and content)."),
        click.option("--encoding", metavar="NAME",
                     help="Input encoding (default: BOM, UTF-8, else cp1252)."),
        click.option("--strict", is_flag=True, help="Stop at the first broken record."),
        click.option("--skip-invalid", is_flag=True,
                     help="Exit 0 even if broken records were skipped (they are still "
                          "reported)."),
    ]):
        command = option(command)
    return command


key_lock_option = click.option(
    "--key-lock", metavar="FILE",
    help="Keys given to works before, kept and extended (default: refbridge.keys.json beside "
         "the output, else beside the first input, when it is there).")


def _key_lock(given: str | None, *libraries: str) -> Any:
    """The key lock a command keeps (``refbridge.keylock``), or None."""
    from refbridge.keylock import open_lock

    return open_lock(given, *libraries)


#: Parameters of ``http_options``: how services are asked (enrichment and fetch).
HTTP_PARAMETERS = ("mailto", "offline", "refresh", "no_cache", "retries", "timeout")
#: Parameters of ``enrich_options``, handed to the command as one ``enrichment`` mapping.
#: Services whose base URL is an option (``--arxiv-api``) and an environment variable.
API_SERVICES = ("arxiv", "crossref", "openalex", "dblp", "datacite")
#: Parameters of ``service_options``: how services are asked, and where they are.
SERVICE_PARAMETERS = (*HTTP_PARAMETERS, *(f"{service}_api" for service in API_SERVICES))
ENRICH_PARAMETERS = (*SERVICE_PARAMETERS, "overwrite", "accept", "services")


def _http_option_list() -> list[Callable[[Any], Any]]:
    return [
        click.option("--mailto", metavar="EMAIL", envvar="REFBRIDGE_MAILTO",
                     help="Your address, for Crossref's and OpenAlex's polite pools."),
        click.option("--offline", is_flag=True, help="Use cached answers only; ask no service."),
        click.option("--refresh", is_flag=True, help="Ignore cached answers and ask again."),
        click.option("--no-cache", is_flag=True, help="Neither read nor write the cache."),
        click.option("--retries", default=3, show_default=True, type=click.IntRange(0, 10),
                     help="Further attempts after HTTP 429/5xx or a dropped connection."),
        click.option("--timeout", default=20.0, show_default=True,
                     type=click.FloatRange(1, 600),
                     help="Seconds for one whole answer, from connecting to its last byte."),
    ]


def _grouped(command: F, parameters: tuple[str, ...], into: str,
             options: list[Callable[[Any], Any]]) -> F:
    """``command`` with ``options``, whose values it receives as one mapping ``into``."""

    @functools.wraps(command)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        kwargs[into] = {name: kwargs.pop(name) for name in parameters}
        return command(*args, **kwargs)

    for option in reversed(options):
        wrapper = option(wrapper)
    return wrapper  # type: ignore[return-value]


def http_options(command: F) -> F:
    """Options of every command that asks services; received as one ``http`` mapping."""
    return _grouped(command, HTTP_PARAMETERS, "http", _http_option_list())


#: Service -> how its name is written in help texts.
_API_NAMES = {"arxiv": "arXiv", "crossref": "Crossref", "openalex": "OpenAlex", "dblp": "dblp",
              "datacite": "DataCite"}


def _service_option_list() -> list[Callable[[Any], Any]]:
    return [*_http_option_list(), *(
        click.option(f"--{service}-api", metavar="URL",
                     help=f"{_API_NAMES[service]} API base URL (default: "
                          f"$REFBRIDGE_{service.upper()}_API or {_API_NAMES[service]}'s).")
        for service in API_SERVICES)]


def service_options(command: F) -> F:
    """Options of every command that asks the lookup services (``verify``, ``upgrade``):
    ``http_options`` and each service's base URL; received as one ``services`` mapping."""
    return _grouped(command, SERVICE_PARAMETERS, "services", _service_option_list())


def enrich_options(command: F) -> F:
    """Options of every command that can enrich records (``enrich``, ``convert --enrich``,
    ``cv --enrich``); the command receives them as one ``enrichment`` mapping."""
    return _grouped(command, ENRICH_PARAMETERS, "enrichment", [
        *_service_option_list(),
        click.option("--overwrite", is_flag=True,
                     help="Replace values the input already has by the ones found."),
        click.option("--accept", multiple=True, type=click.Choice(["ambiguous", "weak"]),
                     help="Also apply ambiguous (best candidate) or weak matches."),
        click.option("--services", default="arxiv,crossref,openalex", show_default=True,
                     metavar="LIST", help="Services to ask, comma-separated."),
    ])


def _client_settings(http: dict[str, Any]) -> dict[str, Any]:
    """``ClientOptions`` keywords of the ``http_options`` values (and of the base URLs of
    ``service_options``, when given)."""
    settings = {"mailto": http["mailto"], "offline": http["offline"],
                "refresh": http["refresh"], "use_cache": not http["no_cache"],
                "retries": http["retries"], "timeout": http["timeout"]}
    endpoints = {service: http[f"{service}_api"] for service in API_SERVICES
                 if http.get(f"{service}_api")}
    return {**settings, "endpoints": endpoints} if endpoints else settings


def _require_enrich_flag(enrich: bool, enrichment: dict[str, Any]) -> None:
    """Enrichment-only options on a command that was not asked to ``--enrich`` are a mistake."""
    asked = [f"--{name.replace('_', '-')}" for name in ("offline", "refresh", "no_cache",
                                                         "overwrite", "accept")
             if enrichment[name]]
    if asked and not enrich:
        raise click.UsageError(f"use --enrich with {', '.join(asked)}")


def run_enrichment(records: list[Any], enrichment: dict[str, Any]) -> list[Any]:
    """Enrich ``records`` with the options of ``enrich_options``: a progress bar on a terminal,
    then every uncertain match and conflict, then the summary, on standard error."""
    from refbridge.enrich import EnrichOptions, enrich_records, needs_enrichment

    options = EnrichOptions(
        services=tuple(s.strip() for s in enrichment["services"].split(",") if s.strip()),
        overwrite=enrichment["overwrite"], accept=frozenset(enrichment["accept"]),
        **_client_settings(enrichment))
    pending = sum(1 for record in records if needs_enrichment(record))
    if pending > 1 and sys.stderr.isatty():
        with click.progressbar(length=len(records), label="Enriching", file=sys.stderr,
                               show_pos=True) as bar:
            enriched, report = enrich_records(records, options,
                                              on_record=lambda outcome: bar.update(1))
    else:
        enriched, report = enrich_records(records, options)
    for message in report.messages():
        click.echo(message, err=True)
    click.echo(f"refbridge: enrich: {report.summary()}", err=True)
    return enriched


#: The cyclic collector's first threshold for a command: records are built by the thousand and
#: hold no cycles, and at the default (700 allocations) the collector walks them again and
#: again (1.5% of the instructions of tugboat.bib to .bib; peak memory the same).
COLLECTOR_THRESHOLD = 20_000


class _Commands(click.Group):
    """refbridge's commands; what click prints itself (help, usage, the version) fails as a
    command's output does when standard output refuses it: one line, exit status 1."""

    def main(self, *args: Any, **kwargs: Any) -> Any:
        try:
            try:
                return super().main(*args, **kwargs)
            finally:
                sys.stdout.flush()  # here, not at exit, where a failure is a traceback
        except OSError as exc:
            refusal = _stdout_refusal(exc)
            if refusal is None:
                raise
            click.echo(f"refbridge: error: <stdout>: cannot write: {refusal}", err=True)
            sys.exit(ExitStatus.FAILED)


@click.group(cls=_Commands, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="refbridge")
def main() -> None:
    """Turn publication records into .bib files, Zotero imports and publication lists."""
    gc.set_threshold(COLLECTOR_THRESHOLD, *gc.get_threshold()[1:])


@main.command()
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
@click.option("--merge", is_flag=True,
              help="Merge records of the same work across the inputs (each merge reported).")
@enrich_options
@handle_errors
def convert(inputs: tuple[str, ...], from_format: str | None, encoding: str | None,
            strict: bool, skip_invalid: bool, to_format: str, output: str, unicode: bool,
            normalize: bool, key_pattern: str | None, regenerate_keys: bool,
            key_lock: str | None, fields: str | None, exclude_fields: str, indent: int, field_order: str, collection: str | None,
            enrich: bool, jobs: int, merge: bool, enrichment: dict[str, Any]) -> None:
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
    if enrich or merge:
        _enrich_and_write(inputs, output, to_format, ReadOptions(from_format, encoding),
                          write_options, strict, skip_invalid,
                          enrichment if enrich else None, merge)
        return
    report = run(list(inputs), output, to_format, ReadOptions(from_format, encoding),
                 write_options, strict=strict, jobs=jobs)
    if lock is not None:
        lock.save()
    _report(report.diagnostics, skip_invalid)


def _enrich_and_write(inputs: tuple[str, ...], output: str, to_format: str,
                      read_options: Any, write_options: Any, strict: bool, skip_invalid: bool,
                      enrichment: dict[str, Any] | None, merge: bool = False) -> None:
    """Read every input, merge the records of one work (``merge``), enrich them
    (``enrichment``), write them: ``enrich``, ``convert --merge`` and ``convert --enrich``."""
    from refbridge.merge import deduplicate
    from refbridge.pipeline import read_records, write_records
    from refbridge.registry import get_writer
    from refbridge.textio import refuse_overwriting_inputs

    get_writer(to_format)  # an unknown output format fails before any service is asked
    refuse_overwriting_inputs(output, inputs)
    diagnostics = Diagnostics(strict=strict)
    records = list(read_records(inputs, diagnostics, read_options))
    if merge:
        merged = deduplicate(records)
        records = merged.records
        for line in merged.describe():
            click.echo(f"refbridge: {line}", err=True)
    if enrichment is not None:
        records = run_enrichment(records, enrichment)
    write_records(records, output, to_format, write_options, inputs, diagnostics)
    if write_options.key_lock is not None:
        write_options.key_lock.save()
    _report(diagnostics, skip_invalid)


@main.command("enrich")
@input_options
@click.option("-o", "--output", default="-", show_default=True, metavar="FILE",
              help="Output file; - for standard output.")
@click.option("--to", "to_format", metavar="FORMAT",
              help="Output format (default: from the output file's extension, else csl-json, "
                   "which keeps every enriched value).")
@key_lock_option
@enrich_options
@handle_errors
def enrich_command(inputs: tuple[str, ...], from_format: str | None, encoding: str | None,
                   strict: bool, skip_invalid: bool, output: str, to_format: str | None,
                   key_lock: str | None, enrichment: dict[str, Any]) -> None:
    """Complete INPUT records from arXiv, Crossref and OpenAlex: full author lists, arXiv
    identifiers and categories, and the published version when there is one."""
    from refbridge.registry import WriteOptions, writer_for_file
    from refbridge.runs import ReadOptions

    to_format = to_format or writer_for_file(output) or "csl-json"
    _enrich_and_write(inputs, output, to_format, ReadOptions(from_format, encoding),
                      WriteOptions(key_lock=_key_lock(key_lock, output, *inputs)), strict,
                      skip_invalid, enrichment)


@main.command("fetch")
@click.argument("targets", nargs=-1, required=True, metavar="SERVICE:ID...")
@click.option("-o", "--output", default="-", show_default=True, metavar="FILE",
              help="Output file; - for standard output.")
@click.option("--to", "to_format", metavar="FORMAT",
              help="Output format (default: from the output file's extension, else csl-json).")
@key_lock_option
@http_options
@handle_errors
def fetch_command(targets: tuple[str, ...], output: str, to_format: str | None,
                  key_lock: str | None, http: dict[str, Any]) -> None:
    """Fetch a researcher's publication list: orcid:ID, dblp:PID, openalex:ID, s2:ID or
    arxiv-author:"NAME" (several are written one after the other)."""
    from refbridge.enrich.settings import ClientOptions
    from refbridge.fetch import fetch_records, parse_target
    from refbridge.pipeline import write_records
    from refbridge.registry import WriteOptions, get_writer, writer_for_file

    parsed = [parse_target(target) for target in targets]  # usage errors before any request
    to_format = to_format or writer_for_file(output) or "csl-json"
    get_writer(to_format)
    options = ClientOptions(**_client_settings(http))
    diagnostics = Diagnostics()
    records: list[Any] = []
    for target in parsed:
        show = sys.stderr.isatty()

        def progress(count: int, target: Any = target, show: bool = show) -> None:
            if show:
                click.echo(f"\rFetching {target}: {count} record(s)", nl=False, err=True)

        found = fetch_records(target, options, diagnostics, on_page=progress)
        if show:
            click.echo("", err=True)
        click.echo(f"refbridge: fetch: {target}: {len(found)} record(s)", err=True)
        records.extend(found)
    lock = _key_lock(key_lock, output)
    write_records(records, output, to_format, WriteOptions(key_lock=lock),
                  diagnostics=diagnostics)
    if lock is not None:
        lock.save()
    _report(diagnostics, accept_skipped=False)


@main.command()
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


@main.command("format")
@input_options
@click.option("--style", default="apa", show_default=True, metavar="STYLE",
              help="A .csl file, a style id or alias (see `refbridge styles`).")
@click.option("--to", "output_format", default="text", show_default=True,
              type=click.Choice(["text", "html", "markdown", "latex", "rtf"]), help="Output.")
@click.option("--locale", metavar="xx-XX", help="Locale (default: the style's).")
@click.option("--cite", is_flag=True, help="Print each item's in-text citation instead.")
@click.option("--highlight", metavar="NAME",
              help="Set this author in bold: 'Family' or 'Family, Given' (CV lists).")
@click.option("--style-dir", "style_dirs", multiple=True, metavar="DIR",
              help="Folder of your own styles (.csl files, style modules); repeatable.")
@click.option("--links", is_flag=True,
              help="Link URLs and DOIs (html, markdown, latex, rtf); default: plain text.")
@click.option("-o", "--output", default="-", show_default=True, metavar="FILE",
              help="Output file; - for standard output.")
@handle_errors
def format_command(inputs: tuple[str, ...], from_format: str | None, encoding: str | None,
                   strict: bool, skip_invalid: bool, style: str, output_format: str,
                   locale: str | None, cite: bool, highlight: str | None,
                   style_dirs: tuple[str, ...], links: bool, output: str) -> None:
    """Format INPUT files as a bibliography (or in-text citations) in a citation style."""
    from refbridge.formatting import FormatOptions, format_files
    from refbridge.runs import ReadOptions

    diagnostics = Diagnostics(strict=strict)
    format_files(list(inputs), output,
                 FormatOptions(style, output_format, locale, cite, highlight, style_dirs, links),
                 diagnostics, ReadOptions(from_format, encoding))
    _report(diagnostics, skip_invalid)


@main.command("styles")
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


@main.command("cv")
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
@click.option("--group-by", default="year", show_default=True, metavar="KEY",
              help="year (newest first), type, subject (arXiv category) or none.")
@click.option("--sort", default="newest", show_default=True, metavar="ORDER",
              help="Order within a group: newest, oldest or title.")
@click.option("--numbering", metavar="HOW",
              help="count-down (the newest is [N]; the default, unless the style numbers its "
                   "entries itself), count-up or none.")
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
               fragment: bool, title: str, group_by: str, sort: str, numbering: str | None,
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
                        all_records=all_records)
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


@main.command("check")
@input_options
@click.option("--require", "requirements", multiple=True, metavar="STYLE",
              help="Report fields this style needs: bibtex, biblatex or apa; repeatable "
                   "(default: the dialect).")
@click.option("--dialect", type=click.Choice(["bibtex", "biblatex"]), default=None,
              help="The data model a .bib's entries are checked against (default: bibtex, "
                   "or biblatex when --require biblatex is given).")
@click.option("--select", multiple=True, metavar="RULE",
              help="Report only this rule (or severity: error, warning, note); repeatable.")
@click.option("--ignore", multiple=True, metavar="RULE",
              help="Do not report this rule (or severity), e.g. missing-field; repeatable.")
@click.option("--key-pattern", default=None, metavar="PATTERN",
              help="Report citation keys that are not this pattern's key for their entry.")
@click.option("--fix", is_flag=True,
              help="Write the safe fixes back into the .bib files (every other byte kept).")
@click.option("--format", "form", type=click.Choice(["text", "json", "sarif", "github"]),
              default="text", show_default=True, help="How findings are printed.")
@click.option("--fail-on", type=click.Choice(["error", "warning", "note"]), default="warning",
              show_default=True, help="Exit 4 when a finding this severe or worse is found.")
@handle_errors
def check_command(inputs: tuple[str, ...], from_format: str | None, encoding: str | None,
                  strict: bool, skip_invalid: bool, requirements: tuple[str, ...],
                  dialect: str | None, select: tuple[str, ...], ignore: tuple[str, ...],
                  key_pattern: str | None, fix: bool, form: str, fail_on: str) -> None:
    """Lint INPUT files: duplicates, data model, integrity, suspicious values (exit 4 if any)."""
    from refbridge.check import CheckOptions
    from refbridge.check.command import run_check_command
    from refbridge.runs import ReadOptions

    diagnostics = Diagnostics(strict=strict)
    run = run_check_command(list(inputs), diagnostics, CheckOptions.of(
        requirements, dialect, select, ignore, key_pattern), ReadOptions(from_format, encoding),
        click.echo, form, fix, fail_on)
    for applied in run.fixed:
        click.echo(f"refbridge: fixed {applied}", err=True)
    if run.found:
        click.echo(f"refbridge: {run.found} problem(s) found", err=True)
    _report(diagnostics, skip_invalid)
    if run.failing:
        sys.exit(ExitStatus.PROBLEMS)


# -- Zotero --------------------------------------------------------------------------------------
ZOTERO_SERVICES = click.Choice(["zotero-desktop", "zotero-web"])


class ZoteroSource(click.ParamType[str, Any]):
    """``--from`` of pull and sync: a service, or ``zotero-sqlite[:PATH]`` (a database file)."""

    name = "zotero-desktop|zotero-web|zotero-sqlite[:PATH]"

    def convert(self, value: Any, param: click.Parameter | None,
                ctx: click.Context | None) -> str:
        text = str(value)
        if text in ZOTERO_SERVICES.choices or text.partition(":")[0] == "zotero-sqlite":
            return text
        self.fail(f"{text!r} is not one of zotero-desktop, zotero-web, zotero-sqlite[:PATH]",
                  param, ctx)


def zotero_options(direction: str) -> Callable[[F], F]:
    """The options that name a Zotero library: ``--to``/``--from`` (``direction``),
    ``--library``, ``--collection``, ``--zotero-url``."""
    def decorate(command: F) -> F:
        for option in reversed([
            click.option(f"--{direction}", "service", required=True,
                         type=ZOTERO_SERVICES if direction == "to" else ZoteroSource(),
                         help="The Zotero desktop on this computer, or zotero.org"
                              + ("." if direction == "to" else ", or a zotero.sqlite read "
                                 "as a file (default: the data directory's).")),
            click.option("--library", metavar="user:ID|group:ID",
                         help="zotero.org: the library (the desktop: its own by default; "
                              "zotero-sqlite: user, group:NAME or group:ID)."),
            click.option("--collection", metavar="NAME",
                         help="A collection, by name or path (Parent/Child)."),
            click.option("--zotero-url", metavar="URL",
                         help="Base address of Zotero (default: $REFBRIDGE_ZOTERO_DESKTOP or "
                              "http://127.0.0.1:23119; $REFBRIDGE_ZOTERO_API or "
                              "https://api.zotero.org)."),
        ]):
            command = option(command)
        return command
    return decorate


@final
class _Progress:
    """A progress bar on standard error, on a terminal, once a run says how long it is."""

    def __init__(self, label: str) -> None:
        self.label = label
        self.bar: Any = None

    def __call__(self, done: int, total: int) -> None:
        if self.bar is None and total > 1 and sys.stderr.isatty():
            self.bar = click.progressbar(length=total, label=self.label, file=sys.stderr,
                                         show_pos=True)
            self.bar.__enter__()
        if self.bar is not None:
            self.bar.update(done - self.bar.pos)

    def close(self) -> None:
        if self.bar is not None:
            self.bar.__exit__(None, None, None)
            self.bar = None

    def __enter__(self) -> _Progress:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


@main.command("push")
@input_options
@zotero_options("to")
@click.option("--update", is_flag=True,
              help="Update items the library has already (zotero.org only).")
@click.option("--dry-run", is_flag=True, help="Say what would be done; save nothing.")
@click.option("--tag", "tags", multiple=True, metavar="TAG",
              help="Tag every pushed item with TAG; repeatable.")
@click.option("--allow-duplicates", is_flag=True,
              help="Desktop without its local API: add the records without checking.")
@handle_errors
def push_command(inputs: tuple[str, ...], from_format: str | None, encoding: str | None,
                 strict: bool, skip_invalid: bool, service: str, library: str | None,
                 collection: str | None, zotero_url: str | None, update: bool, dry_run: bool,
                 tags: tuple[str, ...], allow_duplicates: bool) -> None:
    """Push INPUT records into a Zotero library; records it has already are skipped."""
    from pathlib import Path

    from refbridge.pipeline import read_records
    from refbridge.runs import ReadOptions
    from refbridge.zotero_bridge.address import library_address
    from refbridge.zotero_bridge.push import PushOptions, push

    address = library_address(service, library, collection, zotero_url)
    diagnostics = Diagnostics(strict=strict)
    records = list(read_records(inputs, diagnostics, ReadOptions(from_format, encoding)))
    first = Path(inputs[0])
    options = PushOptions(collection, update, dry_run, tags, allow_duplicates,
                          first.resolve().as_uri() if first.is_file() else "")
    with _Progress("Pushing") as bar:
        report = push(records, address, options, bar)
    for line in report.messages():
        click.echo(line, err=True)
    click.echo(f"refbridge: push: {report.summary()}", err=True)
    _report(diagnostics, skip_invalid)
    if report.failed:
        sys.exit(ExitStatus.FAILED)


@main.command("pull")
@zotero_options("from")
@click.option("--to", "to_format", required=True, metavar="FORMAT",
              help="Output format (see `refbridge formats`).")
@click.option("-o", "--output", default="-", show_default=True, metavar="FILE",
              help="Output file; - for standard output.")
@click.option("--key-pattern", metavar="PATTERN", callback=_usable_key_pattern,
              help="Pattern of the keys of items the library gives none.")
@click.option("--unicode", is_flag=True, help="LaTeX outputs: UTF-8 instead of LaTeX commands.")
@key_lock_option
@handle_errors
def pull_command(service: str, library: str | None, collection: str | None,
                 zotero_url: str | None, to_format: str, output: str, key_pattern: str | None,
                 unicode: bool, key_lock: str | None) -> None:
    """Write a Zotero library (or one collection) in another format."""
    from refbridge.pipeline import write_records
    from refbridge.registry import WriteOptions, get_writer
    from refbridge.zotero_bridge.address import DatabaseAddress, source_address
    from refbridge.zotero_bridge.pull import database_records, library_records

    get_writer(to_format)  # an unknown format fails before Zotero is asked
    address = source_address(service, library, collection, zotero_url)
    diagnostics = Diagnostics()
    with _Progress("Reading Zotero") as bar:
        records = database_records(address, diagnostics) \
            if isinstance(address, DatabaseAddress) else \
            library_records(address, diagnostics, bar)
        lock = _key_lock(key_lock, output)
        written = write_records(records, output,
                                to_format, WriteOptions(unicode=unicode, key_pattern=key_pattern,
                                                        key_lock=lock, diagnostics=diagnostics))
    if lock is not None:
        lock.save()
    click.echo(f"refbridge: pull: {written} record(s) from {address}", err=True)
    _report(diagnostics, accept_skipped=False)


@main.command("sync")
@zotero_options("from")
@click.option("--to", "to_format", default="bibtex", show_default=True, metavar="FORMAT",
              help="bibtex, biblatex, csl-json or ris.")
@click.option("-o", "--output", required=True, metavar="FILE", help="The file kept in sync.")
@click.option("--key-file", metavar="FILE",
              help="Where written keys are kept (default: OUTPUT.keys.json).")
@click.option("--key-pattern", metavar="PATTERN", callback=_usable_key_pattern,
              help="Pattern of the keys of items the library gives none.")
@click.option("--unicode", is_flag=True, help="LaTeX outputs: UTF-8 instead of LaTeX commands.")
@click.option("--watch", type=click.FloatRange(min=1), metavar="SECONDS",
              help="Keep syncing every SECONDS until interrupted.")
@key_lock_option
@handle_errors
def sync_command(service: str, library: str | None, collection: str | None,
                 zotero_url: str | None, to_format: str, output: str, key_file: str | None,
                 key_pattern: str | None, unicode: bool, watch: float | None,
                 key_lock: str | None) -> None:
    """Keep a file up to date with a Zotero library: only changes are fetched, keys never
    change once written, and the file is rewritten only when its content changed."""
    from pathlib import Path

    from refbridge.registry import WriteOptions
    from refbridge.zotero_bridge.address import source_address
    from refbridge.zotero_bridge.sync import SyncOptions, sync_forever, sync_once, sync_writer

    sync_writer(to_format)
    address = source_address(service, library, collection, zotero_url)
    lock = _key_lock(key_lock, output)
    options = SyncOptions(to_format, Path(key_file) if key_file else None,
                          WriteOptions(unicode=unicode, key_pattern=key_pattern, key_lock=lock))
    bar = _Progress("Reading Zotero")

    def show(report: Any) -> None:
        bar.close()
        if lock is not None:
            lock.save()
        for message in report.diagnostics.messages:
            click.echo(str(message), err=True)
        click.echo(f"refbridge: sync: {report.summary()}", err=True)

    if watch is None:
        report = sync_once(address, Path(output), options, bar)
        show(report)
        if report.diagnostics.skipped or report.diagnostics.changed:
            sys.exit(ExitStatus.SKIPPED)
        return
    try:
        sync_forever(address, Path(output), options, watch, show,
                     lambda exc: click.echo(f"refbridge: sync: {exc}; trying again in "
                                            f"{watch:g} s", err=True), bar)
    except KeyboardInterrupt:
        click.echo("refbridge: sync: stopped", err=True)


@main.command("fmt")
@click.argument("inputs", nargs=-1, required=True, metavar="LIB...")
@click.option("-o", "--output", metavar="FILE",
              help="Write the formatted file here (one input only); default: in place.")
@click.option("--check", is_flag=True,
              help="Change nothing; list the entries that would change (exit 1 if any).")
@click.option("--diff", is_flag=True, help="Change nothing; show a unified diff.")
@click.option("--sort", metavar="ORDER",
              help="Entries by key, type, year or given (as in the file; the default); "
                   "-year: newest first.")
@click.option("--field-order", metavar="ORDER",
              help="Fields as-given (default), canonical, or LIST: these first.")
@click.option("--indent", metavar="N|tab", help="Indentation of fields (default: 2 spaces).")
@click.option("--align/--no-align", default=None, help="Align the = of an entry (default).")
@click.option("--values", type=click.Choice(["braces", "quotes"]),
              help="Delimit values with braces (default) or quotes.")
@click.option("--drop-empty/--keep-empty", default=None,
              help="Drop empty fields (default: keep them).")
@click.option("--months/--no-months", default=None,
              help="Write months spelled out in full as macros (month = mar).")
@click.option("--unicode/--latex", default=None,
              help="Accented letters as UTF-8, or as LaTeX commands (default: as written).")
@click.option("--wrap", type=click.IntRange(0), metavar="N",
              help="Wrap long values at N characters (0: never, the default).")
@click.option("--key-pattern", metavar="PATTERN",
              help="Rename keys that do not follow PATTERN (see Citation keys).")
@click.option("--encoding", metavar="NAME",
              help="Input encoding (default: BOM, UTF-8, else cp1252).")
@handle_errors
def fmt_command(inputs: tuple[str, ...], output: str | None, check: bool, diff: bool,
                encoding: str | None, **given: Any) -> None:
    """Format .bib files in place, keeping comments, @string, @preamble and every field.
    Settings also come from [tool.refbridge.fmt] in pyproject.toml or [fmt] in
    .refbridge.toml (the command line wins)."""
    from refbridge.tidy.files import CHECK, DIFF, WRITE, tidy_files

    if output is not None and len(inputs) > 1:
        raise click.UsageError("-o names one output: give one input with it")
    settings = {name: value for name, value in given.items() if value is not None}
    mode = CHECK if check else DIFF if diff else WRITE
    report = tidy_files(list(inputs), settings, mode, output, encoding)
    for line in report.output:
        click.echo(line, nl=not line.endswith("\n"))
    for message in report.messages:
        click.echo(str(message), err=True)
    verb = "would change" if mode != WRITE else "changed"
    click.echo(f"refbridge: fmt: {len(report.changed)} of {report.files} file(s) {verb}",
               err=True)
    if report.failed or check and report.changed:
        sys.exit(ExitStatus.FAILED)


@main.command("merge-driver")
@click.argument("versions", nargs=-1, metavar="%O %A %B %P")
@click.option("--install", is_flag=True,
              help="Set this repository to merge *.bib with refbridge (git config, "
                   ".gitattributes).")
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


@main.command("diff")
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


@main.command("cited")
@click.argument("documents", nargs=-1, required=True, metavar="DOC...")
@click.option("--library", "libraries", multiple=True, metavar="LIB",
              help="A library to take the entries from; repeatable (default: the libraries "
                   "the documents name).")
@click.option("-o", "--output", default="-", show_default=True, metavar="FILE",
              help="Output file; - for standard output.")
@click.option("--to", "to_format", metavar="FORMAT",
              help="Output format (default: a .bib in the documents' dialect, else the "
                   "output file's).")
@click.option("--order", type=click.Choice(["cited", "library"]), default="cited",
              show_default=True, help="Entries first cited first, or in the library's order.")
@click.option("--unused", is_flag=True, help="Also list the library entries nothing cites.")
@click.option("--allow-missing", is_flag=True,
              help="Exit 0 even when cited keys are in no library (they are still reported).")
@click.option("--unicode", is_flag=True, help="LaTeX outputs: UTF-8 instead of LaTeX commands.")
@click.option("--from", "from_format", metavar="FORMAT",
              help="Library format (default: detected from name and content).")
@click.option("--encoding", metavar="NAME",
              help="Encoding of documents and libraries (default: BOM, UTF-8, else cp1252).")
@click.option("--strict", is_flag=True, help="Stop at the first broken library entry.")
@click.option("--skip-invalid", is_flag=True,
              help="Exit 0 even if broken library entries were skipped.")
@handle_errors
def cited_command(documents: tuple[str, ...], libraries: tuple[str, ...], output: str,
                  to_format: str | None, order: str, unused: bool, allow_missing: bool,
                  unicode: bool, from_format: str | None, encoding: str | None, strict: bool,
                  skip_invalid: bool) -> None:
    """Write the library entries DOC files cite (.aux, .bcf, .tex, .md, .Rmd, .qmd), with
    the crossref, xdata and @set entries they need; report keys no library holds."""
    from refbridge.cited import CitedOptions, write_cited
    from refbridge.registry import WriteOptions
    from refbridge.runs import ReadOptions

    report = write_cited(documents, output, CitedOptions(
        libraries, order, to_format, ReadOptions(from_format, encoding),
        WriteOptions(unicode=unicode), strict))
    for record, field, key in report.selection.unresolved:
        click.echo(f"{record.source or 'refbridge'}: warning: entry {record.citation_key!r} "
                   f"names {field} {key!r}, which no library holds", err=True)
    for missing in report.selection.missing:
        click.echo(str(missing), err=True)
    if unused:
        for record in report.selection.unused:
            click.echo(f"{record.source or 'refbridge'}: note: {record.citation_key!r} is "
                       "cited by no document", err=True)
    click.echo(f"refbridge: cited: {report.summary()}", err=True)
    _report(report.diagnostics, skip_invalid)
    if report.selection.missing and not allow_missing:
        sys.exit(ExitStatus.MISSING)


@main.command("dedupe")
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


# -- verify and upgrade ---------------------------------------------------------------------------
def _echo_error(line: str) -> None:
    click.echo(line, err=True)


def _verify_options(services: dict[str, Any], only: str | None) -> Any:
    from refbridge.verify.settings import VERIFY_SERVICES, VerifyOptions

    chosen = tuple(s.strip() for s in only.split(",") if s.strip()) if only else VERIFY_SERVICES
    return VerifyOptions(services=chosen, **_client_settings(services))


_VERIFY_SERVICES_OPTION = click.option(
    "--services", "only", metavar="LIST",
    help="Services to ask, comma-separated (default: crossref,openalex,dblp,arxiv,datacite).")


@main.command("verify")
@input_options
@click.option("--format", "form", type=click.Choice(["text", "json", "sarif", "github"]),
              default="text", show_default=True, help="How the findings are printed.")
@click.option("--fail-on", default="retracted,not-found,mismatch,concern,unreachable",
              show_default=True, metavar="LIST",
              help="Exit 4 when an entry has one of these findings (comma-separated; also "
                   "corrected, published, verified; none: never).")
@_VERIFY_SERVICES_OPTION
@service_options
@handle_errors
def verify_command(inputs: tuple[str, ...], from_format: str | None, encoding: str | None,
                   strict: bool, skip_invalid: bool, form: str, fail_on: str,
                   only: str | None, services: dict[str, Any]) -> None:
    """Check each INPUT entry against Crossref, OpenAlex, dblp, arXiv and DataCite: verified,
    mismatch, not found, retracted, now published, or a service that failed."""
    from refbridge.runs import ReadOptions
    from refbridge.verify.command import run_verify
    from refbridge.verify.report import fail_on_kinds

    kinds = fail_on_kinds(fail_on)
    diagnostics = Diagnostics(strict=strict)
    with _Progress("Verifying") as bar:
        outcome = run_verify(list(inputs), diagnostics, ReadOptions(from_format, encoding),
                             _verify_options(services, only), form, kinds, click.echo,
                             _echo_error, bar)
    _report(diagnostics, skip_invalid)
    if outcome.failing:
        sys.exit(ExitStatus.PROBLEMS)


@main.command("upgrade")
@input_options
@click.option("-o", "--output", default="-", show_default=True, metavar="FILE",
              help="The upgraded .bib; - for standard output.")
@click.option("--dry-run", is_flag=True, help="Print a unified diff per entry; write nothing.")
@_VERIFY_SERVICES_OPTION
@service_options
@handle_errors
def upgrade_command(inputs: tuple[str, ...], from_format: str | None, encoding: str | None,
                    strict: bool, skip_invalid: bool, output: str, dry_run: bool,
                    only: str | None, services: dict[str, Any]) -> None:
    """Replace the preprints of INPUT .bib files by their published versions when the match
    is certain, keeping keys, eprint fields and every other byte."""
    from refbridge.runs import ReadOptions
    from refbridge.verify.command import run_upgrade

    diagnostics = Diagnostics(strict=strict)
    with _Progress("Looking up") as bar:
        outcome = run_upgrade(list(inputs), output, diagnostics,
                              ReadOptions(from_format, encoding),
                              _verify_options(services, only), dry_run, click.echo,
                              _echo_error, bar)
    _report(diagnostics, skip_invalid)
    if outcome.failing:
        sys.exit(ExitStatus.FAILED)


def _link_overrides(links: tuple[str, ...], links_file: str | None) -> dict[str, str]:
    """``--links-file`` then ``--link KIND=FIELD`` options as one mapping."""
    from refbridge.site.links import read_link_file

    overrides = read_link_file(links_file) if links_file else {}
    for text in links:
        kind, equals, source = text.partition("=")
        if not equals or not kind.strip():
            raise click.BadParameter(f"{text!r} is not KIND=FIELD", param_hint="--link")
        overrides[kind.strip()] = source.strip()
    return overrides


@main.command("site")
@input_options
@click.option("--to", "generator", required=True, metavar="GENERATOR",
              help="hugo (Hugo Blox: content/publication/SLUG/), jekyll (academicpages: "
                   "_publications/) or html (standalone pages: publication/SLUG/).")
@click.option("-o", "--output", "directory", required=True, metavar="DIR",
              help="The site's folder (its root: content/ or _publications/ go inside).")
@click.option("--owner", "owners", multiple=True, metavar="NAME",
              help="Your name (Hugo Blox: written as the author 'admin'; academicpages: in "
                   "bold); repeatable.")
@click.option("--owner-id", "owner_ids", multiple=True, metavar="SCHEME:ID",
              help="Your identifier (orcid:..., dblp:...); repeatable.")
@click.option("--style", default="apa", show_default=True, metavar="STYLE",
              help="Style of the formatted citation (academicpages' `citation`).")
@click.option("--style-dir", "style_dirs", multiple=True, metavar="DIR",
              help="Folder of your own styles; repeatable.")
@click.option("--locale", metavar="xx-XX", help="Locale of the citation (default: the style's).")
@click.option("--link", "links", multiple=True, metavar="KIND=FIELD",
              help="Take the KIND link (pdf, code, slides, video, dataset, poster, preprint, "
                   "source) from FIELD of the records; KIND= for none; repeatable.")
@click.option("--links-file", metavar="FILE.toml",
              help='A [links] table of kind = "field" lines (--link wins).')
@click.option("--prune", is_flag=True,
              help="Remove the pages of works that are no longer in the inputs.")
@click.option("--since", type=int, metavar="YEAR", help="Only records from this year on.")
@click.option("--until", type=int, metavar="YEAR", help="Only records up to this year.")
@click.option("--type", "kinds", multiple=True, metavar="TYPE",
              help="Only this type (as `refbridge cv --type`); repeatable.")
@click.option("--no-merge", is_flag=True, help="Keep duplicates found across the inputs.")
@click.option("--all-records", is_flag=True,
              help="A page for every record, also those that do not name the owner.")
@handle_errors
def site_command(inputs: tuple[str, ...], from_format: str | None, encoding: str | None,
                 strict: bool, skip_invalid: bool, generator: str, directory: str,
                 owners: tuple[str, ...], owner_ids: tuple[str, ...], style: str,
                 style_dirs: tuple[str, ...], locale: str | None, links: tuple[str, ...],
                 links_file: str | None, prune: bool, since: int | None, until: int | None,
                 kinds: tuple[str, ...], no_merge: bool, all_records: bool) -> None:
    """Write one page per work of INPUT files for a Hugo Blox, academicpages or plain HTML
    site, keeping the pages' bodies and what did not change."""
    from refbridge.cv import Filters
    from refbridge.names.ids import PersonIdError, parse_person_id
    from refbridge.runs import ReadOptions
    from refbridge.site import SiteOptions, write_site

    try:
        ids = tuple(parse_person_id(text) for text in owner_ids)
    except PersonIdError as exc:
        raise click.BadParameter(str(exc), param_hint="--owner-id") from None
    options = SiteOptions(generator, owners, ids, style, style_dirs, locale,
                          _link_overrides(links, links_file), prune, merge=not no_merge,
                          all_records=all_records, filters=Filters(since, until, kinds))
    report = write_site(list(inputs), directory, options, ReadOptions(from_format, encoding),
                        strict=strict)
    for line in [*report.merge.describe(), *report.describe()]:
        click.echo(f"refbridge: site: {line}", err=True)
    _report(report.diagnostics, skip_invalid)
