// Finite-difference check of the tanh GELU kernel's rule (the ONNX
// importer's fusion of torch.onnx's nine-node formula): its adjoint reads
// only the kernel's input.
// GRADCHECK: num-batch-args=0
// RUN: %python %S/Inputs/gradcheck.py %s | FileCheck %s
// CHECK: gradcheck: OK

func.func @gelu(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %init = tensor.empty() : tensor<2x3xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<2x3xf32>) outs(%init : tensor<2x3xf32>) attrs = {remat.tanh_gelu} {
  ^bb0(%in: f32, %out: f32):
    %sq = arith.mulf %in, %in : f32
    %cube = arith.mulf %in, %sq : f32
    %scale = arith.constant 0.797884583 : f32
    %cubic = arith.constant 4.471500e-02 : f32
    %a = arith.mulf %cubic, %cube : f32
    %s = arith.addf %in, %a : f32
    %u = arith.mulf %scale, %s : f32
    %t = math.tanh %u : f32
    %half = arith.constant 5.000000e-01 : f32
    %h = arith.mulf %half, %in : f32
    %one = arith.constant 1.000000e+00 : f32
    %p = arith.addf %one, %t : f32
    %r = arith.mulf %h, %p : f32
    linalg.yield %r : f32
  } -> tensor<2x3xf32>
  return %y : tensor<2x3xf32>
}
