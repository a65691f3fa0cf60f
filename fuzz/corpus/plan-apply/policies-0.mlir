remat.graph @step(%x: tensor<1x8x8xf32>, %w: tensor<1x8x8xf32>) -> (tensor<1x8x8xf32>, tensor<1x8x8xf32>, tensor<1x8x8xf32>) {
  %z = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %m = tosa.matmul %x, %w, %z, %z : (tensor<1x8x8xf32>, tensor<1x8x8xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x8x8xf32>
  %t = tosa.tanh %m : (tensor<1x8x8xf32>) -> tensor<1x8x8xf32>
  %tn = remat.name "t" %t : tensor<1x8x8xf32>
  %f = tosa.exp %tn : (tensor<1x8x8xf32>) -> tensor<1x8x8xf32>
  remat.backward
  %g = tosa.add %m, %tn : (tensor<1x8x8xf32>, tensor<1x8x8xf32>) -> tensor<1x8x8xf32>
  %h = tosa.sub %g, %tn : (tensor<1x8x8xf32>, tensor<1x8x8xf32>) -> tensor<1x8x8xf32>
  remat.return %f, %g, %h : tensor<1x8x8xf32>, tensor<1x8x8xf32>, tensor<1x8x8xf32>
}
