"""Personal names: splitting names written in reading order, the BibTeX name grammar, and people's identifiers at the services."""
