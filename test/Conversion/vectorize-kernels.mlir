// RUN: remat-opt %s --split-input-file --remat-vectorize-kernels="vector-bits=512" | FileCheck %s
// RUN: remat-opt %s --split-input-file --remat-vectorize-kernels="vector-bits=256" | FileCheck %s --check-prefix=AVX2
// RUN: remat-opt %s --split-input-file --remat-vectorize-kernels="vector-bits=512" --remarks-filter=remat -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARK
// RUN: remat-opt %s --split-input-file --remat-vectorize-kernels="vector-bits=512 parallel=true" | FileCheck %s --check-prefix=PAR

// A matrix product in register tiles: 8 rows by two 16-lane vectors (512
// bits) by 8 steps of k; the tiles are read into registers whole (the
// transfers in bounds, for convert-vector-to-scf to unroll), the
// accumulator rows are vectors, each k step one broadcast and one FMA per
// row. Nothing is allocated, on the heap or the stack.
// CHECK-LABEL: func.func @matmul
// CHECK-NOT: memref.alloc
// CHECK: scf.for %{{.+}} = %{{.+}} to %{{.+}} step %c8 {
// CHECK: vector.transfer_read {{.*}}in_bounds = [true, true]{{.*}} vector<8x32xf32>
// CHECK: %[[ROW:.+]] = vector.broadcast %{{.+}} : f32 to vector<32xf32>
// CHECK: vector.fma %[[ROW]], %{{.+}}, %{{.+}} : vector<32xf32>
// CHECK: vector.transfer_write {{.*}} vector<8x32xf32>
// CHECK-NOT: linalg.matmul
// CHECK-NOT: memref.alloc
// CHECK: return
// PAR-LABEL: func.func @matmul
// PAR-NOT: scf.parallel
// PAR: return
// AVX2-LABEL: func.func @matmul
// AVX2: scf.for %{{.+}} = %{{.+}} to %{{.+}} step %c4
// AVX2: vector.fma {{.*}} : vector<16xf32>
// REMARK: remark: [Passed] Vectorize | Category:remat | Function=matmul | Remark="contraction tiled [8, 32, 8] and vectorized"
func.func @matmul(%a: memref<16x8xf32>, %b: memref<8x32xf32>, %c: memref<16x32xf32>) {
  linalg.matmul ins(%a, %b : memref<16x8xf32>, memref<8x32xf32>) outs(%c : memref<16x32xf32>)
  return
}

// -----

// Loops that the register tile does not divide get the largest divisor
// below it: every tile has one static shape and needs no mask.
// CHECK-LABEL: func.func @batch_matmul_odd
// CHECK: vector.fma {{.*}} : vector<10xf32>
// REMARK: remark: [Passed] Vectorize | Category:remat | Function=batch_matmul_odd | Remark="contraction tiled [1, 6, 10, 6] and vectorized"
func.func @batch_matmul_odd(%a: memref<2x6x36xf32>, %b: memref<2x36x10xf32>, %c: memref<2x6x10xf32>) {
  linalg.batch_matmul ins(%a, %b : memref<2x6x36xf32>, memref<2x36x10xf32>) outs(%c : memref<2x6x10xf32>)
  return
}

// -----

// A contraction whose right operand is laid out [n, k] (as a convolution's
// weight [f, c] is): the tile read [n, k] is transposed for the outer
// products by one shuffle of the flattened tile, not element by element.
// CHECK-LABEL: func.func @matmul_transposed_b
// CHECK: vector.transfer_read {{.*}} vector<32x8xf32>
// CHECK-NOT: f32 from vector<32x8xf32>
// CHECK: vector.shuffle {{.*}} : vector<256xf32>, vector<256xf32>
// CHECK-NOT: f32 from vector<32x8xf32>
// CHECK: vector.fma {{.*}} : vector<32xf32>
// CHECK: return
func.func @matmul_transposed_b(%a: memref<16x64xf32>, %b: memref<32x64xf32>, %c: memref<16x32xf32>) {
  linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>] ins(%a, %b : memref<16x64xf32>, memref<32x64xf32>) outs(%c : memref<16x32xf32>)
  return
}

// -----

// With parallel=true, an op of at least 2^20 points gets its outermost
// tile loop as scf.parallel when that loop runs over a dimension indexing
// the output (here the rows: 2^21 multiply-adds); the tiles inside are
// the same. A loop over a reduction dimension stays sequential.
// PAR-LABEL: func.func @parallel_matmul
// PAR: scf.parallel (%[[I:.+]]) = (%c0) to (%c256) step (%c8) {
// PAR: scf.for %{{.+}} = %c0 to %c64 step %c32 {
// PAR: scf.for %{{.+}} = %c0 to %c128 step %c8 {
// PAR: vector.fma {{.*}} : vector<32xf32>
// PAR: scf.reduce
// PAR-NOT: scf.parallel
// PAR: return
func.func @parallel_matmul(%a: memref<256x128xf32>, %b: memref<128x64xf32>, %c: memref<256x64xf32>) {
  linalg.matmul ins(%a, %b : memref<256x128xf32>, memref<128x64xf32>) outs(%c : memref<256x64xf32>)
  return
}

// -----

// A reduction over rows (2^21 points): the outermost tile loop walks the
// reduced dimension, whose tiles all add into the same outputs; it stays
// sequential.
// PAR-LABEL: func.func @column_sums
// PAR-NOT: scf.parallel
// PAR: return
func.func @column_sums(%x: memref<16384x128xf32>, %s: memref<128xf32>) {
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>], iterator_types = ["reduction", "parallel"]} ins(%x : memref<16384x128xf32>) outs(%s : memref<128xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %sum = arith.addf %acc, %in : f32
    linalg.yield %sum : f32
  }
  return
}

// -----

// An elementwise op: its innermost loop in tiles of two vectors.
// CHECK-LABEL: func.func @elementwise
// CHECK: scf.for
// CHECK: %[[X:.+]] = vector.load {{.*}} vector<32xf32>
// CHECK: %[[Y:.+]] = vector.load {{.*}} vector<32xf32>
// CHECK: arith.addf %[[X]], %[[Y]] : vector<32xf32>
// CHECK: vector.store
// REMARK: remark: [Passed] Vectorize | Category:remat | Function=elementwise | Remark="kernel tiled [1, 32] and vectorized"
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @elementwise(%x: memref<4x64xf32>, %y: memref<4x64xf32>, %z: memref<4x64xf32>) {
  linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %y : memref<4x64xf32>, memref<4x64xf32>) outs(%z : memref<4x64xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %s = arith.addf %a, %b : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// A body the vectorizer does not take (a window kernel reading its input
// with memref.load) stays a linalg op, for convert-linalg-to-loops.
// CHECK-LABEL: func.func @window
// CHECK: linalg.generic
// CHECK-NOT: vector.
// REMARK: remark: [Missed] Vectorize | Category:remat | Function=window | Remark="linalg.generic stays a loop nest: the vectorizer does not take its body"
#out = affine_map<(d0) -> (d0)>
func.func @window(%x: memref<9xf32>, %z: memref<8xf32>) {
  linalg.generic {indexing_maps = [#out], iterator_types = ["parallel"]} outs(%z : memref<8xf32>) {
  ^bb0(%o: f32):
    %i = linalg.index 0 : index
    %c1 = arith.constant 1 : index
    %j = arith.addi %i, %c1 : index
    %v = memref.load %x[%j] : memref<9xf32>
    linalg.yield %v : f32
  }
  return
}

// -----

// A window kernel the vectorizer does not take, whose loop over the
// output's last dimension (here c, the channels of an NHWC gradient) is not
// innermost: that loop moves behind the window's reduction loops, for
// LLVM's loop vectorizer, and linalg.index follows it.
// CHECK-LABEL: func.func @gather_rows
// CHECK: linalg.generic
// CHECK-SAME: iterator_types = ["parallel", "reduction", "parallel"]
// CHECK: %[[I:.+]] = linalg.index 0 : index
// CHECK: %[[K:.+]] = linalg.index 1 : index
// CHECK: %[[C:.+]] = linalg.index 2 : index
// CHECK: %[[J:.+]] = arith.addi %[[I]], %[[K]] : index
// CHECK: memref.load %{{.+}}[%[[J]], %[[C]]]
// CHECK-NOT: vector.
// REMARK: remark: [Missed] Vectorize | Category:remat | Function=gather_rows | Remark="linalg.generic stays a loop nest: the vectorizer does not take its body; its loop over the output's rows moved innermost"
#window = affine_map<(d0, d1, d2) -> (d2)>
#rows = affine_map<(d0, d1, d2) -> (d0, d1)>
func.func @gather_rows(%w: memref<2xf32>, %x: memref<9x16xf32>, %z: memref<8x16xf32>) {
  linalg.generic {indexing_maps = [#window, #rows], iterator_types = ["parallel", "parallel", "reduction"]} ins(%w : memref<2xf32>) outs(%z : memref<8x16xf32>) {
  ^bb0(%unused: f32, %o: f32):
    %i = linalg.index 0 : index
    %k = linalg.index 2 : index
    %c = linalg.index 1 : index
    %j = arith.addi %i, %k : index
    %v = memref.load %x[%j, %c] : memref<9x16xf32>
    %s = arith.addf %o, %v : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// An op writing a mask (i1, a byte per element in a buffer) is vectorized
// like any other: remat-byte-masks makes its vector store move bytes.
// CHECK-LABEL: func.func @mask
// CHECK: %[[G:.+]] = arith.cmpf ogt, %{{.+}}, %{{.+}} : vector<32xf32>
// CHECK: vector.store %[[G]], %{{.+}} : memref<32xi1>, vector<32xi1>
// CHECK-NOT: linalg.generic
// REMARK: remark: [Passed] Vectorize | Category:remat | Function=mask | Remark="kernel tiled [32] and vectorized"
#m = affine_map<(d0) -> (d0)>
func.func @mask(%x: memref<32xf32>, %y: memref<32xf32>, %z: memref<32xi1>) {
  linalg.generic {indexing_maps = [#m, #m, #m], iterator_types = ["parallel"]}
      ins(%x, %y : memref<32xf32>, memref<32xf32>) outs(%z : memref<32xi1>) {
  ^bb0(%a: f32, %b: f32, %o: i1):
    %g = arith.cmpf ogt, %a, %b : f32
    linalg.yield %g : i1
  }
  return
}
// -----

// An op of two results (dropout's random numbers multiply this way) on a
// [1, 16] tile: flattened to a 1-D vector like the one-result ops around
// it, which is the only rank the LLVM lowering takes it at.
// CHECK-LABEL: func.func @wide_multiply
// CHECK: %[[LOW:.+]], %[[HIGH:.+]] = arith.mului_extended %{{.+}}, %{{.+}} : vector<16xi32>
// CHECK: arith.xori %[[LOW]], %[[HIGH]] : vector<16xi32>
// CHECK-NOT: vector<1x16xi32>
// CHECK: return
#m2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @wide_multiply(%a: memref<4x16xi32>, %b: memref<4x16xi32>, %c: memref<4x16xi32>) {
  linalg.generic {indexing_maps = [#m2, #m2, #m2], iterator_types = ["parallel", "parallel"]}
      ins(%a, %b : memref<4x16xi32>, memref<4x16xi32>) outs(%c : memref<4x16xi32>) {
  ^bb0(%x: i32, %y: i32, %o: i32):
    %low, %high = arith.mului_extended %x, %y : i32
    %r = arith.xori %low, %high : i32
    linalg.yield %r : i32
  }
  return
}

// -----

// A padded, strided convolution's kernel (remat.window, reading x with
// memref.load through bounds checks) runs tap by tap: per span of kernel
// rows and of kernel columns that reach the same outputs (tap 0 outputs
// 1-2, tap 1 all three, tap 2 outputs 0-1), a loop over its taps around a
// contraction over channels on views: x's rows and columns by the stride,
// the outputs the taps reach, the kernel's tap. The unit batch is left
// out. No gather is left, and nothing is allocated.
// CHECK-LABEL: func.func @convolution_strided
// CHECK-NOT: memref.alloc
// CHECK: scf.for %[[KH:.+]] = %c0 to %c1
// CHECK: scf.for %[[KW:.+]] = %c0 to %c1
// CHECK: %[[IH:.+]] = affine.apply #{{.+}}(%c0, %[[KH]])
// CHECK: %[[IW:.+]] = affine.apply #{{.+}}(%c0, %[[KW]])
// CHECK: memref.subview %{{.+}}[0, %[[IH]], %[[IW]], 0] [1, 2, 2, 8] [1, 2, 2, 1] : memref<1x5x5x8xf32> to memref<2x2x8xf32
// CHECK: memref.subview %{{.+}}[0, 1, 1, 0] [1, 2, 2, 16] [1, 1, 1, 1] : memref<1x3x3x16xf32> to memref<2x2x16xf32
// CHECK: memref.subview %{{.+}}[0, %[[KH]], %[[KW]], 0] [16, 1, 1, 8] [1, 1, 1, 1] : memref<16x3x3x8xf32> to memref<16x8xf32
// CHECK: vector.fma {{.*}} : vector<16xf32>
// CHECK: scf.for %{{.+}} = %c1 to %c2
// CHECK: memref.subview %{{.+}}[0, 1, 0, 0] [1, 2, 3, 16]
// CHECK: scf.for %{{.+}} = %c2 to %c3
// CHECK: memref.subview %{{.+}}[0, 1, 0, 0] [1, 2, 2, 16]
// CHECK: scf.for %{{.+}} = %c1 to %c2
// CHECK: scf.for %{{.+}} = %c0 to %c1
// CHECK: memref.subview %{{.+}}[0, 0, 1, 0] [1, 3, 2, 16]
// CHECK-NOT: memref.load
// CHECK-NOT: memref.alloc
// CHECK: return
// REMARK: remark: [Passed] Vectorize | Category:remat | Function=convolution_strided | Remark="convolution tap by tap: a contraction over views"
// REMARK: remark: [Passed] Vectorize | Category:remat | Function=convolution_strided | Remark="contraction tiled [2, 2, 16, 8] and vectorized"
func.func @convolution_strided(%arg1: memref<16x3x3x8xf32>, %alloc: memref<1x3x3x16xf32>, %arg0: memref<1x5x5x8xf32>) {
  %c2 = arith.constant 2 : index
  %c-1 = arith.constant -1 : index
  %c0 = arith.constant 0 : index
  %c5 = arith.constant 5 : index
  %cst = arith.constant 0.000000e+00 : f32
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d3, d4, d5, d6)>, affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%arg1 : memref<16x3x3x8xf32>) outs(%alloc : memref<1x3x3x16xf32>) attrs =  {remat.window = {dilation = array<i64: 1, 1>, kind = "convolution", pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 2, 2>}} {
  ^bb0(%in: f32, %out: f32):
    %2 = linalg.index 1 : index
    %3 = linalg.index 4 : index
    %4 = arith.muli %2, %c2 : index
    %5 = arith.addi %4, %3 : index
    %6 = arith.addi %5, %c-1 : index
    %7 = arith.cmpi sge, %6, %c0 : index
    %8 = arith.cmpi slt, %6, %c5 : index
    %9 = arith.andi %7, %8 : i1
    %10 = arith.select %9, %6, %c0 : index
    %11 = linalg.index 2 : index
    %12 = linalg.index 5 : index
    %13 = arith.muli %11, %c2 : index
    %14 = arith.addi %13, %12 : index
    %15 = arith.addi %14, %c-1 : index
    %16 = arith.cmpi sge, %15, %c0 : index
    %17 = arith.cmpi slt, %15, %c5 : index
    %18 = arith.andi %16, %17 : i1
    %19 = arith.select %18, %15, %c0 : index
    %20 = linalg.index 6 : index
    %21 = arith.andi %9, %18 : i1
    %22 = memref.load %arg0[%c0, %10, %19, %20] : memref<1x5x5x8xf32>
    %23 = arith.mulf %22, %in : f32
    %24 = arith.select %21, %23, %cst : f32
    %25 = arith.addf %out, %24 : f32
    linalg.yield %25 : f32
  }
  return
}

// -----

// The weight adjoint of that convolution: per tap, dw[f, c] += g[ow, f] *
// x[ow*2 + kw - 1, c] summed over the run's columns, read into registers
// as f-rows of dw by vectors of c.
// CHECK-LABEL: func.func @weight_adjoint_strided
// CHECK: %[[LO:.+]] = affine.max
// CHECK: scf.for %[[KH:.+]] = %[[LO]] to %{{.+}} step
// CHECK: scf.for %[[KW:.+]] = %c1 to %c3
// CHECK: memref.subview %{{.+}}[0, %[[KH]], %[[KW]], 0] [16, 1, 1, 8] [1, 1, 1, 1] : memref<16x3x3x8xf32> to memref<16x8xf32
// CHECK: scf.for %{{.+}} = %c0 to %c16 step %c8
// CHECK: vector.fma {{.*}} : vector<8xf32>
// CHECK: vector.transfer_write {{.*}} : vector<8x8xf32>
// CHECK-NOT: memref.load
// CHECK: return
// REMARK: remark: [Passed] Vectorize | Category:remat | Function=weight_adjoint_strided | Remark="weight_adjoint tap by tap: a contraction over views"
// REMARK: remark: [Passed] Vectorize | Category:remat | Function=weight_adjoint_strided | Remark="contraction tiled [8, 8, 1] and vectorized"
func.func @weight_adjoint_strided(%alloc_8: memref<1x3x3x16xf32>, %alloc_9: memref<16x3x3x8xf32>, %arg0: memref<1x5x5x8xf32>) {
  %c2 = arith.constant 2 : index
  %c-1 = arith.constant -1 : index
  %c0 = arith.constant 0 : index
  %c5 = arith.constant 5 : index
  %cst = arith.constant 0.000000e+00 : f32
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d4, d5, d6, d0)>, affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%alloc_8 : memref<1x3x3x16xf32>) outs(%alloc_9 : memref<16x3x3x8xf32>) attrs =  {remat.window = {dilation = array<i64: 1, 1>, kind = "weight_adjoint", pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 2, 2>}} {
  ^bb0(%in: f32, %out: f32):
    %2 = linalg.index 5 : index
    %3 = linalg.index 1 : index
    %4 = arith.muli %2, %c2 : index
    %5 = arith.addi %4, %3 : index
    %6 = arith.addi %5, %c-1 : index
    %7 = arith.cmpi sge, %6, %c0 : index
    %8 = arith.cmpi slt, %6, %c5 : index
    %9 = arith.andi %7, %8 : i1
    %10 = arith.select %9, %6, %c0 : index
    %11 = linalg.index 6 : index
    %12 = linalg.index 2 : index
    %13 = arith.muli %11, %c2 : index
    %14 = arith.addi %13, %12 : index
    %15 = arith.addi %14, %c-1 : index
    %16 = arith.cmpi sge, %15, %c0 : index
    %17 = arith.cmpi slt, %15, %c5 : index
    %18 = arith.andi %16, %17 : i1
    %19 = arith.select %18, %15, %c0 : index
    %20 = linalg.index 3 : index
    %21 = arith.andi %9, %18 : i1
    %22 = memref.load %arg0[%c0, %10, %19, %20] : memref<1x5x5x8xf32>
    %23 = arith.mulf %22, %in : f32
    %24 = arith.select %21, %23, %cst : f32
    %25 = arith.addf %out, %24 : f32
    linalg.yield %25 : f32
  }
  return
}


// -----

// The same weight adjoint into a kernel stored OIHW (loops f, kh, kw, c
// write dw[f, c, kh, kw]): each tap's view takes the kernel's last two
// dimensions, as the op's map says.
// CHECK-LABEL: func.func @weight_adjoint_oihw
// CHECK: %[[LO:.+]] = affine.max
// CHECK: scf.for %[[KH:.+]] = %[[LO]] to %{{.+}} step
// CHECK: scf.for %[[KW:.+]] = %c1 to %c3
// CHECK: memref.subview %{{.+}}[0, 0, %[[KH]], %[[KW]]] [16, 8, 1, 1] [1, 1, 1, 1] : memref<16x8x3x3xf32> to memref<16x8xf32
// CHECK-NOT: memref.load
// CHECK: return
func.func @weight_adjoint_oihw(%alloc_8: memref<1x3x3x16xf32>, %alloc_9: memref<16x8x3x3xf32>, %arg0: memref<1x5x5x8xf32>) {
  %c2 = arith.constant 2 : index
  %c-1 = arith.constant -1 : index
  %c0 = arith.constant 0 : index
  %c5 = arith.constant 5 : index
  %cst = arith.constant 0.000000e+00 : f32
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d4, d5, d6, d0)>, affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d3, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%alloc_8 : memref<1x3x3x16xf32>) outs(%alloc_9 : memref<16x8x3x3xf32>) attrs =  {remat.window = {dilation = array<i64: 1, 1>, kind = "weight_adjoint", pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 2, 2>}} {
  ^bb0(%in: f32, %out: f32):
    %2 = linalg.index 5 : index
    %3 = linalg.index 1 : index
    %4 = arith.muli %2, %c2 : index
    %5 = arith.addi %4, %3 : index
    %6 = arith.addi %5, %c-1 : index
    %7 = arith.cmpi sge, %6, %c0 : index
    %8 = arith.cmpi slt, %6, %c5 : index
    %9 = arith.andi %7, %8 : i1
    %10 = arith.select %9, %6, %c0 : index
    %11 = linalg.index 6 : index
    %12 = linalg.index 2 : index
    %13 = arith.muli %11, %c2 : index
    %14 = arith.addi %13, %12 : index
    %15 = arith.addi %14, %c-1 : index
    %16 = arith.cmpi sge, %15, %c0 : index
    %17 = arith.cmpi slt, %15, %c5 : index
    %18 = arith.andi %16, %17 : i1
    %19 = arith.select %18, %15, %c0 : index
    %20 = linalg.index 3 : index
    %21 = arith.andi %9, %18 : i1
    %22 = memref.load %arg0[%c0, %10, %19, %20] : memref<1x5x5x8xf32>
    %23 = arith.mulf %22, %in : f32
    %24 = arith.select %21, %23, %cst : f32
    %25 = arith.addf %out, %24 : f32
    linalg.yield %25 : f32
  }
  return
}

// -----

// The input adjoint of a stride-2 convolution, tap-major: instead of
// visiting every input position and tap and keeping the 1 in 4 that an
// output reads, each span of kernel rows and of kernel columns (taps that
// reach the same outputs: tap 0 outputs 1-2, tap 1 all three, tap 2
// outputs 0-1) adds g[oh, ow, f] * w[f, kh, kw, c] for every output it
// reaches into a view of dx that steps by the stride in both dimensions:
// no work for the pairs no output reads. The unit batch is left out.
// CHECK-LABEL: func.func @input_adjoint_strided
// CHECK-NOT: memref.alloc
// CHECK: scf.for %[[KH:.+]] = %c0 to %c1
// CHECK: scf.for %[[KW:.+]] = %c0 to %c1
// CHECK: %[[IH:.+]] = affine.apply #{{.+}}(%c0, %[[KH]])
// CHECK: %[[IW:.+]] = affine.apply #{{.+}}(%c0, %[[KW]])
// CHECK: memref.subview %{{.+}}[0, %[[IH]], %[[IW]], 0] [1, 2, 2, 8] [1, 2, 2, 1] : memref<1x5x5x8xf32> to memref<2x2x8xf32
// CHECK: memref.subview %{{.+}}[0, 1, 1, 0] [1, 2, 2, 16] [1, 1, 1, 1] : memref<1x3x3x16xf32> to memref<2x2x16xf32
// CHECK: memref.subview %{{.+}}[0, %[[KH]], %[[KW]], 0] [16, 1, 1, 8] [1, 1, 1, 1] : memref<16x3x3x8xf32> to memref<16x8xf32
// CHECK: vector.fma {{.*}} : vector<8xf32>
// CHECK: scf.for %{{.+}} = %c1 to %c2
// CHECK: memref.subview %{{.+}} [1, 2, 3, 8] [1, 2, 2, 1] : memref<1x5x5x8xf32> to memref<2x3x8xf32
// CHECK: scf.for %{{.+}} = %c2 to %c3
// CHECK: memref.subview %{{.+}} [1, 2, 2, 8] [1, 2, 2, 1] : memref<1x5x5x8xf32> to memref<2x2x8xf32
// CHECK: scf.for %{{.+}} = %c1 to %c2
// CHECK: scf.for %{{.+}} = %c0 to %c1
// CHECK: memref.subview %{{.+}} [1, 3, 2, 8] [1, 2, 2, 1] : memref<1x5x5x8xf32> to memref<3x2x8xf32
// CHECK-NOT: memref.load
// CHECK-NOT: memref.alloc
// CHECK: return
// REMARK: remark: [Passed] Vectorize | Category:remat | Function=input_adjoint_strided | Remark="input_adjoint tap by tap: a contraction over views"
// REMARK: remark: [Passed] Vectorize | Category:remat | Function=input_adjoint_strided | Remark="contraction tiled [2, 2, 8, 8] and vectorized"
func.func @input_adjoint_strided(%arg1: memref<16x3x3x8xf32>, %alloc_10: memref<1x5x5x8xf32>, %alloc_8: memref<1x3x3x16xf32>) {
  %c1 = arith.constant 1 : index
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %cst = arith.constant 0.000000e+00 : f32
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d4, d5, d6, d3)>, affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%arg1 : memref<16x3x3x8xf32>) outs(%alloc_10 : memref<1x5x5x8xf32>) attrs =  {remat.window = {dilation = array<i64: 1, 1>, kind = "input_adjoint", pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 2, 2>}} {
  ^bb0(%in: f32, %out: f32):
    %2 = linalg.index 1 : index
    %3 = linalg.index 5 : index
    %4 = arith.addi %2, %c1 : index
    %5 = arith.subi %4, %3 : index
    %6 = arith.cmpi sge, %5, %c0 : index
    %7 = arith.select %6, %5, %c0 : index
    %8 = arith.remui %7, %c2 : index
    %9 = arith.cmpi eq, %8, %c0 : index
    %10 = arith.andi %6, %9 : i1
    %11 = arith.divui %7, %c2 : index
    %12 = arith.cmpi slt, %11, %c3 : index
    %13 = arith.andi %10, %12 : i1
    %14 = arith.select %13, %11, %c0 : index
    %15 = linalg.index 2 : index
    %16 = linalg.index 6 : index
    %17 = arith.addi %15, %c1 : index
    %18 = arith.subi %17, %16 : index
    %19 = arith.cmpi sge, %18, %c0 : index
    %20 = arith.select %19, %18, %c0 : index
    %21 = arith.remui %20, %c2 : index
    %22 = arith.cmpi eq, %21, %c0 : index
    %23 = arith.andi %19, %22 : i1
    %24 = arith.divui %20, %c2 : index
    %25 = arith.cmpi slt, %24, %c3 : index
    %26 = arith.andi %23, %25 : i1
    %27 = arith.select %26, %24, %c0 : index
    %28 = linalg.index 4 : index
    %29 = arith.andi %13, %26 : i1
    %30 = memref.load %alloc_8[%c0, %14, %27, %28] : memref<1x3x3x16xf32>
    %31 = arith.mulf %30, %in : f32
    %32 = arith.select %29, %31, %cst : f32
    %33 = arith.addf %out, %32 : f32
    linalg.yield %33 : f32
  }
  return
}


// -----

// The input adjoint with the weight stored OIHW (as ONNX stores it): a
// tap's channels step by 9, so reading a tile of it into registers is a
// gather. The tap's contraction covers the batch and every output the tap
// reaches, and the register tile takes its rows from ow, oh and n in turn:
// for the middle tap all 8 (2 by 2 by 2) in one tile, so each [8 x 16]
// half of the tap (8 steps of f) is read once for 8 rows, then 8 FMAs per
// step of f.
// CHECK-LABEL: func.func @input_adjoint_oihw
// CHECK-NOT: memref.alloc
// CHECK: scf.for %{{.+}} = %c0 to %c1
// CHECK: scf.for %{{.+}} = %c0 to %c1
// CHECK: memref.subview %{{.+}} [2, 1, 1, 16] [1, 1, 1, 1] : memref<2x2x2x16xf32> to memref<2x16xf32
// CHECK: scf.for %{{.+}} = %c1 to %c2
// CHECK: scf.for %{{.+}} = %c2 to %c3
// CHECK: scf.for %[[KH:.+]] = %c1 to %c2
// CHECK: scf.for %{{.+}} = %c0 to %c1
// CHECK: scf.for %[[KW:.+]] = %c1 to %c2
// CHECK: memref.subview %{{.+}}[0, %{{.+}}, %{{.+}}, 0] [2, 2, 2, 16] [1, 1, 1, 1] : memref<2x2x2x16xf32> to memref<2x2x2x16xf32
// CHECK: memref.subview %{{.+}}[0, 0, 0, 0] [2, 2, 2, 16] [1, 1, 1, 1] : memref<2x2x2x16xf32> to memref<2x2x2x16xf32
// CHECK: memref.subview %{{.+}}[0, 0, %[[KH]], %[[KW]]] [16, 16, 1, 1] [1, 1, 1, 1] : memref<16x16x3x3xf32> to memref<16x16xf32, strided<[144, 9], offset: ?>>
// CHECK: scf.for %{{.+}} = %c0 to %c16 step %c8
// CHECK-NOT: scf.for
// CHECK: vector.transfer_read %{{.+}} : memref<8x16xf32, strided<[144, 9], offset: ?>>, vector<8x16xf32>
// CHECK: vector.transfer_read %{{.+}} vector<2x2x2x16xf32>
// CHECK-NOT: vector.transfer_read
// CHECK-COUNT-64: vector.fma {{.*}} : vector<16xf32>
// CHECK-NOT: vector.fma
// CHECK: vector.transfer_write {{.*}} : vector<2x2x2x16xf32>
// CHECK: scf.for %{{.+}} = %c2 to %c3
// CHECK-NOT: memref.load
// CHECK: return
func.func @input_adjoint_oihw(%w: memref<16x16x3x3xf32>, %dx: memref<2x2x2x16xf32>, %g: memref<2x2x2x16xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %cst = arith.constant 0.000000e+00 : f32
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d4, d3, d5, d6)>, affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%w : memref<16x16x3x3xf32>) outs(%dx : memref<2x2x2x16xf32>) attrs =  {remat.window = {dilation = array<i64: 1, 1>, kind = "input_adjoint", pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>}} {
  ^bb0(%in: f32, %out: f32):
    %n = linalg.index 0 : index
    %ih = linalg.index 1 : index
    %kh = linalg.index 5 : index
    %ih1 = arith.addi %ih, %c1 : index
    %oh = arith.subi %ih1, %kh : index
    %ohLow = arith.cmpi sge, %oh, %c0 : index
    %ohHigh = arith.cmpi slt, %oh, %c2 : index
    %ohIn = arith.andi %ohLow, %ohHigh : i1
    %ohAt = arith.select %ohIn, %oh, %c0 : index
    %iw = linalg.index 2 : index
    %kw = linalg.index 6 : index
    %iw1 = arith.addi %iw, %c1 : index
    %ow = arith.subi %iw1, %kw : index
    %owLow = arith.cmpi sge, %ow, %c0 : index
    %owHigh = arith.cmpi slt, %ow, %c2 : index
    %owIn = arith.andi %owLow, %owHigh : i1
    %owAt = arith.select %owIn, %ow, %c0 : index
    %f = linalg.index 4 : index
    %inside = arith.andi %ohIn, %owIn : i1
    %gv = memref.load %g[%n, %ohAt, %owAt, %f] : memref<2x2x2x16xf32>
    %product = arith.mulf %gv, %in : f32
    %term = arith.select %inside, %product, %cst : f32
    %sum = arith.addf %out, %term : f32
    linalg.yield %sum : f32
  }
  return
}
// -----

// An unpadded convolution (TOSA lowers it to linalg.conv_2d_nhwc_fhwc,
// which the vectorizer refuses) runs tap by tap too: every tap reaches
// every output, so one span of all three kernel rows and one of all three
// columns around a contraction over the whole batch and all 6x6 outputs,
// in register tiles of a row of six.
// CHECK-LABEL: func.func @named_convolution
// PAR-LABEL: func.func @named_convolution
// PAR-NOT: scf.parallel
// PAR: return
// CHECK: scf.for %{{.+}} = %c0 to %c3 step %c1
// CHECK: scf.for %{{.+}} = %c0 to %c3 step %c1
// CHECK: memref.subview %{{.+}} [2, 6, 6, 8] [1, 1, 1, 1] : memref<2x8x8x8xf32> to memref<2x6x6x8xf32
// CHECK: vector.fma {{.*}} : vector<16xf32>
// CHECK-NOT: linalg.conv_2d_nhwc_fhwc
// REMARK: remark: [Passed] Vectorize | Category:remat | Function=named_convolution | Remark="convolution tap by tap: a contraction over views"
// REMARK: remark: [Passed] Vectorize | Category:remat | Function=named_convolution | Remark="contraction tiled [1, 1, 6, 16, 8] and vectorized"
func.func @named_convolution(%x: memref<2x8x8x8xf32>, %w: memref<16x3x3x8xf32>, %y: memref<2x6x6x16xf32>) {
  linalg.conv_2d_nhwc_fhwc {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x, %w : memref<2x8x8x8xf32>, memref<16x3x3x8xf32>) outs(%y : memref<2x6x6x16xf32>)
  return
}

// -----

// With parallel=true, a convolution of at least 2^20 multiply-adds whose
// filters are too few to split into chunks of a vector (here 16) runs
// row-major, its output rows in parallel: each row writes a row of its
// own; the contractions inside (inside the loops) stay sequential. The
// small @named_convolution above stays tap-major and sequential.
// PAR-LABEL: func.func @parallel_named_convolution
// PAR: scf.for %[[N:.+]] = %c0 to %c1 step %c1 {
// PAR: scf.parallel (%[[OH:.+]]) = (%c0) to (%c32) step (%c1) {
// PAR: vector.fma {{.*}} : vector<16xf32>
// PAR: scf.reduce
// PAR: return
func.func @parallel_named_convolution(%x: memref<1x34x34x16xf32>, %w: memref<16x3x3x16xf32>, %y: memref<1x32x32x16xf32>) {
  linalg.conv_2d_nhwc_fhwc {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x, %w : memref<1x34x34x16xf32>, memref<16x3x3x16xf32>) outs(%y : memref<1x32x32x16xf32>)
  return
}

// -----

// A window record the lowering does not know (here one without a kind)
// leaves the kernel a loop nest, not split into taps (only its loop over
// the output's rows moves innermost).
// CHECK-LABEL: func.func @unknown_window
// CHECK: linalg.generic
// CHECK-NOT: vector.
// REMARK: remark: [Missed] Vectorize | Category:remat | Function=unknown_window | Remark="linalg.generic stays a loop nest: the vectorizer does not take its body; its loop over the output's rows moved innermost"
func.func @unknown_window(%arg1: memref<16x3x3x8xf32>, %alloc: memref<1x3x3x16xf32>, %arg0: memref<1x5x5x8xf32>) {
  %c2 = arith.constant 2 : index
  %c-1 = arith.constant -1 : index
  %c0 = arith.constant 0 : index
  %c5 = arith.constant 5 : index
  %cst = arith.constant 0.000000e+00 : f32
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d3, d4, d5, d6)>, affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%arg1 : memref<16x3x3x8xf32>) outs(%alloc : memref<1x3x3x16xf32>) attrs =  {remat.window = {dilation = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 2, 2>}} {
  ^bb0(%in: f32, %out: f32):
    %2 = linalg.index 1 : index
    %3 = linalg.index 4 : index
    %4 = arith.muli %2, %c2 : index
    %5 = arith.addi %4, %3 : index
    %6 = arith.addi %5, %c-1 : index
    %7 = arith.cmpi sge, %6, %c0 : index
    %8 = arith.cmpi slt, %6, %c5 : index
    %9 = arith.andi %7, %8 : i1
    %10 = arith.select %9, %6, %c0 : index
    %11 = linalg.index 2 : index
    %12 = linalg.index 5 : index
    %13 = arith.muli %11, %c2 : index
    %14 = arith.addi %13, %12 : index
    %15 = arith.addi %14, %c-1 : index
    %16 = arith.cmpi sge, %15, %c0 : index
    %17 = arith.cmpi slt, %15, %c5 : index
    %18 = arith.andi %16, %17 : i1
    %19 = arith.select %18, %15, %c0 : index
    %20 = linalg.index 6 : index
    %21 = arith.andi %9, %18 : i1
    %22 = memref.load %arg0[%c0, %10, %19, %20] : memref<1x5x5x8xf32>
    %23 = arith.mulf %22, %in : f32
    %24 = arith.select %21, %23, %cst : f32
    %25 = arith.addf %out, %24 : f32
    linalg.yield %25 : f32
  }
  return
}
