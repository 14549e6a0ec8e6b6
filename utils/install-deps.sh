#!/usr/bin/env bash
# Installs every system package ptx-jit needs (Debian 12), idempotently:
# packages already present are not touched, and apt is only asked when
# something is missing.
set -euo pipefail

PACKAGES=(
  cmake ninja-build g++ python3
  llvm-22-dev llvm-22-tools clang-22 libclang-cpp22-dev libclang-22-dev
  libclang-rt-22-dev libzstd-dev liblz4-dev
  libgtest-dev libbenchmark-dev
  pocl-opencl-icd ocl-icd-opencl-dev
  gdb
)

missing=()
for p in "${PACKAGES[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed"; then
    missing+=("$p")
  fi
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all ${#PACKAGES[@]} packages are installed"
  exit 0
fi

SUDO=""
if [ "$(id -u)" -ne 0 ]; then
  SUDO="sudo"
fi
echo "install-deps: installing ${missing[*]}"
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${missing[@]}"
