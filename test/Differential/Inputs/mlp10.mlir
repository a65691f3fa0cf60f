// A 10-layer MLP training step: batch 256, width 64, ReLU as tosa.clamp, the
// ReLU gradient as tosa.select on a tosa.greater mask, weights transposed
// with tosa.transpose for the backward matmuls.
remat.graph @mlp10(%x: tensor<256x64xf32>, %w0: tensor<64x64xf32>, %b0: tensor<1x64xf32>, %w1: tensor<64x64xf32>, %b1: tensor<1x64xf32>, %w2: tensor<64x64xf32>, %b2: tensor<1x64xf32>, %w3: tensor<64x64xf32>, %b3: tensor<1x64xf32>, %w4: tensor<64x64xf32>, %b4: tensor<1x64xf32>, %w5: tensor<64x64xf32>, %b5: tensor<1x64xf32>, %w6: tensor<64x64xf32>, %b6: tensor<1x64xf32>, %w7: tensor<64x64xf32>, %b7: tensor<1x64xf32>, %w8: tensor<64x64xf32>, %b8: tensor<1x64xf32>, %w9: tensor<64x64xf32>, %b9: tensor<1x64xf32>) -> (tensor<64x64xf32>, tensor<1x64xf32>, tensor<64x64xf32>, tensor<1x64xf32>, tensor<64x64xf32>, tensor<1x64xf32>, tensor<64x64xf32>, tensor<1x64xf32>, tensor<64x64xf32>, tensor<1x64xf32>, tensor<64x64xf32>, tensor<1x64xf32>, tensor<64x64xf32>, tensor<1x64xf32>, tensor<64x64xf32>, tensor<1x64xf32>, tensor<64x64xf32>, tensor<1x64xf32>, tensor<64x64xf32>, tensor<1x64xf32>) {
  %v1 = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %v2 = "tosa.const"() <{values = dense<0.0> : tensor<1x1xf32>}> : () -> tensor<1x1xf32>
  %v3 = tosa.const_shape {values = dense<[1, 256, 64]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %v4 = tosa.reshape %x, %v3 : (tensor<256x64xf32>, !tosa.shape<3>) -> tensor<1x256x64xf32>
  %v5 = tosa.const_shape {values = dense<[1, 64, 64]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %v6 = tosa.reshape %w0, %v5 : (tensor<64x64xf32>, !tosa.shape<3>) -> tensor<1x64x64xf32>
  %v7 = tosa.matmul %v4, %v6, %v1, %v1 : (tensor<1x256x64xf32>, tensor<1x64x64xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x256x64xf32>
  %v8 = tosa.const_shape {values = dense<[256, 64]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %v9 = tosa.reshape %v7, %v8 : (tensor<1x256x64xf32>, !tosa.shape<2>) -> tensor<256x64xf32>
  %v10 = tosa.add %v9, %b0 : (tensor<256x64xf32>, tensor<1x64xf32>) -> tensor<256x64xf32>
  %v11 = tosa.clamp %v10 {max_val = 3.40282347e+38 : f32, min_val = 0.000000e+00 : f32} : (tensor<256x64xf32>) -> tensor<256x64xf32>
  %v12 = tosa.const_shape {values = dense<[1, 256, 64]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %v13 = tosa.reshape %v11, %v12 : (tensor<256x64xf32>, !tosa.shape<3>) -> tensor<1x256x64xf32>
  %v14 = tosa.const_shape {values = dense<[1, 64, 64]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %v15 = tosa.reshape %w1, %v14 : (tensor<64x64xf32>, !tosa.shape<3>) -> tensor<1x64x64xf32>
  %v16 = tosa.matmul %v13, %v15, %v1, %v1 : (tensor<1x256x64xf32>, tensor<1x64x64xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x256x64xf32>
  %v17 = tosa.const_shape {values = dense<[256, 64]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %v18 = tosa.reshape %v16, %v17 : (tensor<1x256x64xf32>, !tosa.shape<2>) -> tensor<256x64xf32>
  %v19 = tosa.add %v18, %b1 : (tensor<256x64xf32>, tensor<1x64xf32>) -> tensor<256x64xf32>
  %v20 = tosa.clamp %v19 {max_val = 3.40282347e+38 : f32, min_val = 0.000000e+00 : f32} : (tensor<256x64xf32>) -> tensor<256x64xf32>
  %v21 = tosa.const_shape {values = dense<[1, 256, 64]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %v22 = tosa.reshape %v20, %v21 : (tensor<256x64xf32>, !tosa.shape<3>) -> tensor<1x256x64xf32>
  %v23 = tosa.const_shape {values = dense<[1, 64, 64]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %v24 = tosa.reshape %w2, %v23 : (tensor<64x64xf32>, !tosa.shape<3>) -> tensor<1x64x64xf32>
  %v25 = tosa.matmul %v22, %v24, %v1, %v1 : (tensor<1x256x64xf32>, tensor<1x64x64xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x256x64xf32>
  %v26 = tosa.const_shape {values = dense<[256, 64]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %v27 = tosa.reshape %v25, %v26 : (tensor<1x256x64xf32>, !tosa.shape<2>) -> tensor<256x64xf32>
  %v28 = tosa.add %v27, %b2 : (tensor<256x64xf32>, tensor<1x64xf32>) -> tensor<256x64xf32>
  %v29 = tosa.clamp %v28 {max_val = 3.40282347e+38 : f32, min_val = 0.000000e+00 : f32} : (tensor<256x64xf32>) -> tensor<256x64xf32>
  %v30 = tosa.const_shape {values = dense<[1, 256, 64]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %v31 = tosa.reshape %v29, %v30 : (tensor<256x64xf32>, !tosa.shape<3>) -> tensor<1x256x64xf32>
  %v32 = tosa.const_shape {values = dense<[1, 64, 64]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %v33 = tosa.reshape %w3, %v32 : (tensor<64x64xf32>, !tosa.shape<3>) -> tensor<1x64x64xf32>
  %v34 = tosa.matmul %v31, %v33, %v1, %v1 : (tensor<1x256x64xf32>, tensor<1x64x64xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x256x64xf32>
  %v35 = tosa.const_shape {values = dense<[256, 64]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %v36 = tosa.reshape %v34, %v35 : (tensor<1x256x64xf32>, !tosa.shape<2>) -> tensor<256x64xf32>
  %v37 = tosa.add %v36, %b3 : (tensor<256x64xf32>, tensor<1x64xf32>) -> tensor<256x64xf32>
  %v38 = tosa.clamp %v37 {max_val = 3.40282347e+38 : f32, min_val = 0.000000e+00 : f32} : (tensor<256x64xf32>) -> tensor<256x64xf32>
  %v39 = tosa.const_shape {values = dense<[1, 256, 64]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %v40 = tosa.reshape %v38, %v39 : (tensor<256x64xf32>, !tosa.shape<3>) -> tensor<1x256x64xf32>
  %v41 = tosa.const_shape {values = dense<[1, 64, 64]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %v42 = tosa.reshape %w4, %v41 : (tensor<64x64xf32>, !tosa.shape<3>) -> tensor<1x64x64xf32>
  %v43 = tosa.matmul %v40, %v42, %v1, %v1 : (tensor<1x256x64xf32>, tensor<1x64x64xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x256x64xf32>
  %v44 = tosa.const_shape {values = dense<[256, 64]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %v45 = tosa.reshape %v43, %v44 : (tensor<1x256x64xf32>, !tosa.shape<2>) -> tensor<256x64xf32>
  %v46 = tosa.add %v45, %b4 : (tensor<256x64xf32>, tensor<1x64xf32>) -> tensor<256x64xf32>
  %v47 = tosa.clamp %v46 {max_val = 3.40282347e+38 : f32, min_val = 0.000000e+00 : f32} : (tensor<256x64xf32>) -> tensor<256x64xf32>
  %v48 = tosa.const_shape {values = dense<[1, 256, 64]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %v49 = tosa.reshape %v47, %v48 : (tensor<256x64xf32>, !tosa.shape<3>) -> tensor<1x256x64xf32>
  %v50 = tosa.const_shape {values = dense<[1, 64, 64]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %v51 = tosa.reshape %w5, %v50 : (tensor<64x64xf32>, !tosa.shape<3>) -> tensor<1x64x64xf32>
  %v52 = tosa.matmul %v49, %v51, %v1, %v1 : (tensor<1x256x64xf32>, tensor<1x64x64xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x256x64xf32>
  %v53 = tosa.const_shape {values = dense<[256, 64]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %v54 = tosa.reshape %v52, %v53 : (tensor<1x256x64xf32>, !tosa.shape<2>) -> tensor<256x64xf32>
  %v55 = tosa.add %v54, %b5 : (tensor<256x64xf32>, tensor<1x64xf32>) -> tensor<256x64xf32>
  %v56 = tosa.clamp %v55 {max_val = 3.40282347e+38 : f32, min_val = 0.000000e+00 : f32} : (tensor<256x64xf32>) -> tensor<256x64xf32>
  %v57 = tosa.const_shape {values = dense<[1, 256, 64]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %v58 = tosa.reshape %v56, %v57 : (tensor<256x64xf32>, !tosa.shape<3>) -> tensor<1x256x64xf32>
  %v59 = tosa.const_shape {values = dense<[1, 64, 64]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %v60 = tosa.reshape %w6, %v59 : (tensor<64x64xf32>, !tosa.shape<3>) -> tensor<1x64x64xf32>
  %v61 = tosa.matmul %v58, %v60, %v1, %v1 : (tensor<1x256x64xf32>, tensor<1x64x64xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x256x64xf32>
  %v62 = tosa.const_shape {values = dense<[256, 64]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %v63 = tosa.reshape %v61, %v62 : (tensor<1x256x64xf32>, !tosa.shape<2>) -> tensor<256x64xf32>
  %v64 = tosa.add %v63, %b6 : (tensor<256x64xf32>, tensor<1x64xf32>) -> tensor<256x64xf32>
  %v65 = tosa.clamp %v64 {max_val = 3.40282347e+38 : f32, min_val = 0.000000e+00 : f32} : (tensor<256x64xf32>) -> tensor<256x64xf32>
  %v66 = tosa.const_shape {values = dense<[1, 256, 64]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %v67 = tosa.reshape %v65, %v66 : (tensor<256x64xf32>, !tosa.shape<3>) -> tensor<1x256x64xf32>
  %v68 = tosa.const_shape {values = dense<[1, 64, 64]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %v69 = tosa.reshape %w7, %v68 : (tensor<64x64xf32>, !tosa.shape<3>) -> tensor<1x64x64xf32>
  %v70 = tosa.matmul %v67, %v69, %v1, %v1 : (tensor<1x256x64xf32>, tensor<1x64x64xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x256x64xf32>
  %v71 = tosa.const_shape {values = dense<[256, 64]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %v72 = tosa.reshape %v70, %v71 : (tensor<1x256x64xf32>, !tosa.shape<2>) -> tensor<256x64xf32>
  %v73 = tosa.add %v72, %b7 : (tensor<256x64xf32>, tensor<1x64xf32>) -> tensor<256x64xf32>
  %v74 = tosa.clamp %v73 {max_val = 3.40282347e+38 : f32, min_val = 0.000000e+00 : f32} : (tensor<256x64xf32>) -> tensor<256x64xf32>
  %v75 = tosa.const_shape {values = dense<[1, 256, 64]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %v76 = tosa.reshape %v74, %v75 : (tensor<256x64xf32>, !tosa.shape<3>) -> tensor<1x256x64xf32>
  %v77 = tosa.const_shape {values = dense<[1, 64, 64]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %v78 = tosa.reshape %w8, %v77 : (tensor<64x64xf32>, !tosa.shape<3>) -> tensor<1x64x64xf32>
  %v79 = tosa.matmul %v76, %v78, %v1, %v1 : (tensor<1x256x64xf32>, tensor<1x64x64xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x256x64xf32>
  %v80 = tosa.const_shape {values = dense<[256, 64]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %v81 = tosa.reshape %v79, %v80 : (tensor<1x256x64xf32>, !tosa.shape<2>) -> tensor<256x64xf32>
  %v82 = tosa.add %v81, %b8 : (tensor<256x64xf32>, tensor<1x64xf32>) -> tensor<256x64xf32>
  %v83 = tosa.clamp %v82 {max_val = 3.40282347e+38 : f32, min_val = 0.000000e+00 : f32} : (tensor<256x64xf32>) -> tensor<256x64xf32>
  %v84 = tosa.const_shape {values = dense<[1, 256, 64]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %v85 = tosa.reshape %v83, %v84 : (tensor<256x64xf32>, !tosa.shape<3>) -> tensor<1x256x64xf32>
  %v86 = tosa.const_shape {values = dense<[1, 64, 64]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %v87 = tosa.reshape %w9, %v86 : (tensor<64x64xf32>, !tosa.shape<3>) -> tensor<1x64x64xf32>
  %v88 = tosa.matmul %v85, %v87, %v1, %v1 : (tensor<1x256x64xf32>, tensor<1x64x64xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x256x64xf32>
  %v89 = tosa.const_shape {values = dense<[256, 64]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %v90 = tosa.reshape %v88, %v89 : (tensor<1x256x64xf32>, !tosa.shape<2>) -> tensor<256x64xf32>
  %v91 = tosa.add %v90, %b9 : (tensor<256x64xf32>, tensor<1x64xf32>) -> tensor<256x64xf32>
  %v92 = tosa.clamp %v91 {max_val = 3.40282347e+38 : f32, min_val = 0.000000e+00 : f32} : (tensor<256x64xf32>) -> tensor<256x64xf32>
  remat.backward
  %v93 = tosa.greater %v91, %v2 : (tensor<256x64xf32>, tensor<1x1xf32>) -> tensor<256x64xi1>
  %v94 = tosa.select %v93, %v92, %v2 : (tensor<256x64xi1>, tensor<256x64xf32>, tensor<1x1xf32>) -> tensor<256x64xf32>
  %v95 = tosa.transpose %v83 {perms = array<i32: 1, 0>} : (tensor<256x64xf32>) -> tensor<64x256xf32>
  %v96 = tosa.const_shape {values = dense<[1, 64, 256]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %v97 = tosa.reshape %v95, %v96 : (tensor<64x256xf32>, !tosa.shape<3>) -> tensor<1x64x256xf32>
  %v98 = tosa.const_shape {values = dense<[1, 256, 64]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %v99 = tosa.reshape %v94, %v98 : (tensor<256x64xf32>, !tosa.shape<3>) -> tensor<1x256x64xf32>
  %v100 = tosa.matmul %v97, %v99, %v1, %v1 : (tensor<1x64x256xf32>, tensor<1x256x64xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x64x64xf32>
  %v101 = tosa.const_shape {values = dense<[64, 64]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %v102 = tosa.reshape %v100, %v101 : (tensor<1x64x64xf32>, !tosa.shape<2>) -> tensor<64x64xf32>
  %v103 = tosa.reduce_sum %v94 {axis = 0 : i32} : (tensor<256x64xf32>) -> tensor<1x64xf32>
  %v104 = tosa.transpose %w9 {perms = array<i32: 1, 0>} : (tensor<64x64xf32>) -> tensor<64x64xf32>
  %v105 = tosa.const_shape {values = dense<[1, 256, 64]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %v106 = tosa.reshape %v94, %v105 : (tensor<256x64xf32>, !tosa.shape<3>) -> tensor<1x256x64xf32>
  %v107 = tosa.const_shape {values = dense<[1, 64, 64]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %v108 = tosa.reshape %v104, %v107 : (tensor<64x64xf32>, !tosa.shape<3>) -> tensor<1x64x64xf32>
  %v109 = tosa.matmul %v106, %v108, %v1, %v1 : (tensor<1x256x64xf32>, tensor<1x64x64xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x256x64xf32>
  %v110 = tosa.const_shape {values = dense<[256, 64]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %v111 = tosa.reshape %v109, %v110 : (tensor<1x256x64xf32>, !tosa.shape<2>) -> tensor<256x64xf32>
  %v112 = tosa.greater %v82, %v2 : (tensor<256x64xf32>, tensor<1x1xf32>) -> tensor<256x64xi1>
  %v113 = tosa.select %v112, %v111, %v2 : (tensor<256x64xi1>, tensor<256x64xf32>, tensor<1x1xf32>) -> tensor<256x64xf32>
  %v114 = tosa.transpose %v74 {perms = array<i32: 1, 0>} : (tensor<256x64xf32>) -> tensor<64x256xf32>
  %v115 = tosa.const_shape {values = dense<[1, 64, 256]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %v116 = tosa.reshape %v114, %v115 : (tensor<64x256xf32>, !tosa.shape<3>) -> tensor<1x64x256xf32>
  %v117 = tosa.const_shape {values = dense<[1, 256, 64]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %v118 = tosa.reshape %v113, %v117 : (tensor<256x64xf32>, !tosa.shape<3>) -> tensor<1x256x64xf32>
  %v119 = tosa.matmul %v116, %v118, %v1, %v1 : (tensor<1x64x256xf32>, tensor<1x256x64xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x64x64xf32>
  %v120 = tosa.const_shape {values = dense<[64, 64]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %v121 = tosa.reshape %v119, %v120 : (tensor<1x64x64xf32>, !tosa.shape<2>) -> tensor<64x64xf32>
  %v122 = tosa.reduce_sum %v113 {axis = 0 : i32} : (tensor<256x64xf32>) -> tensor<1x64xf32>
  %v123 = tosa.transpose %w8 {perms = array<i32: 1, 0>} : (tensor<64x64xf32>) -> tensor<64x64xf32>
  %v124 = tosa.const_shape {values = dense<[1, 256, 64]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %v125 = tosa.reshape %v113, %v124 : (tensor<256x64xf32>, !tosa.shape<3>) -> tensor<1x256x64xf32>
  %v126 = tosa.const_shape {values = dense<[1, 64, 64]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %v127 = tosa.reshape %v123, %v126 : (tensor<64x64xf32>, !tosa.shape<3>) -> tensor<1x64x64xf32>
  %v128 = tosa.matmul %v125, %v127, %v1, %v1 : (tensor<1x256x64xf32>, tensor<1x64x64xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x256x64xf32>
  %v129 = tosa.const_shape {values = dense<[256, 64]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %v130 = tosa.reshape %v128, %v129 : (tensor<1x256x64xf32>, !tosa.shape<2>) -> tensor<256x64xf32>
  %v131 = tosa.greater %v73, %v2 : (tensor<256x64xf32>, tensor<1x1xf32>) -> tensor<256x64xi1>
  %v132 = tosa.select %v131, %v130, %v2 : (tensor<256x64xi1>, tensor<256x64xf32>, tensor<1x1xf32>) -> tensor<256x64xf32>
  %v133 = tosa.transpose %v65 {perms = array<i32: 1, 0>} : (tensor<256x64xf32>) -> tensor<64x256xf32>
  %v134 = tosa.const_shape {values = dense<[1, 64, 256]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %v135 = tosa.reshape %v133, %v134 : (tensor<64x256xf32>, !tosa.shape<3>) -> tensor<1x64x256xf32>
  %v136 = tosa.const_shape {values = dense<[1, 256, 64]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %v137 = tosa.reshape %v132, %v136 : (tensor<256x64xf32>, !tosa.shape<3>) -> tensor<1x256x64xf32>
  %v138 = tosa.matmul %v135, %v137, %v1, %v1 : (tensor<1x64x256xf32>, tensor<1x256x64xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x64x64xf32>
  %v139 = tosa.const_shape {values = dense<[64, 64]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %v140 = tosa.reshape %v138, %v139 : (tensor<1x64x64xf32>, !tosa.shape<2>) -> tensor<64x64xf32>
  %v141 = tosa.reduce_sum %v132 {axis = 0 : i32} : (tensor<256x64xf32>) -> tensor<1x64xf32>
  %v142 = tosa.transpose %w7 {perms = array<i32: 1, 0>} : (tensor<64x64xf32>) -> tensor<64x64xf32>
  %v143 = tosa.const_shape {values = dense<[1, 256, 64]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %v144 = tosa.reshape %v132, %v143 : (tensor<256x64xf32>, !tosa.shape<3>) -> tensor<1x256x64xf32>
  %v145 = tosa.const_shape {values = dense<[1, 64, 64]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %v146 = tosa.reshape %v142, %v145 : (tensor<64x64xf32>, !tosa.shape<3>) -> tensor<1x64x64xf32>
  %v147 = tosa.matmul %v144, %v146, %v1, %v1 : (tensor<1x256x64xf32>, tensor<1x64x64xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x256x64xf32>
  %v148 = tosa.const_shape {values = dense<[256, 64]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %v149 = tosa.reshape %v147, %v148 : (tensor<1x256x64xf32>, !tosa.shape<2>) -> tensor<256x64xf32>
  %v150 = tosa.greater %v64, %v2 : (tensor<256x64xf32>, tensor<1x1xf32>) -> tensor<256x64xi1>
  %v151 = tosa.select %v150, %v149, %v2 : (tensor<256x64xi1>, tensor<256x64xf32>, tensor<1x1xf32>) -> tensor<256x64xf32>
  %v152 = tosa.transpose %v56 {perms = array<i32: 1, 0>} : (tensor<256x64xf32>) -> tensor<64x256xf32>
  %v153 = tosa.const_shape {values = dense<[1, 64, 256]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %v154 = tosa.reshape %v152, %v153 : (tensor<64x256xf32>, !tosa.shape<3>) -> tensor<1x64x256xf32>
  %v155 = tosa.const_shape {values = dense<[1, 256, 64]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %v156 = tosa.reshape %v151, %v155 : (tensor<256x64xf32>, !tosa.shape<3>) -> tensor<1x256x64xf32>
  %v157 = tosa.matmul %v154, %v156, %v1, %v1 : (tensor<1x64x256xf32>, tensor<1x256x64xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x64x64xf32>
  %v158 = tosa.const_shape {values = dense<[64, 64]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %v159 = tosa.reshape %v157, %v158 : (tensor<1x64x64xf32>, !tosa.shape<2>) -> tensor<64x64xf32>
  %v160 = tosa.reduce_sum %v151 {axis = 0 : i32} : (tensor<256x64xf32>) -> tensor<1x64xf32>
  %v161 = tosa.transpose %w6 {perms = array<i32: 1, 0>} : (tensor<64x64xf32>) -> tensor<64x64xf32>
  %v162 = tosa.const_shape {values = dense<[1, 256, 64]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %v163 = tosa.reshape %v151, %v162 : (tensor<256x64xf32>, !tosa.shape<3>) -> tensor<1x256x64xf32>
  %v164 = tosa.const_shape {values = dense<[1, 64, 64]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %v165 = tosa.reshape %v161, %v164 : (tensor<64x64xf32>, !tosa.shape<3>) -> tensor<1x64x64xf32>
  %v166 = tosa.matmul %v163, %v165, %v1, %v1 : (tensor<1x256x64xf32>, tensor<1x64x64xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x256x64xf32>
  %v167 = tosa.const_shape {values = dense<[256, 64]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %v168 = tosa.reshape %v166, %v167 : (tensor<1x256x64xf32>, !tosa.shape<2>) -> tensor<256x64xf32>
  %v169 = tosa.greater %v55, %v2 : (tensor<256x64xf32>, tensor<1x1xf32>) -> tensor<256x64xi1>
  %v170 = tosa.select %v169, %v168, %v2 : (tensor<256x64xi1>, tensor<256x64xf32>, tensor<1x1xf32>) -> tensor<256x64xf32>
  %v171 = tosa.transpose %v47 {perms = array<i32: 1, 0>} : (tensor<256x64xf32>) -> tensor<64x256xf32>
  %v172 = tosa.const_shape {values = dense<[1, 64, 256]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %v173 = tosa.reshape %v171, %v172 : (tensor<64x256xf32>, !tosa.shape<3>) -> tensor<1x64x256xf32>
  %v174 = tosa.const_shape {values = dense<[1, 256, 64]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %v175 = tosa.reshape %v170, %v174 : (tensor<256x64xf32>, !tosa.shape<3>) -> tensor<1x256x64xf32>
  %v176 = tosa.matmul %v173, %v175, %v1, %v1 : (tensor<1x64x256xf32>, tensor<1x256x64xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x64x64xf32>
  %v177 = tosa.const_shape {values = dense<[64, 64]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %v178 = tosa.reshape %v176, %v177 : (tensor<1x64x64xf32>, !tosa.shape<2>) -> tensor<64x64xf32>
  %v179 = tosa.reduce_sum %v170 {axis = 0 : i32} : (tensor<256x64xf32>) -> tensor<1x64xf32>
  %v180 = tosa.transpose %w5 {perms = array<i32: 1, 0>} : (tensor<64x64xf32>) -> tensor<64x64xf32>
  %v181 = tosa.const_shape {values = dense<[1, 256, 64]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %v182 = tosa.reshape %v170, %v181 : (tensor<256x64xf32>, !tosa.shape<3>) -> tensor<1x256x64xf32>
  %v183 = tosa.const_shape {values = dense<[1, 64, 64]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %v184 = tosa.reshape %v180, %v183 : (tensor<64x64xf32>, !tosa.shape<3>) -> tensor<1x64x64xf32>
  %v185 = tosa.matmul %v182, %v184, %v1, %v1 : (tensor<1x256x64xf32>, tensor<1x64x64xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x256x64xf32>
  %v186 = tosa.const_shape {values = dense<[256, 64]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %v187 = tosa.reshape %v185, %v186 : (tensor<1x256x64xf32>, !tosa.shape<2>) -> tensor<256x64xf32>
  %v188 = tosa.greater %v46, %v2 : (tensor<256x64xf32>, tensor<1x1xf32>) -> tensor<256x64xi1>
  %v189 = tosa.select %v188, %v187, %v2 : (tensor<256x64xi1>, tensor<256x64xf32>, tensor<1x1xf32>) -> tensor<256x64xf32>
  %v190 = tosa.transpose %v38 {perms = array<i32: 1, 0>} : (tensor<256x64xf32>) -> tensor<64x256xf32>
  %v191 = tosa.const_shape {values = dense<[1, 64, 256]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %v192 = tosa.reshape %v190, %v191 : (tensor<64x256xf32>, !tosa.shape<3>) -> tensor<1x64x256xf32>
  %v193 = tosa.const_shape {values = dense<[1, 256, 64]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %v194 = tosa.reshape %v189, %v193 : (tensor<256x64xf32>, !tosa.shape<3>) -> tensor<1x256x64xf32>
  %v195 = tosa.matmul %v192, %v194, %v1, %v1 : (tensor<1x64x256xf32>, tensor<1x256x64xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x64x64xf32>
  %v196 = tosa.const_shape {values = dense<[64, 64]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %v197 = tosa.reshape %v195, %v196 : (tensor<1x64x64xf32>, !tosa.shape<2>) -> tensor<64x64xf32>
  %v198 = tosa.reduce_sum %v189 {axis = 0 : i32} : (tensor<256x64xf32>) -> tensor<1x64xf32>
  %v199 = tosa.transpose %w4 {perms = array<i32: 1, 0>} : (tensor<64x64xf32>) -> tensor<64x64xf32>
  %v200 = tosa.const_shape {values = dense<[1, 256, 64]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %v201 = tosa.reshape %v189, %v200 : (tensor<256x64xf32>, !tosa.shape<3>) -> tensor<1x256x64xf32>
  %v202 = tosa.const_shape {values = dense<[1, 64, 64]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %v203 = tosa.reshape %v199, %v202 : (tensor<64x64xf32>, !tosa.shape<3>) -> tensor<1x64x64xf32>
  %v204 = tosa.matmul %v201, %v203, %v1, %v1 : (tensor<1x256x64xf32>, tensor<1x64x64xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x256x64xf32>
  %v205 = tosa.const_shape {values = dense<[256, 64]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %v206 = tosa.reshape %v204, %v205 : (tensor<1x256x64xf32>, !tosa.shape<2>) -> tensor<256x64xf32>
  %v207 = tosa.greater %v37, %v2 : (tensor<256x64xf32>, tensor<1x1xf32>) -> tensor<256x64xi1>
  %v208 = tosa.select %v207, %v206, %v2 : (tensor<256x64xi1>, tensor<256x64xf32>, tensor<1x1xf32>) -> tensor<256x64xf32>
  %v209 = tosa.transpose %v29 {perms = array<i32: 1, 0>} : (tensor<256x64xf32>) -> tensor<64x256xf32>
  %v210 = tosa.const_shape {values = dense<[1, 64, 256]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %v211 = tosa.reshape %v209, %v210 : (tensor<64x256xf32>, !tosa.shape<3>) -> tensor<1x64x256xf32>
  %v212 = tosa.const_shape {values = dense<[1, 256, 64]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %v213 = tosa.reshape %v208, %v212 : (tensor<256x64xf32>, !tosa.shape<3>) -> tensor<1x256x64xf32>
  %v214 = tosa.matmul %v211, %v213, %v1, %v1 : (tensor<1x64x256xf32>, tensor<1x256x64xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x64x64xf32>
  %v215 = tosa.const_shape {values = dense<[64, 64]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %v216 = tosa.reshape %v214, %v215 : (tensor<1x64x64xf32>, !tosa.shape<2>) -> tensor<64x64xf32>
  %v217 = tosa.reduce_sum %v208 {axis = 0 : i32} : (tensor<256x64xf32>) -> tensor<1x64xf32>
  %v218 = tosa.transpose %w3 {perms = array<i32: 1, 0>} : (tensor<64x64xf32>) -> tensor<64x64xf32>
  %v219 = tosa.const_shape {values = dense<[1, 256, 64]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %v220 = tosa.reshape %v208, %v219 : (tensor<256x64xf32>, !tosa.shape<3>) -> tensor<1x256x64xf32>
  %v221 = tosa.const_shape {values = dense<[1, 64, 64]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %v222 = tosa.reshape %v218, %v221 : (tensor<64x64xf32>, !tosa.shape<3>) -> tensor<1x64x64xf32>
  %v223 = tosa.matmul %v220, %v222, %v1, %v1 : (tensor<1x256x64xf32>, tensor<1x64x64xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x256x64xf32>
  %v224 = tosa.const_shape {values = dense<[256, 64]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %v225 = tosa.reshape %v223, %v224 : (tensor<1x256x64xf32>, !tosa.shape<2>) -> tensor<256x64xf32>
  %v226 = tosa.greater %v28, %v2 : (tensor<256x64xf32>, tensor<1x1xf32>) -> tensor<256x64xi1>
  %v227 = tosa.select %v226, %v225, %v2 : (tensor<256x64xi1>, tensor<256x64xf32>, tensor<1x1xf32>) -> tensor<256x64xf32>
  %v228 = tosa.transpose %v20 {perms = array<i32: 1, 0>} : (tensor<256x64xf32>) -> tensor<64x256xf32>
  %v229 = tosa.const_shape {values = dense<[1, 64, 256]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %v230 = tosa.reshape %v228, %v229 : (tensor<64x256xf32>, !tosa.shape<3>) -> tensor<1x64x256xf32>
  %v231 = tosa.const_shape {values = dense<[1, 256, 64]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %v232 = tosa.reshape %v227, %v231 : (tensor<256x64xf32>, !tosa.shape<3>) -> tensor<1x256x64xf32>
  %v233 = tosa.matmul %v230, %v232, %v1, %v1 : (tensor<1x64x256xf32>, tensor<1x256x64xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x64x64xf32>
  %v234 = tosa.const_shape {values = dense<[64, 64]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %v235 = tosa.reshape %v233, %v234 : (tensor<1x64x64xf32>, !tosa.shape<2>) -> tensor<64x64xf32>
  %v236 = tosa.reduce_sum %v227 {axis = 0 : i32} : (tensor<256x64xf32>) -> tensor<1x64xf32>
  %v237 = tosa.transpose %w2 {perms = array<i32: 1, 0>} : (tensor<64x64xf32>) -> tensor<64x64xf32>
  %v238 = tosa.const_shape {values = dense<[1, 256, 64]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %v239 = tosa.reshape %v227, %v238 : (tensor<256x64xf32>, !tosa.shape<3>) -> tensor<1x256x64xf32>
  %v240 = tosa.const_shape {values = dense<[1, 64, 64]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %v241 = tosa.reshape %v237, %v240 : (tensor<64x64xf32>, !tosa.shape<3>) -> tensor<1x64x64xf32>
  %v242 = tosa.matmul %v239, %v241, %v1, %v1 : (tensor<1x256x64xf32>, tensor<1x64x64xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x256x64xf32>
  %v243 = tosa.const_shape {values = dense<[256, 64]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %v244 = tosa.reshape %v242, %v243 : (tensor<1x256x64xf32>, !tosa.shape<2>) -> tensor<256x64xf32>
  %v245 = tosa.greater %v19, %v2 : (tensor<256x64xf32>, tensor<1x1xf32>) -> tensor<256x64xi1>
  %v246 = tosa.select %v245, %v244, %v2 : (tensor<256x64xi1>, tensor<256x64xf32>, tensor<1x1xf32>) -> tensor<256x64xf32>
  %v247 = tosa.transpose %v11 {perms = array<i32: 1, 0>} : (tensor<256x64xf32>) -> tensor<64x256xf32>
  %v248 = tosa.const_shape {values = dense<[1, 64, 256]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %v249 = tosa.reshape %v247, %v248 : (tensor<64x256xf32>, !tosa.shape<3>) -> tensor<1x64x256xf32>
  %v250 = tosa.const_shape {values = dense<[1, 256, 64]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %v251 = tosa.reshape %v246, %v250 : (tensor<256x64xf32>, !tosa.shape<3>) -> tensor<1x256x64xf32>
  %v252 = tosa.matmul %v249, %v251, %v1, %v1 : (tensor<1x64x256xf32>, tensor<1x256x64xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x64x64xf32>
  %v253 = tosa.const_shape {values = dense<[64, 64]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %v254 = tosa.reshape %v252, %v253 : (tensor<1x64x64xf32>, !tosa.shape<2>) -> tensor<64x64xf32>
  %v255 = tosa.reduce_sum %v246 {axis = 0 : i32} : (tensor<256x64xf32>) -> tensor<1x64xf32>
  %v256 = tosa.transpose %w1 {perms = array<i32: 1, 0>} : (tensor<64x64xf32>) -> tensor<64x64xf32>
  %v257 = tosa.const_shape {values = dense<[1, 256, 64]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %v258 = tosa.reshape %v246, %v257 : (tensor<256x64xf32>, !tosa.shape<3>) -> tensor<1x256x64xf32>
  %v259 = tosa.const_shape {values = dense<[1, 64, 64]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %v260 = tosa.reshape %v256, %v259 : (tensor<64x64xf32>, !tosa.shape<3>) -> tensor<1x64x64xf32>
  %v261 = tosa.matmul %v258, %v260, %v1, %v1 : (tensor<1x256x64xf32>, tensor<1x64x64xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x256x64xf32>
  %v262 = tosa.const_shape {values = dense<[256, 64]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %v263 = tosa.reshape %v261, %v262 : (tensor<1x256x64xf32>, !tosa.shape<2>) -> tensor<256x64xf32>
  %v264 = tosa.greater %v10, %v2 : (tensor<256x64xf32>, tensor<1x1xf32>) -> tensor<256x64xi1>
  %v265 = tosa.select %v264, %v263, %v2 : (tensor<256x64xi1>, tensor<256x64xf32>, tensor<1x1xf32>) -> tensor<256x64xf32>
  %v266 = tosa.transpose %x {perms = array<i32: 1, 0>} : (tensor<256x64xf32>) -> tensor<64x256xf32>
  %v267 = tosa.const_shape {values = dense<[1, 64, 256]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %v268 = tosa.reshape %v266, %v267 : (tensor<64x256xf32>, !tosa.shape<3>) -> tensor<1x64x256xf32>
  %v269 = tosa.const_shape {values = dense<[1, 256, 64]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %v270 = tosa.reshape %v265, %v269 : (tensor<256x64xf32>, !tosa.shape<3>) -> tensor<1x256x64xf32>
  %v271 = tosa.matmul %v268, %v270, %v1, %v1 : (tensor<1x64x256xf32>, tensor<1x256x64xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x64x64xf32>
  %v272 = tosa.const_shape {values = dense<[64, 64]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %v273 = tosa.reshape %v271, %v272 : (tensor<1x64x64xf32>, !tosa.shape<2>) -> tensor<64x64xf32>
  %v274 = tosa.reduce_sum %v265 {axis = 0 : i32} : (tensor<256x64xf32>) -> tensor<1x64xf32>
  remat.return %v273, %v274, %v254, %v255, %v235, %v236, %v216, %v217, %v197, %v198, %v178, %v179, %v159, %v160, %v140, %v141, %v121, %v122, %v102, %v103 : tensor<64x64xf32>, tensor<1x64xf32>, tensor<64x64xf32>, tensor<1x64xf32>, tensor<64x64xf32>, tensor<1x64xf32>, tensor<64x64xf32>, tensor<1x64xf32>, tensor<64x64xf32>, tensor<1x64xf32>, tensor<64x64xf32>, tensor<1x64xf32>, tensor<64x64xf32>, tensor<1x64xf32>, tensor<64x64xf32>, tensor<1x64xf32>, tensor<64x64xf32>, tensor<1x64xf32>, tensor<64x64xf32>, tensor<1x64xf32>
}
