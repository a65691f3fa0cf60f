// linalg.generic writing into an operand: in place where the operand dies
// there, a copy where a later op (here the backward pass) reads it.
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @step(%x: tensor<32x64xf32>) -> (tensor<32x64xf32>, tensor<32x64xf32>) {
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %a = tosa.exp %x : (tensor<32x64xf32>) -> tensor<32x64xf32>
  %b = tosa.tanh %a : (tensor<32x64xf32>) -> tensor<32x64xf32>
  %c = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%a : tensor<32x64xf32>) outs(%b : tensor<32x64xf32>) {
  ^bb0(%in: f32, %out: f32):
    %r = arith.mulf %in, %out : f32
    linalg.yield %r : f32
  } -> tensor<32x64xf32>
  %d = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%c : tensor<32x64xf32>) outs(%a : tensor<32x64xf32>) {
  ^bb0(%in: f32, %out: f32):
    %r = arith.addf %in, %out : f32
    linalg.yield %r : f32
  } -> tensor<32x64xf32>
  %e = tosa.sigmoid %d : (tensor<32x64xf32>) -> tensor<32x64xf32>
  remat.backward
  %f = tosa.mul %e, %b, %shift : (tensor<32x64xf32>, tensor<32x64xf32>, tensor<1xi8>) -> tensor<32x64xf32>
  %g = tosa.add %f, %d : (tensor<32x64xf32>, tensor<32x64xf32>) -> tensor<32x64xf32>
  return %g, %e : tensor<32x64xf32>, tensor<32x64xf32>
}
