// Budget option errors point at the graph and state the grammar; exponents,
// infinities and NaNs are rejected alike.
// RUN: not remat-opt %s --remat-plan="budget=-inf" 2>&1 | FileCheck %s --check-prefix=NEGINF
// RUN: not remat-opt %s --remat-plan="budget=inf" 2>&1 | FileCheck %s --check-prefix=INF
// RUN: not remat-opt %s --remat-plan="budget=2e3" 2>&1 | FileCheck %s --check-prefix=EXP
// RUN: not remat-opt %s --remat-plan="budget=1e0" 2>&1 | FileCheck %s --check-prefix=EXP1

// NEGINF: plan-budget-grammar.mlir:[[# @LINE + 5]]:1: error: invalid budget option '-inf': budget must not be negative, got '-inf'; a budget is 'min', a whole number of bytes ('67108864'), a size with a unit B, KB, MB, GB, TB, KiB, MiB, GiB or TiB ('64MiB', '1.5GiB'), or a fraction of the peak in (0, 1] written with a decimal point ('0.5'); signs, exponents, inf and nan are not accepted
// INF: plan-budget-grammar.mlir:[[# @LINE + 4]]:1: error: invalid budget option 'inf': malformed budget 'inf'; a budget is 'min'
// EXP: plan-budget-grammar.mlir:[[# @LINE + 3]]:1: error: invalid budget option '2e3': budget '2e3' has an exponent; a budget is 'min'
// EXP1: error: invalid budget option '1e0': budget '1e0' has an exponent; a budget is 'min'

func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
  %a = tosa.tanh %x : (tensor<4xf32>) -> tensor<4xf32>
  return %a : tensor<4xf32>
}
