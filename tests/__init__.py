"""The test suite, laid out as ``src/refbridge`` is. Each folder is a package (its own empty
``__init__.py``), so pytest imports ``tests/csl/test_output_formats.py`` as
``tests.csl.test_output_formats`` and two test modules of one name in different folders never
collide. The shared helpers (``support``, ``strategies``, the ``*_support`` modules, ``fuzz``)
are imported by their own names: ``pythonpath = ["tests"]`` in pyproject.toml."""
