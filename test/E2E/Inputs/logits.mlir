// Logits that are the parameter doubled: the cross-entropy test's model.
func.func @logits(%w: tensor<2x3x4xf32>) -> tensor<2x3x4xf32> {
  %0 = tosa.add %w, %w : (tensor<2x3x4xf32>, tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
  return %0 : tensor<2x3x4xf32>
}
