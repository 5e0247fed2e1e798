"""One person's publication list asked of a service page by page (``Session``), read by the
service's reader (``refbridge.formats``): the same records as reading its saved answers. Each
service module says how it gives out its list (``fetch_*``: addresses, parameters, paging).

Pagination stops at the first empty page (or when the service gives no next page), whatever
total it announced, and after ``MAX_PAGES`` at most. This module must never print.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Protocol

from refbridge.errors import Diagnostics
from refbridge.services.errors import ServiceError
from refbridge.services.http import SERVICE_NAMES, PoliteClient


class Whom(Protocol):
    """Whose list is asked for: the service, and the person's identifier there (or, for
    arXiv, the name)."""

    @property
    def service(self) -> str: ...

    @property
    def value(self) -> str: ...


#: Pages one listing may take: a service that keeps answering the same cursor stops here.
MAX_PAGES = 1000


@dataclass(slots=True)
class Session:
    """One fetch: the client, the service's base URL, whom to fetch, where messages go."""

    client: PoliteClient
    base: str
    target: Whom
    diagnostics: Diagnostics
    mailto: str | None = None
    on_page: Callable[[int], None] | None = None  #: called with the records so far

    def text(self, url: str, params: Mapping[str, str] | None = None,
             headers: Mapping[str, str] | None = None, missing: str | None = None
             ) -> str | None:
        """The body of ``url`` as text; a 404 is None (or ``missing`` raised as an error)."""
        answer = self.client.get(self.target.service, url, params, headers)
        if answer.status == 404:
            if missing is not None:
                raise ServiceError(missing)
            return None
        try:
            return answer.body.decode("utf-8")
        except UnicodeDecodeError:
            raise ServiceError(f"{SERVICE_NAMES[self.target.service]} answered {url} with "
                               "text that is not UTF-8") from None

    def page_done(self, count: int) -> None:
        if self.on_page is not None:
            self.on_page(count)
