// A step whose buffers cannot be placed in an arena of at most 2^63 - 1
// bytes (the largest memref) is an error at the step, not a wrapped or
// negative arena_bytes with live buffers sharing offsets. A tensor takes
// less than 2^61 bytes (its bit count must fit in 64 bits), so it takes
// several live at once.
//
// RUN: not remat-opt %s --split-input-file --remat-plan="report=%t.json" -o /dev/null 2>&1 | FileCheck %s
// RUN: not remat-opt %s --split-input-file --remat-plan="budget=0.5 arena-alignment=4096" -o /dev/null 2>&1 | FileCheck %s

// Five tensors of 2^61 - 64 bytes live at once: past 2^63.
// CHECK: plan-arena-overflow.mlir:[[@LINE+1]]:{{[0-9]+}}: error: the buffers of @five do not fit in one arena of at most 9223372036854775807 bytes (aligned to {{64|4096}}): its size overflows
func.func @five(%x: tensor<576460752303423472xf32>) -> (tensor<576460752303423472xf32>, tensor<576460752303423472xf32>, tensor<576460752303423472xf32>, tensor<576460752303423472xf32>, tensor<576460752303423472xf32>) {
  %v0 = tosa.exp %x : (tensor<576460752303423472xf32>) -> tensor<576460752303423472xf32>
  %v1 = tosa.exp %v0 : (tensor<576460752303423472xf32>) -> tensor<576460752303423472xf32>
  %v2 = tosa.exp %v1 : (tensor<576460752303423472xf32>) -> tensor<576460752303423472xf32>
  %v3 = tosa.exp %v2 : (tensor<576460752303423472xf32>) -> tensor<576460752303423472xf32>
  %v4 = tosa.exp %v3 : (tensor<576460752303423472xf32>) -> tensor<576460752303423472xf32>
  return %v0, %v1, %v2, %v3, %v4 : tensor<576460752303423472xf32>, tensor<576460752303423472xf32>, tensor<576460752303423472xf32>, tensor<576460752303423472xf32>, tensor<576460752303423472xf32>
}

// -----

// Nine of them: past 2^64 too, where an unchecked sum would wrap.
// CHECK: plan-arena-overflow.mlir:[[@LINE+1]]:{{[0-9]+}}: error: the buffers of @nine do not fit in one arena of at most 9223372036854775807 bytes (aligned to {{64|4096}}): its size overflows
func.func @nine(%x: tensor<576460752303423472xf32>) -> (tensor<576460752303423472xf32>, tensor<576460752303423472xf32>, tensor<576460752303423472xf32>, tensor<576460752303423472xf32>, tensor<576460752303423472xf32>, tensor<576460752303423472xf32>, tensor<576460752303423472xf32>, tensor<576460752303423472xf32>, tensor<576460752303423472xf32>) {
  %v0 = tosa.exp %x : (tensor<576460752303423472xf32>) -> tensor<576460752303423472xf32>
  %v1 = tosa.exp %v0 : (tensor<576460752303423472xf32>) -> tensor<576460752303423472xf32>
  %v2 = tosa.exp %v1 : (tensor<576460752303423472xf32>) -> tensor<576460752303423472xf32>
  %v3 = tosa.exp %v2 : (tensor<576460752303423472xf32>) -> tensor<576460752303423472xf32>
  %v4 = tosa.exp %v3 : (tensor<576460752303423472xf32>) -> tensor<576460752303423472xf32>
  %v5 = tosa.exp %v4 : (tensor<576460752303423472xf32>) -> tensor<576460752303423472xf32>
  %v6 = tosa.exp %v5 : (tensor<576460752303423472xf32>) -> tensor<576460752303423472xf32>
  %v7 = tosa.exp %v6 : (tensor<576460752303423472xf32>) -> tensor<576460752303423472xf32>
  %v8 = tosa.exp %v7 : (tensor<576460752303423472xf32>) -> tensor<576460752303423472xf32>
  return %v0, %v1, %v2, %v3, %v4, %v5, %v6, %v7, %v8 : tensor<576460752303423472xf32>, tensor<576460752303423472xf32>, tensor<576460752303423472xf32>, tensor<576460752303423472xf32>, tensor<576460752303423472xf32>, tensor<576460752303423472xf32>, tensor<576460752303423472xf32>, tensor<576460752303423472xf32>, tensor<576460752303423472xf32>
}
