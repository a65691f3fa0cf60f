// Bad options are diagnosed before any graph is touched, with a non-zero
// exit and nothing written.
// RUN: not remat-opt %s --remat-plan="budget=lots" 2>&1 | FileCheck %s --check-prefix=BUDGET
// RUN: not remat-opt %s --remat-plan="budget=-3MiB" 2>&1 | FileCheck %s --check-prefix=NEGATIVE
// RUN: not remat-opt %s --remat-plan="budget=1.5" 2>&1 | FileCheck %s --check-prefix=FRACTION
// RUN: not remat-opt %s --remat-plan="solver=magic" 2>&1 | FileCheck %s --check-prefix=SOLVER
// RUN: not remat-opt %s --remat-plan="policy=save_all" 2>&1 | FileCheck %s --check-prefix=POLICY
// RUN: not remat-opt %s --remat-plan="policy=save_only_these_names" 2>&1 | FileCheck %s --check-prefix=NONAMES
// RUN: not remat-opt %s --remat-plan="names=a,b" 2>&1 | FileCheck %s --check-prefix=STRAYNAMES
// RUN: not remat-opt %s --remat-plan="solver=ilp time-limit=0" 2>&1 | FileCheck %s --check-prefix=TIME
// RUN: rm -f %t.json && not remat-opt %s --remat-plan="budget=lots report=%t.json" 2>&1 && not test -e %t.json
// RUN: not remat-opt %s --remat-plan="cost-model=seconds" 2>&1 | FileCheck %s --check-prefix=COSTMODEL
// RUN: not remat-opt %s --remat-plan="cost-model=flops time-model=%S/Inputs/round-time-model.json" 2>&1 | FileCheck %s --check-prefix=FLOPSFILE
// RUN: not remat-opt %s --remat-plan="cost-model=time target=gpu" 2>&1 | FileCheck %s --check-prefix=GPUTIME
// RUN: not remat-opt %s --remat-plan="time-model=%t.missing.json" 2>&1 | FileCheck %s --check-prefix=NOFILE
// RUN: not remat-opt %s --remat-plan="time-model=%S/Inputs/bad-time-model.json" 2>&1 | FileCheck %s --check-prefix=BADFILE
// RUN: not remat-opt %s --remat-plan="time-model=%s" 2>&1 | FileCheck %s --check-prefix=NOTJSON

// BUDGET: error: invalid budget option 'lots': malformed budget 'lots'
// NEGATIVE: error: invalid budget option '-3MiB': budget must not be negative
// FRACTION: error: invalid budget option '1.5': a budget fraction must be in (0, 1]
// SOLVER: error: unknown solver 'magic'; available: greedy,ilp,chain,checkpoint-all,sqrt-n,xla,segments,none
// POLICY: error: unknown policy 'save_all'
// NONAMES: error: policy 'save_only_these_names' needs names=... (remat.name tags)
// TIME: error: time-limit must be a positive number of seconds, not 0
// COSTMODEL: plan-options.mlir:{{[0-9]+}}:1: error: invalid cost-model 'seconds': expected 'time' or 'flops'
// FLOPSFILE: error: time-model is not used with cost-model=flops
// GPUTIME: error: target 'gpu' has no built-in time model: measure one (bench/calibrate-time.py) and give it as time-model=<file>, or use cost-model=flops
// NOFILE: error: time-model: cannot open input file '{{.*}}missing.json'
// BADFILE: error: time-model '{{.*}}bad-time-model.json': efficiency.matrix_product must be in (0, 1]
// NOTJSON: error: time-model '{{.*}}plan-options.mlir': not JSON:
// STRAYNAMES: error: names=... only applies with policy=save_only_these_names or policy=save_any_names_but_these

func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
  %a = tosa.tanh %x : (tensor<4xf32>) -> tensor<4xf32>
  return %a : tensor<4xf32>
}
