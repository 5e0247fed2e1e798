"""refbridge: publication records into every form a researcher needs.

Readers turn profile pages, BibTeX/BibLaTeX, RIS, CSL-JSON and Zotero RDF into one citation
model (``refbridge.model``); writers turn the model into those formats and formatted lists.
This package's top level stays import-light so the command line starts fast.
"""

__version__ = "0.1.0"
