"""Checkers: Samuel's signature tables (notebook 01) and Samuel's checkers polynomial (notebook 02)."""
