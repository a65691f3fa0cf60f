remat.graph @tagged(%x: tensor<64x64xf32>) -> tensor<1x64xf32> {
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %a = tosa.tanh %x : (tensor<64x64xf32>) -> tensor<64x64xf32>
  %at = remat.name "a" %a : tensor<64x64xf32>
  %b = tosa.exp %at : (tensor<64x64xf32>) -> tensor<64x64xf32>
  %c = tosa.exp %b : (tensor<64x64xf32>) -> tensor<64x64xf32>
  %d = tosa.exp %c : (tensor<64x64xf32>) -> tensor<64x64xf32>
  %s = tosa.reduce_sum %d {axis = 0 : i32} : (tensor<64x64xf32>) -> tensor<1x64xf32>
  remat.backward
  %u1 = tosa.mul %at, %s, %shift : (tensor<64x64xf32>, tensor<1x64xf32>, tensor<1xi8>) -> tensor<64x64xf32>
  %r1 = tosa.reduce_sum %u1 {axis = 0 : i32} : (tensor<64x64xf32>) -> tensor<1x64xf32>
  %u2 = tosa.add %at, %r1 : (tensor<64x64xf32>, tensor<1x64xf32>) -> tensor<64x64xf32>
  %r2 = tosa.reduce_sum %u2 {axis = 0 : i32} : (tensor<64x64xf32>) -> tensor<1x64xf32>
  %u3 = tosa.sub %at, %r2 : (tensor<64x64xf32>, tensor<1x64xf32>) -> tensor<64x64xf32>
  %r3 = tosa.reduce_sum %u3 {axis = 0 : i32} : (tensor<64x64xf32>) -> tensor<1x64xf32>
  remat.return %r3 : tensor<1x64xf32>
}
