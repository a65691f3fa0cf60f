#!/usr/bin/env bash
# Configures (once), builds and installs Remat into build/ and build/install.
# Everything the tests and the demo need; safe to run repeatedly.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"

"$root/scripts/setup.sh"

llvm=/usr/lib/llvm-22
if [ ! -f build/build.ninja ]; then
  cmake -G Ninja -S . -B build \
    -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_C_COMPILER=clang-22 -DCMAKE_CXX_COMPILER=clang++-22 \
    -DLLVM_USE_LINKER=lld \
    -DMLIR_DIR=$llvm/lib/cmake/mlir \
    -DLLVM_EXTERNAL_LIT=$llvm/bin/lit \
    -DCMAKE_INSTALL_PREFIX="$root/build/install" >/dev/null
fi
ninja -C build -j"${REMAT_JOBS:-2}" | grep -v '^\[' || true
test "${PIPESTATUS[0]}" -eq 0
cmake --install build --prefix "$root/build/install" >/dev/null
