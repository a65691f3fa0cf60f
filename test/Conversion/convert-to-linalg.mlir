// RUN: remat-opt %s --split-input-file --pass-pipeline="builtin.module(func.func(remat-convert-to-linalg))" | FileCheck %s

// Nothing folds: negate(negate x) and abs(abs x) stay two ops each, each
// writing a tensor of its own, as the memory model counts them.
// CHECK-LABEL: func.func @folds(
// CHECK-SAME: %[[X:.+]]: tensor<4xf32>
// CHECK: %[[E0:.+]] = tensor.empty() : tensor<4xf32>
// CHECK: %[[N0:.+]] = linalg.generic {{.*}} ins(%[[X]] : tensor<4xf32>) outs(%[[E0]] : tensor<4xf32>)
// CHECK: arith.negf
// CHECK: %[[E1:.+]] = tensor.empty() : tensor<4xf32>
// CHECK: %[[N1:.+]] = linalg.generic {{.*}} ins(%[[N0]] : tensor<4xf32>) outs(%[[E1]] : tensor<4xf32>)
// CHECK: arith.negf
// CHECK: %[[A0:.+]] = linalg.generic {{.*}} ins(%[[N1]] : tensor<4xf32>)
// CHECK: math.absf
// CHECK: %[[A1:.+]] = linalg.generic {{.*}} ins(%[[A0]] : tensor<4xf32>)
// CHECK: math.absf
// CHECK: return %[[A1]]
func.func @folds(%x: tensor<4xf32>) -> tensor<4xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %a = tosa.negate %x, %zp, %zp : (tensor<4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<4xf32>
  %b = tosa.negate %a, %zp, %zp : (tensor<4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<4xf32>
  %c = tosa.abs %b : (tensor<4xf32>) -> tensor<4xf32>
  %d = tosa.abs %c : (tensor<4xf32>) -> tensor<4xf32>
  return %d : tensor<4xf32>
}

// -----

// A transpose of a transpose stays two transposes.
// CHECK-LABEL: func.func @transposes(
// CHECK: linalg.transpose
// CHECK: linalg.transpose
func.func @transposes(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %t = tosa.transpose %x {perms = array<i32: 1, 0>} : (tensor<2x3xf32>) -> tensor<3x2xf32>
  %u = tosa.transpose %t {perms = array<i32: 1, 0>} : (tensor<3x2xf32>) -> tensor<2x3xf32>
  return %u : tensor<2x3xf32>
}

// -----

// arith and math on tensors become linalg.generic ops on scalars, each
// writing a new tensor.empty, never one of its operands.
// CHECK-LABEL: func.func @elementwise(
// CHECK-SAME: %[[X:[^:]+]]: tensor<2x3xf32>, %[[Y:[^:]+]]: tensor<2x3xf32>
// CHECK: %[[E0:.+]] = tensor.empty() : tensor<2x3xf32>
// CHECK: %[[S:.+]] = linalg.generic {{.*}} ins(%[[X]], %[[Y]] : tensor<2x3xf32>, tensor<2x3xf32>) outs(%[[E0]] : tensor<2x3xf32>)
// CHECK: arith.addf
// CHECK: %[[E1:.+]] = tensor.empty() : tensor<2x3xf32>
// CHECK: %[[T:.+]] = linalg.generic {{.*}} ins(%[[S]] : tensor<2x3xf32>) outs(%[[E1]] : tensor<2x3xf32>)
// CHECK: math.tanh
// CHECK: %[[E2:.+]] = tensor.empty() : tensor<2x3xi1>
// CHECK: linalg.generic {{.*}} ins(%[[T]], %[[X]] : tensor<2x3xf32>, tensor<2x3xf32>) outs(%[[E2]] : tensor<2x3xi1>)
// CHECK: arith.cmpf ogt
func.func @elementwise(%x: tensor<2x3xf32>, %y: tensor<2x3xf32>) -> tensor<2x3xi1> {
  %s = arith.addf %x, %y : tensor<2x3xf32>
  %t = math.tanh %s : tensor<2x3xf32>
  %m = arith.cmpf ogt, %t, %x : tensor<2x3xf32>
  return %m : tensor<2x3xi1>
}

// -----

// Scalars are left alone.
// CHECK-LABEL: func.func @scalars(
// CHECK-NEXT: arith.addf %{{.*}} : f32
// CHECK-NOT: linalg
func.func @scalars(%x: f32) -> f32 {
  %s = arith.addf %x, %x : f32
  return %s : f32
}

// -----

// A padded f32 convolution reads its input through bounds checks: no
// tensor.pad of the input; the bias broadcast is the accumulator's start.
// CHECK-LABEL: func.func @padded_conv(
// CHECK-SAME: %[[X:[^:]+]]: tensor<2x5x5x3xf32>, %[[W:[^:]+]]: tensor<4x3x3x3xf32>, %[[B:[^:]+]]: tensor<4xf32>
// CHECK-NOT: tensor.pad
// CHECK: %[[INIT:.+]] = linalg.generic {{.*}} ins(%[[B]] : tensor<4xf32>) outs(%{{.+}} : tensor<2x3x3x4xf32>)
// CHECK: linalg.generic {{.*}} ins(%[[W]] : tensor<4x3x3x3xf32>) outs(%[[INIT]] : tensor<2x3x3x4xf32>) attrs = {remat.flops = 3888 : i64}
// CHECK: tensor.extract %[[X]]
// CHECK-NOT: tensor.pad
func.func @padded_conv(%x: tensor<2x5x5x3xf32>, %w: tensor<4x3x3x3xf32>, %b: tensor<4xf32>) -> tensor<2x3x3x4xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %0 = tosa.conv2d %x, %w, %b, %zp, %zp {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 2, 2>} : (tensor<2x5x5x3xf32>, tensor<4x3x3x3xf32>, tensor<4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x3x3x4xf32>
  return %0 : tensor<2x3x3x4xf32>
}

// -----

// Without padding the convolution keeps upstream's named op.
// CHECK-LABEL: func.func @unpadded_conv(
// CHECK-NOT: tensor.extract
// CHECK: linalg.conv_2d_nhwc_fhwc
func.func @unpadded_conv(%x: tensor<1x5x5x3xf32>, %w: tensor<4x3x3x3xf32>, %b: tensor<4xf32>) -> tensor<1x3x3x4xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %0 = tosa.conv2d %x, %w, %b, %zp, %zp {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x5x5x3xf32>, tensor<4x3x3x3xf32>, tensor<4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x3x3x4xf32>
  return %0 : tensor<1x3x3x4xf32>
}
