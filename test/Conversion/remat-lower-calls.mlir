// RUN: remat-opt %s --remat-lower --mlir-print-debuginfo | FileCheck %s

// A call to a function defined in the module is inlined, nested calls too,
// every inlined op with the call's location (the memory model counts the
// callee's buffers live until the call's last op). A recursive callee stays
// a call.
// CHECK-LABEL: func.func @calls(
// CHECK-SAME: %[[X:.+]]: tensor<4xf32>
// CHECK: %[[T:.+]] = tosa.tanh %[[X]] {{.*}} loc(#[[CALL:[a-z0-9_]+]])
// CHECK: %[[E:.+]] = tosa.exp %[[T]] {{.*}} loc(#[[CALL]])
// CHECK: %[[A:.+]] = tosa.abs %[[E]] {{.*}} loc(#[[CALL]])
// CHECK: %[[R:.+]] = call @recursive(%[[A]])
// CHECK: return %[[R]]
// CHECK: #[[CALL]] = loc(fused<0 : i64>[
func.func private @inner(%a: tensor<4xf32>) -> tensor<4xf32> {
  %e = tosa.exp %a : (tensor<4xf32>) -> tensor<4xf32>
  return %e : tensor<4xf32>
}
func.func private @outer(%a: tensor<4xf32>) -> tensor<4xf32> {
  %t = tosa.tanh %a : (tensor<4xf32>) -> tensor<4xf32>
  %e = func.call @inner(%t) : (tensor<4xf32>) -> tensor<4xf32>
  %b = tosa.abs %e : (tensor<4xf32>) -> tensor<4xf32>
  return %b : tensor<4xf32>
}
func.func private @recursive(%a: tensor<4xf32>) -> tensor<4xf32> {
  %r = func.call @recursive(%a) : (tensor<4xf32>) -> tensor<4xf32>
  return %r : tensor<4xf32>
}
remat.graph @calls(%x: tensor<4xf32>) -> (tensor<4xf32>) {
  %c = func.call @outer(%x) : (tensor<4xf32>) -> tensor<4xf32>
  remat.backward
  %r = func.call @recursive(%c) : (tensor<4xf32>) -> tensor<4xf32>
  remat.return %r : tensor<4xf32>
}
