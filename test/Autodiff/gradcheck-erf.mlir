// Finite-difference check of the erf rule (the Gelu of the ONNX importer).
// remat-to-cpu lowers math.erf to a libm call.
// GRADCHECK: num-batch-args=0
// RUN: %python %S/Inputs/gradcheck.py %s | FileCheck %s
// CHECK: gradcheck: OK

func.func @erf(%a: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = tosa.erf %a : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}
