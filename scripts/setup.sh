#!/usr/bin/env bash
# Installs the Debian 12 packages Articula builds and tests with, skipping those present,
# the glTF validator the export tests run, and the clients the client judge plays files in
# (Blender from Debian; three.js and Babylon.js from npm).
set -euo pipefail

packages=(
  build-essential cmake g++ pkg-config
  libgtest-dev libbenchmark-dev
  libeigen3-dev libassimp-dev libtinygltf-dev nlohmann-json3-dev libcli11-dev libmeshoptimizer-dev
  qt6-base-dev libqt6opengl6-dev libqcustomplot-dev
  xvfb xauth libgl1-mesa-dri
  clang libclang-rt-14-dev
  blender python3-numpy
)

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done
# node and npm run the glTF validator; a machine that has them from elsewhere keeps those.
if ! command -v node >/dev/null || ! command -v npm >/dev/null; then
  missing+=(nodejs npm)
fi
if [ ${#missing[@]} -ne 0 ]; then
  echo "Installing: ${missing[*]}"
  sudo=""
  if [ "$(id -u)" -ne 0 ]; then
    command -v sudo >/dev/null || { echo "error: need root (or sudo) to install: ${missing[*]}" >&2; exit 1; }
    sudo="sudo"
  fi
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
fi

# The Khronos glTF validator, which every export test runs (tests/tools/validate_gltf.mjs).
# Installed locally into tests/tools/node_modules (gitignored), never globally; needs node
# and npm (Debian: nodejs, npm).
tools="$(cd "$(dirname "${BASH_SOURCE[0]}")/../tests/tools" && pwd)"
validator_version="2.0.0-dev.3.10"
if [ ! -f "$tools/node_modules/gltf-validator/package.json" ] ||
   ! grep -q "\"version\": \"$validator_version\"" "$tools/node_modules/gltf-validator/package.json"; then
  echo "Installing gltf-validator $validator_version into $tools/node_modules"
  npm install --prefix "$tools" --no-save --no-package-lock --no-audit --no-fund "gltf-validator@$validator_version" >/dev/null
fi

# The client judge (tests/tools/client_judge: three.js and Babylon.js at pinned versions, beside
# Blender) that test_cli_clients runs on the files articula-cli writes; into its own
# node_modules (gitignored).
"$tools/client_judge/setup.sh"
