// tensor.insert_slice into a value read again afterwards (a copy), then
// into one that is not (in place).
func.func @step(%x: tensor<64x64xf32>, %y: tensor<16x64xf32>) -> (tensor<64x64xf32>, tensor<64x64xf32>) {
  %b = tosa.exp %x : (tensor<64x64xf32>) -> tensor<64x64xf32>
  %i = tensor.insert_slice %y into %b[0, 0] [16, 64] [1, 1] : tensor<16x64xf32> into tensor<64x64xf32>
  %s = tosa.add %b, %i : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>
  %t = tosa.tanh %s : (tensor<64x64xf32>) -> tensor<64x64xf32>
  %j = tensor.insert_slice %y into %s[16, 0] [16, 64] [1, 1] : tensor<16x64xf32> into tensor<64x64xf32>
  return %j, %t : tensor<64x64xf32>, tensor<64x64xf32>
}
