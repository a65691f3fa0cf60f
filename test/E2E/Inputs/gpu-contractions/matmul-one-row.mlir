// A matmul with a single row (M 1): one row of threads holds outputs, the
// other fifteen stage operands only. N 113 (the second block's last
// columns are the fourth of each thread's), K 37.
func.func @matmul_one_row(%lhs: memref<1x37xf32>, %rhs: memref<37x113xf32>,
                          %out: memref<1x113xf32, strided<[117, 1], offset: 2>>) {
  linalg.matmul ins(%lhs, %rhs : memref<1x37xf32>, memref<37x113xf32>)
                outs(%out : memref<1x113xf32, strided<[117, 1], offset: 2>>)
  return
}
