func.func @views(%x: tensor<4x8xf32>) -> tensor<32xf32> {
  %a = tosa.tanh %x : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %s = tosa.const_shape {values = dense<[32]> : tensor<1xindex>} : () -> !tosa.shape<1>
  %r = tosa.reshape %a, %s : (tensor<4x8xf32>, !tosa.shape<1>) -> tensor<32xf32>
  %e = tosa.exp %r : (tensor<32xf32>) -> tensor<32xf32>
  return %e : tensor<32xf32>
}
