// RUN: remat-opt %s --split-input-file --remat-pipeline | FileCheck %s
// RUN: remat-opt %s --split-input-file --remat-pipeline="policy=nothing_saveable" | FileCheck %s --check-prefix=NOTHING
// RUN: remat-opt %s --split-input-file --remat-pipeline="policy=dots_saveable" | FileCheck %s --check-prefix=DOTS
// RUN: remat-opt %s --split-input-file --remat-pipeline="policy=save_only_these_names names=t" | FileCheck %s --check-prefix=ONLY
// RUN: remat-opt %s --split-input-file --remat-pipeline="policy=save_any_names_but_these names=t" | FileCheck %s --check-prefix=BUT
// RUN: remat-opt %s --split-input-file --remat-pipeline="policy=everything_saveable" | FileCheck %s --check-prefix=ALL

// A matmul and a tanh whose results both passes read. Without a budget only
// policies act: whatever they do not let be saved is recomputed before its
// first backward use; everything else stays.
// CHECK-LABEL:   remat.graph @step
// CHECK-NOT:       remat.recompute
// ALL-LABEL:     remat.graph @step
// ALL-NOT:         remat.recompute
// NOTHING-LABEL: remat.graph @step
// NOTHING:         remat.backward
// NOTHING-COUNT-2: remat.recompute
// DOTS-LABEL:    remat.graph @step
// DOTS:          remat.backward
// DOTS-NEXT:     remat.recompute
// DOTS-NEXT:     ^bb0
// DOTS-NEXT:       tosa.tanh
// DOTS-NOT:      remat.recompute
// ONLY-LABEL:    remat.graph @step
// ONLY:          remat.backward
// ONLY-NEXT:     remat.recompute
// ONLY:            tosa.matmul
// ONLY-NOT:      remat.recompute
// BUT-LABEL:     remat.graph @step
// BUT:           remat.backward
// BUT-NEXT:      remat.recompute
// BUT-NEXT:      ^bb0
// BUT-NEXT:        tosa.tanh
// BUT-NOT:       remat.recompute
remat.graph @step(%x: tensor<1x8x8xf32>, %w: tensor<1x8x8xf32>) -> (tensor<1x8x8xf32>, tensor<1x8x8xf32>, tensor<1x8x8xf32>) {
  %z = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %m = tosa.matmul %x, %w, %z, %z : (tensor<1x8x8xf32>, tensor<1x8x8xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x8x8xf32>
  %t = tosa.tanh %m : (tensor<1x8x8xf32>) -> tensor<1x8x8xf32>
  %tn = remat.name "t" %t : tensor<1x8x8xf32>
  %f = tosa.exp %tn : (tensor<1x8x8xf32>) -> tensor<1x8x8xf32>
  remat.backward
  %g = tosa.add %m, %tn : (tensor<1x8x8xf32>, tensor<1x8x8xf32>) -> tensor<1x8x8xf32>
  %h = tosa.sub %g, %tn : (tensor<1x8x8xf32>, tensor<1x8x8xf32>) -> tensor<1x8x8xf32>
  remat.return %f, %g, %h : tensor<1x8x8xf32>, tensor<1x8x8xf32>, tensor<1x8x8xf32>
}

// -----

// A checkpoint's own policy is not overridden by the graph-wide one.
// NOTHING-LABEL: func.func @checkpointed
// DOTS-LABEL:    func.func @checkpointed
// ONLY-LABEL:    func.func @checkpointed
// BUT-LABEL:     func.func @checkpointed
// CHECK-LABEL:   func.func @checkpointed
// CHECK:           remat.backward
// CHECK-NEXT:      remat.recompute
// CHECK:             tosa.exp
// ALL-LABEL:     func.func @checkpointed
// ALL:             remat.backward
// ALL-NEXT:        remat.recompute
// ALL:               tosa.exp
func.func @checkpointed(%x: tensor<64xf32>) -> tensor<64xf32> {
  %r = remat.checkpoint -> tensor<64xf32> {
    %e = tosa.exp %x : (tensor<64xf32>) -> tensor<64xf32>
    remat.yield %e : tensor<64xf32>
  }
  %t = tosa.tanh %r : (tensor<64xf32>) -> tensor<64xf32>
  remat.backward
  %g = tosa.add %r, %t : (tensor<64xf32>, tensor<64xf32>) -> tensor<64xf32>
  return %g : tensor<64xf32>
}
