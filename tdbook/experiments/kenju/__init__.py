"""Kenju, free-style five-in-a-row: the learning player of the Kenju thesis (notebook 03)."""
