remat.graph @boundary(%x: tensor<64xf32>, %y: tensor<64xf32>) -> (tensor<1xf32>, tensor<1xf32>) {
  %a = tosa.tanh %x : (tensor<64xf32>) -> tensor<64xf32>
  %b = tosa.tanh %y : (tensor<64xf32>) -> tensor<64xf32>
  remat.backward
  %c = tosa.reduce_sum %a {axis = 0 : i32} : (tensor<64xf32>) -> tensor<1xf32>
  %d = tosa.reduce_sum %b {axis = 0 : i32} : (tensor<64xf32>) -> tensor<1xf32>
  remat.return %c, %d : tensor<1xf32>, tensor<1xf32>
}
