// Two padded 3x3 convolutions of 32 channels, each 2.4M multiply-adds:
// large enough for the forward convolutions and the training step's input
// and weight adjoints, in chunks of their output channels, to be shared
// across threads.
func.func @convs(%x: tensor<1x16x16x32xf32>, %w1: tensor<32x3x3x32xf32>, %b1: tensor<32xf32>, %w2: tensor<32x3x3x32xf32>, %b2: tensor<32xf32>) -> tensor<1x16x16x32xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %h = tosa.conv2d %x, %w1, %b1, %zp, %zp {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>} : (tensor<1x16x16x32xf32>, tensor<32x3x3x32xf32>, tensor<32xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x16x16x32xf32>
  %r = tosa.tanh %h : (tensor<1x16x16x32xf32>) -> tensor<1x16x16x32xf32>
  %y = tosa.conv2d %r, %w2, %b2, %zp, %zp {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>} : (tensor<1x16x16x32xf32>, tensor<32x3x3x32xf32>, tensor<32xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x16x16x32xf32>
  return %y : tensor<1x16x16x32xf32>
}
