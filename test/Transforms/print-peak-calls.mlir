// RUN: remat-opt %s --split-input-file --remat-print-peak -o /dev/null | FileCheck %s

// A call to a function defined in the module runs the callee's ops in its
// place (remat-lower inlines it): besides its 128-byte result, the callee's
// other buffers (tanh, exp: 256 bytes) are scratch while the call runs.
// Before: the call counted as its result only (peak 384 bytes).
// CHECK-LABEL: @step: peak 512 bytes at op #1 'func.call'
// CHECK:         timeline: 128 512 384
func.func private @helper(%a: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %t = tosa.tanh %a : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %e = tosa.exp %t : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %s = tosa.add %e, %a : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  return %s : tensor<4x8xf32>
}
func.func @step(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %a = tosa.tanh %x : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %c = func.call @helper(%a) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %d = tosa.add %c, %a : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  return %d : tensor<4x8xf32>
}

// -----

// A callee that returns (a view of) its argument allocates nothing for the
// result: the call's result is a view of its operand.
// CHECK-LABEL: @view_step: peak 256 bytes at op #1 'func.call'
// CHECK:         timeline: 128 256 256
func.func private @view(%a: tensor<4x8xf32>) -> tensor<32xf32> {
  %t = tosa.tanh %a : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %s = tosa.const_shape {values = dense<[32]> : tensor<1xindex>} : () -> !tosa.shape<1>
  %r = tosa.reshape %a, %s : (tensor<4x8xf32>, !tosa.shape<1>) -> tensor<32xf32>
  return %r : tensor<32xf32>
}
func.func @view_step(%x: tensor<4x8xf32>) -> tensor<32xf32> {
  %a = tosa.tanh %x : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %c = func.call @view(%a) : (tensor<4x8xf32>) -> tensor<32xf32>
  %e = tosa.exp %c : (tensor<32xf32>) -> tensor<32xf32>
  return %e : tensor<32xf32>
}
