// RUN: remat-opt %s --remat-gpu-map-loops="block-size=100" --verify-diagnostics

// expected-error @+1 {{block-size must be a multiple of 32 between 32 and 1024, not 100}}
func.func @bad_block_size() {
  return
}
