"""Entry point for `python -m simulator`."""

from simulator.cli import main

raise SystemExit(main())
