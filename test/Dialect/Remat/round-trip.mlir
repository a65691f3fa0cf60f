// RUN: remat-opt %s --split-input-file | FileCheck %s
// RUN: remat-opt %s --split-input-file --mlir-print-op-generic | remat-opt --split-input-file | FileCheck %s

// CHECK-LABEL: remat.graph @step(
// CHECK-SAME:    %[[X:.+]]: tensor<4x8xf32>, %[[W:.+]]: tensor<8x8xf32>) -> tensor<4x8xf32>
// CHECK-SAME:    attributes {budget = #remat.budget<16KiB>}
// CHECK:         %[[H:.+]] = tosa.tanh %[[X]]
// CHECK:         %[[N:.+]] = remat.name "h" %[[H]] : tensor<4x8xf32>
// CHECK:         remat.backward
// CHECK:         %[[G:.+]] = tosa.add %[[N]], %[[N]]
// CHECK:         remat.return %[[G]] : tensor<4x8xf32>
remat.graph @step(%x: tensor<4x8xf32>, %w: tensor<8x8xf32>) -> tensor<4x8xf32>
    attributes {budget = #remat.budget<16384>} {
  %h = tosa.tanh %x : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %n = remat.name "h" %h : tensor<4x8xf32>
  remat.backward
  %g = tosa.add %n, %n : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  remat.return %g : tensor<4x8xf32>
}

// -----

// CHECK-LABEL: remat.graph @no_results()
// CHECK-NEXT:    remat.return
// CHECK-NOT:     :
remat.graph @no_results() {
  remat.return
}

// -----

// Every budget form, and its canonical spelling.
// CHECK-LABEL: func.func @budgets
// CHECK-SAME: b0 = #remat.budget<67108865>
// CHECK-SAME: b1 = #remat.budget<64MiB>
// CHECK-SAME: b10 = #remat.budget<0>
// CHECK-SAME: b11 = #remat.budget<2TiB>
// CHECK-SAME: b2 = #remat.budget<1536MiB>
// CHECK-SAME: b3 = #remat.budget<0.5>
// CHECK-SAME: b4 = #remat.budget<min>
// CHECK-SAME: b5 = #remat.budget<500KiB>
// CHECK-SAME: b6 = #remat.budget<3000000>
// CHECK-SAME: b7 = #remat.budget<1GiB>
// CHECK-SAME: b8 = #remat.budget<1.0>
// CHECK-SAME: b9 = #remat.budget<100>
func.func @budgets() attributes {
    b0 = #remat.budget<67108865>, b1 = #remat.budget<64MiB>,
    b2 = #remat.budget<1.5GiB>, b3 = #remat.budget<0.5>,
    b4 = #remat.budget<min>, b5 = #remat.budget<512KB>,
    b6 = #remat.budget<3MB>, b7 = #remat.budget<1GiB>,
    b8 = #remat.budget<1.0>, b9 = #remat.budget<100B>,
    b10 = #remat.budget<0>, b11 = #remat.budget<2048GiB>} {
  return
}

// -----

// CHECK-LABEL: func.func @checkpoints
// CHECK:  remat.checkpoint -> tensor<4xf32> {
// CHECK:  remat.checkpoint policy(everything_saveable) -> tensor<4xf32> {
// CHECK:  remat.checkpoint policy(nothing_saveable) -> tensor<4xf32> {
// CHECK:  remat.checkpoint policy(dots_saveable) -> tensor<4xf32> {
// CHECK:  remat.checkpoint policy(dots_with_no_batch_dims_saveable) -> tensor<4xf32> {
// CHECK:  remat.checkpoint policy(save_only_these_names) names(["a", "b"]) -> tensor<4xf32> {
// CHECK:  remat.checkpoint policy(save_any_names_but_these) names(["a"]) -> tensor<4xf32> attributes {note = 1 : i64} {
// CHECK:  remat.checkpoint {
// CHECK-NEXT: remat.yield
// CHECK-NEXT: }
func.func @checkpoints(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = remat.checkpoint -> tensor<4xf32> {
    %t = math.exp %x : tensor<4xf32>
    remat.yield %t : tensor<4xf32>
  }
  %1 = remat.checkpoint policy(everything_saveable) -> tensor<4xf32> {
    remat.yield %0 : tensor<4xf32>
  }
  %2 = remat.checkpoint policy(nothing_saveable) -> tensor<4xf32> {
    remat.yield %1 : tensor<4xf32>
  }
  %3 = remat.checkpoint policy(dots_saveable) -> tensor<4xf32> {
    remat.yield %2 : tensor<4xf32>
  }
  %4 = remat.checkpoint policy(dots_with_no_batch_dims_saveable) -> tensor<4xf32> {
    remat.yield %3 : tensor<4xf32>
  }
  %5 = remat.checkpoint policy(save_only_these_names) names(["a", "b"]) -> tensor<4xf32> {
    remat.yield %4 : tensor<4xf32>
  }
  %6 = remat.checkpoint policy(save_any_names_but_these) names(["a"]) -> tensor<4xf32> attributes {note = 1} {
    remat.yield %5 : tensor<4xf32>
  }
  remat.checkpoint {
    remat.yield
  }
  return %6 : tensor<4xf32>
}

// -----

// CHECK-LABEL: func.func @recompute_and_barrier
// CHECK:      %[[B:.+]]:2 = remat.barrier %{{.+}}, %{{.+}} : tensor<4xf32>, tensor<2xi8>
// CHECK:      remat.recompute(%[[B]]#0) : (tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
// CHECK-NEXT: ^bb0(%[[A:.+]]: tensor<4xf32>):
// CHECK:        remat.yield %{{.+}}, %[[A]] : tensor<4xf32>, tensor<4xf32>
func.func @recompute_and_barrier(%x: tensor<4xf32>, %y: tensor<2xi8>) -> tensor<4xf32> {
  %b:2 = remat.barrier %x, %y : tensor<4xf32>, tensor<2xi8>
  %r:2 = remat.recompute(%b#0) : (tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  ^bb0(%a: tensor<4xf32>):
    %e = math.exp %a : tensor<4xf32>
    remat.yield %e, %a : tensor<4xf32>, tensor<4xf32>
  }
  return %r#0 : tensor<4xf32>
}

// -----

// CHECK-LABEL: remat.graph @abstract
// CHECK:  %[[A:.+]] = remat.abstract "conv1" flops(1200) (%{{.+}}) : (tensor<64xi8>) -> tensor<256xi8>
// CHECK:  remat.abstract flops(0) (%[[A]], %[[A]]) : (tensor<256xi8>, tensor<256xi8>) -> (tensor<8xi8>, tensor<8xi8>)
remat.graph @abstract(%x: tensor<64xi8>) -> tensor<8xi8> {
  %a = remat.abstract "conv1" flops(1200) (%x) : (tensor<64xi8>) -> tensor<256xi8>
  %b:2 = remat.abstract flops(0) (%a, %a) : (tensor<256xi8>, tensor<256xi8>) -> (tensor<8xi8>, tensor<8xi8>)
  remat.return %b#1 : tensor<8xi8>
}

// -----

// The boundary marker is accepted in any function-like op.
// CHECK-LABEL: func.func @boundary_in_func
// CHECK: remat.backward
func.func @boundary_in_func() {
  remat.backward
  return
}
