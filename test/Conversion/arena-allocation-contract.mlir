// The lowering checks that it allocates the buffers of the step's plan
// (remat.arena, recorded by remat-plan): each allocation a planned
// buffer of its size, and the same arena; the first disagreement is a
// located error. How the plan's offsets are used:
// arena-allocation-planned-offsets.mlir.
//
// RUN: remat-opt %s --split-input-file --remat-arena-allocation -verify-diagnostics -o /dev/null

// The plan's buffers, in another order: placed.
func.func @as_planned(%x: memref<4xf32>) -> memref<8xf32> attributes {remat.arena = {bytes = 128 : i64, buffers = array<i64: 32, 16>}} {
  %a = memref.alloc() : memref<4xf32>
  memref.copy %x, %a : memref<4xf32> to memref<4xf32>
  %b = memref.alloc() : memref<8xf32>
  memref.dealloc %a : memref<4xf32>
  return %b : memref<8xf32>
}

// -----

// A buffer the plan does not have.
func.func @extra(%x: memref<4xf32>) -> memref<8xf32> attributes {remat.arena = {bytes = 64 : i64, buffers = array<i64: 32>}} {
  // expected-error @below {{the lowering allocates a buffer of 16 bytes here that the step's plan does not have (the plan has 1 buffers, the lowering 2)}}
  %a = memref.alloc() : memref<4xf32>
  memref.copy %x, %a : memref<4xf32> to memref<4xf32>
  %b = memref.alloc() : memref<8xf32>
  memref.dealloc %a : memref<4xf32>
  return %b : memref<8xf32>
}

// -----

// A planned buffer the lowering does not allocate.
// expected-error @below {{the step's plan has a buffer of 64 bytes that the lowering does not allocate (the plan has 2 buffers, the lowering 1)}}
func.func @missing(%x: memref<4xf32>) -> memref<8xf32> attributes {remat.arena = {bytes = 128 : i64, buffers = array<i64: 32, 64>}} {
  %b = memref.alloc() : memref<8xf32>
  return %b : memref<8xf32>
}

// -----

// Buffers of the planned sizes that live at other times: another arena.
// expected-error @below {{the lowered step's buffers take an arena of 128 bytes, but its plan's arena is 64 bytes}}
func.func @other_arena(%x: memref<4xf32>) -> (memref<4xf32>, memref<4xf32>) attributes {remat.arena = {bytes = 64 : i64, buffers = array<i64: 16, 16>}} {
  %a = memref.alloc() : memref<4xf32>
  %b = memref.alloc() : memref<4xf32>
  return %a, %b : memref<4xf32>, memref<4xf32>
}

// -----

// Planned offsets that are not one per buffer.
// expected-error @below {{has a malformed remat.arena: its offsets are not one non-negative offset per buffer}}
func.func @offsets_miscounted(%x: memref<4xf32>) -> memref<4xf32> attributes {remat.arena = {bytes = 64 : i64, buffers = array<i64: 16>, offsets = array<i64: 0, 64>}} {
  %a = memref.alloc() : memref<4xf32>
  return %a : memref<4xf32>
}

// -----

// A negative planned offset.
// expected-error @below {{has a malformed remat.arena: its offsets are not one non-negative offset per buffer}}
func.func @offset_negative(%x: memref<4xf32>) -> memref<4xf32> attributes {remat.arena = {bytes = 64 : i64, buffers = array<i64: 16>, offsets = array<i64: -64>}} {
  %a = memref.alloc() : memref<4xf32>
  return %a : memref<4xf32>
}
