"""refbridge's version, in one place: the package metadata (``pyproject.toml`` reads it from
here), ``refbridge.__version__``, ``--version``, and what the services and reports that name
refbridge send. This module must never import anything."""

__version__ = "0.1.0"
