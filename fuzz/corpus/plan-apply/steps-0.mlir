func.func @step(%p: tensor<1x64xf32>, %x: tensor<64x64xf32>) -> tensor<65x64xf32> {
  %m = tosa.const_shape {values = dense<[64, 1]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %bc = tosa.tile %p, %m : (tensor<1x64xf32>, !tosa.shape<2>) -> tensor<64x64xf32>
  %u = tosa.add %bc, %x : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>
  %v = tosa.tanh %u : (tensor<64x64xf32>) -> tensor<64x64xf32>
  %s = tosa.reduce_sum %v {axis = 0 : i32} : (tensor<64x64xf32>) -> tensor<1x64xf32>
  remat.backward
  %h = func.call @helper(%u, %v) : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<1x64xf32>
  %cat = tosa.concat %bc, %h {axis = 0 : i32} : (tensor<64x64xf32>, tensor<1x64xf32>) -> tensor<65x64xf32>
  return %cat : tensor<65x64xf32>
}

func.func private @helper(%a: tensor<64x64xf32>, %b: tensor<64x64xf32>) -> tensor<1x64xf32> {
  %ea = tosa.exp %a : (tensor<64x64xf32>) -> tensor<64x64xf32>
  %eb = tosa.exp %b : (tensor<64x64xf32>) -> tensor<64x64xf32>
  %ra = tosa.reduce_sum %ea {axis = 0 : i32} : (tensor<64x64xf32>) -> tensor<1x64xf32>
  %rb = tosa.reduce_sum %eb {axis = 0 : i32} : (tensor<64x64xf32>) -> tensor<1x64xf32>
  %r = tosa.add %ra, %rb : (tensor<1x64xf32>, tensor<1x64xf32>) -> tensor<1x64xf32>
  return %r : tensor<1x64xf32>
}

func.func private @private_step(%x: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %v = tosa.tanh %x : (tensor<64x64xf32>) -> tensor<64x64xf32>
  remat.backward
  %w = tosa.exp %v : (tensor<64x64xf32>) -> tensor<64x64xf32>
  return %w : tensor<64x64xf32>
}
