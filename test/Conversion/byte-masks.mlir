// RUN: remat-opt %s --split-input-file --remat-byte-masks | FileCheck %s

// A vector of i1 loaded from memory: a byte per element, truncated.
// CHECK-LABEL: llvm.func @load_mask
// CHECK: %[[BYTES:.+]] = llvm.load %{{.+}} {alignment = 1 : i64} : !llvm.ptr -> vector<32xi8>
// CHECK: %[[MASK:.+]] = llvm.trunc %[[BYTES]] : vector<32xi8> to vector<32xi1>
// CHECK: llvm.select %[[MASK]]
// CHECK-NOT: -> vector<32xi1>
llvm.func @load_mask(%p: !llvm.ptr, %a: vector<32xf32>, %b: vector<32xf32>) -> vector<32xf32> {
  %m = llvm.load %p {alignment = 1 : i64} : !llvm.ptr -> vector<32xi1>
  %r = llvm.select %m, %a, %b : vector<32xi1>, vector<32xf32>
  llvm.return %r : vector<32xf32>
}

// -----

// A vector of i1 stored: zero-extended to a byte per element.
// CHECK-LABEL: llvm.func @store_mask
// CHECK: %[[BYTES:.+]] = llvm.zext %{{.+}} : vector<16xi1> to vector<16xi8>
// CHECK: llvm.store %[[BYTES]], %{{.+}} {alignment = 1 : i64} : vector<16xi8>, !llvm.ptr
llvm.func @store_mask(%p: !llvm.ptr, %a: vector<16xf32>, %b: vector<16xf32>) {
  %m = llvm.fcmp "ogt" %a, %b : vector<16xf32>
  llvm.store %m, %p {alignment = 1 : i64} : vector<16xi1>, !llvm.ptr
  llvm.return
}

// -----

// Scalars of i1 already move a byte, and other vectors are left alone.
// CHECK-LABEL: llvm.func @left_alone
// CHECK: llvm.load %{{.+}} : !llvm.ptr -> i1
// CHECK: llvm.load %{{.+}} : !llvm.ptr -> vector<8xi32>
// CHECK: llvm.store %{{.+}}, %{{.+}} : vector<8xi32>, !llvm.ptr
// CHECK-NOT: llvm.zext
// CHECK-NOT: llvm.trunc
llvm.func @left_alone(%p: !llvm.ptr, %q: !llvm.ptr) -> i1 {
  %s = llvm.load %p : !llvm.ptr -> i1
  %v = llvm.load %q : !llvm.ptr -> vector<8xi32>
  llvm.store %v, %q : vector<8xi32>, !llvm.ptr
  llvm.return %s : i1
}
