// The weight adjoint of a padded, strided 2-D convolution (stride 2, pad
// 1, 3x3 kernel) as WindowKernels.cpp builds it: dw[f, kh, kw, c] sums
// dy[n, oh, ow, f] * x[n, 2*oh + kh - 1, 2*ow + kw - 1, c] over n, oh and
// ow, gathering x with a bounds check. Split tap-major, a launch per tap
// over the outputs it reaches. Batch 2, 9x9 inputs, 5x5 outputs, 20
// channels, 24 filters.
func.func @weight_adjoint(%dy: memref<2x5x5x24xf32>, %dw: memref<24x3x3x20xf32>,
                          %x: memref<2x9x9x20xf32>) {
  %c2 = arith.constant 2 : index
  %c-1 = arith.constant -1 : index
  %c0 = arith.constant 0 : index
  %c9 = arith.constant 9 : index
  %zero = arith.constant 0.000000e+00 : f32
  linalg.generic {indexing_maps = [affine_map<(f, kh, kw, c, n, oh, ow) -> (n, oh, ow, f)>,
                                   affine_map<(f, kh, kw, c, n, oh, ow) -> (f, kh, kw, c)>],
                  iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]}
      ins(%dy : memref<2x5x5x24xf32>) outs(%dw : memref<24x3x3x20xf32>)
      attrs = {remat.window = {dilation = array<i64: 1, 1>, kind = "weight_adjoint", pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 2, 2>}} {
  ^bb0(%g: f32, %acc: f32):
    %oh = linalg.index 5 : index
    %kh = linalg.index 1 : index
    %ohs = arith.muli %oh, %c2 : index
    %ih0 = arith.addi %ohs, %kh : index
    %ih1 = arith.addi %ih0, %c-1 : index
    %hlo = arith.cmpi sge, %ih1, %c0 : index
    %hhi = arith.cmpi slt, %ih1, %c9 : index
    %hin = arith.andi %hlo, %hhi : i1
    %ih = arith.select %hin, %ih1, %c0 : index
    %ow = linalg.index 6 : index
    %kw = linalg.index 2 : index
    %ows = arith.muli %ow, %c2 : index
    %iw0 = arith.addi %ows, %kw : index
    %iw1 = arith.addi %iw0, %c-1 : index
    %wlo = arith.cmpi sge, %iw1, %c0 : index
    %whi = arith.cmpi slt, %iw1, %c9 : index
    %win = arith.andi %wlo, %whi : i1
    %iw = arith.select %win, %iw1, %c0 : index
    %n = linalg.index 4 : index
    %c = linalg.index 3 : index
    %inside = arith.andi %hin, %win : i1
    %xv = memref.load %x[%n, %ih, %iw, %c] : memref<2x9x9x20xf32>
    %p = arith.mulf %xv, %g : f32
    %term = arith.select %inside, %p, %zero : f32
    %sum = arith.addf %acc, %term : f32
    linalg.yield %sum : f32
  }
  return
}
