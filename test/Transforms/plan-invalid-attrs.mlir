// A budget or plan attribute of the wrong type is an error at the graph, with
// a non-zero exit, not silently ignored.
// RUN: not remat-opt %s --split-input-file --remat-plan --remat-apply 2>&1 | FileCheck %s

// CHECK: plan-invalid-attrs.mlir:[[@LINE+1]]:1: error: the budget attribute must be a #remat.budget<...> such as #remat.budget<0.5>, #remat.budget<64MiB> or #remat.budget<min>, not "half"
func.func @string_budget(%x: tensor<4xf32>) -> tensor<4xf32>
    attributes {budget = "half"} {
  %a = tosa.tanh %x : (tensor<4xf32>) -> tensor<4xf32>
  return %a : tensor<4xf32>
}

// -----

// CHECK: plan-invalid-attrs.mlir:[[@LINE+1]]:1: error: malformed remat.plan: expected the dictionary remat-plan writes, not "garbage"
func.func @garbage_plan(%x: tensor<4xf32>) -> tensor<4xf32>
    attributes {remat.plan = "garbage"} {
  %a = tosa.tanh %x : (tensor<4xf32>) -> tensor<4xf32>
  return %a : tensor<4xf32>
}
