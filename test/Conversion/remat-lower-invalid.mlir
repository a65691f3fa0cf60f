// RUN: remat-opt %s --remat-lower --split-input-file --verify-diagnostics

remat.graph @abstract(%x: tensor<64xi8>) -> (tensor<256xi8>) {
  // expected-error @below {{remat.abstract "conv1" cannot be lowered: abstract graphs exist only for planning}}
  %y = remat.abstract "conv1" flops(1200) (%x) : (tensor<64xi8>) -> tensor<256xi8>
  remat.return %y : tensor<256xi8>
}

// -----

// Every abstract node is reported, labelled or not.
remat.graph @two(%x: tensor<64xi8>) -> (tensor<64xi8>) {
  // expected-error @below {{remat.abstract "a" cannot be lowered}}
  %a = remat.abstract "a" flops(1) (%x) : (tensor<64xi8>) -> tensor<64xi8>
  // expected-error @below {{remat.abstract cannot be lowered}}
  %b = remat.abstract flops(1) (%a) : (tensor<64xi8>) -> tensor<64xi8>
  remat.return %b : tensor<64xi8>
}
