// RUN: remat-opt %s --remat-to-cpu | FileCheck %s
// RUN: remat-opt %s --remat-to-cpu="arena=false" | FileCheck %s --check-prefix=MALLOC

// The step is in the LLVM dialect, with a C interface. By default its four
// buffers of 128 bytes (the recomputed tanh has one of its own) are views of
// one arena of 384 bytes (at most three are live at once), allocated through
// the runtime library's hook and handed to the caller with the result.
// CHECK-DAG: llvm.func @_mlir_memref_to_llvm_alloc(i64) -> !llvm.ptr
// CHECK-LABEL: llvm.func @step(
// CHECK: llvm.mlir.constant(384 : index) : i64
// CHECK: llvm.call @_mlir_memref_to_llvm_alloc(
// CHECK-NOT: llvm.call @_mlir_memref_to_llvm_alloc
// CHECK-NOT: llvm.call @_mlir_memref_to_llvm_free
// CHECK: llvm.return
// With arena=false every buffer is allocated and freed through the hooks,
// right after its last use.
// MALLOC-DAG: llvm.func @_mlir_memref_to_llvm_alloc(i64) -> !llvm.ptr
// MALLOC-DAG: llvm.func @_mlir_memref_to_llvm_free(!llvm.ptr)
// MALLOC-LABEL: llvm.func @step(
// MALLOC-COUNT-4: llvm.call @_mlir_memref_to_llvm_alloc
// MALLOC-NOT: llvm.call @_mlir_memref_to_llvm_alloc
// MALLOC: llvm.return
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
