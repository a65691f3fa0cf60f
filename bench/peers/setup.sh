#!/usr/bin/env bash
# Installs what bench/peers/pytorch_peer.py and bench/cnn-batch16.py need
# and the test suite does not: Debian's PyTorch (1.13, CPU), torchvision
# (models exported to ONNX), NumPy, networkx for AOTAutograd's min-cut
# partitioner, and OpenBLAS's serial BLAS, which Debian's alternatives then
# select as libblas.so.3 over the reference BLAS (5-15x slower on PyTorch's
# matrix products; bench/compiled-speed.py compares against it), and the
# onnx package, with which transformer_plan_times.py deepens an exported
# decoder. Returns at once when they are installed.
set -euo pipefail

packages=(python3-torch python3-torchvision python3-numpy python3-networkx
  python3-onnx libopenblas0-serial)
installed=$(dpkg-query -W -f='${Status}\n' "${packages[@]}" 2>/dev/null |
  grep -c "ok installed" || true)
if [ "$installed" -eq "${#packages[@]}" ]; then
  exit 0
fi
sudo=$([ "$(id -u)" -eq 0 ] || echo sudo)
echo "bench/peers/setup.sh: installing ${packages[*]}" >&2
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq \
  --no-install-recommends "${packages[@]}" >/dev/null
