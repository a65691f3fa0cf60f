// A slice of %a, returned, and a fill that writes into %a afterwards:
// bufferization copies the slice (not the fill's destination), and
// remat-plan makes that copy an op of the step, so that no plan (one that
// recomputes %a as the fill's destination, say) turns it back into a view
// that keeps %a alive to the end.
func.func @step(%x: tensor<64x64xf32>) -> (tensor<48x64xf32>, tensor<64x64xf32>) {
  %a = tosa.exp %x : (tensor<64x64xf32>) -> tensor<64x64xf32>
  %s = tensor.extract_slice %a[0, 0] [48, 64] [1, 1] : tensor<64x64xf32> to tensor<48x64xf32>
  %b = tosa.tanh %a : (tensor<64x64xf32>) -> tensor<64x64xf32>
  %cst = arith.constant 0.5 : f32
  %f = linalg.fill ins(%cst : f32) outs(%a : tensor<64x64xf32>) -> tensor<64x64xf32>
  %g = tosa.add %f, %b : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>
  %h = tosa.exp %g : (tensor<64x64xf32>) -> tensor<64x64xf32>
  return %s, %h : tensor<48x64xf32>, tensor<64x64xf32>
}
