func.func @nested(%x: tensor<8xf32>) -> tensor<8xf32> {
  %r = remat.checkpoint policy(nothing_saveable) -> tensor<8xf32> {
    %i = remat.checkpoint policy(everything_saveable) -> tensor<8xf32> {
      %a = tosa.tanh %x : (tensor<8xf32>) -> tensor<8xf32>
      remat.yield %a : tensor<8xf32>
    }
    %b = tosa.exp %i : (tensor<8xf32>) -> tensor<8xf32>
    remat.yield %b : tensor<8xf32>
  }
  return %r : tensor<8xf32>
}
