remat.graph @tags(%x: tensor<4xf32>, %y: tensor<4xf32>) -> (tensor<4xf32>) {
  %n = remat.name "x" %x : tensor<4xf32>
  remat.backward
  %a, %b = remat.barrier %n, %y : tensor<4xf32>, tensor<4xf32>
  %s = tosa.add %a, %b : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  remat.return %s : tensor<4xf32>
}
