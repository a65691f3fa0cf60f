func.func @widths(%x: tensor<9xf16>) -> (tensor<9xi1>, tensor<9xf16>) {
  %z = "tosa.const"() <{values = dense<0.0> : tensor<9xf16>}> : () -> tensor<9xf16>
  %a = tosa.abs %x : (tensor<9xf16>) -> tensor<9xf16>
  %m = tosa.greater %a, %z : (tensor<9xf16>, tensor<9xf16>) -> tensor<9xi1>
  return %m, %a : tensor<9xi1>, tensor<9xf16>
}
