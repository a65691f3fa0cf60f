func.func @dots(%x: tensor<1x8x8xf32>, %w: tensor<1x8x8xf32>, %z: tensor<1xf32>) -> tensor<1x8x8xf32> {
  %r = remat.checkpoint policy(dots_saveable) -> tensor<1x8x8xf32> {
    %m = tosa.matmul %x, %w, %z, %z : (tensor<1x8x8xf32>, tensor<1x8x8xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x8x8xf32>
    %t = tosa.tanh %m : (tensor<1x8x8xf32>) -> tensor<1x8x8xf32>
    remat.yield %t : tensor<1x8x8xf32>
  }
  return %r : tensor<1x8x8xf32>
}
