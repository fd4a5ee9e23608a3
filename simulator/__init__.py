"""bandu-sim: a desktop simulator of wooden board games (Bandu, Tanbo, Bandida, Bunko, Buddel Bande)."""

__version__ = "0.1.0"
