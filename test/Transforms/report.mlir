// RUN: remat-opt %s --remat-pipeline="budget=56KiB report=%t.json timeline=%t.svg" -o /dev/null
// RUN: FileCheck %s --input-file=%t.json
// RUN: FileCheck %s --input-file=%t.svg --check-prefix=SVG
// RUN: remat-opt %s --remat-pipeline="budget=56KiB" --remarks-filter=remat -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARK
// RUN: remat-opt %s --remat-pipeline="budget=56KiB solver=ilp time-limit=20 report=%t.ilp.json summary" -o /dev/null 2>&1 | FileCheck %s --check-prefix=ILP-SUMMARY
// RUN: FileCheck %s --input-file=%t.ilp.json --check-prefix=ILP

// CHECK:      "graphs": [
// The planned step's buffers in one arena (budget-kind=arena by default):
// each with its offset; the tile's copy reuses the bytes of dead buffers.
// CHECK:        "arena": {
// CHECK-NEXT:     "buffers": [
// CHECK-NEXT:       {
// CHECK-NEXT:         "bytes": 16384,
// CHECK-NEXT:         "first": 1,
// CHECK-NEXT:         "last": 2,
// CHECK-NEXT:         "offset": 0,
// CHECK-NEXT:         "value": "%1"
// CHECK:              "recomputed": true,
// CHECK:          "live_bytes": 49152,
// CHECK-NEXT:     "size_best_fit_bytes": 49408
// CHECK:        "arena_before_bytes": 65536,
// CHECK-NEXT:   "arena_bytes": 49152,
// The load bound, met here: no placement could do better.
// CHECK-NEXT:   "arena_lower_bound_bytes": 49152,
// CHECK-NEXT:   "base_flops": 28736,
// CHECK:        "budget": "56KiB",
// CHECK-NEXT:   "budget_bytes": 57344,
// CHECK-NEXT:   "budget_kind": "arena",
// CHECK:        "extra_flops": 4096,
// CHECK:        "feasible": true,
// CHECK-NEXT:   "fragmentation": 1,
// CHECK-NEXT:   "fragmentation_lower_bound": 1,
// CHECK-NEXT:   "gap": null,
// CHECK:        "kept": [
// CHECK:        "name": "broadcast_concat",
// CHECK-NEXT:   "ops": 9,
// CHECK-NEXT:   "optimal": false,
// CHECK:        "peak": {
// CHECK-NEXT:     "bytes": 49152,
// CHECK:          "live": [
// CHECK:            "bytes": 16384,
// CHECK-NEXT:       "loc": "{{.*}}report.mlir:
// CHECK:          "op": "tosa.add",
// CHECK:        "peak_after_bytes": 49152,
// CHECK-NEXT:   "peak_before": {
// CHECK:        "peak_before_bytes": 65536,
// CHECK-NEXT:   "plans": 1,
// CHECK:        "recomputed": [
// CHECK-NEXT:     {
// CHECK-NEXT:       "bytes": 16384,
// CHECK-NEXT:       "flops": 4096,
// CHECK-NEXT:       "loc": "{{.*}}report.mlir:[[#TILE:]]:{{[0-9]+}}",
// CHECK-NEXT:       "op": "tosa.tile",
// CHECK-NEXT:       "seconds": null,
// CHECK-NEXT:       "times": 1,
// CHECK-NEXT:       "value": "%1"
// CHECK:        "solve_ms":
// CHECK:        "solver": "greedy",
// CHECK-NEXT:   "solver_note": ""

// The ILP proves this plan optimal (one tile recomputed, 4096 FLOPs).
// ILP-SUMMARY: cost     +4096 FLOPs (+14.3%), solver ilp, planned in {{.*}} ms, proven optimal
// ILP:          "extra_flops": 4096,
// ILP:          "gap": 0,
// ILP:          "optimal": true,
// ILP:          "solver": "ilp",

// SVG: <svg xmlns='http://www.w3.org/2000/svg'
// SVG: @broadcast_concat: peak 64.0 KiB → 48.0 KiB (budget 56.0 KiB)
// SVG: <polyline fill='none' stroke='#9a9a9a'
// SVG: <polyline fill='none' stroke='#1f5fbf'
// SVG: budget 56.0 KiB
// SVG: address space: arena 48.0 KiB = 1.000x the live peak
// SVG: <rect x={{.*}}<title>%1 @0, 16.0 KiB</title></rect>
// SVG: <title>%1 (copy) @0, 16.0 KiB</title>
// SVG: arena 48.0 KiB
// SVG: budget 56.0 KiB
// SVG: at the peak:
// SVG: </svg>

// REMARK: remark: [Passed] Recompute | Category:remat | Function=broadcast_concat | Remark="recompute %1 (16384 bytes) before 'tosa.concat'
// REMARK: remark: [Analysis] Peak | Category:remat | Function=broadcast_concat | Remark="peak 49152 bytes (before: 65536)
remat.graph @broadcast_concat(%p: tensor<1x64xf32>, %x: tensor<64x64xf32>) -> tensor<65x64xf32> {
  %m = tosa.const_shape {values = dense<[64, 1]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %bc = tosa.tile %p, %m : (tensor<1x64xf32>, !tosa.shape<2>) -> tensor<64x64xf32>
  %u = tosa.add %bc, %x : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>
  %v = tosa.tanh %u : (tensor<64x64xf32>) -> tensor<64x64xf32>
  %w = tosa.exp %v : (tensor<64x64xf32>) -> tensor<64x64xf32>
  %y = tosa.add %v, %w : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>
  %s = tosa.reduce_sum %y {axis = 0 : i32} : (tensor<64x64xf32>) -> tensor<1x64xf32>
  remat.backward
  %cat = tosa.concat %bc, %s {axis = 0 : i32} : (tensor<64x64xf32>, tensor<1x64xf32>) -> tensor<65x64xf32>
  remat.return %cat : tensor<65x64xf32>
}
