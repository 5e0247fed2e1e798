"""Verifying a library against the services, and bringing preprints up to their published
versions: the jobs of ``refbridge verify`` and ``refbridge upgrade``.

``lookup`` asks the services (through ``refbridge.services``' polite client and service
modules) what they know of each entry, ``compare`` and ``classify`` judge the answers,
``report`` prints the verdicts, ``upgrade`` replaces preprints by their published versions in a
.bib, every other byte kept, and ``run`` ties them together. Nothing here runs at import time.
"""
