//===- CostModelTest.cpp - FLOPs and recomputability of IR ops ------------===//
//
// The cost model on parsed IR: every dialect's rule (docs/memory-model.md),
// the `remat.flops` override, dynamic shapes, and which ops the planner may
// execute twice.
//
//===----------------------------------------------------------------------===//

#include "remat/Analysis/CostModel.h"
#include "remat/Analysis/TimeModel.h"
#include "remat/InitRemat.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"

#include "gtest/gtest.h"

using namespace mlir;
using namespace remat;

namespace {

class CostModelTest : public ::testing::Test {
protected:
  CostModelTest() {
    DialectRegistry registry;
    registerRematDialects(registry);
    registerUpstreamDialects(registry);
    context.appendDialectRegistry(registry);
  }

  /// Parses `source` and returns the first op named `name` in it (the module
  /// stays alive in the fixture).
  Operation *parseAndFind(StringRef source, StringRef name) {
    module = parseSourceString<ModuleOp>(source, &context);
    if (!module)
      return nullptr;
    Operation *found = nullptr;
    module->walk([&](Operation *op) {
      if (op->getName().getStringRef() == name) {
        found = op;
        return WalkResult::interrupt();
      }
      return WalkResult::advance();
    });
    return found;
  }

  /// FLOPs of the first `name` op of `source`; fails the test if there is
  /// none.
  std::optional<uint64_t> flopsOf(StringRef source, StringRef name) {
    Operation *op = parseAndFind(source, name);
    EXPECT_NE(op, nullptr) << "no '" << name.str() << "' in:\n" << source.str();
    return op ? getFlops(op) : std::nullopt;
  }

  bool recomputable(StringRef source, StringRef name) {
    Operation *op = parseAndFind(source, name);
    EXPECT_NE(op, nullptr) << "no '" << name.str() << "' in:\n" << source.str();
    return op && isRecomputable(op);
  }

  MLIRContext context;
  OwningOpRef<ModuleOp> module;
};

//===----------------------------------------------------------------------===//
// tosa
//===----------------------------------------------------------------------===//

TEST_F(CostModelTest, TosaMatmulCountsTwoPerMultiplyAdd) {
  // [N,H,C] x [N,C,W] -> [N,H,W]: 2*N*H*W*C.
  const char *ir = R"mlir(
    func.func @f(%a: tensor<2x3x5xf32>, %b: tensor<2x5x7xf32>) -> tensor<2x3x7xf32> {
      %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
      %m = tosa.matmul %a, %b, %zp, %zp : (tensor<2x3x5xf32>, tensor<2x5x7xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x3x7xf32>
      return %m : tensor<2x3x7xf32>
    })mlir";
  EXPECT_EQ(flopsOf(ir, "tosa.matmul"), uint64_t(2 * 2 * 3 * 7 * 5));
}

TEST_F(CostModelTest, TosaConvolutionsCountTheirKernel) {
  const char *ir = R"mlir(
    func.func @f(%x: tensor<1x8x8x3xf32>, %w: tensor<4x3x3x3xf32>, %b: tensor<4xf32>,
                 %dw: tensor<3x3x3x2xf32>, %db: tensor<6xf32>) {
      %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
      %c = tosa.conv2d %x, %w, %b, %zp, %zp {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x8x8x3xf32>, tensor<4x3x3x3xf32>, tensor<4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x6x6x4xf32>
      %d = tosa.depthwise_conv2d %x, %dw, %db, %zp, %zp {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x8x8x3xf32>, tensor<3x3x3x2xf32>, tensor<6xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x6x6x6xf32>
      return
    })mlir";
  // conv2d: 2 * out * KH * KW * IC, weights [OC,KH,KW,IC].
  EXPECT_EQ(flopsOf(ir, "tosa.conv2d"), uint64_t(2 * (6 * 6 * 4) * 3 * 3 * 3));
  // depthwise: 2 * out * KH * KW, weights [KH,KW,C,M].
  EXPECT_EQ(flopsOf(ir, "tosa.depthwise_conv2d"),
            uint64_t(2 * (6 * 6 * 6) * 3 * 3));
}

TEST_F(CostModelTest, TosaPoolingCountsTheWindow) {
  const char *ir = R"mlir(
    func.func @f(%x: tensor<1x8x8x3xf32>) {
      %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
      %a = tosa.avg_pool2d %x, %zp, %zp {acc_type = f32, kernel = array<i64: 2, 3>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 2, 1>} : (tensor<1x8x8x3xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x4x6x3xf32>
      %m = tosa.max_pool2d %x {kernel = array<i64: 2, 2>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 2, 2>} : (tensor<1x8x8x3xf32>) -> tensor<1x4x4x3xf32>
      return
    })mlir";
  EXPECT_EQ(flopsOf(ir, "tosa.avg_pool2d"), uint64_t((4 * 6 * 3) * 2 * 3));
  EXPECT_EQ(flopsOf(ir, "tosa.max_pool2d"), uint64_t((4 * 4 * 3) * 2 * 2));
}

TEST_F(CostModelTest, TosaReductionsCountTheirInput) {
  const char *ir = R"mlir(
    func.func @f(%x: tensor<4x8xf32>) {
      %s = tosa.reduce_sum %x {axis = 1 : i32} : (tensor<4x8xf32>) -> tensor<4x1xf32>
      %m = tosa.reduce_max %x {axis = 0 : i32} : (tensor<4x8xf32>) -> tensor<1x8xf32>
      return
    })mlir";
  EXPECT_EQ(flopsOf(ir, "tosa.reduce_sum"), 32u);
  EXPECT_EQ(flopsOf(ir, "tosa.reduce_max"), 32u);
}

TEST_F(CostModelTest, TosaViewsAndConstantsAreFree) {
  const char *ir = R"mlir(
    func.func @f(%x: tensor<4x8xf32>) -> tensor<8x4xf32> {
      %c = "tosa.const"() <{values = dense<1.0> : tensor<4x8xf32>}> : () -> tensor<4x8xf32>
      %s = tosa.const_shape {values = dense<[8, 4]> : tensor<2xindex>} : () -> !tosa.shape<2>
      %r = tosa.reshape %x, %s : (tensor<4x8xf32>, !tosa.shape<2>) -> tensor<8x4xf32>
      return %r : tensor<8x4xf32>
    })mlir";
  EXPECT_EQ(flopsOf(ir, "tosa.const"), 0u);
  EXPECT_EQ(flopsOf(ir, "tosa.const_shape"), 0u);
  EXPECT_EQ(flopsOf(ir, "tosa.reshape"), 0u);
}

TEST_F(CostModelTest, TosaElementwiseCountsResultElements) {
  // The broadcast operand does not matter: one operation per result element.
  const char *ir = R"mlir(
    func.func @f(%x: tensor<4x8xf32>, %y: tensor<1x8xf32>) {
      %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
      %t = tosa.tanh %x : (tensor<4x8xf32>) -> tensor<4x8xf32>
      %a = tosa.add %x, %y : (tensor<4x8xf32>, tensor<1x8xf32>) -> tensor<4x8xf32>
      %m = tosa.mul %x, %y, %shift : (tensor<4x8xf32>, tensor<1x8xf32>, tensor<1xi8>) -> tensor<4x8xf32>
      return
    })mlir";
  EXPECT_EQ(flopsOf(ir, "tosa.tanh"), 32u);
  EXPECT_EQ(flopsOf(ir, "tosa.add"), 32u);
  EXPECT_EQ(flopsOf(ir, "tosa.mul"), 32u);
}

//===----------------------------------------------------------------------===//
// linalg
//===----------------------------------------------------------------------===//

TEST_F(CostModelTest, LinalgMatmulIsTwoMNK) {
  const char *ir = R"mlir(
    func.func @f(%a: tensor<4x8xf32>, %b: tensor<8x16xf32>, %c: tensor<4x16xf32>) -> tensor<4x16xf32> {
      %m = linalg.matmul ins(%a, %b : tensor<4x8xf32>, tensor<8x16xf32>) outs(%c : tensor<4x16xf32>) -> tensor<4x16xf32>
      return %m : tensor<4x16xf32>
    })mlir";
  EXPECT_EQ(flopsOf(ir, "linalg.matmul"), uint64_t(2 * 4 * 16 * 8));
}

TEST_F(CostModelTest, EstimatesSaturateInsteadOfWrapping) {
  // 2*M*N*K = 2 * 2^63 wraps to 0 in 64 bits: a free op to recompute.
  const char *linalg = R"mlir(
    func.func @f(%a: tensor<2097152x2097152xf32>, %b: tensor<2097152x2097152xf32>, %c: tensor<2097152x2097152xf32>) -> tensor<2097152x2097152xf32> {
      %m = linalg.matmul ins(%a, %b : tensor<2097152x2097152xf32>, tensor<2097152x2097152xf32>) outs(%c : tensor<2097152x2097152xf32>) -> tensor<2097152x2097152xf32>
      return %m : tensor<2097152x2097152xf32>
    })mlir";
  EXPECT_EQ(flopsOf(linalg, "linalg.matmul"), UINT64_MAX);
  const char *tosa = R"mlir(
    func.func @f(%a: tensor<1x2097152x2097152xf32>, %b: tensor<1x2097152x2097152xf32>) -> tensor<1x2097152x2097152xf32> {
      %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
      %m = tosa.matmul %a, %b, %zp, %zp : (tensor<1x2097152x2097152xf32>, tensor<1x2097152x2097152xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x2097152x2097152xf32>
      return %m : tensor<1x2097152x2097152xf32>
    })mlir";
  EXPECT_EQ(flopsOf(tosa, "tosa.matmul"), UINT64_MAX);
}

TEST_F(CostModelTest, LinalgGenericIsDomainTimesBodyOps) {
  // A 4x8x3 domain (a reduction over the last loop) with three body ops.
  const char *ir = R"mlir(
    func.func @f(%a: tensor<4x8x3xf32>, %init: tensor<4x8xf32>) -> tensor<4x8xf32> {
      %g = linalg.generic {indexing_maps = [affine_map<(i, j, k) -> (i, j, k)>, affine_map<(i, j, k) -> (i, j)>],
                           iterator_types = ["parallel", "parallel", "reduction"]}
          ins(%a : tensor<4x8x3xf32>) outs(%init : tensor<4x8xf32>) {
      ^bb0(%in: f32, %acc: f32):
        %m = arith.mulf %in, %in : f32
        %e = math.exp %m : f32
        %s = arith.addf %e, %acc : f32
        linalg.yield %s : f32
      } -> tensor<4x8xf32>
      return %g : tensor<4x8xf32>
    })mlir";
  EXPECT_EQ(flopsOf(ir, "linalg.generic"), uint64_t(4 * 8 * 3 * 3));
}

TEST_F(CostModelTest, LinalgFillCountsOneWritePerElement) {
  const char *ir = R"mlir(
    func.func @f(%init: tensor<4x8xf32>) -> tensor<4x8xf32> {
      %cst = arith.constant 1.0 : f32
      %f = linalg.fill ins(%cst : f32) outs(%init : tensor<4x8xf32>) -> tensor<4x8xf32>
      return %f : tensor<4x8xf32>
    })mlir";
  EXPECT_EQ(flopsOf(ir, "linalg.fill"), 32u);
}

//===----------------------------------------------------------------------===//
// arith, tensor, remat
//===----------------------------------------------------------------------===//

TEST_F(CostModelTest, ArithCountsElementsOnTensorsAndOneOnScalars) {
  const char *ir = R"mlir(
    func.func @f(%x: tensor<4x8xf32>, %s: f32) -> (tensor<4x8xf32>, f32) {
      %c = arith.constant dense<2.0> : tensor<4x8xf32>
      %t = arith.mulf %x, %c : tensor<4x8xf32>
      %u = arith.addf %s, %s : f32
      return %t, %u : tensor<4x8xf32>, f32
    })mlir";
  EXPECT_EQ(flopsOf(ir, "arith.mulf"), 32u);
  EXPECT_EQ(flopsOf(ir, "arith.addf"), 1u);
  EXPECT_EQ(flopsOf(ir, "arith.constant"), 0u);
}

TEST_F(CostModelTest, TensorViewsAreFreeAndWritesCountElementsWritten) {
  const char *ir = R"mlir(
    func.func @f(%x: tensor<4x8xf32>, %y: tensor<2x8xf32>) {
      %s = tensor.extract_slice %x[0, 0] [2, 8] [1, 1] : tensor<4x8xf32> to tensor<2x8xf32>
      %c = tensor.collapse_shape %x [[0, 1]] : tensor<4x8xf32> into tensor<32xf32>
      %e = tensor.expand_shape %c [[0, 1]] output_shape [8, 4] : tensor<32xf32> into tensor<8x4xf32>
      %cat = tensor.concat dim(0) %x, %y : (tensor<4x8xf32>, tensor<2x8xf32>) -> tensor<6x8xf32>
      %ins = tensor.insert_slice %y into %x[1, 0] [2, 8] [1, 1] : tensor<2x8xf32> into tensor<4x8xf32>
      return
    })mlir";
  EXPECT_EQ(flopsOf(ir, "tensor.extract_slice"), 0u);
  EXPECT_EQ(flopsOf(ir, "tensor.collapse_shape"), 0u);
  EXPECT_EQ(flopsOf(ir, "tensor.expand_shape"), 0u);
  EXPECT_EQ(flopsOf(ir, "tensor.concat"), 48u);
  // Only the inserted elements are written, not the whole destination.
  EXPECT_EQ(flopsOf(ir, "tensor.insert_slice"), 16u);
}

TEST_F(CostModelTest, AbstractOpCostsItsDeclaredFlops) {
  const char *ir = R"mlir(
    remat.graph @g(%x: tensor<64xi8>) -> tensor<256xi8> {
      %a = remat.abstract "conv1" flops(1200) (%x) : (tensor<64xi8>) -> tensor<256xi8>
      remat.return %a : tensor<256xi8>
    })mlir";
  EXPECT_EQ(flopsOf(ir, "remat.abstract"), 1200u);
}

TEST_F(CostModelTest, FlopsAttributeOverridesEveryModel) {
  const char *ir = R"mlir(
    func.func @f(%a: tensor<4x8xf32>, %b: tensor<8x16xf32>, %c: tensor<4x16xf32>) -> tensor<4x16xf32> {
      %m = linalg.matmul {remat.flops = 7 : i64} ins(%a, %b : tensor<4x8xf32>, tensor<8x16xf32>) outs(%c : tensor<4x16xf32>) -> tensor<4x16xf32>
      %t = tosa.tanh %m {remat.flops = 0 : i64} : (tensor<4x16xf32>) -> tensor<4x16xf32>
      return %t : tensor<4x16xf32>
    })mlir";
  EXPECT_EQ(flopsOf(ir, "linalg.matmul"), 7u);
  EXPECT_EQ(flopsOf(ir, "tosa.tanh"), 0u);
}

TEST_F(CostModelTest, FlopsAttributeReachesTwoToTheSixtyFourMinusOne) {
  const char *ir = R"mlir(
    func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> {
      %t = tosa.tanh %a {remat.flops = 18446744073709551615 : ui64} : (tensor<4xf32>) -> tensor<4xf32>
      return %t : tensor<4xf32>
    })mlir";
  EXPECT_EQ(flopsOf(ir, "tosa.tanh"), UINT64_MAX);
}

TEST_F(CostModelTest, DynamicShapesHaveNoCost) {
  const char *ir = R"mlir(
    func.func @f(%x: tensor<?x8xf32>, %a: tensor<?x8xf32>, %b: tensor<8x16xf32>,
                 %c: tensor<?x16xf32>, %z: tensor<?x3x5xf32>, %w: tensor<?x5x7xf32>) {
      %t = tosa.tanh %x : (tensor<?x8xf32>) -> tensor<?x8xf32>
      %m = linalg.matmul ins(%a, %b : tensor<?x8xf32>, tensor<8x16xf32>) outs(%c : tensor<?x16xf32>) -> tensor<?x16xf32>
      %e = arith.negf %x : tensor<?x8xf32>
      %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
      %mm = tosa.matmul %z, %w, %zp, %zp : (tensor<?x3x5xf32>, tensor<?x5x7xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<?x3x7xf32>
      return
    })mlir";
  EXPECT_EQ(flopsOf(ir, "tosa.tanh"), std::nullopt);
  EXPECT_EQ(flopsOf(ir, "linalg.matmul"), std::nullopt);
  EXPECT_EQ(flopsOf(ir, "arith.negf"), std::nullopt);
  EXPECT_EQ(flopsOf(ir, "tosa.matmul"), std::nullopt);
}

//===----------------------------------------------------------------------===//
// isRecomputable
//===----------------------------------------------------------------------===//

TEST_F(CostModelTest, PureOpsAreRecomputable) {
  const char *ir = R"mlir(
    func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
      %t = tosa.tanh %x : (tensor<4xf32>) -> tensor<4xf32>
      return %t : tensor<4xf32>
    })mlir";
  EXPECT_TRUE(recomputable(ir, "tosa.tanh"));
}

TEST_F(CostModelTest, NeverAttributeForbidsRecomputation) {
  const char *ir = R"mlir(
    func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
      %t = tosa.tanh %x {remat.never} : (tensor<4xf32>) -> tensor<4xf32>
      return %t : tensor<4xf32>
    })mlir";
  EXPECT_FALSE(recomputable(ir, "tosa.tanh"));
}

TEST_F(CostModelTest, CallsAreNotRecomputable) {
  // Even a call to a pure function: the planner does not look through it.
  const char *ir = R"mlir(
    func.func private @pure(tensor<4xf32>) -> tensor<4xf32>
    func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
      %r = func.call @pure(%x) : (tensor<4xf32>) -> tensor<4xf32>
      return %r : tensor<4xf32>
    })mlir";
  EXPECT_FALSE(recomputable(ir, "func.call"));
}

TEST_F(CostModelTest, SideEffectsAreNotRecomputable) {
  const char *ir = R"mlir(
    func.func @f(%v: f32) {
      %m = memref.alloc() : memref<4xf32>
      %i = arith.constant 0 : index
      memref.store %v, %m[%i] : memref<4xf32>
      return
    })mlir";
  EXPECT_FALSE(recomputable(ir, "memref.alloc"));
  EXPECT_FALSE(recomputable(ir, "memref.store"));
}

TEST_F(CostModelTest, ConstantsWithoutBuffersAreNotRecomputable) {
  // Keeping them costs no bytes, and their readers (a reshape's shape, an
  // index) need the constant op itself, not a copy out of a region.
  const char *ir = R"mlir(
    func.func @f(%x: tensor<4xf32>) -> tensor<2x2xf32> {
      %i = arith.constant 0 : index
      %s = tosa.const_shape {values = dense<[2, 2]> : tensor<2xindex>} : () -> !tosa.shape<2>
      %c = "tosa.const"() <{values = dense<1.0> : tensor<4xf32>}> : () -> tensor<4xf32>
      %a = tosa.add %x, %c : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
      %r = tosa.reshape %a, %s : (tensor<4xf32>, !tosa.shape<2>) -> tensor<2x2xf32>
      return %r : tensor<2x2xf32>
    })mlir";
  EXPECT_FALSE(recomputable(ir, "arith.constant"));
  EXPECT_FALSE(recomputable(ir, "tosa.const_shape"));
  EXPECT_TRUE(recomputable(ir, "tosa.const"));
}

TEST_F(CostModelTest, StructuralRematOpsAreNotRecomputable) {
  const char *ir = R"mlir(
    func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
      %b = remat.barrier %x : tensor<4xf32>
      remat.backward
      return %b : tensor<4xf32>
    })mlir";
  EXPECT_FALSE(recomputable(ir, "remat.barrier"));
  EXPECT_FALSE(recomputable(ir, "remat.backward"));
}

// The time model's view of IR ops (TimeModel.h): kind of kernel, bytes
// moved, and how much of its vector tiles a convolution fills.
TEST_F(CostModelTest, TimeModelKindsBytesAndVectorFill) {
  const char *source = R"mlir(
    func.func @f(%x: tensor<1x8x8x3xf32>, %w: tensor<32x3x3x3xf32>,
                 %b: tensor<32xf32>, %m: tensor<1x4x8xf32>,
                 %n: tensor<1x8x16xf32>, %y: tensor<1x8x8x32xf32>,
                 %v: tensor<32x3x3x32xf32>)
        -> (tensor<1x8x8x32xf32>, tensor<1x4x16xf32>, tensor<1x8x8x32xf32>,
            tensor<1x8x8x32xf32>, tensor<1x8x8x32xf32>) {
      %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
      %c = tosa.conv2d %x, %w, %b, %zp, %zp {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>} : (tensor<1x8x8x3xf32>, tensor<32x3x3x3xf32>, tensor<32xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x8x8x32xf32>
      %mm = tosa.matmul %m, %n, %zp, %zp : (tensor<1x4x8xf32>, tensor<1x8x16xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x4x16xf32>
      %p = tosa.max_pool2d %y {kernel = array<i64: 3, 3>, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>} : (tensor<1x8x8x32xf32>) -> tensor<1x8x8x32xf32>
      %a = tosa.add %y, %y : (tensor<1x8x8x32xf32>, tensor<1x8x8x32xf32>) -> tensor<1x8x8x32xf32>
      %wide = tosa.conv2d %y, %v, %b, %zp, %zp {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>} : (tensor<1x8x8x32xf32>, tensor<32x3x3x32xf32>, tensor<32xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x8x8x32xf32>
      return %c, %mm, %p, %a, %wide : tensor<1x8x8x32xf32>, tensor<1x4x16xf32>, tensor<1x8x8x32xf32>, tensor<1x8x8x32xf32>, tensor<1x8x8x32xf32>
    }
  )mlir";
  module = parseSourceString<ModuleOp>(source, &context);
  ASSERT_TRUE(module);
  SmallVector<Operation *> ops;
  module->walk([&](Operation *op) {
    if (!isa<func::FuncOp, func::ReturnOp, ModuleOp>(op) &&
        op->getName().getStringRef() != "tosa.const")
      ops.push_back(op);
  });
  ASSERT_EQ(ops.size(), 5u);
  Operation *narrow = ops[0], *product = ops[1], *pool = ops[2],
            *add = ops[3], *wide = ops[4];
  EXPECT_EQ(kernelKindOf(narrow), KernelKind::Convolution);
  EXPECT_EQ(kernelKindOf(product), KernelKind::MatrixProduct);
  EXPECT_EQ(kernelKindOf(pool), KernelKind::Window);
  EXPECT_EQ(kernelKindOf(add), KernelKind::Streaming);
  // Operands and results: 3 x 8x8x32 floats; the matrix product's 4x8,
  // 8x16, the two 1-element zero points and 4x16.
  EXPECT_EQ(bytesMoved(add), 3u * 8 * 8 * 32 * 4);
  EXPECT_EQ(bytesMoved(product), (32u + 128 + 1 + 1 + 64) * 4);
  // From 3 input channels: 3 of 16 lanes; from 32: full; not a
  // convolution: 1.
  EXPECT_DOUBLE_EQ(vectorFill(narrow), 3.0 / 16);
  EXPECT_DOUBLE_EQ(vectorFill(wide), 1.0);
  EXPECT_DOUBLE_EQ(vectorFill(product), 1.0);
}

} // namespace
