remat.graph @recompute(%x: tensor<4xf32>) -> (tensor<4xf32>) {
  %a = tosa.tanh %x : (tensor<4xf32>) -> tensor<4xf32>
  %r = remat.recompute(%x) : (tensor<4xf32>) -> tensor<4xf32> {
  ^bb0(%in: tensor<4xf32>):
    %t = tosa.tanh %in : (tensor<4xf32>) -> tensor<4xf32>
    remat.yield %t : tensor<4xf32>
  }
  %y = tosa.add %r, %a : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  remat.return %y : tensor<4xf32>
}
