"""Hayagriva, Typst's YAML bibliography: its reader and writer (``codec``), the syntax of its
values (``syntax``) and its mapping tables (``tables``)."""
