"""Answers of the profile services (ORCID, dblp, OpenAlex, Semantic Scholar, arXiv, Google Scholar) as saved files."""
