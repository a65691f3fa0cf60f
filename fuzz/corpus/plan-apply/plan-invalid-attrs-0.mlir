func.func @string_budget(%x: tensor<4xf32>) -> tensor<4xf32>
    attributes {budget = "half"} {
  %a = tosa.tanh %x : (tensor<4xf32>) -> tensor<4xf32>
  return %a : tensor<4xf32>
}
