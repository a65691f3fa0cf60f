// RUN: not remat-opt %s --remat-plan="budget=56KiB budget-kind=live" -o /dev/null 2>&1 | FileCheck %s --check-prefix=INFEASIBLE
// RUN: not remat-opt %s --remat-plan="budget=56KiB" -o /dev/null 2>&1 | FileCheck %s --check-prefix=ARENA
// RUN: remat-opt %s --remat-plan="budget=56KiB best-effort" -o /dev/null 2>&1 | FileCheck %s --check-prefix=BEST
// RUN: remat-opt %s --remat-pipeline="budget=56KiB best-effort" 2>/dev/null | FileCheck %s --check-prefix=NODUP
// Ops with side effects (here a call) are never recomputed: the budget cannot
// be met, and the error says how close the solver got and what is live there.
// INFEASIBLE: error: budget of 56.00 KiB (57344 bytes) for @opaque_producer cannot be met: the smallest peak solver 'greedy' reached is 64.00 KiB (65536 bytes)
// INFEASIBLE: note: the peak is at this 'tosa.add'
// INFEASIBLE: note: live there: %{{[0-9]+}}, 16.00 KiB (16384 bytes)
// With the default budget-kind=arena, the same in arena bytes.
// ARENA: error: arena budget of 56.00 KiB (57344 bytes) for @opaque_producer cannot be met: the smallest arena solver 'greedy' reached is 64.00 KiB (65536 bytes) (live peak 64.00 KiB (65536 bytes); before: arena 64.00 KiB (65536 bytes))
// ARENA: note: the peak is at this 'tosa.add'
// BEST: warning: arena budget of 56.00 KiB (57344 bytes) for @opaque_producer cannot be met
// BEST-SAME: keeping the best plan found (best-effort)
func.func private @make_bias(tensor<1x64xf32>) -> tensor<64x64xf32>
func.func @opaque_producer(%p: tensor<1x64xf32>, %x: tensor<64x64xf32>) -> tensor<65x64xf32> {
  %bc = func.call @make_bias(%p) : (tensor<1x64xf32>) -> tensor<64x64xf32>
  %u = tosa.add %bc, %x : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>
  %v = tosa.tanh %u : (tensor<64x64xf32>) -> tensor<64x64xf32>
  %w = tosa.exp %v : (tensor<64x64xf32>) -> tensor<64x64xf32>
  %y = tosa.add %v, %w : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>
  %s = tosa.reduce_sum %y {axis = 0 : i32} : (tensor<64x64xf32>) -> tensor<1x64xf32>
  remat.backward
  %cat = tosa.concat %bc, %s {axis = 0 : i32} : (tensor<64x64xf32>, tensor<1x64xf32>) -> tensor<65x64xf32>
  return %cat : tensor<65x64xf32>
}
// NODUP-LABEL: func.func @opaque_producer
// NODUP-COUNT-1: call @make_bias
// NODUP-NOT:     remat.recompute
// NODUP-NOT:     call @make_bias
