// A batch_matmul whose sizes are multiples of neither the 64x64 block tile
// nor the reduction step of 16 (batch 3, M 65, N 17, K 40), on views with
// padded rows and offsets.
func.func @batch_matmul(%lhs: memref<3x65x40xf32, strided<[2900, 43, 1], offset: 5>>,
                        %rhs: memref<3x40x17xf32, strided<[900, 20, 1], offset: 7>>,
                        %out: memref<3x65x17xf32, strided<[1300, 19, 1], offset: 3>>) {
  linalg.batch_matmul ins(%lhs, %rhs : memref<3x65x40xf32, strided<[2900, 43, 1], offset: 5>>, memref<3x40x17xf32, strided<[900, 20, 1], offset: 7>>)
                      outs(%out : memref<3x65x17xf32, strided<[1300, 19, 1], offset: 3>>)
  return
}
