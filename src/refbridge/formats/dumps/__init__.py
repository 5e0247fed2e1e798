"""Readers of whole bibliographic dumps: dblp.xml, OpenAlex's and Crossref's works files, the
arXiv metadata snapshot. Each reads its input as a stream, one record at a time, so memory does
not grow with the dump; the per-work mappings are those of the services' readers
(``formats/services``) where one exists. This package must never make a request.
"""
