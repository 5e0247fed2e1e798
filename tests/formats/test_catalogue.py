"""The catalogue of refbridge's own formats: what it says of each format is what the format's
module says, and detection and listings import no format module they do not use."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from collections.abc import Iterator
from io import StringIO
from typing import TextIO

import pytest

from refbridge import registry
from refbridge.coverage import coverage_of
from refbridge.entrypoints import EntryPoint
from refbridge.errors import Diagnostics
from refbridge.formats import catalogue
from refbridge.model import Record


@pytest.mark.parametrize("name", sorted(catalogue.READERS))
def test_the_catalogue_names_the_reader_the_entry_point_names(name: str) -> None:
    entry = registry._entry(registry.READERS_GROUP, name, "reader")
    assert registry._target(entry) == catalogue.READERS[name].target


@pytest.mark.parametrize("name", sorted(catalogue.WRITERS))
def test_the_catalogue_names_the_writer_the_entry_point_names(name: str) -> None:
    entry = registry._entry(registry.WRITERS_GROUP, name, "writer")
    assert registry._target(entry) == catalogue.WRITERS[name].target


@pytest.mark.parametrize("name", sorted(catalogue.READERS))
def test_each_reader_describes_itself_as_the_catalogue_does(name: str) -> None:
    reader = registry.get_reader(name)
    known = catalogue.READERS[name]
    assert isinstance(reader, catalogue.CatalogueReader)
    assert (reader.description, reader.extensions) == (known.description, known.extensions)


@pytest.mark.parametrize("name", sorted(catalogue.WRITERS))
def test_each_writer_describes_itself_as_the_catalogue_does(name: str) -> None:
    writer = registry.get_writer(name)
    known = catalogue.WRITERS[name]
    assert (writer.name, writer.description, writer.extension) == \
        (name, known.description, known.extension)


def test_every_builtin_format_is_in_the_catalogue() -> None:
    builtin = {ep.name for group in (registry.READERS_GROUP, registry.WRITERS_GROUP)
               for ep in registry._group(group).values() if ep.value.startswith("refbridge.")}
    assert builtin == set(catalogue.READERS) | set(catalogue.WRITERS)


@pytest.mark.parametrize("name", sorted(n for n, e in catalogue.WRITERS.items() if e.coverage))
def test_the_coverage_a_registration_names_is_its_own_formats(name: str) -> None:
    coverage = coverage_of(name)
    assert coverage is not None and coverage.format == name


def test_a_format_is_registered_once() -> None:
    names = [known.name for known in catalogue.FORMATS]
    assert len(names) == len(set(names))


def _modules_loaded_by(code: str) -> set[str]:
    script = textwrap.dedent(code) + textwrap.dedent("""
        import sys
        print("\\n".join(m for m in sys.modules if m.startswith("refbridge.formats.")))
    """)
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                            check=True)
    return set(result.stdout.split())


def test_detecting_ris_loads_the_ris_reader_and_no_other_reader() -> None:
    loaded = _modules_loaded_by("""
        from refbridge.registry import detect_reader
        assert detect_reader("refs.ris", "TY  - JOUR\\nT1  - Phase separation\\n").name == "ris"
    """)
    assert "refbridge.formats.tagged.ris" in loaded
    others = {target.partition(":")[0] for name, entry in catalogue.READERS.items()
              for target in [entry.target]} - {"refbridge.formats.tagged.ris"}
    # RIS's reader builds on CSL-JSON's vocabulary; no other reader is imported
    assert loaded & others <= {"refbridge.formats.csljson"}


def test_the_catalogue_knows_every_kind_of_zotero_address_as_a_source() -> None:
    from refbridge import zotero_bridge
    from refbridge.zotero_bridge.pull import read_address

    kinds = (zotero_bridge.DESKTOP, zotero_bridge.WEB, zotero_bridge.SQLITE)
    assert {kind: registry.source_reader(f"{kind}:x") for kind in kinds} == dict.fromkeys(
        kinds, read_address)


def test_a_file_name_is_no_source() -> None:
    assert [registry.source_reader(name) for name in ("refs.bib", "C:/refs.bib", "-")] == [
        None, None, None]


def test_asking_whether_a_file_is_a_source_loads_no_job() -> None:
    loaded = _modules_loaded_by("""
        from refbridge.registry import source_reader
        assert source_reader("refs.bib") is None
    """)
    assert not any(name.startswith("refbridge.zotero_bridge") for name in loaded)


def test_listing_the_formats_loads_no_format_module() -> None:
    loaded = _modules_loaded_by("""
        from refbridge.registry import (reader_info, reader_names, writer_for_file,
                                        writer_info, writer_names)
        for name in reader_names():
            reader_info(name)
        for name in writer_names():
            writer_info(name)
        assert writer_for_file("out.ris") == "ris"
    """)
    assert loaded == {"refbridge.formats.catalogue"}


class _ThirdPartyReader:
    name = "refer-plus"
    description = "Refer with extensions"
    extensions = (".rfp",)
    sniff_first = True

    def sniff(self, head: str) -> bool:
        return head.startswith("%%R ")

    def read(self, stream: TextIO, source: str, diagnostics: Diagnostics) -> Iterator[Record]:
        return iter(())


THIRD_PARTY = _ThirdPartyReader()


def test_a_format_of_another_package_is_loaded_and_asked(
        monkeypatch: pytest.MonkeyPatch) -> None:
    readers = dict(registry._group(registry.READERS_GROUP))
    readers["refer-plus"] = EntryPoint("refer-plus", f"{__name__}:THIRD_PARTY",
                                       registry.READERS_GROUP)
    monkeypatch.setattr(registry, "_group", lambda group: readers)
    registry.reader_info.cache_clear()
    try:
        assert registry.reader_info("refer-plus").description == "Refer with extensions"
        assert registry.detect_reader("x.txt", "%%R Ada\n") is THIRD_PARTY
    finally:
        registry.reader_info.cache_clear()


def test_a_name_another_package_takes_over_is_asked_of_that_package(
        monkeypatch: pytest.MonkeyPatch) -> None:
    readers = dict(registry._group(registry.READERS_GROUP))
    readers["ris"] = EntryPoint("ris", f"{__name__}:THIRD_PARTY", registry.READERS_GROUP)
    monkeypatch.setattr(registry, "_group", lambda group: readers)
    registry.reader_info.cache_clear()
    try:
        assert registry.reader_info("ris").extensions == (".rfp",)
    finally:
        registry.reader_info.cache_clear()


def test_reading_what_detection_chose_gives_the_records() -> None:
    reader = registry.detect_reader("-", "TY  - JOUR\nTI  - Phase separation\nER  - \n")
    records = list(reader.read(StringIO("TY  - JOUR\nTI  - Phase separation\nER  - \n"), "-",
                               Diagnostics()))
    assert [str(record.fields["title"]) for record in records] == ["Phase separation"]
