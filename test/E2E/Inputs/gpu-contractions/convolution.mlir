// A strided 2-D convolution (stride 2, 3x3 kernel): split by kernel tap,
// host loops over the taps around one kernel per tap on views of the
// input and filter. Channels 20, filters 24, 2x4x4 outputs.
func.func @convolution(%input: memref<2x9x9x20xf32>, %filter: memref<24x3x3x20xf32>,
                       %out: memref<2x4x4x24xf32>) {
  linalg.conv_2d_nhwc_fhwc {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
      ins(%input, %filter : memref<2x9x9x20xf32>, memref<24x3x3x20xf32>)
      outs(%out : memref<2x4x4x24xf32>)
  return
}
