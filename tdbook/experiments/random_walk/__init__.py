"""The bounded random walk of Powell (2000) §5: TD(λ) against Monte Carlo (notebook 05)."""
