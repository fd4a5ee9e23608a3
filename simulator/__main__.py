"""Entry point for `python -m simulator`."""

from simulator.cli import main

if __name__ == "__main__":     # guarded: worker processes (spawn) import this module again
    raise SystemExit(main())
