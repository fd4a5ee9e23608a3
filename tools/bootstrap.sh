#!/usr/bin/env bash
# Installs what bandu-sim needs, then returns; sourced by play.sh and test.sh.
#   bootstrap_system runtime|test   Debian packages (installed when missing and we are root)
#   bootstrap_venv   runtime|test   .venv with the package (re-installed when pyproject changes)
set -euo pipefail

REPO_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
VENV="${BANDU_SIM_VENV:-$REPO_ROOT/.venv}"

RUNTIME_DEBS=(libgl1 libgl1-mesa-dri libglx-mesa0 libegl1 libx11-6 libxext6 libxi6 libxrandr2
              libxinerama1 libxcursor1 libxxf86vm1 libfontconfig1 libfreetype6 fonts-dejavu-core)
TEST_DEBS=(xvfb xauth)

say() { printf 'bandu-sim setup: %s\n' "$*" >&2; }

find_python() {
    for candidate in python3.13 python3.12 python3.11 python3; do
        if command -v "$candidate" >/dev/null 2>&1 &&
           "$candidate" -c 'import sys; sys.exit(sys.version_info < (3, 11))' 2>/dev/null; then
            echo "$candidate"; return 0
        fi
    done
    say "Python 3.11 or newer is needed (apt-get install python3)"; exit 1
}

missing_debs() {
    command -v dpkg-query >/dev/null 2>&1 || return 0   # not Debian: trust the system
    local pkg
    for pkg in "$@"; do
        dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" || echo "$pkg"
    done
}

install_debs() {
    local missing
    missing=$(missing_debs "$@" | tr '\n' ' ')
    [ -z "${missing// /}" ] && return 0
    if [ "$(id -u)" -ne 0 ]; then
        say "missing system packages; run: sudo apt-get install -y $missing"; exit 1
    fi
    say "installing system packages: $missing"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq >/dev/null
    # shellcheck disable=SC2086
    apt-get install -y -qq --no-install-recommends $missing >/dev/null
}

bootstrap_system() {
    local debs=("${RUNTIME_DEBS[@]}")
    [ "${1:-runtime}" = test ] && debs+=("${TEST_DEBS[@]}")
    install_debs "${debs[@]}"
}

bootstrap_venv() {
    local python extras stamp hash installed
    python=$(find_python)
    if [ ! -x "$VENV/bin/python" ]; then
        if ! "$python" -m venv "$VENV" >/dev/null 2>&1; then
            rm -rf "$VENV"
            local venv_pkg
            venv_pkg="python3-venv"
            install_debs "$venv_pkg"
            "$python" -m venv "$VENV"
        fi
    fi
    # the stamp records the pyproject hash and what was installed: "HASH runtime" or "HASH test"
    stamp="$VENV/.bandu-sim-installed"
    hash="$(sha256sum < "$REPO_ROOT/pyproject.toml" | cut -c1-16)"
    installed="$(cat "$stamp" 2>/dev/null || true)"
    if [ "$installed" = "$hash test" ] || [ "$installed" = "$hash ${1:-runtime}" ]; then
        return 0
    fi
    extras=""
    [ "${1:-runtime}" = test ] && extras="[test]"
    say "installing Python packages into $VENV (log: $VENV/install.log)"
    if ! { "$VENV/bin/python" -m pip install --upgrade pip &&
           "$VENV/bin/python" -m pip install -e "$REPO_ROOT$extras"; } > "$VENV/install.log" 2>&1; then
        tail -n 20 "$VENV/install.log" >&2
        say "installing Python packages failed; the whole log is $VENV/install.log"; exit 1
    fi
    echo "$hash ${1:-runtime}" > "$stamp"
}
