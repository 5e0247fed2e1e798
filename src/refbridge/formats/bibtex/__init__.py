"""BibTeX and BibLaTeX: the .bib syntax, its reader and writer, and their tables."""
