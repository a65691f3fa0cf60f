// RUN: remat-opt %s --split-input-file --verify-diagnostics --pass-pipeline="builtin.module(func.func(remat-convert-to-linalg))"

// A scatter-add mark on a kernel whose indices are not integers is not
// lowered (the loops would index the table with them): the conversion
// reports the kernel instead of crashing.
#ids = affine_map<(n, k, c, w) -> (n, w)>
#g = affine_map<(n, k, c, w) -> (n, w, c)>
#table = affine_map<(n, k, c, w) -> (n, k, c)>
func.func @scatter_add_float_indices(%ids: tensor<2x3xf32>, %g: tensor<2x3x4xf32>, %init: tensor<2x5x4xf32>) -> tensor<2x5x4xf32> {
  // expected-error @+1 {{failed to legalize operation 'linalg.generic'}}
  %0 = linalg.generic {indexing_maps = [#ids, #g, #table], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%ids, %g : tensor<2x3xf32>, tensor<2x3x4xf32>) outs(%init : tensor<2x5x4xf32>) attrs = {remat.scatter_add} {
  ^bb0(%id: f32, %x: f32, %acc: f32):
    linalg.yield %acc : f32
  } -> tensor<2x5x4xf32>
  return %0 : tensor<2x5x4xf32>
}
