// RUN: not remat-opt %s --split-input-file --remat-plan="budget=40KiB budget-kind=live" -o /dev/null 2>&1 | FileCheck %s --check-prefix=LIVE
// RUN: not remat-opt %s --split-input-file --remat-pipeline="budget=40KiB" -o /dev/null 2>&1 | FileCheck %s --check-prefix=ARENA
// RUN: remat-opt %s --split-input-file --remat-plan="budget=40KiB best-effort" -o /dev/null 2>&1 | FileCheck %s --check-prefix=BEST
// A budget below what one op needs while it runs (its operands, results and
// scratch) or below the step's results fails before any search, at the op
// or the step that needs more.

// LIVE: error: budget of 40.00 KiB (40960 bytes) for @wide_add cannot be met: no plan goes below 48.00 KiB (49152 bytes)
// LIVE-NOT: smallest peak solver
// LIVE: :[[@LINE+10]]:8: note: this 'tosa.add' needs it while it runs: its operands, results and scratch
// ARENA: error: arena budget of 40.00 KiB (40960 bytes) for @wide_add cannot be met: no plan goes below 48.00 KiB (49152 bytes)
// ARENA: note: this 'tosa.add' needs it while it runs
// Best-effort plans the least peak instead (as `min`), the closest plan
// there is, and says the budget is below the floor.
// BEST: warning: arena budget of 40.00 KiB (40960 bytes) for @wide_add cannot be met: the smallest arena solver
// BEST-SAME: no plan goes below 48.00 KiB (49152 bytes), the step's floor, and the least-peak plan is planned; keeping the best plan found (best-effort)
func.func @wide_add(%x: tensor<64x64xf32>) -> tensor<1x64xf32> {
  %a = tosa.exp %x : (tensor<64x64xf32>) -> tensor<64x64xf32>
  %b = tosa.tanh %x : (tensor<64x64xf32>) -> tensor<64x64xf32>
  %c = tosa.add %a, %b : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>
  remat.backward
  %s = tosa.reduce_sum %c {axis = 0 : i32} : (tensor<64x64xf32>) -> tensor<1x64xf32>
  return %s : tensor<1x64xf32>
}

// -----

// LIVE: error: budget of 40.00 KiB (40960 bytes) for @two_results cannot be met: no plan goes below 64.00 KiB (65536 bytes), the step's results, all live at its end
// ARENA: error: arena budget of 40.00 KiB (40960 bytes) for @two_results cannot be met: no plan goes below 64.00 KiB (65536 bytes), the step's results, all live at its end
// BEST: warning: arena budget of 40.00 KiB (40960 bytes) for @two_results cannot be met: {{.*}} no plan goes below 64.00 KiB (65536 bytes), the step's floor
func.func @two_results(%x: tensor<64x64xf32>, %y: tensor<64x64xf32>) -> (tensor<64x64xf32>, tensor<64x64xf32>, tensor<64x64xf32>, tensor<64x64xf32>) {
  %a = tosa.exp %x : (tensor<64x64xf32>) -> tensor<64x64xf32>
  %b = tosa.tanh %x : (tensor<64x64xf32>) -> tensor<64x64xf32>
  remat.backward
  %c = tosa.exp %y : (tensor<64x64xf32>) -> tensor<64x64xf32>
  %d = tosa.tanh %y : (tensor<64x64xf32>) -> tensor<64x64xf32>
  return %a, %b, %c, %d : tensor<64x64xf32>, tensor<64x64xf32>, tensor<64x64xf32>, tensor<64x64xf32>
}
