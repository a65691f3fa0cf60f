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
// CHECK: linalg.generic {{.*}} ins(%[[W]] : tensor<4x3x3x3xf32>) outs(%[[INIT]] : tensor<2x3x3x4xf32>) attrs = {remat.flops = 3888 : i64, remat.window = {dilation = {{.+}}, kind = "convolution", pad = {{.+}}, stride = {{.+}}}}
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

// -----

// A scatter-add kernel (the gather's adjoint) becomes loops over the
// positions (n, w), each reading its index once, clamped to the table's
// rows, and adding g's row into the zero-filled destination element by
// element: no loop over the table's rows.
// CHECK-LABEL: func.func @scatter_add(
// CHECK-SAME: %[[IDS:[^:]+]]: tensor<2x3xi32>, %[[G:[^:]+]]: tensor<2x3x4xf32>
// CHECK: %[[ZERO:.+]] = linalg.fill {{.*}} -> tensor<2x5x4xf32>
// CHECK-NOT: linalg.generic
// CHECK: %[[C2:.+]] = arith.constant 2 : index
// CHECK: scf.for %[[N:.+]] = %{{.+}} to %[[C2]] step %{{.+}} iter_args(%[[TN:.+]] = %[[ZERO]])
// CHECK: %[[C3:.+]] = arith.constant 3 : index
// CHECK: scf.for %[[W:.+]] = %{{.+}} to %[[C3]] step %{{.+}} iter_args(%[[TW:.+]] = %[[TN]])
// CHECK: %[[ID:.+]] = tensor.extract %[[IDS]][%[[N]], %[[W]]]
// CHECK: %[[IX:.+]] = arith.index_cast %[[ID]] : i32 to index
// CHECK: %[[LAST:.+]] = arith.constant 4 : index
// CHECK: %[[LO:.+]] = arith.maxsi %[[IX]], %{{.+}} : index
// CHECK: %[[ROW:.+]] = arith.minsi %[[LO]], %[[LAST]] : index
// CHECK: %[[C4:.+]] = arith.constant 4 : index
// CHECK: scf.for %[[C:.+]] = %{{.+}} to %[[C4]] step %{{.+}} iter_args(%[[T:.+]] = %[[TW]])
// CHECK: %[[ADD:.+]] = tensor.extract %[[G]][%[[N]], %[[W]], %[[C]]]
// CHECK: %[[OLD:.+]] = tensor.extract %[[T]][%[[N]], %[[ROW]], %[[C]]]
// CHECK: %[[SUM:.+]] = arith.addf %[[OLD]], %[[ADD]]
// CHECK: %[[NEW:.+]] = tensor.insert %[[SUM]] into %[[T]][%[[N]], %[[ROW]], %[[C]]]
// CHECK: scf.yield %[[NEW]]
// CHECK-NOT: linalg.generic
// CHECK: return
#ids = affine_map<(n, k, c, w) -> (n, w)>
#g = affine_map<(n, k, c, w) -> (n, w, c)>
#table = affine_map<(n, k, c, w) -> (n, k, c)>
func.func @scatter_add(%ids: tensor<2x3xi32>, %g: tensor<2x3x4xf32>) -> tensor<2x5x4xf32> {
  %empty = tensor.empty() : tensor<2x5x4xf32>
  %zero = arith.constant 0.0 : f32
  %init = linalg.fill ins(%zero : f32) outs(%empty : tensor<2x5x4xf32>) -> tensor<2x5x4xf32>
  %0 = linalg.generic {indexing_maps = [#ids, #g, #table], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%ids, %g : tensor<2x3xi32>, tensor<2x3x4xf32>) outs(%init : tensor<2x5x4xf32>) attrs = {remat.flops = 48 : i64, remat.scatter_add} {
  ^bb0(%id: i32, %x: f32, %acc: f32):
    %i = arith.index_cast %id : i32 to index
    %c0 = arith.constant 0 : index
    %c4 = arith.constant 4 : index
    %lo = arith.maxsi %i, %c0 : index
    %row = arith.minsi %lo, %c4 : index
    %k = linalg.index 1 : index
    %picked = arith.cmpi eq, %row, %k : index
    %none = arith.constant 0.0 : f32
    %term = arith.select %picked, %x, %none : f32
    %sum = arith.addf %acc, %term : f32
    linalg.yield %sum : f32
  } -> tensor<2x5x4xf32>
  return %0 : tensor<2x5x4xf32>
}
