// Two elementwise affine layers, y = (x * w1 + b1) * w2 + b2: every
// gradient element is a product of f32 values, so a reference computed
// with IEEE single-precision rounding (optimizer-reference.py) matches the
// compiled step bit for bit.
func.func @layers(%x: tensor<4x16xf32>, %w1: tensor<4x16xf32>, %b1: tensor<4x16xf32>, %w2: tensor<4x16xf32>, %b2: tensor<4x16xf32>) -> tensor<4x16xf32> {
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %a = tosa.mul %x, %w1, %shift : (tensor<4x16xf32>, tensor<4x16xf32>, tensor<1xi8>) -> tensor<4x16xf32>
  %h = tosa.add %a, %b1 : (tensor<4x16xf32>, tensor<4x16xf32>) -> tensor<4x16xf32>
  %c = tosa.mul %h, %w2, %shift : (tensor<4x16xf32>, tensor<4x16xf32>, tensor<1xi8>) -> tensor<4x16xf32>
  %y = tosa.add %c, %b2 : (tensor<4x16xf32>, tensor<4x16xf32>) -> tensor<4x16xf32>
  return %y : tensor<4x16xf32>
}
