"""The formats: one module per format, a package per family of formats that share code."""
