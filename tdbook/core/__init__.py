"""The bottom layer: seeded random streams, where files live, run profiles, atomic storage.

Nothing here knows about games or learning; every other layer may use it.
"""
