"""Keys cited by biber's control file (``.bcf``), which biblatex writes for biber.

Each ``<bcf:citekey>`` is a cited key in citation order (``*``: ``\\nocite{*}``, every entry);
a dynamic entry set (``\\defbibentryset``, ``type="set"``) cites its ``members``, the set
itself being no library entry. ``<bcf:datasource type="file">`` names the libraries
(``\\addbibresource``); a data source of another kind (a URL) or data type (biblatexml) is
reported and not read. The XML is parsed safely (``refbridge.formats.xml.safe``). This module
must never read a library or run biber.
"""

from __future__ import annotations

from refbridge.cited.citations import BIBLATEX, Scan, read_document, split_keys
from refbridge.errors import Diagnostics
from refbridge.formats.xml.safe import local_name, parse_xml, text_of

#: Data types of ``<bcf:datasource>`` whose files refbridge reads as .bib.
BIB_DATATYPES = frozenset({"bibtex", "biblatex"})


def scan(path: str, diagnostics: Diagnostics, encoding: str | None = None) -> Scan:
    """What the ``.bcf`` at ``path`` cites and the data sources it names."""
    root = parse_xml(read_document(path, diagnostics, encoding), path, "biber control file",
                     diagnostics)
    found = Scan(dialects={BIBLATEX})
    for element in root.iter():
        name = local_name(element)
        line = element.sourceline or 1
        if name == "citekey":
            keys = split_keys(element.get("members", "")) if element.get("type") == "set" \
                else [text_of(element)]
            for key in keys:
                found.cite(key, path, line)
        elif name == "datasource":
            kind, datatype = element.get("type", "file"), element.get("datatype", "bibtex")
            if kind == "file" and datatype in BIB_DATATYPES:
                found.name_library(text_of(element), path, line)
            else:
                diagnostics.warning(f"data source {text_of(element)!r} ({kind}, {datatype}) "
                                    "is not a .bib file; not read (name it with --library)",
                                    path, line)
    return found
