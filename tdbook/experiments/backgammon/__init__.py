"""Backgammon: TD-Gammon after Powell (2000) §7 (notebook 08), the symmetric gammon net (notebook 09) and its campaign
(notebook 10)."""
