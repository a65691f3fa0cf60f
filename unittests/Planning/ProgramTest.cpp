//===- ProgramTest.cpp - Tests for the Program builders -------------------===//

#include "remat/Planning/Program.h"

#include "gtest/gtest.h"

using namespace remat;

namespace {

TEST(ProgramTest, InputsAndOpsGetSequentialIds) {
  Program program;
  ValueId x = program.addInput(16, "x");
  OpId op = program.addOp({x}, {32, 8}, 100, /*recomputable=*/true, "split");

  EXPECT_EQ(x, 0u);
  EXPECT_EQ(op, 0u);
  ASSERT_EQ(program.values.size(), 3u);
  EXPECT_EQ(program.inputs, std::vector<ValueId>{x});
  EXPECT_EQ(program.values[x].def, kNone);
  EXPECT_EQ(program.values[x].name, "x");

  const OpInfo &info = program.ops[op];
  EXPECT_EQ(info.operands, llvm::SmallVector<ValueId>{x});
  EXPECT_EQ(info.results, (llvm::SmallVector<ValueId>{1, 2}));
  EXPECT_EQ(info.flops, 100u);
  EXPECT_TRUE(info.recomputable);
  EXPECT_FALSE(info.mustRecompute);
  EXPECT_FALSE(info.mustKeep);
  EXPECT_FALSE(info.ordered);
  EXPECT_EQ(info.name, "split");
  EXPECT_EQ(program.values[1].bytes, 32u);
  EXPECT_EQ(program.values[2].bytes, 8u);
  EXPECT_EQ(program.values[2].def, op);
  EXPECT_EQ(program.backwardBegin, kNone);
}

TEST(ProgramTest, EverythingBuiltIsItsOwnOrigin) {
  Program program;
  ValueId x = program.addInput(4);
  program.addOp({x}, {4}, 1, true);
  program.addOp({x}, {4}, 1, false);
  for (ValueId v = 0; v < program.values.size(); ++v)
    EXPECT_EQ(program.values[v].origin, v);
  for (OpId op = 0; op < program.ops.size(); ++op)
    EXPECT_EQ(program.ops[op].origin, op);
}

TEST(ProgramTest, UnnamedValuesAreNamedAfterTheirId) {
  Program program;
  ValueId x = program.addInput(4);
  program.addOp({x}, {4}, 1, true);
  EXPECT_EQ(program.values[0].name, "%0");
  EXPECT_EQ(program.values[1].name, "%1");
}

TEST(ProgramTest, AliasesResolveToTheBufferOwner) {
  Program program;
  ValueId x = program.addInput(4);
  OpId alloc = program.addOp({x}, {64}, 1, true);
  ValueId buffer = program.ops[alloc].results[0];
  ValueId view = program.ops[program.addOp({buffer}, {64}, 0, true)].results[0];
  ValueId viewOfView =
      program.ops[program.addOp({view}, {64}, 0, true)].results[0];
  program.setAlias(view, buffer);
  program.setAlias(viewOfView, view);

  EXPECT_EQ(program.values[view].bytes, 0u);
  EXPECT_EQ(program.values[viewOfView].bytes, 0u);
  EXPECT_EQ(program.rootOf(viewOfView), buffer);
  EXPECT_EQ(program.rootOf(view), buffer);
  EXPECT_EQ(program.rootOf(buffer), buffer);
}

TEST(ProgramTest, MarkOutput) {
  Program program;
  ValueId x = program.addInput(4);
  ValueId y = program.ops[program.addOp({x}, {4}, 1, true)].results[0];
  program.markOutput(y);
  EXPECT_TRUE(program.values[y].isOutput);
  EXPECT_FALSE(program.values[x].isOutput);
}

} // namespace
