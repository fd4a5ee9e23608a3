"""Bandu physics: the PyBullet world, scenes and the stability verdicts (imports no pyglet)."""
