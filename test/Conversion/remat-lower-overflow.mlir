// RUN: remat-opt %s --remat-lower --split-input-file --verify-diagnostics
// RUN: not remat-opt %s --remat-to-cpu --split-input-file -o /dev/null 2>&1 | FileCheck %s

// A static shape whose byte count overflows 64 bits cannot be allocated:
// refused before lowering, at the value that has it.
// CHECK: remat-lower-overflow.mlir:[[@LINE+2]]:20: error: 'tensor<4611686018427387904xf32>' has 4611686018427387904 elements of 4 bytes: its size overflows 64 bits
// expected-error @below {{'tensor<4611686018427387904xf32>' has 4611686018427387904 elements of 4 bytes: its size overflows 64 bits}}
remat.graph @bytes(%x: tensor<4611686018427387904xf32>) -> tensor<4611686018427387904xf32> {
  remat.return %x : tensor<4611686018427387904xf32>
}

// -----

func.func @elements() -> tensor<4294967296x4294967296xi8> {
  // CHECK: remat-lower-overflow.mlir:[[@LINE+2]]:8: error: 'tensor<4294967296x4294967296xi8>' has more than 2^64 elements of 1 byte: its size overflows 64 bits
  // expected-error @below {{has more than 2^64 elements of 1 byte: its size overflows 64 bits}}
  %y = tensor.empty() : tensor<4294967296x4294967296xi8>
  return %y : tensor<4294967296x4294967296xi8>
}
