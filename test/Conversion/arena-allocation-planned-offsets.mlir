// The lowering takes the offsets the plan chose (remat.arena's `offsets`,
// one per planned buffer, matched size for size in program order) instead
// of placing the buffers again, so its arena is the plan's by construction,
// whatever order either side lists the buffers in. Offsets that are not a
// placement of the buffers as the lowering sees them are not used: a remark
// says why and the buffers are placed again (the arena must still be the
// plan's). Malformed offsets: arena-allocation-contract.mlir.
//
// RUN: remat-opt %s --split-input-file --remat-arena-allocation --remarks-filter=remat -o %t 2>&1 | FileCheck %s --check-prefix=REMARK
// RUN: FileCheck %s --input-file=%t

// The plan's offsets, not the ones placing again would choose (the first
// allocation at 0).
// CHECK-LABEL: func.func @as_planned
// CHECK: %[[ARENA:.*]] = memref.alloc() : memref<128xi8>
// CHECK: %[[C64:.*]] = arith.constant 64 : index
// CHECK: memref.view %[[ARENA]][%[[C64]]][] : memref<128xi8> to memref<4xf32>
// CHECK: %[[C0:.*]] = arith.constant 0 : index
// CHECK: memref.view %[[ARENA]][%[[C0]]][] : memref<128xi8> to memref<8xf32>
func.func @as_planned(%x: memref<4xf32>) -> (memref<4xf32>, memref<8xf32>) attributes {remat.arena = {bytes = 128 : i64, buffers = array<i64: 32, 16>, offsets = array<i64: 0, 64>}} {
  %a = memref.alloc() : memref<4xf32>
  memref.copy %x, %a : memref<4xf32> to memref<4xf32>
  %b = memref.alloc() : memref<8xf32>
  return %a, %b : memref<4xf32>, memref<8xf32>
}

// -----

// Equal buffers keep the plan's order among themselves: the first
// allocation of 16 bytes gets the first planned offset of that size.
// CHECK-LABEL: func.func @equal_sizes
// CHECK: %[[ARENA:.*]] = memref.alloc() : memref<192xi8>
// CHECK: %[[C128:.*]] = arith.constant 128 : index
// CHECK: memref.view %[[ARENA]][%[[C128]]][] : memref<192xi8> to memref<4xf32>
// CHECK: %[[C0:.*]] = arith.constant 0 : index
// CHECK: memref.view %[[ARENA]][%[[C0]]][] : memref<192xi8> to memref<8xf32>
// CHECK: %[[C64:.*]] = arith.constant 64 : index
// CHECK: memref.view %[[ARENA]][%[[C64]]][] : memref<192xi8> to memref<4xf32>
func.func @equal_sizes(%x: memref<4xf32>) -> (memref<4xf32>, memref<8xf32>, memref<4xf32>) attributes {remat.arena = {bytes = 192 : i64, buffers = array<i64: 16, 32, 16>, offsets = array<i64: 128, 0, 64>}} {
  %a = memref.alloc() : memref<4xf32>
  memref.copy %x, %a : memref<4xf32> to memref<4xf32>
  %b = memref.alloc() : memref<8xf32>
  %c = memref.alloc() : memref<4xf32>
  return %a, %b, %c : memref<4xf32>, memref<8xf32>, memref<4xf32>
}

// -----

// Two buffers live together at one offset: not a placement; placed again,
// in an arena of the plan's size.
// REMARK: remark: [Missed] Arena | Category:remat | Function=overlapping | Remark="the plan's offsets are not a placement of the lowered buffers (buffers 0 and 1 are live at the same step but share bytes [0, 64)): placed again"
// CHECK-LABEL: func.func @overlapping
// CHECK: memref.alloc() : memref<128xi8>
func.func @overlapping(%x: memref<4xf32>) -> (memref<4xf32>, memref<4xf32>) attributes {remat.arena = {bytes = 128 : i64, buffers = array<i64: 16, 16>, offsets = array<i64: 0, 0>}} {
  %a = memref.alloc() : memref<4xf32>
  %b = memref.alloc() : memref<4xf32>
  return %a, %b : memref<4xf32>, memref<4xf32>
}

// -----

// A buffer beyond the plan's arena: placed again.
// REMARK: remark: [Missed] Arena | Category:remat | Function=beyond | Remark="the plan's offsets are not a placement of the lowered buffers (buffer 0 ends at byte 192, beyond the arena's 64): placed again"
func.func @beyond(%x: memref<4xf32>) -> memref<4xf32> attributes {remat.arena = {bytes = 64 : i64, buffers = array<i64: 16>, offsets = array<i64: 128>}} {
  %a = memref.alloc() : memref<4xf32>
  return %a : memref<4xf32>
}
