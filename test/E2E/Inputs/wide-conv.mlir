// A padded 3x3 convolution large enough (2.4M multiply-adds) for its
// output rows to be shared across threads, and its mean-squared-error
// training step, whose input and weight adjoints stay on one thread.
func.func @conv(%x: tensor<1x32x32x16xf32>, %w: tensor<16x3x3x16xf32>, %b: tensor<16xf32>) -> tensor<1x32x32x16xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %y = tosa.conv2d %x, %w, %b, %zp, %zp {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>} : (tensor<1x32x32x16xf32>, tensor<16x3x3x16xf32>, tensor<16xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x32x32x16xf32>
  return %y : tensor<1x32x32x16xf32>
}
