"""Stability studies: many builds of a scene's towers, in many orders, each with a seeded
release noise, judged as a probability of standing (`bandu-sim stability --trials ...`).

Headless (imports the physics, never pyglet):

    limits.py     the limits and defaults (no physics: the command line names them)
    orderings.py  the orderings of a tower's pieces to judge: given, all, or N seeded at random
    wilson.py     the Wilson score interval of a stand rate
    jobs.py       one job (one build of one ordering with one seed) and running it
    local.py      the local backend: jobs on a pool of spawned processes, or in this one
    study.py      a study planned from scenes, run, and aggregated (per ordering, per piece)
    terminal_table.py  the study as a table on the terminal
    report.py     `--report DIR`: an HTML page, the raw results as CSV and JSON
    plots.py      the report's charts (matplotlib, Agg)
    pictures.py   the report's pictures of towers (PyBullet's software renderer, no window)
    command.py    `bandu-sim stability` as a study: checks, progress, interruption, output
"""
