"""Options several commands share: the inputs, the key lock, the key pattern, how services
are asked (received as one mapping), and their checks. This module must never do a command's
work."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any, TypeVar

import click

F = TypeVar("F", bound=Callable[..., Any])


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
