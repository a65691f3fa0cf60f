// A training step written in func and tosa, for the embedding tests.
func.func @step(%x: tensor<64x64xf32>) -> tensor<1x64xf32> {
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %a = tosa.tanh %x : (tensor<64x64xf32>) -> tensor<64x64xf32>
  %b = tosa.exp %a : (tensor<64x64xf32>) -> tensor<64x64xf32>
  %c = tosa.exp %b : (tensor<64x64xf32>) -> tensor<64x64xf32>
  %s = tosa.reduce_sum %c {axis = 0 : i32} : (tensor<64x64xf32>) -> tensor<1x64xf32>
  remat.backward
  %d = tosa.mul %a, %s, %shift : (tensor<64x64xf32>, tensor<1x64xf32>, tensor<1xi8>) -> tensor<64x64xf32>
  %r = tosa.reduce_sum %d {axis = 0 : i32} : (tensor<64x64xf32>) -> tensor<1x64xf32>
  return %r : tensor<1x64xf32>
}
