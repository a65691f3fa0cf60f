// RUN: remat-opt %s --remat-to-cpu | FileCheck %s

// The step is in the LLVM dialect, with a C interface, and every buffer is
// allocated and freed through the runtime library's hooks: the recomputed
// tanh gets a buffer of its own, freed right after its last use.
// CHECK-DAG: llvm.func @_mlir_memref_to_llvm_alloc(i64) -> !llvm.ptr
// CHECK-DAG: llvm.func @_mlir_memref_to_llvm_free(!llvm.ptr)
// CHECK-LABEL: llvm.func @step(
// CHECK-COUNT-4: llvm.call @_mlir_memref_to_llvm_alloc
// CHECK-NOT: llvm.call @_mlir_memref_to_llvm_alloc
// CHECK: llvm.return
// CHECK-LABEL: llvm.func @_mlir_ciface_step(
// CHECK-SAME: remat.signature = (tensor<4x8xf32>) -> tensor<4x8xf32>
// CHECK-NOT: remat.
// CHECK-NOT: tosa.
remat.graph @step(%x: tensor<4x8xf32>) -> (tensor<4x8xf32>) {
  %t = tosa.tanh %x : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %e = tosa.exp %t : (tensor<4x8xf32>) -> tensor<4x8xf32>
  remat.backward
  %r = remat.recompute(%x) : (tensor<4x8xf32>) -> tensor<4x8xf32> {
  ^bb0(%a: tensor<4x8xf32>):
    %u = tosa.tanh %a : (tensor<4x8xf32>) -> tensor<4x8xf32>
    remat.yield %u : tensor<4x8xf32>
  }
  %y = tosa.add %r, %e : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  remat.return %y : tensor<4x8xf32>
}
