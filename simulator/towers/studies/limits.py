"""A study's limits and defaults, apart from the code that needs the physics, so that the
command line can name them in its help without loading PyBullet."""

MAX_TRIALS = 10_000       # builds of each ordering
MAX_ORDERINGS = 5040      # orderings of one tower (7 pieces in every order)
MAX_JOBS = 200_000        # builds in one study (each takes from a tenth of a second up)
DEFAULT_TRIALS = 10
