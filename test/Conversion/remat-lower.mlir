// RUN: remat-opt %s --remat-lower --split-input-file | FileCheck %s

// A graph becomes a function with the same name, visibility and signature,
// a C interface and its tensor signature; the budget is dropped.
// CHECK-LABEL: func.func private @graph(
// CHECK-SAME: %[[X:.+]]: tensor<4xf32>) -> tensor<4xf32>
// CHECK-SAME: llvm.emit_c_interface
// CHECK-SAME: remat.signature = (tensor<4xf32>) -> tensor<4xf32>
// CHECK-NOT: budget
// CHECK: %[[T:.+]] = tosa.tanh %[[X]]
// CHECK: return %[[T]] : tensor<4xf32>
remat.graph private @graph(%x: tensor<4xf32>) -> (tensor<4xf32>)
    attributes {budget = #remat.budget<0.5>} {
  %t = tosa.tanh %x : (tensor<4xf32>) -> tensor<4xf32>
  remat.return %t : tensor<4xf32>
}

// -----

// A recomputation is inlined where it stands, reading the recompute's
// operands; later uses read the recomputed value.
// CHECK-LABEL: func.func @recompute(
// CHECK-SAME: %[[X:.+]]: tensor<4xf32>
// CHECK: %[[A:.+]] = tosa.tanh %[[X]]
// CHECK-NEXT: %[[R:.+]] = tosa.tanh %[[X]]
// CHECK-NEXT: %[[Y:.+]] = tosa.add %[[R]], %[[A]]
// CHECK-NOT: remat.
remat.graph @recompute(%x: tensor<4xf32>) -> (tensor<4xf32>) {
  %a = tosa.tanh %x : (tensor<4xf32>) -> tensor<4xf32>
  %r = remat.recompute(%x) : (tensor<4xf32>) -> tensor<4xf32> {
  ^bb0(%in: tensor<4xf32>):
    %t = tosa.tanh %in : (tensor<4xf32>) -> tensor<4xf32>
    remat.yield %t : tensor<4xf32>
  }
  %y = tosa.add %r, %a : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  remat.return %y : tensor<4xf32>
}

// -----

// Tags and barriers are their operands; the backward marker goes away.
// CHECK-LABEL: func.func @tags(
// CHECK-SAME: %[[X:.+]]: tensor<4xf32>, %[[Y:.+]]: tensor<4xf32>
// CHECK-NEXT: %[[S:.+]] = tosa.add %[[X]], %[[Y]]
// CHECK-NEXT: return %[[S]]
remat.graph @tags(%x: tensor<4xf32>, %y: tensor<4xf32>) -> (tensor<4xf32>) {
  %n = remat.name "x" %x : tensor<4xf32>
  remat.backward
  %a, %b = remat.barrier %n, %y : tensor<4xf32>, tensor<4xf32>
  %s = tosa.add %a, %b : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  remat.return %s : tensor<4xf32>
}

// -----

// A leftover checkpoint is inlined: its policy only matters to the planner.
// CHECK-LABEL: func.func @checkpoint(
// CHECK-SAME: %[[X:.+]]: tensor<4xf32>
// CHECK-NEXT: %[[T:.+]] = tosa.tanh %[[X]]
// CHECK-NOT: remat.save
// CHECK-NEXT: return %[[T]]
remat.graph @checkpoint(%x: tensor<4xf32>) -> (tensor<4xf32>) {
  %y = remat.checkpoint policy(dots_saveable) -> tensor<4xf32> {
    %t = tosa.tanh %x {remat.save = false} : (tensor<4xf32>) -> tensor<4xf32>
    remat.yield %t : tensor<4xf32>
  }
  remat.return %y : tensor<4xf32>
}

// -----

// Functions are lowered in place; only those with a C interface get a
// signature.
// CHECK-LABEL: func.func @plain(
// CHECK-NOT: remat.signature
// CHECK: tosa.tanh
// CHECK-NOT: remat.name
func.func @plain(%x: tensor<4xf32>) -> tensor<4xf32> {
  %n = remat.name "x" %x : tensor<4xf32>
  %t = tosa.tanh %n : (tensor<4xf32>) -> tensor<4xf32>
  return %t : tensor<4xf32>
}

// -----

// Without emit-c-interface, no C interface.
// RUN: remat-opt %s --remat-lower=emit-c-interface=false --split-input-file \
// RUN:   | FileCheck %s --check-prefix=NOCI
// NOCI-LABEL: func.func @no_c_interface(
// NOCI-NOT: llvm.emit_c_interface
remat.graph @no_c_interface(%x: tensor<4xf32>) -> (tensor<4xf32>) {
  remat.return %x : tensor<4xf32>
}
