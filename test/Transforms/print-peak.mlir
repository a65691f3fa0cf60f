// RUN: remat-opt %s --split-input-file --remat-print-peak -o /dev/null | FileCheck %s
// RUN: remat-opt %s --split-input-file --remat-print-peak=count-inputs -o /dev/null | FileCheck %s --check-prefix=INPUTS

// Three 128-byte buffers: the peak is while the add runs (operands and
// result live together).
// CHECK-LABEL: @chain: peak 384 bytes at op #2 'tosa.add'
// CHECK-NEXT:    live %{{[0-9]+}}: 128 bytes
// CHECK-NEXT:    live %{{[0-9]+}}: 128 bytes
// CHECK-NEXT:    live %{{[0-9]+}}: 128 bytes
// CHECK-NEXT:    timeline: 128 256 384
// INPUTS-LABEL: @chain: peak 512 bytes
func.func @chain(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %a = tosa.tanh %x : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %b = tosa.exp %a : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %c = tosa.add %a, %b : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  return %c : tensor<4x8xf32>
}

// -----

// A reshape is a view: it allocates nothing and keeps %a alive until the
// view's last use. Constants are read-only globals: 0 bytes.
// CHECK-LABEL: @views: peak 256 bytes at op #3 'tosa.exp'
// CHECK-NEXT:    live %{{[0-9]+}}: 128 bytes
// CHECK-NEXT:    live %{{[0-9]+}}: 128 bytes
// CHECK-NEXT:    timeline: 128 128 128 256
func.func @views(%x: tensor<4x8xf32>) -> tensor<32xf32> {
  %a = tosa.tanh %x : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %s = tosa.const_shape {values = dense<[32]> : tensor<1xindex>} : () -> !tosa.shape<1>
  %r = tosa.reshape %a, %s : (tensor<4x8xf32>, !tosa.shape<1>) -> tensor<32xf32>
  %e = tosa.exp %r : (tensor<32xf32>) -> tensor<32xf32>
  return %e : tensor<32xf32>
}

// -----

// Element widths: every element takes whole bytes, as memrefs are laid out
// (an i1 takes one).
// CHECK-LABEL: @widths: peak 27 bytes
// CHECK-NEXT:    live %{{[0-9]+}}: 18 bytes
// CHECK-NEXT:    live %{{[0-9]+}}: 9 bytes
func.func @widths(%x: tensor<9xf16>) -> (tensor<9xi1>, tensor<9xf16>) {
  %z = "tosa.const"() <{values = dense<0.0> : tensor<9xf16>}> : () -> tensor<9xf16>
  %a = tosa.abs %x : (tensor<9xf16>) -> tensor<9xf16>
  %m = tosa.greater %a, %z : (tensor<9xf16>, tensor<9xf16>) -> tensor<9xi1>
  return %m, %a : tensor<9xi1>, tensor<9xf16>
}

