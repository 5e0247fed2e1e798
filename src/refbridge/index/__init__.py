"""A local index of whole dumps (dblp, OpenAlex, Crossref, arXiv) in a DuckDB file, which
``refbridge verify --index`` asks instead of the services: ``store`` (the table and its
lookups), ``build`` (dumps into the table), ``source`` (the index as ``verify``'s lookup
source). This package must never make a request.
"""
