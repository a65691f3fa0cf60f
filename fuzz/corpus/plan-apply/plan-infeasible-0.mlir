func.func private @make_bias(tensor<1x64xf32>) -> tensor<64x64xf32>
func.func @opaque_producer(%p: tensor<1x64xf32>, %x: tensor<64x64xf32>) -> tensor<65x64xf32> {
  %bc = func.call @make_bias(%p) : (tensor<1x64xf32>) -> tensor<64x64xf32>
  %u = tosa.add %bc, %x : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>
  %v = tosa.tanh %u : (tensor<64x64xf32>) -> tensor<64x64xf32>
  %w = tosa.exp %v : (tensor<64x64xf32>) -> tensor<64x64xf32>
  %y = tosa.add %v, %w : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>
  %s = tosa.reduce_sum %y {axis = 0 : i32} : (tensor<64x64xf32>) -> tensor<1x64xf32>
  remat.backward
  %cat = tosa.concat %bc, %s {axis = 0 : i32} : (tensor<64x64xf32>, tensor<1x64xf32>) -> tensor<65x64xf32>
  return %cat : tensor<65x64xf32>
}
