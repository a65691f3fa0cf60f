func.func @checkpointed(%x: tensor<64xf32>) -> tensor<64xf32> {
  %r = remat.checkpoint -> tensor<64xf32> {
    %e = tosa.exp %x : (tensor<64xf32>) -> tensor<64xf32>
    remat.yield %e : tensor<64xf32>
  }
  %t = tosa.tanh %r : (tensor<64xf32>) -> tensor<64xf32>
  remat.backward
  %g = tosa.add %r, %t : (tensor<64xf32>, tensor<64xf32>) -> tensor<64xf32>
  return %g : tensor<64xf32>
}
