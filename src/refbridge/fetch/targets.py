"""What ``refbridge fetch`` is asked for: a person at a service, written ``service:id``.

``orcid:``, ``dblp:``, ``openalex:`` and ``s2:`` take the person identifiers of
``refbridge.names.ids`` (checked: an ORCID iD's check digit, the shape of the others);
``arxiv-author:`` takes a name, as arXiv's author search does. This module must never make a
request.
"""

from __future__ import annotations

from dataclasses import dataclass

from refbridge.errors import ExitStatus, RefbridgeError
from refbridge.names.ids import PersonIdError, person_id

#: Prefix a user writes -> (service asked, person-identifier scheme or None for a name).
PREFIXES: dict[str, tuple[str, str | None]] = {
    "orcid": ("orcid", "orcid"),
    "dblp": ("dblp", "dblp"),
    "openalex": ("openalex", "openalex"),
    "s2": ("s2", "s2"),
    "arxiv-author": ("arxiv", None),
}


class TargetError(RefbridgeError):
    """A fetch target that is not ``service:identifier``."""

    exit_status = ExitStatus.USAGE


@dataclass(frozen=True, slots=True)
class Target:
    """A person at a service: ``value`` is the identifier (or, for arXiv, the name)."""

    service: str
    value: str
    person: str | None  #: ``scheme:value`` of the person, None for a name search

    def __str__(self) -> str:
        return self.person or f'arxiv-author:"{self.value}"'


def parse_target(text: str) -> Target:
    """The target ``text`` names; raises ``TargetError`` with the forms accepted."""
    prefix, colon, value = text.strip().partition(":")
    known = ", ".join(f"{p}:..." for p in PREFIXES)
    if not colon or prefix.lower() not in PREFIXES:
        raise TargetError(f"cannot fetch {text!r}: name a person as one of {known}")
    service, scheme = PREFIXES[prefix.lower()]
    value = value.strip()
    if scheme is None:
        name = " ".join(value.strip('"').split())
        if not name:
            raise TargetError(f"cannot fetch {text!r}: arxiv-author needs a name")
        return Target(service, name, None)
    try:
        person = person_id(scheme, value)
    except PersonIdError as exc:
        raise TargetError(f"cannot fetch {text!r}: {exc}") from None
    return Target(service, person.partition(":")[2], person)
