// A matmul whose left operand is stored transposed (K x M), given by the
// indexing maps of linalg.matmul. M 120 (the second block's last rows are
// the fourth of each thread's), N 33, K 19.
func.func @matmul_transposed_lhs(%lhs: memref<19x120xf32, strided<[123, 1], offset: 4>>,
                                 %rhs: memref<19x33xf32>,
                                 %out: memref<120x33xf32, strided<[34, 1], offset: 6>>) {
  linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (k, m)>,
                                 affine_map<(m, n, k) -> (k, n)>,
                                 affine_map<(m, n, k) -> (m, n)>]
      ins(%lhs, %rhs : memref<19x120xf32, strided<[123, 1], offset: 4>>, memref<19x33xf32>)
      outs(%out : memref<120x33xf32, strided<[34, 1], offset: 6>>)
  return
}
