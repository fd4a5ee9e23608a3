#!/usr/bin/env bash
# Installs what is needed (first run only) and opens bandu-sim. Arguments go to `bandu-sim play`.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/tools/bootstrap.sh"
bootstrap_system runtime
bootstrap_venv runtime
if [ -z "${DISPLAY:-}" ] && [ -z "${WAYLAND_DISPLAY:-}" ]; then
    say "no screen found (DISPLAY is not set); on a headless machine try: xvfb-run -a ./play.sh"
    exit 1
fi
exec "$VENV/bin/bandu-sim" play "$@"
