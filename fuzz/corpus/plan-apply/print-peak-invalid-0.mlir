func.func @dynamic(%x: tensor<?xf32>) -> tensor<?xf32> {
  %a = tosa.tanh %x : (tensor<?xf32>) -> tensor<?xf32>
  return %a : tensor<?xf32>
}
