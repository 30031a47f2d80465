"""Draw poker: Waterman (1968), production-rule heuristics for the bet decision (notebook 04)."""
