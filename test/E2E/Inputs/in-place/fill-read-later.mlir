// A linalg.fill into a value that is read again afterwards: bufferization
// gives the fill a buffer of its own.
func.func @step(%x: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %b = tosa.exp %x : (tensor<64x64xf32>) -> tensor<64x64xf32>
  %cst = arith.constant 2.0 : f32
  %c = linalg.fill ins(%cst : f32) outs(%b : tensor<64x64xf32>) -> tensor<64x64xf32>
  %d = tosa.add %b, %c : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>
  return %d : tensor<64x64xf32>
}
