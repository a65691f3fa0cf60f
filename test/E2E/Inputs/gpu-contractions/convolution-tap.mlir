// The contraction of one kernel tap of a convolution, as the tap split
// makes it: M the batch and output positions (n, h, w), N the filters, K
// the channels, on strided views with offsets (each a window of a larger
// buffer). M 70 and N 70 need two blocks each; K 20 is one step of 16 and
// a partial one.
func.func @convolution_tap(%input: memref<2x5x7x20xf32, strided<[1000, 190, 24, 1], offset: 8>>,
                           %filter: memref<70x20xf32, strided<[44, 1], offset: 4>>,
                           %out: memref<2x5x7x70xf32, strided<[2700, 520, 72, 1], offset: 9>>) {
  linalg.generic {indexing_maps = [affine_map<(n, h, w, f, c) -> (n, h, w, c)>,
                                   affine_map<(n, h, w, f, c) -> (f, c)>,
                                   affine_map<(n, h, w, f, c) -> (n, h, w, f)>],
                  iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%input, %filter : memref<2x5x7x20xf32, strided<[1000, 190, 24, 1], offset: 8>>, memref<70x20xf32, strided<[44, 1], offset: 4>>)
      outs(%out : memref<2x5x7x70xf32, strided<[2700, 520, 72, 1], offset: 9>>) {
  ^bb0(%x: f32, %w: f32, %acc: f32):
    %product = arith.mulf %x, %w : f32
    %sum = arith.addf %acc, %product : f32
    linalg.yield %sum : f32
  }
  return
}
