//===- ProgramBuilderTest.cpp - The memory model of parsed IR -------------===//
//
// buildProgram on small functions: buffer sizes, views and in-place results
// as aliases, constants, outputs, the backward marker, policies, flattened
// remat.recompute regions and the diagnostics for what cannot be sized.
//
//===----------------------------------------------------------------------===//

#include "remat/Analysis/ProgramBuilder.h"
#include "remat/InitRemat.h"
#include "remat/Planning/MemoryProfile.h"
#include "remat/Tosa/LinalgLowering.h"

#include "mlir/Dialect/Bufferization/IR/BufferizableOpInterface.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Interfaces/DestinationStyleOpInterface.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"

#include "gtest/gtest.h"

using namespace mlir;
using namespace remat;

namespace {

class ProgramBuilderTest : public ::testing::Test {
protected:
  ProgramBuilderTest() {
    DialectRegistry registry;
    registerRematDialects(registry);
    registerUpstreamDialects(registry);
    context.appendDialectRegistry(registry);
  }

  /// Parses `source` and builds the Program of its last function (earlier
  /// ones may be declarations it calls). Diagnostics go to `diagnostics`.
  FailureOr<GraphProgram> build(StringRef source) {
    ScopedDiagnosticHandler handler(&context, [&](Diagnostic &diag) {
      diagnostics += diag.str() + "\n";
      return success();
    });
    module = parseSourceString<ModuleOp>(source, &context);
    if (!module) {
      ADD_FAILURE() << "cannot parse:\n" << source.str() << diagnostics;
      return failure();
    }
    FunctionOpInterface function;
    module->walk([&](FunctionOpInterface fn) { function = fn; });
    return buildProgram(function);
  }

  /// The id of the value that the op `name` (the i-th of that name) defines
  /// as its result `result`.
  static ValueId resultOf(const GraphProgram &graph, StringRef name,
                          unsigned nth = 0, unsigned result = 0) {
    for (Operation *op : graph.ops)
      if (op->getName().getStringRef() == name && nth-- == 0)
        return graph.valueIds.lookup(op->getResult(result));
    ADD_FAILURE() << "no such op: " << name.str();
    return kNone;
  }

  static OpId opIndex(const GraphProgram &graph, StringRef name) {
    for (auto [id, op] : llvm::enumerate(graph.ops))
      if (op->getName().getStringRef() == name)
        return id;
    ADD_FAILURE() << "no such op: " << name.str();
    return kNone;
  }

  MLIRContext context;
  OwningOpRef<ModuleOp> module;
  std::string diagnostics;
};

TEST_F(ProgramBuilderTest, BytesFollowElementTypeAndShape) {
  FailureOr<GraphProgram> graph = build(R"mlir(
    func.func @f(%a: tensor<3x5xf32>, %b: tensor<3x5xf16>, %c: tensor<9xi1>,
                 %d: tensor<3xindex>, %e: tensor<2xcomplex<f32>>, %s: f32,
                 %z: tensor<0x4xf32>) {
      return
    })mlir");
  ASSERT_TRUE(succeeded(graph)) << diagnostics;
  const Program &program = graph->program;
  ASSERT_EQ(program.inputs.size(), 7u);
  auto bytes = [&](unsigned arg) {
    return program.values[program.inputs[arg]].bytes;
  };
  EXPECT_EQ(bytes(0), 60u);
  EXPECT_EQ(bytes(1), 30u);
  // Each element takes whole bytes, as memrefs are laid out: an i1 is one.
  EXPECT_EQ(bytes(2), 9u);
  // Index elements are 64 bits.
  EXPECT_EQ(bytes(3), 24u);
  EXPECT_EQ(bytes(4), 16u);
  // Scalars live in registers.
  EXPECT_EQ(bytes(5), 0u);
  EXPECT_EQ(bytes(6), 0u);
}

TEST_F(ProgramBuilderTest, ResultBytesAndCostsAreRecorded) {
  FailureOr<GraphProgram> graph = build(R"mlir(
    func.func @f(%x: tensor<4x8xf32>) -> tensor<4x1xf32> {
      %t = tosa.tanh %x : (tensor<4x8xf32>) -> tensor<4x8xf32>
      %s = tosa.reduce_sum %t {axis = 1 : i32} : (tensor<4x8xf32>) -> tensor<4x1xf32>
      return %s : tensor<4x1xf32>
    })mlir");
  ASSERT_TRUE(succeeded(graph)) << diagnostics;
  const Program &program = graph->program;
  ASSERT_EQ(program.ops.size(), 2u);
  EXPECT_EQ(program.ops[0].name, "tosa.tanh");
  EXPECT_EQ(program.ops[0].flops, 32u);
  EXPECT_TRUE(program.ops[0].recomputable);
  EXPECT_EQ(program.values[resultOf(*graph, "tosa.tanh")].bytes, 128u);
  EXPECT_EQ(program.values[resultOf(*graph, "tosa.reduce_sum")].bytes, 16u);
  EXPECT_EQ(program.ops[1].operands,
            llvm::SmallVector<ValueId>{resultOf(*graph, "tosa.tanh")});
  EXPECT_EQ(program.backwardBegin, kNone);
}

TEST_F(ProgramBuilderTest, ViewsAliasTheirRootAndKeepItAlive) {
  // Every view is used once, after the op that uses the root last, so the
  // root's buffer must stay live until the view's use.
  FailureOr<GraphProgram> graph = build(R"mlir(
    func.func @f(%x: tensor<4x8xf32>) -> (tensor<4x8xf32>, tensor<32xf32>, tensor<8x4xf32>, tensor<2x8xf32>) {
      %t = tosa.tanh %x : (tensor<4x8xf32>) -> tensor<4x8xf32>
      %c = tensor.collapse_shape %t [[0, 1]] : tensor<4x8xf32> into tensor<32xf32>
      %shape = tosa.const_shape {values = dense<[8, 4]> : tensor<2xindex>} : () -> !tosa.shape<2>
      %r = tosa.reshape %t, %shape : (tensor<4x8xf32>, !tosa.shape<2>) -> tensor<8x4xf32>
      %s = tensor.extract_slice %t[0, 0] [2, 8] [1, 1] : tensor<4x8xf32> to tensor<2x8xf32>
      %u = tosa.exp %x : (tensor<4x8xf32>) -> tensor<4x8xf32>
      %c2 = tosa.exp %c : (tensor<32xf32>) -> tensor<32xf32>
      %r2 = tosa.exp %r : (tensor<8x4xf32>) -> tensor<8x4xf32>
      %s2 = tosa.exp %s : (tensor<2x8xf32>) -> tensor<2x8xf32>
      return %u, %c2, %r2, %s2 : tensor<4x8xf32>, tensor<32xf32>, tensor<8x4xf32>, tensor<2x8xf32>
    })mlir");
  ASSERT_TRUE(succeeded(graph)) << diagnostics;
  const Program &program = graph->program;
  ValueId root = resultOf(*graph, "tosa.tanh");
  for (StringRef view :
       {"tensor.collapse_shape", "tosa.reshape", "tensor.extract_slice"}) {
    ValueId id = resultOf(*graph, view);
    EXPECT_EQ(program.values[id].aliasOf, root) << view.str();
    EXPECT_EQ(program.values[id].bytes, 0u) << view.str();
    EXPECT_EQ(program.rootOf(id), root) << view.str();
  }

  MemoryProfile profile = computeMemoryProfile(program, false);
  OpId lastViewUse = program.ops.size() - 1; // The exp of the slice.
  EXPECT_EQ(graph->ops[lastViewUse]->getName().getStringRef(), "tosa.exp");
  EXPECT_EQ(profile.ranges[root].begin, opIndex(*graph, "tosa.tanh"));
  EXPECT_EQ(profile.ranges[root].end, lastViewUse);
  // tanh (128) stays live next to the four exps' results (128, 128, 128, 64)
  // until the last exp runs.
  EXPECT_EQ(profile.liveBytes[lastViewUse], 128u * 4 + 64u);
  EXPECT_EQ(profile.peakBytes, 128u * 4 + 64u);
}

TEST_F(ProgramBuilderTest, TosaViewsAreViewsAfterTheLowering) {
  // TOSA has no bufferization models, so the memory model lists the TOSA
  // ops that are views. Each must still be one once convertToLinalg has
  // lowered it: the op defining each returned value then has exactly one
  // operand whose buffer One-Shot Bufferize's models say it reuses, and
  // that operand is the lowered tanh (through views only), never a write.
  FailureOr<GraphProgram> graph = build(R"mlir(
    func.func @f(%x: tensor<4x8xf32>) -> (tensor<8x4xf32>, tensor<2x8xf32>, tensor<4x8xf32>) {
      %t = tosa.tanh %x : (tensor<4x8xf32>) -> tensor<4x8xf32>
      %shape = tosa.const_shape {values = dense<[8, 4]> : tensor<2xindex>} : () -> !tosa.shape<2>
      %r = tosa.reshape %t, %shape : (tensor<4x8xf32>, !tosa.shape<2>) -> tensor<8x4xf32>
      %start = tosa.const_shape {values = dense<[1, 0]> : tensor<2xindex>} : () -> !tosa.shape<2>
      %size = tosa.const_shape {values = dense<[2, 8]> : tensor<2xindex>} : () -> !tosa.shape<2>
      %s = tosa.slice %t, %start, %size : (tensor<4x8xf32>, !tosa.shape<2>, !tosa.shape<2>) -> tensor<2x8xf32>
      %i = tosa.identity %t : (tensor<4x8xf32>) -> tensor<4x8xf32>
      return %r, %s, %i : tensor<8x4xf32>, tensor<2x8xf32>, tensor<4x8xf32>
    })mlir");
  ASSERT_TRUE(succeeded(graph)) << diagnostics;
  ValueId root = resultOf(*graph, "tosa.tanh");
  for (StringRef view : {"tosa.reshape", "tosa.slice", "tosa.identity"})
    EXPECT_EQ(graph->program.values[resultOf(*graph, view)].aliasOf, root)
        << view.str();

  auto function = cast<func::FuncOp>(graph->ops.front()->getParentOp());
  ASSERT_TRUE(succeeded(convertToLinalg(function)));
  bufferization::BufferizationOptions options;
  bufferization::AnalysisState state(options);
  Operation *ret = function.getBody().front().getTerminator();
  llvm::SmallVector<Value> sources;
  for (Value returned : ret->getOperands()) {
    Value source = returned;
    // Follow the lowered views back to the buffer they share.
    while (auto result = dyn_cast<OpResult>(source)) {
      auto bufferizable =
          dyn_cast<bufferization::BufferizableOpInterface>(result.getOwner());
      if (!bufferizable)
        break;
      bufferization::AliasingOpOperandList aliases =
          bufferizable.getAliasingOpOperands(result, state);
      if (aliases.getNumAliases() != 1 ||
          bufferizable.bufferizesToMemoryWrite(*aliases.getAliases()[0].opOperand,
                                               state))
        break;
      source = aliases.getAliases()[0].opOperand->get();
    }
    sources.push_back(source);
  }
  // All three lead to the lowered tanh, a linalg op writing a new buffer.
  ASSERT_EQ(sources.size(), 3u);
  Operation *tanh = sources[0].getDefiningOp();
  ASSERT_TRUE(tanh);
  EXPECT_TRUE(isa<DestinationStyleOpInterface>(tanh))
      << tanh->getName().getStringRef().str();
  EXPECT_EQ(sources[1], sources[0]);
  EXPECT_EQ(sources[2], sources[0]);
}

TEST_F(ProgramBuilderTest, DestinationStyleResultsAliasTheirInit) {
  FailureOr<GraphProgram> graph = build(R"mlir(
    func.func @f(%a: tensor<4x8xf32>, %b: tensor<8x16xf32>) -> tensor<4x16xf32> {
      %e = tensor.empty() : tensor<4x16xf32>
      %cst = arith.constant 0.0 : f32
      %z = linalg.fill ins(%cst : f32) outs(%e : tensor<4x16xf32>) -> tensor<4x16xf32>
      %m = linalg.matmul ins(%a, %b : tensor<4x8xf32>, tensor<8x16xf32>) outs(%z : tensor<4x16xf32>) -> tensor<4x16xf32>
      return %m : tensor<4x16xf32>
    })mlir");
  ASSERT_TRUE(succeeded(graph)) << diagnostics;
  const Program &program = graph->program;
  ValueId empty = resultOf(*graph, "tensor.empty");
  ValueId fill = resultOf(*graph, "linalg.fill");
  ValueId matmul = resultOf(*graph, "linalg.matmul");
  EXPECT_EQ(program.values[empty].bytes, 256u);
  EXPECT_EQ(program.values[fill].aliasOf, empty);
  EXPECT_EQ(program.values[matmul].aliasOf, fill);
  EXPECT_EQ(program.rootOf(matmul), empty);
  EXPECT_EQ(program.values[matmul].bytes, 0u);
  // One buffer for the whole chain, returned at the end.
  EXPECT_TRUE(program.values[matmul].isOutput);
  EXPECT_EQ(computeMemoryProfile(program, false).peakBytes, 256u);
}

TEST_F(ProgramBuilderTest, ConstantsTakeNoBytes) {
  FailureOr<GraphProgram> graph = build(R"mlir(
    func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
      %a = arith.constant dense<1.0> : tensor<4xf32>
      %t = "tosa.const"() <{values = dense<2.0> : tensor<4xf32>}> : () -> tensor<4xf32>
      %s = tosa.const_shape {values = dense<[4]> : tensor<1xindex>} : () -> !tosa.shape<1>
      %sum = tosa.add %a, %t : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
      return %sum : tensor<4xf32>
    })mlir");
  ASSERT_TRUE(succeeded(graph)) << diagnostics;
  const Program &program = graph->program;
  EXPECT_EQ(program.values[resultOf(*graph, "arith.constant")].bytes, 0u);
  EXPECT_EQ(program.values[resultOf(*graph, "tosa.const")].bytes, 0u);
  EXPECT_EQ(program.values[resultOf(*graph, "tosa.const_shape")].bytes, 0u);
  EXPECT_EQ(program.values[resultOf(*graph, "tosa.add")].bytes, 16u);
}

TEST_F(ProgramBuilderTest, ReturnedValuesAreOutputs) {
  FailureOr<GraphProgram> graph = build(R"mlir(
    remat.graph @g(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
      %a = tosa.tanh %x : (tensor<4xf32>) -> tensor<4xf32>
      %b = tosa.exp %a : (tensor<4xf32>) -> tensor<4xf32>
      %c = tosa.abs %b : (tensor<4xf32>) -> tensor<4xf32>
      remat.return %c, %x : tensor<4xf32>, tensor<4xf32>
    })mlir");
  ASSERT_TRUE(succeeded(graph)) << diagnostics;
  const Program &program = graph->program;
  EXPECT_FALSE(program.values[resultOf(*graph, "tosa.tanh")].isOutput);
  EXPECT_FALSE(program.values[resultOf(*graph, "tosa.exp")].isOutput);
  EXPECT_TRUE(program.values[resultOf(*graph, "tosa.abs")].isOutput);
  EXPECT_TRUE(program.values[program.inputs[0]].isOutput);
  MemoryProfile profile = computeMemoryProfile(program, false);
  EXPECT_EQ(profile.ranges[resultOf(*graph, "tosa.abs")].end,
            program.ops.size() - 1);
}

TEST_F(ProgramBuilderTest, BackwardMarkerStartsTheBackwardPass) {
  FailureOr<GraphProgram> graph = build(R"mlir(
    func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
      %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
      %a = tosa.tanh %x : (tensor<4xf32>) -> tensor<4xf32>
      %b = tosa.exp %a : (tensor<4xf32>) -> tensor<4xf32>
      remat.backward
      %c = tosa.mul %a, %b, %shift : (tensor<4xf32>, tensor<4xf32>, tensor<1xi8>) -> tensor<4xf32>
      return %c : tensor<4xf32>
    })mlir");
  ASSERT_TRUE(succeeded(graph)) << diagnostics;
  const Program &program = graph->program;
  OpId marker = opIndex(*graph, "remat.backward");
  EXPECT_EQ(program.backwardBegin, marker);
  // The scheduler must not move anything across it.
  EXPECT_TRUE(program.ops[marker].ordered);
  EXPECT_FALSE(program.ops[marker].recomputable);
  EXPECT_LT(opIndex(*graph, "tosa.exp"), program.backwardBegin);
  EXPECT_GT(opIndex(*graph, "tosa.mul"), program.backwardBegin);
}

TEST_F(ProgramBuilderTest, PolicyAndNeverAttributesBecomeConstraints) {
  FailureOr<GraphProgram> graph = build(R"mlir(
    func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
      %a = tosa.tanh %x {remat.save = false} : (tensor<4xf32>) -> tensor<4xf32>
      %b = tosa.exp %a {remat.save = true} : (tensor<4xf32>) -> tensor<4xf32>
      %c = tosa.abs %b {remat.never} : (tensor<4xf32>) -> tensor<4xf32>
      %m = memref.alloc() {remat.save = false} : memref<4xf32>
      return %c : tensor<4xf32>
    })mlir");
  ASSERT_TRUE(succeeded(graph)) << diagnostics;
  const Program &program = graph->program;
  const OpInfo &tanh = program.ops[opIndex(*graph, "tosa.tanh")];
  const OpInfo &exp = program.ops[opIndex(*graph, "tosa.exp")];
  const OpInfo &abs = program.ops[opIndex(*graph, "tosa.abs")];
  const OpInfo &alloc = program.ops[opIndex(*graph, "memref.alloc")];
  EXPECT_TRUE(tanh.mustRecompute);
  EXPECT_FALSE(exp.mustRecompute);
  EXPECT_TRUE(abs.mustKeep);
  EXPECT_FALSE(abs.recomputable);
  // A policy cannot make an op recomputable that is not.
  EXPECT_FALSE(alloc.recomputable);
  EXPECT_FALSE(alloc.mustRecompute);
  EXPECT_TRUE(alloc.ordered);
}

TEST_F(ProgramBuilderTest, DynamicShapesAreDiagnosed) {
  FailureOr<GraphProgram> graph = build(R"mlir(
    func.func @f(%x: tensor<4xf32>, %n: index) -> tensor<?xf32> {
      %e = tensor.empty(%n) : tensor<?xf32>
      return %e : tensor<?xf32>
    })mlir");
  EXPECT_TRUE(failed(graph));
  EXPECT_NE(diagnostics.find("static shapes"), std::string::npos)
      << diagnostics;
  EXPECT_NE(diagnostics.find("result #0"), std::string::npos) << diagnostics;

  diagnostics.clear();
  graph = build(R"mlir(
    func.func @f(%x: tensor<?x4xf32>) -> tensor<?x4xf32> {
      return %x : tensor<?x4xf32>
    })mlir");
  EXPECT_TRUE(failed(graph));
  EXPECT_NE(diagnostics.find("static shapes"), std::string::npos)
      << diagnostics;
  EXPECT_NE(diagnostics.find("argument #0"), std::string::npos) << diagnostics;
}

TEST_F(ProgramBuilderTest, NameTagsShareTheTaggedValue) {
  FailureOr<GraphProgram> graph = build(R"mlir(
    func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
      %a = tosa.tanh %x : (tensor<4xf32>) -> tensor<4xf32>
      %n = remat.name "act" %a : tensor<4xf32>
      %b = tosa.exp %n : (tensor<4xf32>) -> tensor<4xf32>
      return %b : tensor<4xf32>
    })mlir");
  ASSERT_TRUE(succeeded(graph)) << diagnostics;
  const Program &program = graph->program;
  ValueId tanh = resultOf(*graph, "tosa.tanh");
  // No new value, no view: the tag is the value under another name.
  EXPECT_EQ(program.values.size(), 3u);
  EXPECT_EQ(program.ops[opIndex(*graph, "tosa.exp")].operands,
            llvm::SmallVector<ValueId>{tanh});
  EXPECT_EQ(program.values[tanh].aliasOf, kNone);
  EXPECT_NE(program.values[tanh].name.find("\"act\""), std::string::npos)
      << program.values[tanh].name;
}

TEST_F(ProgramBuilderTest, RecomputeRegionsAreFlattened) {
  FailureOr<GraphProgram> graph = build(R"mlir(
    func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
      %a = tosa.tanh %x : (tensor<4xf32>) -> tensor<4xf32>
      %r = remat.recompute(%x) : (tensor<4xf32>) -> tensor<4xf32> {
      ^bb0(%arg: tensor<4xf32>):
        %e = tosa.exp %arg : (tensor<4xf32>) -> tensor<4xf32>
        %t = tosa.abs %e : (tensor<4xf32>) -> tensor<4xf32>
        remat.yield %t : tensor<4xf32>
      }
      %s = tosa.add %a, %r : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
      return %s : tensor<4xf32>
    })mlir");
  ASSERT_TRUE(succeeded(graph)) << diagnostics;
  EXPECT_TRUE(graph->hasRecomputes);
  const Program &program = graph->program;
  std::vector<std::string> names;
  for (const OpInfo &op : program.ops)
    names.push_back(op.name);
  // The region's ops are program ops in place of the remat.recompute.
  EXPECT_EQ(names, (std::vector<std::string>{"tosa.tanh", "tosa.exp",
                                             "tosa.abs", "tosa.add"}));
  // Block arguments are the operands, results the yielded values.
  EXPECT_EQ(program.ops[1].operands, llvm::SmallVector<ValueId>{program.inputs[0]});
  ValueId abs = resultOf(*graph, "tosa.abs");
  EXPECT_EQ(program.ops[3].operands,
            (llvm::SmallVector<ValueId>{resultOf(*graph, "tosa.tanh"), abs}));
  Value recomputed = graph->ops[3]->getOperand(1);
  EXPECT_EQ(graph->valueIds.lookup(recomputed), abs);
}

TEST_F(ProgramBuilderTest, ValuesCapturedByRegionsAreOperands) {
  // tensor.generate has no operands; it reads %t only from its body.
  FailureOr<GraphProgram> graph = build(R"mlir(
    func.func @f(%x: tensor<4x4xf32>) -> tensor<4xf32> {
      %t = tosa.tanh %x : (tensor<4x4xf32>) -> tensor<4x4xf32>
      %g = tensor.generate {
      ^bb0(%i: index):
        %v = tensor.extract %t[%i, %i] : tensor<4x4xf32>
        tensor.yield %v : f32
      } : tensor<4xf32>
      return %g : tensor<4xf32>
    })mlir");
  ASSERT_TRUE(succeeded(graph)) << diagnostics;
  const Program &program = graph->program;
  OpId generate = opIndex(*graph, "tensor.generate");
  ValueId tanh = resultOf(*graph, "tosa.tanh");
  EXPECT_EQ(program.ops[generate].operands, llvm::SmallVector<ValueId>{tanh});
  // Ops nested in other regions than remat.recompute are not program ops.
  EXPECT_EQ(program.ops.size(), 2u);
  MemoryProfile profile = computeMemoryProfile(program, false);
  EXPECT_EQ(profile.ranges[tanh].end, generate);
  EXPECT_EQ(profile.liveBytes[generate], 64u + 16u);
}

} // namespace
