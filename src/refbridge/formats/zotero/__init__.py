"""Zotero RDF, Zotero's own export format, and the Zotero schema's tables."""
