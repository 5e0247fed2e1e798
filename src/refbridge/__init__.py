"""refbridge: publication records into every form a researcher needs.

Readers turn profile pages, BibTeX/BibLaTeX, RIS, CSL-JSON and Zotero RDF into one citation
model (``refbridge.model``); writers turn the model into those formats and formatted lists.

From Python::

    import refbridge

    found = refbridge.read("refs.bib")
    print(refbridge.format_bibliography(found, style="apa"))

The names below (``read``, ``write``, ``format_bibliography``, ``cv``, the conversions to and
from bibtexparser and pybtex, the record and error types, ``__version__``) are imported on first
use: this package's top level must stay import-light (it imports no module of its own) so the
command line starts fast, and no module of the package imports it.
"""

import sys

TYPE_CHECKING = False  # not ``typing``'s: importing typing costs start-up time

#: name exported by the package -> the module that defines it
_EXPORTS: dict[str, str] = {
    "__version__": "refbridge.version",
    "read": "refbridge.api",
    "write": "refbridge.api",
    "format_bibliography": "refbridge.api",
    "cv": "refbridge.api",
    "ReadResult": "refbridge.api",
    "CvOptions": "refbridge.cv.document",
    "from_bibtexparser": "refbridge.interop",
    "to_bibtexparser": "refbridge.interop",
    "from_pybtex": "refbridge.interop",
    "to_pybtex": "refbridge.interop",
    "Record": "refbridge.model",
    "WriteOptions": "refbridge.registry",
    "Diagnostics": "refbridge.errors",
    "RefbridgeError": "refbridge.errors",
    "ParseError": "refbridge.errors",
    "BrokenRecords": "refbridge.errors",
}

__all__ = ["BrokenRecords", "CvOptions", "Diagnostics", "ParseError", "ReadResult", "Record",
           "RefbridgeError", "WriteOptions", "__version__", "cv", "format_bibliography",
           "from_bibtexparser", "from_pybtex", "read", "to_bibtexparser", "to_pybtex", "write"]

if TYPE_CHECKING:  # what type checkers see; at run time ``__getattr__`` imports on first use
    from types import ModuleType
    from typing import Any

    from refbridge.api import ReadResult, cv, format_bibliography, read, write
    from refbridge.cv.document import CvOptions
    from refbridge.errors import BrokenRecords, Diagnostics, ParseError, RefbridgeError
    from refbridge.interop import from_bibtexparser, from_pybtex, to_bibtexparser, to_pybtex
    from refbridge.model import Record
    from refbridge.registry import WriteOptions
    from refbridge.version import __version__


def __getattr__(name: str) -> "Any":
    """The exported ``name``, imported from its module the first time it is asked for."""
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'refbridge' has no attribute {name!r}")
    value = getattr(__import__(module, fromlist=[name]), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_EXPORTS))


if not TYPE_CHECKING:
    ModuleType = type(sys)  # not ``types``'s: importing types costs start-up time


class _Package(ModuleType):
    """This package's module type: a subpackage named like an exported function
    (``refbridge.cv``) does not take the function's place when it is imported, as the import
    system would otherwise make it (the subpackage stays importable by its full name)."""

    def __setattr__(self, name: str, value: object) -> None:
        if name in _EXPORTS and isinstance(value, ModuleType):
            return
        super().__setattr__(name, value)


sys.modules[__name__].__class__ = _Package
