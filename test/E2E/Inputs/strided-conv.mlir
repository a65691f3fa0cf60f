// Two padded convolutions with ReLU between them, the first strided with
// uneven padding, the second dilated: differentiated (remat-autodiff), the
// step runs every convolution kernel (forward, input adjoint, weight
// adjoint) with strides, dilations and padding.
func.func @strided_conv(%x: tensor<2x9x9x8xf32>, %w: tensor<16x3x3x8xf32>, %b: tensor<16xf32>, %w2: tensor<8x3x3x16xf32>, %b2: tensor<8xf32>) -> tensor<2x5x5x8xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %0 = tosa.conv2d %x, %w, %b, %zp, %zp {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 1, 1, 2, 0>, stride = array<i64: 2, 2>} : (tensor<2x9x9x8xf32>, tensor<16x3x3x8xf32>, tensor<16xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x5x5x16xf32>
  %1 = tosa.clamp %0 {max_val = 3.40282347e+38 : f32, min_val = 0.000000e+00 : f32} : (tensor<2x5x5x16xf32>) -> tensor<2x5x5x16xf32>
  %2 = tosa.conv2d %1, %w2, %b2, %zp, %zp {acc_type = f32, dilation = array<i64: 2, 2>, pad = array<i64: 2, 2, 2, 2>, stride = array<i64: 1, 1>} : (tensor<2x5x5x16xf32>, tensor<8x3x3x16xf32>, tensor<8xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x5x5x8xf32>
  return %2 : tensor<2x5x5x8xf32>
}
