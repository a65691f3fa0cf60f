// A padded, strided, dilated convolution (asymmetric padding) whose
// lowering reads the input through bounds checks; conv-reference.py
// computes the same convolution in Python.
func.func @conv(%x: tensor<2x6x7x3xf32>, %w: tensor<4x3x2x3xf32>, %b: tensor<4xf32>) -> (tensor<2x4x6x4xf32>, tensor<2x4x6x4xf32>) {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %y = tosa.conv2d %x, %w, %b, %zp, %zp {acc_type = f32, dilation = array<i64: 1, 2>, pad = array<i64: 1, 2, 0, 1>, stride = array<i64: 2, 1>} : (tensor<2x6x7x3xf32>, tensor<4x3x2x3xf32>, tensor<4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x4x6x4xf32>
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %sq = tosa.mul %y, %y, %shift : (tensor<2x4x6x4xf32>, tensor<2x4x6x4xf32>, tensor<1xi8>) -> tensor<2x4x6x4xf32>
  return %y, %sq : tensor<2x4x6x4xf32>, tensor<2x4x6x4xf32>
}
