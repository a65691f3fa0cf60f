// RUN: not remat-opt %s --split-input-file --remat-print-peak -o /dev/null 2>&1 | FileCheck %s

// 2^62 elements of 4 bytes: the shape is static, its byte count is not a
// 64-bit number.
// CHECK: print-peak-overflow.mlir:[[@LINE+1]]:18: error: 'tensor<4611686018427387904xf32>' has 4611686018427387904 elements of 4 bytes: its size overflows 64 bits
func.func @bytes(%x: tensor<4611686018427387904xf32>) -> tensor<4611686018427387904xf32> {
  return %x : tensor<4611686018427387904xf32>
}

// -----

// CHECK: print-peak-overflow.mlir:[[@LINE+2]]:8: error: 'tensor<4294967296x4294967296xi8>' has more than 2^64 elements of 1 byte: its size overflows 64 bits
func.func @elements(%x: tensor<4xi8>) -> tensor<4294967296x4294967296xi8> {
  %y = tensor.empty() : tensor<4294967296x4294967296xi8>
  return %y : tensor<4294967296x4294967296xi8>
}
