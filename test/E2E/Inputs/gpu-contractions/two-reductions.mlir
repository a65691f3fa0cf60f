// A contraction over two reduction loops, k1 then k2: the kernel must sum
// k1-major (k2 fastest), the loops' order. M 17, N 65, K 3 x 7.
func.func @two_reductions(%lhs: memref<17x3x7xf32, strided<[30, 9, 1], offset: 3>>,
                          %rhs: memref<3x7x65xf32>,
                          %out: memref<17x65xf32, strided<[67, 1], offset: 1>>) {
  linalg.generic {indexing_maps = [affine_map<(m, n, k1, k2) -> (m, k1, k2)>,
                                   affine_map<(m, n, k1, k2) -> (k1, k2, n)>,
                                   affine_map<(m, n, k1, k2) -> (m, n)>],
                  iterator_types = ["parallel", "parallel", "reduction", "reduction"]}
      ins(%lhs, %rhs : memref<17x3x7xf32, strided<[30, 9, 1], offset: 3>>, memref<3x7x65xf32>)
      outs(%out : memref<17x65xf32, strided<[67, 1], offset: 1>>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %product = arith.mulf %a, %b : f32
    %sum = arith.addf %acc, %product : f32
    linalg.yield %sum : f32
  }
  return
}
