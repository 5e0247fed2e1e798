"""People's identifiers at the services that tell people apart, in the one spelling the model
keeps on a ``Name`` (``Name.ids``) and a publication list keeps for its owner: ``scheme:value``.

| scheme | value | example |
| --- | --- | --- |
| ``orcid`` | an ORCID iD, its check digit verified (ISO 7064 MOD 11-2) | ``orcid:0000-0002-1825-0097`` |
| ``dblp`` | a dblp person id (pid) | ``dblp:95/7448-1`` |
| ``openalex`` | an OpenAlex author id | ``openalex:A5025692314`` |
| ``s2`` | a Semantic Scholar author id | ``s2:1723755`` |

Values are read as the services write them, also as addresses (``https://orcid.org/...``,
``https://openalex.org/A...``). This module must never make a request.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable

_ORCID = re.compile(r"^(?:https?://(?:www\.|sandbox\.)?orcid\.org/)?"
                    r"(?P<id>\d{4}-\d{4}-\d{4}-\d{3}[\dX])/?$", re.IGNORECASE)
_DBLP = re.compile(r"^(?:https?://dblp\.(?:org|uni-trier\.de)/pid/)?"
                   r"(?P<id>[a-z0-9]+(?:/[A-Za-z0-9_=-]+)+?)(?:\.(?:xml|html))?/?$")
_OPENALEX = re.compile(r"^(?:https?://(?:api\.)?openalex\.org/(?:authors/)?)?(?P<id>A\d+)$",
                       re.IGNORECASE)
_S2 = re.compile(r"^(?:https?://(?:www\.|api\.)?semanticscholar\.org/author/(?:[^/]+/)?)?"
                 r"(?P<id>\d+)$")


class PersonIdError(ValueError):
    """Text that is not an identifier of the scheme it claims."""


def orcid_check_digit(digits: str) -> str:
    """The check character of the first 15 digits of an ORCID iD (ISO 7064 MOD 11-2)."""
    total = 0
    for digit in digits:
        total = (total + int(digit)) * 2
    result = (12 - total % 11) % 11
    return "X" if result == 10 else str(result)


def _orcid(text: str) -> str:
    match = _ORCID.match(text)
    if match is None:
        raise PersonIdError(f"{text!r} is not an ORCID iD (0000-0002-1825-0097)")
    identifier = match.group("id").upper()
    digits = identifier.replace("-", "")
    if orcid_check_digit(digits[:15]) != digits[15]:
        raise PersonIdError(f"{identifier} is not an ORCID iD: its check digit is wrong")
    return identifier


def _matched(pattern: re.Pattern[str], example: str, upper: bool = False
             ) -> Callable[[str], str]:
    def normalize(text: str) -> str:
        match = pattern.match(text)
        if match is None:
            raise PersonIdError(f"{text!r} is not of the form {example}")
        value = match.group("id")
        return value.upper() if upper else value

    return normalize


#: Scheme -> how a value of it is read (raises ``PersonIdError``).
SCHEMES: dict[str, Callable[[str], str]] = {
    "orcid": _orcid,
    "dblp": _matched(_DBLP, "95/7448-1"),
    "openalex": _matched(_OPENALEX, "A5025692314", upper=True),
    "s2": _matched(_S2, "1723755"),
}


def person_id(scheme: str, value: str) -> str:
    """``scheme:value`` with the value in its service's spelling; raises ``PersonIdError``."""
    if scheme not in SCHEMES:
        raise PersonIdError(f"unknown identifier scheme {scheme!r} "
                            f"(known: {', '.join(SCHEMES)})")
    return f"{scheme}:{SCHEMES[scheme](value.strip())}"


def parse_person_id(text: str) -> str:
    """An identifier typed as ``scheme:value`` (``orcid:0000-0002-1825-0097``)."""
    scheme, colon, value = text.strip().partition(":")
    if not colon or not value:
        raise PersonIdError(f"{text!r} is not an identifier: write scheme:value "
                            f"({', '.join(f'{s}:...' for s in SCHEMES)})")
    return person_id(scheme.lower(), value)


def owner_id_text(ids: Iterable[str]) -> str:
    """Identifiers as one extra value: separated by spaces, each once, in order."""
    return " ".join(dict.fromkeys(ids))


def owner_ids(text: str) -> tuple[str, ...]:
    """The identifiers of an ``owner_id_text`` value."""
    return tuple(text.split())
