// The arena alignment comes from the target's description (TargetMemory.h):
// remat-plan records it on every step it plans, an override must be a
// power of two of at most 4096
// (plan-arena-overflow.mlir: arenas too large to place).
//
// RUN: remat-opt %s --remat-plan | FileCheck %s --check-prefix=CPU
// RUN: remat-opt %s --remat-plan="target=gpu" | FileCheck %s --check-prefix=GPU
// RUN: remat-opt %s --remat-plan="target=gpu arena-alignment=1" | FileCheck %s --check-prefix=BYTE
// RUN: not remat-opt %s --remat-plan="target=tpu" -o /dev/null 2>&1 | FileCheck %s --check-prefix=TARGET
// RUN: not remat-opt %s --remat-plan="arena-alignment=48" -o /dev/null 2>&1 | FileCheck %s --check-prefix=NOT-POW2
// RUN: not remat-opt %s --remat-plan="arena-alignment=4611686018427387904" -o /dev/null 2>&1 | FileCheck %s --check-prefix=HUGE
// RUN: not remat-opt %s --remat-plan="arena-alignment=8192" -o /dev/null 2>&1 | FileCheck %s --check-prefix=PAGE

// TARGET: plan-arena-alignment.mlir:[[@LINE+5]]:{{[0-9]+}}: error: unknown target 'tpu': expected 'cpu' or 'gpu'
// NOT-POW2: plan-arena-alignment.mlir:[[@LINE+4]]:{{[0-9]+}}: error: arena-alignment must be a power of two, not 48
// HUGE: plan-arena-alignment.mlir:[[@LINE+3]]:{{[0-9]+}}: error: arena-alignment must be at most 4096, not 4611686018427387904
// PAGE: plan-arena-alignment.mlir:[[@LINE+2]]:{{[0-9]+}}: error: arena-alignment must be at most 4096, not 8192
// CPU-LABEL: func.func @step
func.func @step(%x: tensor<4xf32>) -> tensor<4xf32> {
  %e = tosa.exp %x : (tensor<4xf32>) -> tensor<4xf32>
  return %e : tensor<4xf32>
}
// CPU-SAME: remat.arena_alignment = 64 : i64
// GPU: remat.arena_alignment = 256 : i64
// BYTE: remat.arena_alignment = 1 : i64

