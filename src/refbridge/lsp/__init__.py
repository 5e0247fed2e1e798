"""``refbridge lsp``: a language server for citations in LaTeX, Markdown, Typst and
reStructuredText documents (``server``), answering from the documents' libraries
(``library``) as ``refbridge.cited`` reads the documents (``documents``), with ``check``'s
findings from a process of their own (``checking``). This package must never write a file:
every edit is the client's to make.
"""
