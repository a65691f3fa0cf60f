// What a recomputation costs: FLOPs, or the time model's estimate
// (docs/time-model.md). Either activation, %a (an elementwise exp: 4,096
// FLOPs, but 32 KiB to read and write) or %b (a matrix product: 65,536
// FLOPs over 20 KiB), can be recomputed to meet the budget. FLOPs pick the
// exp; the time model (Inputs/round-time-model.json: 1e11 FLOP/s, 1e10
// B/s, a tenth of the peak for streaming ops) prices the exp at 3.28 us
// (its bytes) and the product at 2.05 us (its bytes; its FLOPs take
// 0.66 us), and picks the product.
// RUN: remat-opt %s --remat-pipeline="budget=0.8 summary cost-model=flops report=%t.flops.json" -o /dev/null 2>&1 | FileCheck %s --check-prefix=FLOPS
// RUN: FileCheck %s --check-prefix=FLOPS-REPORT < %t.flops.json
// RUN: remat-opt %s --remat-pipeline="budget=0.8 summary time-model=%S/Inputs/round-time-model.json report=%t.time.json" -o /dev/null 2>&1 | FileCheck %s --check-prefix=TIME
// RUN: FileCheck %s --check-prefix=TIME-REPORT < %t.time.json
// FLOPs are the default; cost-model=time on the cpu uses its built-in
// model; the gpu has none, but takes a file.
// RUN: remat-opt %s --remat-plan="budget=0.8 report=%t.default.json" -o /dev/null
// RUN: FileCheck %s --check-prefix=FLOPS-REPORT < %t.default.json
// RUN: remat-opt %s --remat-plan="budget=0.8 cost-model=time report=%t.cpu.json" -o /dev/null
// RUN: FileCheck %s --check-prefix=TIME-REPORT-CPU < %t.cpu.json
// RUN: remat-opt %s --remat-plan="budget=0.8 target=gpu time-model=%S/Inputs/round-time-model.json report=%t.gpu-time.json" -o /dev/null
// RUN: FileCheck %s --check-prefix=TIME-REPORT < %t.gpu-time.json

// FLOPS:      cost     +4096 FLOPs (+3.7%), solver greedy
// FLOPS:      recompute 1 value(s):
// FLOPS-NEXT:   16.0 KiB  tosa.exp at
// FLOPS-REPORT-DAG: "cost_model": "flops"
// FLOPS-REPORT-DAG: "base_seconds": null
// FLOPS-REPORT-DAG: "extra_seconds": null

// TIME:       cost     +65536 FLOPs (+59.3%), est. +2.0 us
// TIME:       recompute 1 value(s):
// TIME-NEXT:    16.0 KiB  tosa.matmul at
// TIME-REPORT-DAG: "cost_model": "time"
// TIME-REPORT-DAG: "extra_seconds": 2.048{{[0-9]*}}e-06
// TIME-REPORT-DAG: "flops": 65536
// TIME-REPORT-DAG: "seconds": 2.048{{[0-9]*}}e-06
// TIME-REPORT-CPU: "cost_model": "time"

remat.graph @two_choices(%x: tensor<1x64x64xf32>, %p: tensor<1x64x8xf32>, %w: tensor<1x8x64xf32>, %g: tensor<1x64x128xf32>) -> (tensor<1x1x64xf32>, tensor<1x1x64xf32>) {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %zp8 = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %a = tosa.exp %x : (tensor<1x64x64xf32>) -> tensor<1x64x64xf32>
  %b = tosa.matmul %p, %w, %zp, %zp : (tensor<1x64x8xf32>, tensor<1x8x64xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x64x64xf32>
  %s = tosa.add %a, %b : (tensor<1x64x64xf32>, tensor<1x64x64xf32>) -> tensor<1x64x64xf32>
  %loss = tosa.reduce_sum %s {axis = 1 : i32} : (tensor<1x64x64xf32>) -> tensor<1x1x64xf32>
  remat.backward
  %big = tosa.tanh %g : (tensor<1x64x128xf32>) -> tensor<1x64x128xf32>
  %v = tosa.reduce_sum %big {axis = 2 : i32} : (tensor<1x64x128xf32>) -> tensor<1x64x1xf32>
  %da = tosa.mul %a, %v, %zp8 : (tensor<1x64x64xf32>, tensor<1x64x1xf32>, tensor<1xi8>) -> tensor<1x64x64xf32>
  %ga = tosa.reduce_sum %da {axis = 2 : i32} : (tensor<1x64x64xf32>) -> tensor<1x64x1xf32>
  %db = tosa.mul %b, %ga, %zp8 : (tensor<1x64x64xf32>, tensor<1x64x1xf32>, tensor<1xi8>) -> tensor<1x64x64xf32>
  %out = tosa.reduce_sum %db {axis = 1 : i32} : (tensor<1x64x64xf32>) -> tensor<1x1x64xf32>
  remat.return %loss, %out : tensor<1x1x64xf32>, tensor<1x1x64xf32>
}
