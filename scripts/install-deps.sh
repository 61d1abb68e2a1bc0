#!/usr/bin/env bash
# Installs the Debian 12 packages nicsim needs to build, test and plot.
# Idempotent: safe to run again; apt-get skips what is already installed.
set -euo pipefail
if [ "$(id -u)" -ne 0 ]; then
  echo "install-deps.sh: run as root (it calls apt-get)" >&2
  exit 2
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update
apt-get install -y --no-install-recommends \
  build-essential cmake pkg-config \
  libsystemc-dev libyaml-dev libjansson-dev \
  libnlopt-dev libgsl-dev \
  googletest libgtest-dev \
  gnuplot-nox parallel chromium \
  clang-14 libclang-rt-14-dev llvm-14 python3 \
  libc6-dev-arm64-cross libc6-dev-armhf-cross libc6-dev-riscv64-cross \
  libc6-dev-sparc64-cross libc6-dev-mipsel-cross
