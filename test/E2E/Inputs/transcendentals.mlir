// Every transcendental remat-approximate-math rewrites that TOSA reaches,
// over wide ranges: the arguments are in [-0.5, 0.5) (remat-run --seed),
// scaled by 16 (tanh and erf saturate, exp spans e^-8 to e^8), and log's
// shifted to [0.01, 64).
remat.graph @transcendentals(%x: tensor<8x1024xf32>) -> (tensor<8x1024xf32>, tensor<8x1024xf32>, tensor<8x1024xf32>, tensor<8x1024xf32>, tensor<8x1024xf32>, tensor<8x1024xf32>, tensor<8x1024xf32>) {
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %sixteen = "tosa.const"() <{values = dense<16.0> : tensor<1x1xf32>}> : () -> tensor<1x1xf32>
  %half = "tosa.const"() <{values = dense<0.51> : tensor<1x1xf32>}> : () -> tensor<1x1xf32>
  %wide = tosa.mul %x, %sixteen, %shift : (tensor<8x1024xf32>, tensor<1x1xf32>, tensor<1xi8>) -> tensor<8x1024xf32>
  %tanh = tosa.tanh %wide : (tensor<8x1024xf32>) -> tensor<8x1024xf32>
  %erf = tosa.erf %wide : (tensor<8x1024xf32>) -> tensor<8x1024xf32>
  %exp = tosa.exp %wide : (tensor<8x1024xf32>) -> tensor<8x1024xf32>
  %sigmoid = tosa.sigmoid %wide : (tensor<8x1024xf32>) -> tensor<8x1024xf32>
  %positive = tosa.add %x, %half : (tensor<8x1024xf32>, tensor<1x1xf32>) -> tensor<8x1024xf32>
  %spread = tosa.mul %positive, %sixteen, %shift : (tensor<8x1024xf32>, tensor<1x1xf32>, tensor<1xi8>) -> tensor<8x1024xf32>
  %square = tosa.mul %spread, %positive, %shift : (tensor<8x1024xf32>, tensor<8x1024xf32>, tensor<1xi8>) -> tensor<8x1024xf32>
  %log = tosa.log %square : (tensor<8x1024xf32>) -> tensor<8x1024xf32>
  %sin = tosa.sin %wide : (tensor<8x1024xf32>) -> tensor<8x1024xf32>
  %cos = tosa.cos %wide : (tensor<8x1024xf32>) -> tensor<8x1024xf32>
  remat.return %tanh, %erf, %exp, %sigmoid, %log, %sin, %cos : tensor<8x1024xf32>, tensor<8x1024xf32>, tensor<8x1024xf32>, tensor<8x1024xf32>, tensor<8x1024xf32>, tensor<8x1024xf32>, tensor<8x1024xf32>
}
