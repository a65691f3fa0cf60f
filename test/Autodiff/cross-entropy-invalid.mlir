// RUN: remat-opt %s --split-input-file --verify-diagnostics --remat-autodiff="loss=cross-entropy num-batch-args=1" | FileCheck %s

// expected-error @below {{remat-autodiff: loss=cross-entropy needs logits with a class axis after at least one other axis, got 'tensor<3xf32>'}}
func.func @vector(%x: tensor<3xf32>, %w: tensor<3xf32>) -> tensor<3xf32> {
  return %w : tensor<3xf32>
}

// -----

// The labels come after the batch argument, before the parameters, and
// keep their shape without the class axis.
// CHECK-LABEL: remat.graph @labels_after_batch(
// CHECK-SAME:    %[[X:.+]]: tensor<2x5xf32> {onnx.name = "x"}, %[[L:.+]]: tensor<2xi32>, %[[W:.+]]: tensor<2x5xf32> {onnx.name = "w"})
// CHECK:         tosa.add %[[X]], %[[W]]
func.func @labels_after_batch(%x: tensor<2x5xf32> {onnx.name = "x"}, %w: tensor<2x5xf32> {onnx.name = "w"}) -> tensor<2x5xf32> {
  %0 = tosa.add %x, %w : (tensor<2x5xf32>, tensor<2x5xf32>) -> tensor<2x5xf32>
  return %0 : tensor<2x5xf32>
}
