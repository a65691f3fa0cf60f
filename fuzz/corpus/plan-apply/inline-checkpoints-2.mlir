func.func @no_batch_dims(%x: tensor<1x8x8xf32>, %y: tensor<2x8x8xf32>, %z: tensor<1xf32>) -> (tensor<1x8x8xf32>, tensor<2x8x8xf32>) {
  %r:2 = remat.checkpoint policy(dots_with_no_batch_dims_saveable) -> tensor<1x8x8xf32>, tensor<2x8x8xf32> {
    %m = tosa.matmul %x, %x, %z, %z : (tensor<1x8x8xf32>, tensor<1x8x8xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x8x8xf32>
    %n = tosa.matmul %y, %y, %z, %z : (tensor<2x8x8xf32>, tensor<2x8x8xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x8x8xf32>
    remat.yield %m, %n : tensor<1x8x8xf32>, tensor<2x8x8xf32>
  }
  return %r#0, %r#1 : tensor<1x8x8xf32>, tensor<2x8x8xf32>
}
