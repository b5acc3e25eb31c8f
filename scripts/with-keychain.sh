#!/usr/bin/env bash
# Run a command with a usable Secret Service (the Linux OS keychain).
#
# - A Secret Service already answers on the session bus: run the command as is.
# - Otherwise, if gnome-keyring-daemon and dbus-run-session exist: run it inside a throwaway
#   D-Bus session with a fresh, unlocked keyring in a temporary XDG_DATA_HOME (nothing touches
#   the user's real keyrings; everything is gone when the command ends).
# - Otherwise run it as is; keychain tests then skip with a reason (or fail if REQUIRE_KEYCHAIN=1).
set -euo pipefail

if [ "$#" -eq 0 ]; then
  echo "usage: scripts/with-keychain.sh <command> [args...]" >&2
  exit 2
fi

secret_service_reachable() {
  [ -n "${DBUS_SESSION_BUS_ADDRESS:-}" ] || return 1
  command -v dbus-send >/dev/null 2>&1 || return 1
  dbus-send --session --print-reply --dest=org.freedesktop.DBus /org/freedesktop/DBus \
    org.freedesktop.DBus.NameHasOwner string:org.freedesktop.secrets 2>/dev/null | grep -q 'boolean true'
}

if [ "$(uname -s)" != "Linux" ] || secret_service_reachable; then
  exec "$@"
fi

if ! command -v gnome-keyring-daemon >/dev/null 2>&1 || ! command -v dbus-run-session >/dev/null 2>&1; then
  echo "with-keychain: no Secret Service and no gnome-keyring-daemon/dbus-run-session here; keychain tests will be skipped (install gnome-keyring to run them)" >&2
  exec "$@"
fi

scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT
mkdir -p "$scratch/data" "$scratch/runtime"
chmod 700 "$scratch/runtime"

status=0
# A fresh XDG_DATA_HOME means --unlock creates a new default keyring with this password (an
# existing keyring with another password would stay locked: --unlock does not report that).
XDG_DATA_HOME="$scratch/data" XDG_RUNTIME_DIR="$scratch/runtime" SVC_PROXY_TEST_KEYRING=1 \
  dbus-run-session -- bash -c '
    printf %s "svc-proxy-test-keyring" | gnome-keyring-daemon --unlock --components=secrets >/dev/null 2>&1
    for _ in $(seq 50); do
      dbus-send --session --print-reply --dest=org.freedesktop.DBus /org/freedesktop/DBus \
        org.freedesktop.DBus.NameHasOwner string:org.freedesktop.secrets 2>/dev/null | grep -q "boolean true" && break
      sleep 0.1
    done
    "$@"
  ' with-keychain "$@" || status=$?
exit "$status"
