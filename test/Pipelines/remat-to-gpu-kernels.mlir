// RUN: remat-opt %s --split-input-file --remat-to-gpu | FileCheck %s

// tosa.matmul becomes a zero fill and a linalg.batch_matmul. The fill runs
// 6,144 elements on 24 blocks of 256 threads; the product on 2 blocks of
// 16x16 threads (64x64 outputs each), whose PTX stages the operands in
// two shared buffers of 64x16 floats (4,096 bytes each), synchronizes
// twice per step of the reduction, and reads shared memory in its inner
// loop: 4 + 4 shared loads for 16 products. The tanh runs like the fill.
// CHECK-LABEL: llvm.func @step(
// CHECK-DAG: %[[C1:.+]] = llvm.mlir.constant(1 : index) : i64
// CHECK-DAG: %[[C2:.+]] = llvm.mlir.constant(2 : index) : i64
// CHECK-DAG: %[[C16:.+]] = llvm.mlir.constant(16 : index) : i64
// CHECK-DAG: %[[C24:.+]] = llvm.mlir.constant(24 : index) : i64
// CHECK-DAG: %[[C256:.+]] = llvm.mlir.constant(256 : index) : i64
// CHECK: gpu.launch_func @step_kernel::@step_kernel blocks in (%[[C24]], %[[C1]], %[[C1]]) threads in (%[[C256]], %[[C1]], %[[C1]])
// CHECK: gpu.launch_func @step_kernel_0::@step_kernel blocks in (%[[C2]], %[[C1]], %[[C1]]) threads in (%[[C16]], %[[C16]], %[[C1]])
// CHECK: gpu.launch_func @step_kernel_1::@step_kernel blocks in (%[[C24]], %[[C1]], %[[C1]]) threads in (%[[C256]], %[[C1]], %[[C1]])
// CHECK: gpu.binary @step_kernel_0
// CHECK-SAME: .shared .align 4 .b8 {{[_a-z0-9]+}}[4096];
// CHECK-SAME: .shared .align 4 .b8 {{[_a-z0-9]+}}[4096];
// CHECK-SAME: st.shared.b32
// CHECK-SAME: bar.sync
// CHECK-SAME: ld.shared.b32
// CHECK-SAME: mul.rn.f32
// CHECK-SAME: add.rn.f32
// CHECK-SAME: bar.sync
remat.graph @step(%a: tensor<1x64x128xf32>, %b: tensor<1x128x96xf32>) -> (tensor<1x64x96xf32>) {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %y = tosa.matmul %a, %b, %zp, %zp : (tensor<1x64x128xf32>, tensor<1x128x96xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x64x96xf32>
  %t = tosa.tanh %y : (tensor<1x64x96xf32>) -> tensor<1x64x96xf32>
  remat.return %t : tensor<1x64x96xf32>
}

// -----

// A padded 3x3 convolution: the bias broadcast runs on blocks of 256
// threads; the convolution, split by kernel tap, runs as one contraction
// kernel per span of taps (9 on an 8x8 input padded by 1: the corners, the
// edges and the middle each reach other outputs), each on blocks of 16x16
// threads staging the input and the tap's weights in shared memory, the
// host looping over the taps of a span.
// CHECK-LABEL: llvm.func @step(
// CHECK: gpu.launch_func @step_kernel::@step_kernel blocks in ({{.+}}) threads in (%[[C256:.+]], %[[ONE:.+]], %[[ONE]])
// CHECK-COUNT-9: threads in (%[[C16:.+]], %[[C16]], %[[ONE]])
// CHECK-NOT: gpu.launch_func
// CHECK: llvm.return
// CHECK-COUNT-9: bar.sync
remat.graph @step(%x: tensor<2x8x8x4xf32>, %w: tensor<16x3x3x4xf32>, %b: tensor<16xf32>) -> (tensor<2x8x8x16xf32>) {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %y = tosa.conv2d %x, %w, %b, %zp, %zp {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>} : (tensor<2x8x8x4xf32>, tensor<16x3x3x4xf32>, tensor<16xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x8x8x16xf32>
  remat.return %y : tensor<2x8x8x16xf32>
}
