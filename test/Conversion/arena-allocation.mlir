// RUN: remat-opt %s --split-input-file --remat-arena-allocation | FileCheck %s
// RUN: remat-opt %s --split-input-file --remat-arena-allocation="alignment=256" | FileCheck %s --check-prefix=GPU
// RUN: remat-opt %s --split-input-file --remat-arena-allocation --remarks-filter=remat -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARK
// RUN: not remat-opt %s --split-input-file --remat-arena-allocation="alignment=48" -o /dev/null 2>&1 | FileCheck %s --check-prefix=ALIGN

// ALIGN: error: remat-arena-allocation: alignment must be a power of two, not 48

// A buffer freed before the next is allocated shares its bytes; two live at
// once do not. The result lives to the return, so the arena is not freed:
// the caller owns it through the result.
// CHECK-LABEL: func.func @chain
// CHECK-SAME: (%[[X:.+]]: memref<4xf32>)
// CHECK: %[[ARENA:.+]] = memref.alloc() : memref<128xi8>
// CHECK: %[[C0:.+]] = arith.constant 0 : index
// CHECK: %[[A:.+]] = memref.view %[[ARENA]][%[[C0]]][] : memref<128xi8> to memref<4xf32>
// CHECK: memref.copy %[[X]], %[[A]]
// CHECK: %[[C64:.+]] = arith.constant 64 : index
// CHECK: %[[B:.+]] = memref.view %[[ARENA]][%[[C64]]][] : memref<128xi8> to memref<4xf32>
// CHECK: memref.copy %[[A]], %[[B]]
// CHECK-NOT: memref.dealloc
// CHECK: %[[C0B:.+]] = arith.constant 0 : index
// CHECK: %[[C:.+]] = memref.view %[[ARENA]][%[[C0B]]][] : memref<128xi8> to memref<4xf32>
// CHECK: memref.copy %[[B]], %[[C]]
// CHECK-NOT: memref.dealloc
// CHECK: return %[[C]]
// GPU-LABEL: func.func @chain
// GPU: memref.alloc() : memref<512xi8>
// GPU: arith.constant 256 : index
// REMARK: remark: [Analysis] Arena | Category:remat | Function=chain | Remark="arena 128 bytes for 3 buffer(s), live peak 128 bytes (aligned to 64)"
func.func @chain(%x: memref<4xf32>) -> memref<4xf32> {
  %a = memref.alloc() : memref<4xf32>
  memref.copy %x, %a : memref<4xf32> to memref<4xf32>
  %b = memref.alloc() : memref<4xf32>
  memref.copy %a, %b : memref<4xf32> to memref<4xf32>
  memref.dealloc %a : memref<4xf32>
  %c = memref.alloc() : memref<4xf32>
  memref.copy %b, %c : memref<4xf32> to memref<4xf32>
  memref.dealloc %b : memref<4xf32>
  return %c : memref<4xf32>
}

// -----

// Every buffer is freed inside the step: the arena is freed at the return.
// Sizes are padded to the alignment (100 i1 take 100 bytes, then 128), and
// the larger buffer takes the lower offset.
// CHECK-LABEL: func.func @scratch
// CHECK: %[[ARENA:.+]] = memref.alloc() : memref<384xi8>
// CHECK: %[[C256:.+]] = arith.constant 256 : index
// CHECK: memref.view %[[ARENA]][%[[C256]]][] : memref<384xi8> to memref<100xi1>
// CHECK: %[[C0:.+]] = arith.constant 0 : index
// CHECK: memref.view %[[ARENA]][%[[C0]]][] : memref<384xi8> to memref<2x4x8xf32>
// CHECK-NOT: memref.dealloc
// CHECK: memref.dealloc %[[ARENA]] : memref<384xi8>
// CHECK-NEXT: return
func.func @scratch(%x: memref<2x4x8xf32>) {
  %mask = memref.alloc() : memref<100xi1>
  %copy = memref.alloc() : memref<2x4x8xf32>
  memref.copy %x, %copy : memref<2x4x8xf32> to memref<2x4x8xf32>
  memref.dealloc %copy : memref<2x4x8xf32>
  memref.dealloc %mask : memref<100xi1>
  return
}

// -----

// Functions a caller inside the module calls, and private ones, keep their
// allocations: their caller frees each result.
// CHECK-LABEL: func.func private @helper
// CHECK: memref.alloc() : memref<4xf32>
// CHECK-LABEL: func.func @callee
// CHECK: memref.alloc() : memref<4xf32>
// CHECK-LABEL: func.func @caller
// CHECK: %[[ARENA:.+]] = memref.alloc() : memref<64xi8>
// CHECK: call @callee
// CHECK: call @helper
func.func private @helper() -> memref<4xf32> {
  %a = memref.alloc() : memref<4xf32>
  return %a : memref<4xf32>
}
func.func @callee() -> memref<4xf32> {
  %a = memref.alloc() : memref<4xf32>
  return %a : memref<4xf32>
}
func.func @caller() -> memref<4xf32> {
  %a = memref.alloc() : memref<4xf32>
  %b = func.call @callee() : () -> memref<4xf32>
  memref.copy %b, %a : memref<4xf32> to memref<4xf32>
  memref.dealloc %b : memref<4xf32>
  %c = func.call @helper() : () -> memref<4xf32>
  memref.dealloc %c : memref<4xf32>
  return %a : memref<4xf32>
}

// -----

// Allocations the arena cannot hold stay, each with a remark; the rest are
// placed.
// CHECK-LABEL: func.func @kept
// CHECK: memref.alloc() : memref<64xi8>
// CHECK: memref.alloc(%{{.+}}) : memref<?xf32>
// CHECK: memref.alloc() : memref<4xf32, strided<[2]>>
// CHECK: memref.alloc() {alignment = 128 : i64} : memref<4xf32>
// CHECK: scf.if
// CHECK-NEXT: memref.alloc() : memref<4xf32>
// REMARK: remark: [Missed] Arena | Category:remat | Function=kept | Remark="allocation of memref<?xf32> kept out of the arena: dynamic shape"
// REMARK: remark: [Missed] Arena | Category:remat | Function=kept | Remark="allocation of memref<4xf32, strided<[2]>> kept out of the arena: non-identity layout"
// REMARK: remark: [Missed] Arena | Category:remat | Function=kept | Remark="allocation of memref<4xf32> kept out of the arena: asks for a larger alignment than the arena's"
// REMARK: remark: [Missed] Arena | Category:remat | Function=kept | Remark="allocation of memref<4xf32> kept out of the arena: in a nested region"
// REMARK: remark: [Analysis] Arena | Category:remat | Function=kept | Remark="arena 64 bytes for 1 buffer(s)
func.func @kept(%n: index, %flag: i1) {
  %dynamic = memref.alloc(%n) : memref<?xf32>
  %strided = memref.alloc() : memref<4xf32, strided<[2]>>
  %aligned = memref.alloc() {alignment = 128 : i64} : memref<4xf32>
  %placed = memref.alloc() : memref<4xf32>
  scf.if %flag {
    %inner = memref.alloc() : memref<4xf32>
    memref.dealloc %inner : memref<4xf32>
  }
  memref.dealloc %placed : memref<4xf32>
  memref.dealloc %aligned : memref<4xf32>
  memref.dealloc %strided : memref<4xf32, strided<[2]>>
  memref.dealloc %dynamic : memref<?xf32>
  return
}
