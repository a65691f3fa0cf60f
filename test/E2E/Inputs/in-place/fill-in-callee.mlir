// The fill of fill-read-later.mlir inside a called function: the lowering
// inlines the call, so bufferization decides at the fill, as it does for
// the caller's own ops, and gives it a buffer of its own (%b is read after
// the call).
func.func private @overwrite(%b: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %cst = arith.constant 2.0 : f32
  %c = linalg.fill ins(%cst : f32) outs(%b : tensor<64x64xf32>) -> tensor<64x64xf32>
  return %c : tensor<64x64xf32>
}

func.func @step(%x: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %b = tosa.exp %x : (tensor<64x64xf32>) -> tensor<64x64xf32>
  %c = func.call @overwrite(%b) : (tensor<64x64xf32>) -> tensor<64x64xf32>
  %d = tosa.add %b, %c : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>
  return %d : tensor<64x64xf32>
}
