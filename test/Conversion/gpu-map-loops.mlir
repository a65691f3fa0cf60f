// RUN: remat-opt %s --split-input-file --remat-gpu-map-loops | FileCheck %s --check-prefix=MAP
// RUN: remat-opt %s --split-input-file --remat-gpu-map-loops --convert-parallel-loops-to-gpu --canonicalize | FileCheck %s
// RUN: remat-opt %s --split-input-file --remat-gpu-map-loops="block-size=128" --convert-parallel-loops-to-gpu --canonicalize | FileCheck %s --check-prefix=B128

// A 4-d loop (a convolution's n, h, w, c) collapses into one of 4*8*8*96 =
// 24,576 iterations, tiled into blocks of 256 threads: 96 blocks. Each
// thread takes one iteration, the innermost dimension varying fastest
// across threads, and the indices come back by remainder and division.
// MAP-LABEL: func.func @four_dims(
// MAP: scf.parallel
// MAP: scf.parallel
// MAP: scf.if
// MAP: memref.store
// MAP: } {mapping = [#gpu.loop_dim_map<processor = thread_x, map = (d0) -> (d0), bound = (d0) -> (d0)>]}
// MAP-NEXT: scf.reduce
// MAP-NEXT: } {mapping = [#gpu.loop_dim_map<processor = block_x, map = (d0) -> (d0), bound = (d0) -> (d0)>]}
// CHECK-LABEL: func.func @four_dims(
// CHECK-DAG: %[[C1:.+]] = arith.constant 1 : index
// CHECK-DAG: %[[C96:.+]] = arith.constant 96 : index
// CHECK-DAG: %[[C256:.+]] = arith.constant 256 : index
// CHECK-DAG: %[[TOTAL:.+]] = arith.constant 24576 : index
// CHECK: gpu.launch blocks(%[[B:.+]], %{{.+}}, %{{.+}}) in (%{{.+}} = %[[C96]], %{{.+}} = %[[C1]], %{{.+}} = %[[C1]]) threads(%[[T:.+]], %{{.+}}, %{{.+}}) in (%{{.+}} = %[[C256]], %{{.+}} = %[[C1]], %{{.+}} = %[[C1]])
// CHECK: %[[BASE:.+]] = affine.apply #{{.+}}()[%[[B]]]
// CHECK: %[[I:.+]] = arith.addi %[[T]], %[[BASE]] : index
// CHECK: arith.cmpi ult, %{{.+}}, %[[TOTAL]] : index
// CHECK: scf.if
// CHECK: %[[C:.+]] = arith.remsi %[[I]], %[[C96]] : index
// CHECK: memref.store %{{.+}}, %{{.+}}[%{{.+}}, %{{.+}}, %{{.+}}, %[[C]]]
// B128-LABEL: func.func @four_dims(
// B128-DAG: %[[C128:.+]] = arith.constant 128 : index
// B128-DAG: %[[C192:.+]] = arith.constant 192 : index
// B128: gpu.launch blocks({{.+}}) in (%{{.+}} = %[[C192]], {{.+}}) threads({{.+}}) in (%{{.+}} = %[[C128]],
func.func @four_dims(%out: memref<4x8x8x96xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %c96 = arith.constant 96 : index
  %zero = arith.constant 0.0 : f32
  scf.parallel (%n, %h, %w, %c) = (%c0, %c0, %c0, %c0) to (%c4, %c8, %c8, %c96)
                                  step (%c1, %c1, %c1, %c1) {
    memref.store %zero, %out[%n, %h, %w, %c] : memref<4x8x8x96xf32>
  }
  return
}

// -----

// A loop of 10 iterations gets one block of a warp, 32 threads, of which
// the first 10 work; the body's sequential loop (a reduction) stays in
// each thread.
// CHECK-LABEL: func.func @small(
// CHECK-DAG: %[[C1:.+]] = arith.constant 1 : index
// CHECK-DAG: %[[C10:.+]] = arith.constant 10 : index
// CHECK-DAG: %[[C32:.+]] = arith.constant 32 : index
// CHECK: gpu.launch blocks({{.+}}) in (%{{.+}} = %[[C1]], %{{.+}} = %[[C1]], %{{.+}} = %[[C1]]) threads(%[[T:.+]], %{{.+}}, %{{.+}}) in (%{{.+}} = %[[C32]], %{{.+}} = %[[C1]], %{{.+}} = %[[C1]])
// CHECK: %[[IN:.+]] = arith.cmpi ult, %[[T]], %[[C10]] : index
// CHECK: scf.if %[[IN]]
// CHECK: scf.for
// CHECK: memref.store %{{.+}}, %{{.+}}[%[[T]]]
func.func @small(%x: memref<10x64xf32>, %s: memref<10xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c10 = arith.constant 10 : index
  %c64 = arith.constant 64 : index
  scf.parallel (%i) = (%c0) to (%c10) step (%c1) {
    scf.for %k = %c0 to %c64 step %c1 {
      %a = memref.load %x[%i, %k] : memref<10x64xf32>
      %b = memref.load %s[%i] : memref<10xf32>
      %c = arith.addf %a, %b : f32
      memref.store %c, %s[%i] : memref<10xf32>
    }
  }
  return
}
