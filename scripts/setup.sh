#!/usr/bin/env bash
# Installs the Debian 12 packages Articula builds and tests with, skipping those present.
set -euo pipefail

packages=(
  build-essential cmake g++ pkg-config
  libgtest-dev libbenchmark-dev
  libeigen3-dev libassimp-dev libtinygltf-dev nlohmann-json3-dev libcli11-dev
  qt6-base-dev libqt6opengl6-dev libqcustomplot-dev
  xvfb xauth libgl1-mesa-dri
)

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done
[ ${#missing[@]} -eq 0 ] && exit 0

echo "Installing: ${missing[*]}"
sudo=""
if [ "$(id -u)" -ne 0 ]; then
  command -v sudo >/dev/null || { echo "error: need root (or sudo) to install: ${missing[*]}" >&2; exit 1; }
  sudo="sudo"
fi
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
