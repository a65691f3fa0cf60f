// Finite-difference check of the grouped convolution rule
// (linalg.conv_2d_nhwgc_gfhwc: input, weight and init adjoints) with
// stride 2 and dilation (1, 2), two groups of three input and two output
// channels.
// GRADCHECK: num-batch-args=0
// RUN: %python %S/Inputs/gradcheck.py %s | FileCheck %s
// CHECK-COUNT-3: ok
// CHECK: gradcheck: OK

func.func @grouped(%x: tensor<2x7x7x2x3xf32>, %w: tensor<2x2x3x2x3xf32>, %init: tensor<2x3x3x2x2xf32>) -> tensor<2x3x3x2x2xf32> {
  %0 = linalg.conv_2d_nhwgc_gfhwc {dilations = dense<[1, 2]> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>} ins(%x, %w : tensor<2x7x7x2x3xf32>, tensor<2x2x3x2x3xf32>) outs(%init : tensor<2x3x3x2x2xf32>) -> tensor<2x3x3x2x2xf32>
  %1 = tosa.tanh %0 : (tensor<2x3x3x2x2xf32>) -> tensor<2x3x3x2x2xf32>
  return %1 : tensor<2x3x3x2x2xf32>
}
