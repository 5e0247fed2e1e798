"""Builds ``zotero_tables.py`` from Zotero's schema (development time only, never at run time).

``python -m refbridge.tools.regenerate`` writes them from
``../shared/schemas/zotero-schema.json``. The schema lists Zotero's item types with their fields (and each field's base field) and creator
types (the primary one first), and the mappings between Zotero and CSL. This module turns them
into the tables the Zotero RDF reader and writer use: for each Zotero item type, which Zotero
field holds each CSL variable and which creator type holds each CSL name role. A test checks
that the committed tables equal what this builds (``tests/test_generated.py``). It must never
be imported by the runtime.
"""

from __future__ import annotations

import json
from typing import Any

from refbridge.vocab import DATE_VARIABLE_SET, ITEM_TYPES, NAME_VARIABLE_SET, TEXT_VARIABLE_SET

#: Zotero's CSL mapping still uses a few pre-1.0 CSL variable names.
CSL_RENAMES: dict[str, str] = {"journalAbbreviation": "container-title-short"}

#: Item types that are not bibliographic records.
SKIPPED_TYPES: frozenset[str] = frozenset({"annotation", "attachment", "note"})

HEADER = '''"""Zotero's item types, fields and creator types mapped to CSL, as data.

Generated from Zotero's schema (version {version}) by ``refbridge.formats.zotero.tables_build``; do not edit by
hand. ``FIELDS[zotero_type][csl_variable]`` is the Zotero field that holds the variable in that
item type, ``BASE_FIELDS[zotero_field]`` its base field, ``CREATORS[zotero_type][csl_role]`` the
creator type that holds the role; ``OTHER_FIELDS`` and ``OTHER_CREATORS`` list, per item type,
the fields and creator types that hold no CSL variable or role. Tables only: this module must
never hold logic.
"""

from __future__ import annotations

'''


def build(schema: dict[str, Any]) -> dict[str, Any]:
    csl = schema["csl"]
    types = [t for t in schema["itemTypes"] if t["itemType"] not in SKIPPED_TYPES]
    zotero_of_csl_type = {c: z[0] for c, z in csl["types"].items() if c in ITEM_TYPES}
    csl_of_zotero_type = {z: c for c, zs in csl["types"].items() if c in ITEM_TYPES for z in zs
                          if z not in SKIPPED_TYPES}
    base_to_csl: dict[str, str] = {}
    for variable, zotero_fields in csl["fields"]["text"].items():
        variable = CSL_RENAMES.get(variable, variable)
        if variable in TEXT_VARIABLE_SET:
            for zotero_field in zotero_fields:
                base_to_csl.setdefault(zotero_field, variable)
    dates_to_csl = {z: c for c, z in csl["fields"]["date"].items() if c in DATE_VARIABLE_SET}
    creator_to_csl = {z: c for z, c in csl["names"].items() if c in NAME_VARIABLE_SET}
    fields: dict[str, dict[str, str]] = {}
    date_fields: dict[str, dict[str, str]] = {}
    creators: dict[str, dict[str, str]] = {}
    base_fields: dict[str, str] = {}
    other_fields: dict[str, list[str]] = {}
    other_creators: dict[str, list[str]] = {}
    for item_type in types:
        name = item_type["itemType"]
        fields[name], date_fields[name], creators[name] = {}, {}, {}
        for entry in item_type["fields"]:
            field, base = entry["field"], entry.get("baseField", entry["field"])
            if base != field:
                base_fields[field] = base
            for key in (field, base):
                if key in base_to_csl:
                    fields[name].setdefault(base_to_csl[key], field)
                if key in dates_to_csl:
                    date_fields[name].setdefault(dates_to_csl[key], field)
        for entry in item_type["creatorTypes"]:
            creator = entry["creatorType"]
            role = "author" if entry.get("primary") else creator_to_csl.get(creator)
            if role is not None:
                creators[name].setdefault(role, creator)
        mapped = set(fields[name].values()) | set(date_fields[name].values()) | {"extra"}
        other_fields[name] = [e["field"] for e in item_type["fields"]
                              if e["field"] not in mapped]
        other_creators[name] = [e["creatorType"] for e in item_type["creatorTypes"]
                                if e["creatorType"] not in creators[name].values()]
    return {
        "SCHEMA_VERSION": schema["version"],
        "ZOTERO_TYPE_OF_CSL": dict(sorted(zotero_of_csl_type.items())),
        "CSL_TYPE_OF_ZOTERO": dict(sorted(csl_of_zotero_type.items())),
        "FIELDS": fields,
        "DATE_FIELDS": date_fields,
        "CREATORS": creators,
        "BASE_FIELDS": dict(sorted(base_fields.items())),
        "OTHER_FIELDS": other_fields,
        "OTHER_CREATORS": other_creators,
    }


def render(tables: dict[str, Any]) -> str:
    text = HEADER.format(version=tables["SCHEMA_VERSION"])
    annotations = {"SCHEMA_VERSION": "int", "ZOTERO_TYPE_OF_CSL": "dict[str, str]",
                   "CSL_TYPE_OF_ZOTERO": "dict[str, str]",
                   "FIELDS": "dict[str, dict[str, str]]",
                   "DATE_FIELDS": "dict[str, dict[str, str]]",
                   "CREATORS": "dict[str, dict[str, str]]", "BASE_FIELDS": "dict[str, str]",
                   "OTHER_FIELDS": "dict[str, list[str]]",
                   "OTHER_CREATORS": "dict[str, list[str]]"}
    for name, value in tables.items():
        body = json.dumps(value, indent=4, ensure_ascii=False)  # a valid Python literal too
        text += f"{name}: {annotations[name]} = {body}\n\n"
    return text.rstrip("\n") + "\n"

