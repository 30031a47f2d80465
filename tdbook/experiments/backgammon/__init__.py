"""Backgammon: TD-Gammon after Powell (2000) §7 (notebook 08) and the symmetric gammon net (notebook 09)."""
