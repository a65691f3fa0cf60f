// RUN: remat-opt %s --split-input-file --verify-diagnostics

// The attributes the passes read are checked in one place
// (verifyRematAttribute), on every kind of step and op. A budget of the
// wrong type on a remat.graph was dropped by the parser, and the step was
// planned without a budget.

// expected-error @below {{the budget attribute must be a #remat.budget<...> such as #remat.budget<0.5>, #remat.budget<64MiB> or #remat.budget<min>, not "half"}}
remat.graph @string_budget(%x: tensor<4xf32>) -> tensor<4xf32>
    attributes {budget = "half"} {
  %a = tosa.tanh %x : (tensor<4xf32>) -> tensor<4xf32>
  remat.return %a : tensor<4xf32>
}

// -----

// expected-error @below {{the budget attribute must be a #remat.budget<...> such as #remat.budget<0.5>, #remat.budget<64MiB> or #remat.budget<min>, not 5 : i64}}
remat.graph @integer_budget(%x: tensor<4xf32>) -> tensor<4xf32>
    attributes {budget = 5} {
  %a = tosa.tanh %x : (tensor<4xf32>) -> tensor<4xf32>
  remat.return %a : tensor<4xf32>
}

// -----

func.func @save_not_bool(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @below {{'tosa.tanh' op 'remat.save' must be true (the results may be kept) or false (they are recomputed), got 1 : i64}}
  %a = tosa.tanh %x {remat.save = 1} : (tensor<4xf32>) -> tensor<4xf32>
  return %a : tensor<4xf32>
}

// -----

func.func @never_not_unit(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @below {{'tosa.tanh' op 'remat.never' is a unit attribute, written {remat.never}, got false}}
  %a = tosa.tanh %x {remat.never = false} : (tensor<4xf32>) -> tensor<4xf32>
  return %a : tensor<4xf32>
}
