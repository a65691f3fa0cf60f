// A narrow product: M 20 and N 10 take blocks of 32 rows (2 per thread)
// and 16 columns (1 per thread), the tiles the pass picks for dimensions
// of at most 32 and 16 outputs; K 23 (a step of 16 and one of 7).
func.func @matmul_narrow(%lhs: memref<20x23xf32, strided<[25, 1], offset: 3>>,
                         %rhs: memref<23x10xf32>,
                         %out: memref<20x10xf32>) {
  linalg.matmul ins(%lhs, %rhs : memref<20x23xf32, strided<[25, 1], offset: 3>>, memref<23x10xf32>)
                outs(%out : memref<20x10xf32>)
  return
}
