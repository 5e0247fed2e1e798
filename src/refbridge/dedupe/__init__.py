"""``refbridge dedupe``: the same work recorded twice in a library, found and merged.

``matching`` decides which entries are one work, ``combine`` merges each group into one entry,
``rewrite`` rewrites the documents' citations of the keys that go, ``run`` is the command's
job (read, decide, write the library, the map of renamed keys and the documents). This package
must never merge entries that are not the same work, nor write anything on a dry run.
"""
