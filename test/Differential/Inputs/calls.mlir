// A step that calls functions defined in the module: a layer helper (whose
// intermediate buffers are scratch while the call runs), itself calling
// another helper.
func.func private @square(%a: tensor<32x32xf32>) -> tensor<32x32xf32> {
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %s = tosa.mul %a, %a, %shift : (tensor<32x32xf32>, tensor<32x32xf32>, tensor<1xi8>) -> tensor<32x32xf32>
  return %s : tensor<32x32xf32>
}
func.func private @layer(%h: tensor<32x32xf32>, %w: tensor<32x32xf32>) -> tensor<32x32xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %shape3 = tosa.const_shape {values = dense<[1, 32, 32]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %shape2 = tosa.const_shape {values = dense<[32, 32]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %h3 = tosa.reshape %h, %shape3 : (tensor<32x32xf32>, !tosa.shape<3>) -> tensor<1x32x32xf32>
  %w3 = tosa.reshape %w, %shape3 : (tensor<32x32xf32>, !tosa.shape<3>) -> tensor<1x32x32xf32>
  %m = tosa.matmul %h3, %w3, %zp, %zp : (tensor<1x32x32xf32>, tensor<1x32x32xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x32x32xf32>
  %m2 = tosa.reshape %m, %shape2 : (tensor<1x32x32xf32>, !tosa.shape<2>) -> tensor<32x32xf32>
  %t = tosa.tanh %m2 : (tensor<32x32xf32>) -> tensor<32x32xf32>
  %s = func.call @square(%t) : (tensor<32x32xf32>) -> tensor<32x32xf32>
  return %s : tensor<32x32xf32>
}
remat.graph @calls(%x: tensor<32x32xf32>, %w: tensor<32x32xf32>) -> (tensor<32x32xf32>) {
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %h0 = tosa.tanh %x : (tensor<32x32xf32>) -> tensor<32x32xf32>
  %h1 = func.call @layer(%h0, %w) : (tensor<32x32xf32>, tensor<32x32xf32>) -> tensor<32x32xf32>
  %a1 = tosa.sigmoid %h1 : (tensor<32x32xf32>) -> tensor<32x32xf32>
  %h2 = func.call @layer(%a1, %w) : (tensor<32x32xf32>, tensor<32x32xf32>) -> tensor<32x32xf32>
  %a2 = tosa.sigmoid %h2 : (tensor<32x32xf32>) -> tensor<32x32xf32>
  %h3 = func.call @layer(%a2, %w) : (tensor<32x32xf32>, tensor<32x32xf32>) -> tensor<32x32xf32>
  remat.backward
  %g3 = tosa.mul %h3, %a2, %shift : (tensor<32x32xf32>, tensor<32x32xf32>, tensor<1xi8>) -> tensor<32x32xf32>
  %g2 = tosa.mul %g3, %a1, %shift : (tensor<32x32xf32>, tensor<32x32xf32>, tensor<1xi8>) -> tensor<32x32xf32>
  %g1 = tosa.mul %g2, %h0, %shift : (tensor<32x32xf32>, tensor<32x32xf32>, tensor<1xi8>) -> tensor<32x32xf32>
  remat.return %g1 : tensor<32x32xf32>
}
