"""``refbridge diff``: what changed between two libraries, entry by entry and field by field
(``entries`` reads a library in any format, ``changes`` compares, ``report`` writes text,
JSON or Markdown, ``command`` is the command's and git's side). Layout is never a change.
"""
