// Finite-difference check of the reduction and data movement rules:
// reduce_sum, reduce_max, reshape, transpose, slice, pad, concat, reverse,
// tile, with the mean-squared-error loss.
// GRADCHECK: num-batch-args=0 loss=mse
// RUN: %python %S/Inputs/gradcheck.py %s | FileCheck %s
// CHECK-COUNT-2: ok
// CHECK: gradcheck: OK

func.func @data(%a: tensor<2x3x4xf32>, %b: tensor<2x3xf32>) -> tensor<4x6xf32> {
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %pc = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %s0 = tosa.const_shape {values = dense<[0, 1, 1]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %s1 = tosa.const_shape {values = dense<[2, 2, 2]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %s2 = tosa.const_shape {values = dense<[2, 4]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %s3 = tosa.const_shape {values = dense<[1, 0, 0, 1]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %s4 = tosa.const_shape {values = dense<[2, 2]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %s5 = tosa.const_shape {values = dense<[1, 2]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %0 = tosa.reduce_max %a {axis = 2 : i32} : (tensor<2x3x4xf32>) -> tensor<2x3x1xf32>
  %1 = tosa.sub %a, %0 : (tensor<2x3x4xf32>, tensor<2x3x1xf32>) -> tensor<2x3x4xf32>
  %2 = tosa.slice %1, %s0, %s1 : (tensor<2x3x4xf32>, !tosa.shape<3>, !tosa.shape<3>) -> tensor<2x2x2xf32>
  %3 = tosa.reshape %2, %s2 : (tensor<2x2x2xf32>, !tosa.shape<2>) -> tensor<2x4xf32>
  %4 = tosa.reduce_sum %a {axis = 1 : i32} : (tensor<2x3x4xf32>) -> tensor<2x1x4xf32>
  %5 = tosa.reshape %4, %s2 : (tensor<2x1x4xf32>, !tosa.shape<2>) -> tensor<2x4xf32>
  %6 = tosa.mul %3, %5, %shift : (tensor<2x4xf32>, tensor<2x4xf32>, tensor<1xi8>) -> tensor<2x4xf32>
  %7 = tosa.transpose %b {perms = array<i32: 1, 0>} : (tensor<2x3xf32>) -> tensor<3x2xf32>
  %8 = tosa.pad %7, %s3, %pc : (tensor<3x2xf32>, !tosa.shape<4>, tensor<1xf32>) -> tensor<4x3xf32>
  %9 = tosa.reverse %8 {axis = 0 : i32} : (tensor<4x3xf32>) -> tensor<4x3xf32>
  %10 = tosa.transpose %6 {perms = array<i32: 1, 0>} : (tensor<2x4xf32>) -> tensor<4x2xf32>
  %11 = tosa.concat %10, %9 {axis = 1 : i32} : (tensor<4x2xf32>, tensor<4x3xf32>) -> tensor<4x5xf32>
  %12 = tosa.tile %b, %s5 : (tensor<2x3xf32>, !tosa.shape<2>) -> tensor<2x6xf32>
  %13 = tosa.tile %12, %s4 : (tensor<2x6xf32>, !tosa.shape<2>) -> tensor<4x12xf32>
  %s6 = tosa.const_shape {values = dense<[0, 0]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %s7 = tosa.const_shape {values = dense<[4, 1]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %s8 = tosa.const_shape {values = dense<[0, 0, 0, 1]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %14 = tosa.pad %11, %s8, %pc : (tensor<4x5xf32>, !tosa.shape<4>, tensor<1xf32>) -> tensor<4x6xf32>
  %s9 = tosa.const_shape {values = dense<[0, 6]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %s10 = tosa.const_shape {values = dense<[4, 6]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %15 = tosa.slice %13, %s9, %s10 : (tensor<4x12xf32>, !tosa.shape<2>, !tosa.shape<2>) -> tensor<4x6xf32>
  %16 = tosa.mul %14, %15, %shift : (tensor<4x6xf32>, tensor<4x6xf32>, tensor<1xi8>) -> tensor<4x6xf32>
  return %16 : tensor<4x6xf32>
}
