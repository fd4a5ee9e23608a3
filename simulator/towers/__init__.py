"""The tower library: Bandu's wooden pieces (pieces/), their physics in PyBullet (physics/) and
stability studies of towers built from them (studies/). Only Bandu's package and the commands it
brings use it (tests/test_layering.py checks it); nothing in it names another game."""
