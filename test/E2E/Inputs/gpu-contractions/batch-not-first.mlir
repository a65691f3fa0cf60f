// A batched contraction whose batch loop is the second, (m, b, n, k), and
// whose operands are stored batch-major. M 17, batch 3, N 65, K 17.
func.func @batch_not_first(%lhs: memref<3x17x17xf32, strided<[306, 18, 1], offset: 2>>,
                           %rhs: memref<3x17x65xf32>,
                           %out: memref<3x17x65xf32, strided<[1200, 66, 1], offset: 7>>) {
  linalg.generic {indexing_maps = [affine_map<(m, b, n, k) -> (b, m, k)>,
                                   affine_map<(m, b, n, k) -> (b, k, n)>,
                                   affine_map<(m, b, n, k) -> (b, m, n)>],
                  iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%lhs, %rhs : memref<3x17x17xf32, strided<[306, 18, 1], offset: 2>>, memref<3x17x65xf32>)
      outs(%out : memref<3x17x65xf32, strided<[1200, 66, 1], offset: 7>>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %product = arith.mulf %a, %b : f32
    %sum = arith.addf %acc, %product : f32
    linalg.yield %sum : f32
  }
  return
}
