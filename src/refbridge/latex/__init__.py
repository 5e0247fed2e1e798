"""LaTeX <-> Unicode conversion for bibliographic text fields."""
