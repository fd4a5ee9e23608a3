#!/usr/bin/env bash
# Installs what is needed (first run only, Xvfb and Mesa included) and runs the whole test suite.
# Arguments go to pytest, e.g. ./test.sh -m "not slow" or ./test.sh tests/test_tanbo_rules.py
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/tools/bootstrap.sh"
bootstrap_system test
bootstrap_venv test
cd "$REPO_ROOT"
exec "$VENV/bin/python" -m pytest "$@"
