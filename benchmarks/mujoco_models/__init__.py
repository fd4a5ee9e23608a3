"""MuJoCo models of the pieces, a second and independent engine: boxes.py runs the box
validation scenes (tests/test_mujoco_crosscheck.py), pieces.py towers of any piece (the
`crosscheck` benchmark and tests/test_mujoco_pieces.py). Both need `mujoco` (test extras)."""
