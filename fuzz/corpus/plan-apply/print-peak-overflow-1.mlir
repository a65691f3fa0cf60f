func.func @elements(%x: tensor<4xi8>) -> tensor<4294967296x4294967296xi8> {
  %y = tensor.empty() : tensor<4294967296x4294967296xi8>
  return %y : tensor<4294967296x4294967296xi8>
}
