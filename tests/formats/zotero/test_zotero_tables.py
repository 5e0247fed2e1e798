"""The committed Zotero tables cover the model (that they are what Zotero's schema gives:
``tests/test_generated.py``)."""

from __future__ import annotations

from refbridge.formats.zotero import tables as zotero_tables
from refbridge.vocab import ITEM_TYPES


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
