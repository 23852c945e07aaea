#!/usr/bin/env bash
# Installs the Debian packages snag needs to build and test, only when one is missing.
set -euo pipefail

packages=(
  cmake ninja-build make g++ python3 python3-jsonschema
  clang-14 llvm-14-dev llvm-14-tools libclang-rt-14-dev
  libgtest-dev nlohmann-json3-dev libcli11-dev libfmt-dev
  # bench/sctbench.py only: pbzip2 links libbz2, SPLASH-2's sources are m4 macros
  libbz2-dev m4
)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

echo "snag: installing missing packages: ${missing[*]}"
sudo=""
[ "$(id -u)" -ne 0 ] && sudo="sudo"
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
