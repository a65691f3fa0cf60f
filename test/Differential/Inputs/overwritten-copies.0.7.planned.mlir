#map = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func private @helper0(%arg0: tensor<16x32xf32>) -> tensor<16x32xf32> {
    %0 = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
    %1 = tosa.tanh %arg0 : (tensor<16x32xf32>) -> tensor<16x32xf32>
    %2 = tosa.mul %1, %arg0, %0 : (tensor<16x32xf32>, tensor<16x32xf32>, tensor<1xi8>) -> tensor<16x32xf32>
    return %2 : tensor<16x32xf32>
  }
  func.func private @helper1(%arg0: tensor<16x32xf32>) -> tensor<16x32xf32> {
    %0 = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
    %1 = tosa.tanh %arg0 : (tensor<16x32xf32>) -> tensor<16x32xf32>
    %2 = tosa.mul %1, %arg0, %0 : (tensor<16x32xf32>, tensor<16x32xf32>, tensor<1xi8>) -> tensor<16x32xf32>
    return %2 : tensor<16x32xf32>
  }
  remat.graph @step(%arg0: tensor<16x32xf32>, %arg1: tensor<32x32xf32>, %arg2: tensor<32x32xf32>) -> (tensor<16x32xf32>, tensor<0x32xf32>, tensor<16x32xf32>) attributes {remat.arena = {buffers = array<i64: 2048, 2048, 64, 4, 4, 2048, 2048, 2048, 2048, 2048, 2048, 2048, 2048, 2048, 2048, 1024, 2048, 2048, 2048, 2048, 512, 2048, 2048, 2048, 2048, 2048, 64, 4, 4, 2048, 2048, 2048, 2048, 2048, 2048, 2048, 2048, 2048, 2048, 2048>, bytes = 10240 : i64}, remat.arena_alignment = 64 : i64} {
    %0 = "tosa.const"() <{values = dense<0.000000e+00> : tensor<1xf32>}> : () -> tensor<1xf32>
    %cst = arith.constant 0.000000e+00 : f32
    %1 = tosa.tanh %arg0 : (tensor<16x32xf32>) -> tensor<16x32xf32>
    %2 = tensor.empty() : tensor<16x32xf32>
    %3 = linalg.add ins(%1, %1 : tensor<16x32xf32>, tensor<16x32xf32>) outs(%2 : tensor<16x32xf32>) -> tensor<16x32xf32>
    %4 = tosa.reduce_sum %3 {axis = 1 : i32} : (tensor<16x32xf32>) -> tensor<16x1xf32>
    %5 = tosa.reduce_sum %4 {axis = 0 : i32} : (tensor<16x1xf32>) -> tensor<1x1xf32>
    %collapsed = tensor.collapse_shape %5 [] : tensor<1x1xf32> into tensor<f32>
    %6 = tosa.tanh %collapsed : (tensor<f32>) -> tensor<f32>
    %expanded = tensor.expand_shape %6 [] output_shape [1, 1] : tensor<f32> into tensor<1x1xf32>
    %7 = tosa.add %3, %expanded : (tensor<16x32xf32>, tensor<1x1xf32>) -> tensor<16x32xf32>
    %8 = arith.addf %7, %7 : tensor<16x32xf32>
    %9 = math.tanh %8 : tensor<16x32xf32>
    %10 = tosa.negate %9, %0, %0 : (tensor<16x32xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<16x32xf32>
    %11 = linalg.fill ins(%cst : f32) outs(%9 : tensor<16x32xf32>) -> tensor<16x32xf32>
    %extracted_slice = tensor.extract_slice %10[0, 0] [0, 32] [1, 1] : tensor<16x32xf32> to tensor<0x32xf32>
    %12 = math.tanh %extracted_slice : tensor<0x32xf32>
    %13 = tosa.add %1, %11 : (tensor<16x32xf32>, tensor<16x32xf32>) -> tensor<16x32xf32>
    %14 = tensor.empty() : tensor<16x32xf32>
    %15 = linalg.add ins(%3, %13 : tensor<16x32xf32>, tensor<16x32xf32>) outs(%14 : tensor<16x32xf32>) -> tensor<16x32xf32>
    %16 = linalg.fill ins(%cst : f32) outs(%9 : tensor<16x32xf32>) -> tensor<16x32xf32>
    %17 = tosa.add %15, %16 : (tensor<16x32xf32>, tensor<16x32xf32>) -> tensor<16x32xf32>
    %18 = tosa.sigmoid %10 : (tensor<16x32xf32>) -> tensor<16x32xf32>
    %19 = func.call @helper0(%18) : (tensor<16x32xf32>) -> tensor<16x32xf32>
    %extracted_slice_0 = tensor.extract_slice %19[0, 16] [16, 16] [1, 1] : tensor<16x32xf32> to tensor<16x16xf32>
    %20 = tosa.tanh %extracted_slice_0 : (tensor<16x16xf32>) -> tensor<16x16xf32>
    %21 = tosa.concat %20, %extracted_slice_0 {axis = 1 : i32} : (tensor<16x16xf32>, tensor<16x16xf32>) -> tensor<16x32xf32>
    %22 = tensor.empty() : tensor<16x32xf32>
    %23 = linalg.copy ins(%21 : tensor<16x32xf32>) outs(%22 : tensor<16x32xf32>) -> tensor<16x32xf32>
    %24 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%10 : tensor<16x32xf32>) outs(%23 : tensor<16x32xf32>) {
    ^bb0(%in: f32, %out: f32):
      %41 = arith.mulf %in, %out : f32
      linalg.yield %41 : f32
    } -> tensor<16x32xf32>
    %25 = tensor.empty() : tensor<16x32xf32>
    %26 = linalg.add ins(%24, %10 : tensor<16x32xf32>, tensor<16x32xf32>) outs(%25 : tensor<16x32xf32>) -> tensor<16x32xf32>
    remat.backward
    %27 = tosa.add %26, %24 : (tensor<16x32xf32>, tensor<16x32xf32>) -> tensor<16x32xf32>
    %28 = "tosa.const"() <{values = dense<0.000000e+00> : tensor<1x1xf32>}> : () -> tensor<1x1xf32>
    %29 = tosa.greater %21, %28 : (tensor<16x32xf32>, tensor<1x1xf32>) -> tensor<16x32xi1>
    %30 = tosa.select %29, %27, %28 : (tensor<16x32xi1>, tensor<16x32xf32>, tensor<1x1xf32>) -> tensor<16x32xf32>
    %31 = tosa.transpose %30 {perms = array<i32: 1, 0>} : (tensor<16x32xf32>) -> tensor<32x16xf32>
    %32 = tosa.transpose %31 {perms = array<i32: 1, 0>} : (tensor<32x16xf32>) -> tensor<16x32xf32>
    %33 = remat.recompute(%arg0) : (tensor<16x32xf32>) -> tensor<16x32xf32> {
    ^bb0(%arg3: tensor<16x32xf32>):
      %41 = "tosa.const"() <{values = dense<0.000000e+00> : tensor<1xf32>}> : () -> tensor<1xf32>
      %42 = tosa.tanh %arg3 : (tensor<16x32xf32>) -> tensor<16x32xf32>
      %43 = tensor.empty() : tensor<16x32xf32>
      %44 = linalg.add ins(%42, %42 : tensor<16x32xf32>, tensor<16x32xf32>) outs(%43 : tensor<16x32xf32>) -> tensor<16x32xf32>
      %45 = tosa.reduce_sum %44 {axis = 1 : i32} : (tensor<16x32xf32>) -> tensor<16x1xf32>
      %46 = tosa.reduce_sum %45 {axis = 0 : i32} : (tensor<16x1xf32>) -> tensor<1x1xf32>
      %collapsed_1 = tensor.collapse_shape %46 [] : tensor<1x1xf32> into tensor<f32>
      %47 = tosa.tanh %collapsed_1 : (tensor<f32>) -> tensor<f32>
      %expanded_2 = tensor.expand_shape %47 [] output_shape [1, 1] : tensor<f32> into tensor<1x1xf32>
      %48 = tosa.add %44, %expanded_2 : (tensor<16x32xf32>, tensor<1x1xf32>) -> tensor<16x32xf32>
      %49 = arith.addf %48, %48 : tensor<16x32xf32>
      %50 = math.tanh %49 : tensor<16x32xf32>
      %51 = tosa.negate %50, %41, %41 : (tensor<16x32xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<16x32xf32>
      remat.yield %51 : tensor<16x32xf32>
    }
    %34 = remat.recompute(%33) : (tensor<16x32xf32>) -> tensor<16x32xf32> {
    ^bb0(%arg3: tensor<16x32xf32>):
      %41 = tosa.sigmoid %arg3 : (tensor<16x32xf32>) -> tensor<16x32xf32>
      remat.yield %41 : tensor<16x32xf32>
    }
    %35 = tosa.add %32, %34 : (tensor<16x32xf32>, tensor<16x32xf32>) -> tensor<16x32xf32>
    %36 = tosa.add %35, %33 : (tensor<16x32xf32>, tensor<16x32xf32>) -> tensor<16x32xf32>
    %37 = func.call @helper1(%36) : (tensor<16x32xf32>) -> tensor<16x32xf32>
    %38 = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
    %39 = remat.recompute(%arg0) : (tensor<16x32xf32>) -> tensor<16x32xf32> {
    ^bb0(%arg3: tensor<16x32xf32>):
      %41 = tosa.tanh %arg3 : (tensor<16x32xf32>) -> tensor<16x32xf32>
      remat.yield %41 : tensor<16x32xf32>
    }
    %40 = tosa.mul %37, %39, %38 : (tensor<16x32xf32>, tensor<16x32xf32>, tensor<1xi8>) -> tensor<16x32xf32>
    remat.return %17, %12, %40 : tensor<16x32xf32>, tensor<0x32xf32>, tensor<16x32xf32>
  }
}

