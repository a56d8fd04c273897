#!/usr/bin/env bash
# bootstrap.sh PACKAGE...: installs Debian packages; the one place the scripts call apt-get.
# As root, or through sudo; a machine without apt-get must have them already (the error names them).
set -euo pipefail
(($# > 0)) || exit 0
sudo=""
if ((EUID != 0)); then
    command -v sudo >/dev/null || { echo "bootstrap: need $* (run as root on Debian, or install them)" >&2; exit 1; }
    sudo="sudo"
fi
command -v apt-get >/dev/null || { echo "bootstrap: need $* and this machine has no apt-get" >&2; exit 1; }
echo "bootstrap: apt-get install $*" >&2
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get install -y -qq --no-install-recommends "$@" >/dev/null 2>&1 ||
    { $sudo apt-get update -qq && $sudo apt-get install -y -qq --no-install-recommends "$@" >/dev/null; }
