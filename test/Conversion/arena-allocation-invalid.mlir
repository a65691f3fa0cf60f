// Arena arithmetic and the target's alignment: bad alignments, a step
// planned for another alignment and an arena whose size overflows are
// errors, never a layout.
//
// RUN: not remat-opt %s --split-input-file --remat-arena-allocation="alignment=48" -o /dev/null 2>&1 | FileCheck %s --check-prefix=NOT-POW2
// RUN: not remat-opt %s --split-input-file --remat-arena-allocation="alignment=0" -o /dev/null 2>&1 | FileCheck %s --check-prefix=ZERO
// RUN: not remat-opt %s --split-input-file --remat-arena-allocation="alignment=4611686018427387904" -o /dev/null 2>&1 | FileCheck %s --check-prefix=HUGE
// RUN: not remat-opt %s --split-input-file --remat-arena-allocation="alignment=8192" -o /dev/null 2>&1 | FileCheck %s --check-prefix=PAGE
// RUN: remat-opt %s --split-input-file --remat-arena-allocation -verify-diagnostics -o /dev/null

// NOT-POW2: error: remat-arena-allocation: alignment must be a power of two, not 48
// ZERO: error: remat-arena-allocation: alignment must be a power of two, not 0
// HUGE: error: remat-arena-allocation: alignment must be at most 4096, not 4611686018427387904
// PAGE: error: remat-arena-allocation: alignment must be at most 4096, not 8192

// expected-error @below {{was planned for an arena alignment of 256 bytes but is lowered with 64}}
func.func @planned_for_gpu(%x: memref<4xf32>) -> memref<4xf32> attributes {remat.arena_alignment = 256 : i64} {
  %a = memref.alloc() : memref<4xf32>
  memref.copy %x, %a : memref<4xf32> to memref<4xf32>
  return %a : memref<4xf32>
}

// -----

// The step's own alignment is fine.
func.func @planned_for_cpu(%x: memref<4xf32>) -> memref<4xf32> attributes {remat.arena_alignment = 64 : i64} {
  %a = memref.alloc() : memref<4xf32>
  memref.copy %x, %a : memref<4xf32> to memref<4xf32>
  return %a : memref<4xf32>
}

// -----

// Two buffers of 2^62 bytes live together: 2^63 bytes do not fit in a
// memref's signed 64-bit size.
// expected-error @below {{the 2 buffers of this step do not fit in one arena of at most 9223372036854775807 bytes (aligned to 64): its size overflows}}
func.func @overflow() -> (memref<1152921504606846976xf32>, memref<1152921504606846976xf32>) {
  %a = memref.alloc() : memref<1152921504606846976xf32>
  %b = memref.alloc() : memref<1152921504606846976xf32>
  return %a, %b : memref<1152921504606846976xf32>, memref<1152921504606846976xf32>
}

// -----

// Just below the bound: two buffers of 2^62 - 4096 bytes live together.
func.func @large() -> (memref<1152921504606845952xf32>, memref<1152921504606845952xf32>) {
  %a = memref.alloc() : memref<1152921504606845952xf32>
  %b = memref.alloc() : memref<1152921504606845952xf32>
  return %a, %b : memref<1152921504606845952xf32>, memref<1152921504606845952xf32>
}
