"""The committed Zotero tables are exactly what Zotero's schema gives, and cover the model."""

from __future__ import annotations

import json
from pathlib import Path

from support import ROOT

from refbridge.formats.zotero import tables as zotero_tables
from refbridge.formats.zotero.tables_build import build, render
from refbridge.vocab import ITEM_TYPES


def test_the_committed_tables_are_generated_from_zoteros_schema(shared_dir: Path) -> None:
    schema = json.loads((shared_dir / "schemas" / "zotero-schema.json").read_text("utf-8"))
    committed = (ROOT / "src" / "refbridge" / "formats" / "zotero" / "tables.py").read_text("utf-8")
    assert committed == render(build(schema)), (
        "regenerate: python -m refbridge.formats.zotero.tables_build "
        "../shared/schemas/zotero-schema.json > src/refbridge/formats/zotero/tables.py")


def test_a_preprint_has_zoteros_repository_and_archive_id() -> None:
    assert zotero_tables.ZOTERO_TYPE_OF_CSL["article"] == "preprint"
    assert {v: zotero_tables.FIELDS["preprint"][v] for v in ("publisher", "number")} == {
        "publisher": "repository", "number": "archiveID"}
    assert zotero_tables.BASE_FIELDS["archiveID"] == "number"


def test_primary_creator_types_hold_the_author_role() -> None:
    assert zotero_tables.CREATORS["patent"]["author"] == "inventor"
    assert zotero_tables.CREATORS["computerProgram"]["author"] == "programmer"
    assert zotero_tables.CREATORS["book"]["collection-editor"] == "seriesEditor"


def test_every_mapped_type_is_a_csl_type_and_back() -> None:
    assert set(zotero_tables.ZOTERO_TYPE_OF_CSL) <= ITEM_TYPES
    assert set(zotero_tables.CSL_TYPE_OF_ZOTERO.values()) <= ITEM_TYPES
    assert all(zotero_tables.CSL_TYPE_OF_ZOTERO[z] == c
               for c, z in zotero_tables.ZOTERO_TYPE_OF_CSL.items())
