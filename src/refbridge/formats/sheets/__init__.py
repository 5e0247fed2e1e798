"""Spreadsheets: refbridge's own CSV columns and Scopus's CSV export."""
