// One callee that fills its argument, called twice: at the first call the
// argument is read afterwards (bufferization gives the fill a buffer of its
// own), at the second it dies there (the fill writes in place). The
// decision is per call site, as the lowering inlines each call.
func.func private @overwrite(%b: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %cst = arith.constant 2.0 : f32
  %c = linalg.fill ins(%cst : f32) outs(%b : tensor<64x64xf32>) -> tensor<64x64xf32>
  return %c : tensor<64x64xf32>
}

func.func @step(%x: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %b = tosa.exp %x : (tensor<64x64xf32>) -> tensor<64x64xf32>
  %c = func.call @overwrite(%b) : (tensor<64x64xf32>) -> tensor<64x64xf32>
  %d = tosa.add %b, %c : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>
  %e = tosa.exp %d : (tensor<64x64xf32>) -> tensor<64x64xf32>
  %f = func.call @overwrite(%e) : (tensor<64x64xf32>) -> tensor<64x64xf32>
  %g = tosa.add %d, %f : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>
  return %g : tensor<64x64xf32>
}
