// RUN: remat-opt %s --split-input-file --remat-gpu-shared-contractions --canonicalize --cse | FileCheck %s

// A batch of four 100x40 by 40x70 products (batch, M, N, K = 4, 100, 70,
// 40): blocks of 16x16 threads, a
// 64x64 tile of one matrix each (grid 2 x 2 x 4), the operands staged in
// two workgroup buffers. Each thread starts from its 16 outputs' values
// (zero past the edges), copies 4 elements of each operand per step of 16
// along the reduction, and adds at most 16 products per output between
// the two barriers; only the outputs inside the matrix are stored.
// CHECK-LABEL: func.func @batched(
// CHECK-SAME: %[[A:.+]]: memref<4x100x40xf32>, %[[B:.+]]: memref<4x40x70xf32>, %[[C:.+]]: memref<4x100x70xf32>)
// CHECK-DAG: %[[C1:.+]] = arith.constant 1 : index
// CHECK-DAG: %[[C2:.+]] = arith.constant 2 : index
// CHECK-DAG: %[[C4:.+]] = arith.constant 4 : index
// CHECK-DAG: %[[C16:.+]] = arith.constant 16 : index
// CHECK-DAG: %[[C40:.+]] = arith.constant 40 : index
// CHECK-NOT: linalg.batch_matmul
// CHECK: gpu.launch blocks(%[[BX:.+]], %[[BY:.+]], %[[BZ:.+]]) in (%{{.+}} = %[[C2]], %{{.+}} = %[[C2]], %{{.+}} = %[[C4]]) threads(%[[TX:.+]], %[[TY:.+]], %{{.+}}) in (%{{.+}} = %[[C16]], %{{.+}} = %[[C16]], %{{.+}} = %[[C1]])
// CHECK-SAME: workgroup(%[[AS:.+]] : memref<64x16xf32, #gpu.address_space<workgroup>>, %[[BS:.+]] : memref<16x64xf32, #gpu.address_space<workgroup>>)
// CHECK-COUNT-16: memref.load %[[C]][%[[BZ]],
// CHECK: %{{.+}}:16 = scf.for %[[K0:.+]] = %{{.+}} to %[[C40]] step %[[C16]] iter_args(
// CHECK-COUNT-4: memref.store %{{.+}}, %[[AS]][
// CHECK-COUNT-4: memref.store %{{.+}}, %[[BS]][
// CHECK: gpu.barrier
// CHECK: %[[LEFT:.+]] = arith.subi %[[C40]], %[[K0]] : index
// CHECK: %[[N:.+]] = arith.minui %[[LEFT]], %[[C16]] : index
// CHECK: scf.for %[[KK:.+]] = %{{.+}} to %[[N]] step %[[C1]] iter_args(
// CHECK-COUNT-4: memref.load %[[AS]][%{{.+}}, %[[KK]]]
// CHECK-COUNT-16: arith.addf
// CHECK: scf.yield
// CHECK: gpu.barrier
// CHECK: scf.yield
// CHECK-COUNT-16: memref.store %{{.+}}, %[[C]][%[[BZ]],
// CHECK: gpu.terminator
func.func @batched(%a: memref<4x100x40xf32>, %b: memref<4x40x70xf32>,
                   %c: memref<4x100x70xf32>) {
  linalg.batch_matmul ins(%a, %b : memref<4x100x40xf32>, memref<4x40x70xf32>)
                      outs(%c : memref<4x100x70xf32>)
  return
}

// -----

// An unbatched product on strided views: one matrix, indexed without a
// batch dimension.
// CHECK-LABEL: func.func @views(
// CHECK: gpu.launch
// CHECK: memref.load %{{.+}}[%{{.+}}, %{{.+}}] : memref<128x32xf32, strided<[64, 1]>>
// CHECK: memref.store %{{.+}}, %{{.+}}[%{{.+}}, %{{.+}}] : memref<128x128xf32>
func.func @views(%a: memref<128x32xf32, strided<[64, 1]>>,
                 %b: memref<32x128xf32>, %c: memref<128x128xf32>) {
  linalg.matmul ins(%a, %b : memref<128x32xf32, strided<[64, 1]>>, memref<32x128xf32>)
                outs(%c : memref<128x128xf32>)
  return
}

// -----

// A convolution's tap, as the tap split makes it: a contraction over the
// channels (K) of every output position (M: n, h, w, 2*5*7 = 70) for
// every filter (N: 6), on strided views. The rows delinearize with w
// fastest, the left operand reads x[n, h, w, c], the right one w[f, c].
// With 3 channels, one step of the reduction: the canonicalizer folds its
// loops away.
// CHECK-LABEL: func.func @tap(
// CHECK-SAME: %[[X:[a-z0-9]+]]: memref<2x5x7x3xf32, {{.+}}>, %[[W:[a-z0-9]+]]: memref<6x3xf32, {{.+}}>, %[[Y:[a-z0-9]+]]: memref<2x5x7x6xf32, {{.+}}>)
// CHECK-DAG: %[[C1:.+]] = arith.constant 1 : index
// CHECK-DAG: %[[C2:.+]] = arith.constant 2 : index
// CHECK-DAG: %[[C5:.+]] = arith.constant 5 : index
// CHECK-DAG: %[[C7:.+]] = arith.constant 7 : index
// CHECK-DAG: %[[C69:.+]] = arith.constant 69 : index
// Six filters take blocks 16 columns wide (one per thread): the right
// operand's staged tile is 16x16.
// CHECK: gpu.launch blocks({{.+}}) in (%{{.+}} = %[[C1]], %{{.+}} = %[[C2]], %{{.+}} = %[[C1]])
// CHECK-SAME: workgroup(%{{.+}} : memref<64x16xf32, #gpu.address_space<workgroup>>, %{{.+}} : memref<16x16xf32, #gpu.address_space<workgroup>>)
// CHECK: %[[ROW:.+]] = arith.minui %{{.+}}, %[[C69]] : index
// CHECK: %[[WPOS:.+]] = arith.remui %[[ROW]], %[[C7]] : index
// CHECK: %[[NH:.+]] = arith.divui %[[ROW]], %[[C7]] : index
// CHECK: %[[HPOS:.+]] = arith.remui %[[NH]], %[[C5]] : index
// CHECK: %[[NPOS:.+]] = arith.divui %[[NH]], %[[C5]] : index
// CHECK: memref.load %[[Y]][%[[NPOS]], %[[HPOS]], %[[WPOS]], %{{.+}}]
// CHECK: memref.load %[[X]][%[[NPOS]], %[[HPOS]], %[[WPOS]], %{{.+}}]
// CHECK: memref.load %[[W]][%{{.+}}, %{{.+}}]
// CHECK: gpu.barrier
func.func @tap(%x: memref<2x5x7x3xf32, strided<[210, 42, 6, 1], offset: 8>>,
               %w: memref<6x3xf32, strided<[27, 1], offset: 4>>,
               %y: memref<2x5x7x6xf32, strided<[280, 56, 8, 1], offset: 9>>) {
  linalg.generic {indexing_maps = [affine_map<(n, h, w, f, c) -> (n, h, w, c)>,
                                   affine_map<(n, h, w, f, c) -> (f, c)>,
                                   affine_map<(n, h, w, f, c) -> (n, h, w, f)>],
                  iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%x, %w : memref<2x5x7x3xf32, strided<[210, 42, 6, 1], offset: 8>>,
                   memref<6x3xf32, strided<[27, 1], offset: 4>>)
      outs(%y : memref<2x5x7x6xf32, strided<[280, 56, 8, 1], offset: 9>>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %p = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// A product of a transposed left operand: it reads a[k, m].
// CHECK-LABEL: func.func @transposed(
// CHECK-SAME: %[[A:[a-z0-9]+]]: memref<40x12xf32>
// CHECK: gpu.launch
// CHECK: scf.for %[[K0:.+]] = {{.+}} iter_args(
// CHECK: %[[K:.+]] = arith.addi %[[K0]], %{{.+}} : index
// CHECK: %[[KC:.+]] = arith.minui %[[K]], %{{.+}} : index
// CHECK: memref.load %[[A]][%[[KC]], %{{.+}}] : memref<40x12xf32>
func.func @transposed(%a: memref<40x12xf32>, %b: memref<40x10xf32>,
                      %c: memref<12x10xf32>) {
  linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d2, d0)>,
                                 affine_map<(d0, d1, d2) -> (d2, d1)>,
                                 affine_map<(d0, d1, d2) -> (d0, d1)>]
                ins(%a, %b : memref<40x12xf32>, memref<40x10xf32>)
                outs(%c : memref<12x10xf32>)
  return
}

// -----

// Contractions this kernel does not compute stay linalg ops: integers,
// mixed types (casts), dynamic shapes, a body with more than the multiply
// and the add (a negated operand, which the kernel would drop).
// CHECK-LABEL: func.func @kept(
// CHECK-NOT: gpu.launch
// CHECK-COUNT-3: linalg.matmul
// CHECK: linalg.generic
// CHECK: arith.negf
// CHECK-NOT: gpu.launch
func.func @kept(%ai: memref<8x8xi32>, %bi: memref<8x8xi32>, %ci: memref<8x8xi32>,
                %ah: memref<8x8xf16>, %bh: memref<8x8xf16>, %cf: memref<8x8xf32>,
                %b: memref<8x8xf32>, %ad: memref<?x8xf32>, %cd: memref<?x8xf32>) {
  linalg.matmul ins(%ai, %bi : memref<8x8xi32>, memref<8x8xi32>)
                outs(%ci : memref<8x8xi32>)
  linalg.matmul ins(%ah, %bh : memref<8x8xf16>, memref<8x8xf16>)
                outs(%cf : memref<8x8xf32>)
  linalg.matmul ins(%ad, %b : memref<?x8xf32>, memref<8x8xf32>)
                outs(%cd : memref<?x8xf32>)
  linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (m, k)>,
                                   affine_map<(m, n, k) -> (k, n)>,
                                   affine_map<(m, n, k) -> (m, n)>],
                  iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%b, %b : memref<8x8xf32>, memref<8x8xf32>) outs(%cf : memref<8x8xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %n = arith.negf %x : f32
    %p = arith.mulf %n, %y : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }
  return
}
