#!/bin/sh
# Installs Debian/Ubuntu packages for the Makefile: sh tools/apt-install.sh PACKAGE...
# As root it runs apt-get; otherwise through `sudo -n` (a hosted runner's passwordless sudo). With
# neither, it says exactly what to install and stops (exit 1): make never waits for a password.
set -e
if [ "$(id -u)" = 0 ]; then
  as_root=""
elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
  as_root="sudo -n"
else
  echo "make needs these packages, and cannot install them: not root, and no sudo without a password." >&2
  echo "Install them, then run make again:" >&2
  echo "    sudo apt-get install $*" >&2
  exit 1
fi
if ! command -v apt-get >/dev/null 2>&1; then
  echo "make needs the Debian/Ubuntu packages $*, and this system has no apt-get: install their equivalents." >&2
  exit 1
fi
$as_root env DEBIAN_FRONTEND=noninteractive apt-get update
$as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y "$@"
