remat.graph private @graph(%x: tensor<4xf32>) -> (tensor<4xf32>)
    attributes {budget = #remat.budget<0.5>} {
  %t = tosa.tanh %x : (tensor<4xf32>) -> tensor<4xf32>
  remat.return %t : tensor<4xf32>
}
