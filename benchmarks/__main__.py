"""`python -m benchmarks [NAME [OPTIONS]]`: see the package's docstring."""

from benchmarks import main

if __name__ == "__main__":      # guarded: a worker process started by spawn imports it again
    raise SystemExit(main())
