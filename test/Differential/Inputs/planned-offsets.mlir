// Random step, seed 91332 (scripts/random_step.py 91332 --ops=12).
#id1 = affine_map<(d0) -> (d0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
remat.graph @step(%x: tensor<16x16xf32>, %w0: tensor<16x16xf32> {remat.aliasing_output = 0 : i64}) -> (tensor<16x16xf32>, tensor<16x16xf32>, tensor<0x16xf32>, tensor<16x16xf32>) {
  %v1 = tosa.tanh %x : (tensor<16x16xf32>) -> tensor<16x16xf32>
  %v2 = tensor.empty() : tensor<16x16xf32>
  %v3 = linalg.add ins(%v1, %v1 : tensor<16x16xf32>, tensor<16x16xf32>) outs(%v2 : tensor<16x16xf32>) -> tensor<16x16xf32>
  %v4 = tosa.sigmoid %v3 : (tensor<16x16xf32>) -> tensor<16x16xf32>
  %v5 = tosa.reduce_sum %v4 {axis = 1 : i32} : (tensor<16x16xf32>) -> tensor<16x1xf32>
  %v6 = tosa.sub %v4, %v5 : (tensor<16x16xf32>, tensor<16x1xf32>) -> tensor<16x16xf32>
  %v7 = tensor.extract_slice %v4[0, 8] [16, 8] [1, 1] : tensor<16x16xf32> to tensor<16x8xf32>
  %v8 = tosa.tanh %v7 : (tensor<16x8xf32>) -> tensor<16x8xf32>
  %v9 = tosa.concat %v8, %v7 {axis = 1 : i32} : (tensor<16x8xf32>, tensor<16x8xf32>) -> tensor<16x16xf32>
  %s10 = tosa.const_shape {values = dense<[1, 16, 16, 1]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %v11 = tosa.reshape %v9, %s10 : (tensor<16x16xf32>, !tosa.shape<4>) -> tensor<1x16x16x1xf32>
  %zp12 = "tosa.const"() <{values = dense<0.000000e+00> : tensor<1xf32>}> : () -> tensor<1xf32>
  %v13 = tosa.avg_pool2d %v11, %zp12, %zp12 {acc_type = f32, kernel = array<i64: 3, 3>, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>} : (tensor<1x16x16x1xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x16x16x1xf32>
  %s14 = tosa.const_shape {values = dense<[16, 16]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %v15 = tosa.reshape %v13, %s14 : (tensor<1x16x16x1xf32>, !tosa.shape<2>) -> tensor<16x16xf32>
  %v16 = tensor.empty() : tensor<16x16xf32>
  %v17 = linalg.add ins(%v15, %v9 : tensor<16x16xf32>, tensor<16x16xf32>) outs(%v16 : tensor<16x16xf32>) -> tensor<16x16xf32>
  %v18 = arith.subf %v17, %v4 : tensor<16x16xf32>
  %v19 = math.tanh %v18 : tensor<16x16xf32>
  %v20 = math.exp %v19 : tensor<16x16xf32>
  %v21 = tensor.extract_slice %v20[0, 0] [0, 16] [1, 1] : tensor<16x16xf32> to tensor<0x16xf32>
  %v22 = math.tanh %v21 : tensor<0x16xf32>
  %v23 = tosa.sigmoid %v20 : (tensor<16x16xf32>) -> tensor<16x16xf32>
  %s24 = tosa.const_shape {values = dense<[1, 16, 16]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %v25 = tosa.reshape %v23, %s24 : (tensor<16x16xf32>, !tosa.shape<3>) -> tensor<1x16x16xf32>
  %v26 = tosa.reshape %v23, %s24 : (tensor<16x16xf32>, !tosa.shape<3>) -> tensor<1x16x16xf32>
  %v27 = tosa.matmul %v25, %v26, %zp12, %zp12 : (tensor<1x16x16xf32>, tensor<1x16x16xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x16x16xf32>
  %v28 = tosa.reshape %v27, %s14 : (tensor<1x16x16xf32>, !tosa.shape<2>) -> tensor<16x16xf32>
  %v29 = tosa.transpose %v9 {perms = array<i32: 1, 0>} : (tensor<16x16xf32>) -> tensor<16x16xf32>
  %c30 = "tosa.const"() <{values = dense<[[-0.8, -1.5, 2.0, 0.5, -1.8, -1.5, 0.8, -1.5, -2.0, -1.8, -1.0, -2.0, -1.2, 2.0, -0.5, -2.0], [-1.5, -1.0, 2.0, 0.5, 1.5, -2.0, 1.0, 1.2, 1.5, -0.2, 1.8, 1.8, 0.8, -1.8, 0.8, -0.2], [0.5, 0.2, 1.0, 0.8, -0.2, 0.2, -1.2, 0.5, -1.5, -1.2, -2.0, -1.8, 0.8, -0.5, 1.0, 0.8], [0.2, -1.0, -0.5, 1.5, 0.5, -0.2, 0.8, 0.8, 0.5, -2.0, -0.2, 1.2, 0.8, -1.2, -0.8, -0.5], [0.0, -1.5, 1.8, -0.5, 0.8, -0.8, -1.2, 0.5, 0.5, 0.0, 0.0, -0.8, 2.0, 1.5, 1.8, -2.0], [-2.0, -1.5, 2.0, 0.5, 1.2, 1.5, -1.0, -0.8, -1.5, 1.8, 1.0, 1.5, -1.8, 1.0, -0.2, 1.8], [1.5, 1.5, 1.8, -1.0, 0.8, 1.5, 1.5, 1.8, -1.0, 1.0, -1.0, 1.5, 2.0, -1.5, -1.8, 0.5], [-0.5, -1.8, 0.2, 2.0, 1.0, -2.0, 1.2, -1.8, -2.0, 1.8, -1.5, 0.5, -0.2, -2.0, 0.2, 1.5], [-1.2, -1.0, -0.5, 0.2, -1.5, 1.2, -0.8, 0.8, -1.2, -1.8, -1.5, -1.2, 0.2, 1.0, -0.5, -0.5], [1.0, -2.0, -1.8, 1.2, -1.0, -0.5, -1.5, -0.5, -0.2, 0.0, 1.2, 0.8, 1.5, -0.5, 0.5, -1.0], [-2.0, -1.5, 2.0, 1.8, 0.2, 0.0, -1.5, -0.8, 1.2, -0.2, 0.8, 2.0, 1.2, 1.0, 1.8, -1.5], [1.5, 0.0, 0.2, 0.2, -1.5, 1.5, 0.0, 1.5, 0.8, -2.0, -0.8, -1.2, 1.0, 1.8, 1.5, 1.0], [1.5, 1.0, -0.5, -0.8, 1.8, -0.8, -1.0, 1.8, 2.0, -1.2, -1.2, 0.2, -1.5, -2.0, 0.5, 1.2], [-1.2, 1.2, 0.0, 0.5, 0.0, 1.8, -0.2, -0.8, -1.2, 0.8, 0.5, 0.8, 0.8, -1.5, 0.8, -1.0], [-1.0, -1.0, 0.8, 1.2, 0.8, -0.8, -1.0, 0.5, -1.8, -0.8, -2.0, -1.2, 1.8, 1.2, 0.8, -1.5], [1.2, -0.5, -1.2, -0.5, -0.5, 1.5, 0.2, -0.5, -0.2, -0.5, -1.8, -0.2, -2.0, -1.0, 0.0, -1.2]]> : tensor<16x16xf32>}> : () -> tensor<16x16xf32>
  %v31 = tosa.add %v29, %c30 : (tensor<16x16xf32>, tensor<16x16xf32>) -> tensor<16x16xf32>
  %v32 = tosa.reduce_sum %v20 {axis = 1 : i32} : (tensor<16x16xf32>) -> tensor<16x1xf32>
  %v33 = tosa.sub %v20, %v32 : (tensor<16x16xf32>, tensor<16x1xf32>) -> tensor<16x16xf32>
  remat.backward
  %v34 = tosa.add %v33, %v31 : (tensor<16x16xf32>, tensor<16x16xf32>) -> tensor<16x16xf32>
  %v35 = tosa.reshape %v28, %s10 : (tensor<16x16xf32>, !tosa.shape<4>) -> tensor<1x16x16x1xf32>
  %v36 = tosa.max_pool2d %v35 {kernel = array<i64: 3, 3>, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>} : (tensor<1x16x16x1xf32>) -> tensor<1x16x16x1xf32>
  %v37 = tosa.reshape %v36, %s14 : (tensor<1x16x16x1xf32>, !tosa.shape<2>) -> tensor<16x16xf32>
  %shift38 = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %v39 = tosa.mul %v37, %v23, %shift38 : (tensor<16x16xf32>, tensor<16x16xf32>, tensor<1xi8>) -> tensor<16x16xf32>
  %v40 = tosa.mul %v39, %v20, %shift38 : (tensor<16x16xf32>, tensor<16x16xf32>, tensor<1xi8>) -> tensor<16x16xf32>
  %v41 = tosa.add %v40, %v17 : (tensor<16x16xf32>, tensor<16x16xf32>) -> tensor<16x16xf32>
  %zero42 = "tosa.const"() <{values = dense<0.000000e+00> : tensor<1x1xf32>}> : () -> tensor<1x1xf32>
  %v43 = tosa.greater %v9, %zero42 : (tensor<16x16xf32>, tensor<1x1xf32>) -> tensor<16x16xi1>
  %v44 = tosa.select %v43, %v41, %zero42 : (tensor<16x16xi1>, tensor<16x16xf32>, tensor<1x1xf32>) -> tensor<16x16xf32>
  %v45 = tosa.clamp %v44 {max_val = 3.40282347e+38 : f32, min_val = 0.000000e+00 : f32} : (tensor<16x16xf32>) -> tensor<16x16xf32>
  %v46 = tosa.mul %v45, %v4, %shift38 : (tensor<16x16xf32>, tensor<16x16xf32>, tensor<1xi8>) -> tensor<16x16xf32>
  %v47 = tosa.greater %v3, %zero42 : (tensor<16x16xf32>, tensor<1x1xf32>) -> tensor<16x16xi1>
  %v48 = tosa.select %v47, %v46, %zero42 : (tensor<16x16xi1>, tensor<16x16xf32>, tensor<1x1xf32>) -> tensor<16x16xf32>
  %v49 = tosa.add %v48, %v1 : (tensor<16x16xf32>, tensor<16x16xf32>) -> tensor<16x16xf32>
  %v50 = tosa.transpose %x {perms = array<i32: 1, 0>} : (tensor<16x16xf32>) -> tensor<16x16xf32>
  %v51 = tosa.reshape %v50, %s24 : (tensor<16x16xf32>, !tosa.shape<3>) -> tensor<1x16x16xf32>
  %v52 = tosa.reshape %v49, %s24 : (tensor<16x16xf32>, !tosa.shape<3>) -> tensor<1x16x16xf32>
  %v53 = tosa.matmul %v51, %v52, %zp12, %zp12 : (tensor<1x16x16xf32>, tensor<1x16x16xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x16x16xf32>
  %v54 = tosa.reshape %v53, %s14 : (tensor<1x16x16xf32>, !tosa.shape<2>) -> tensor<16x16xf32>
  %lr55 = arith.constant 1.000000e-02 : f32
  %v56 = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]} ins(%v54 : tensor<16x16xf32>) outs(%w0 : tensor<16x16xf32>) {
  ^bb0(%in: f32, %out: f32):
    %m = arith.mulf %in, %lr55 : f32
    %r = arith.subf %out, %m : f32
    linalg.yield %r : f32
  } -> tensor<16x16xf32>
  remat.return %v56, %v6, %v22, %v34 : tensor<16x16xf32>, tensor<16x16xf32>, tensor<0x16xf32>, tensor<16x16xf32>
}
