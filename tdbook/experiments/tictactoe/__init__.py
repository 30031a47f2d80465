"""Tic-tac-toe after Powell (2000) §6: TD(λ) tables (notebook 06) and TD nets (notebook 07)."""
