//===- GeneratorsTest.cpp - Synthetic graphs are valid and seeded ---------===//

#include "remat/Planning/Testing/Generators.h"
#include "remat/Planning/MemoryProfile.h"

#include "gtest/gtest.h"

using namespace remat;

namespace {

void checkWellFormed(const Program &program) {
  ASSERT_NE(program.backwardBegin, kNone);
  for (OpId op = 0; op < program.ops.size(); ++op)
    for (ValueId operand : program.ops[op].operands) {
      OpId def = program.values[operand].def;
      EXPECT_TRUE(def == kNone || def < op);
    }
  bool anyOutput = false;
  for (const ValueInfo &v : program.values)
    anyOutput |= v.isOutput;
  EXPECT_TRUE(anyOutput);
}

TEST(GeneratorsTest, RandomDagsAreSeeded) {
  RandomDagOptions options;
  options.seed = 7;
  Program a = generateRandomDag(options);
  Program b = generateRandomDag(options);
  checkWellFormed(a);
  EXPECT_EQ(writeGraphJson(a), writeGraphJson(b));
  options.seed = 8;
  EXPECT_NE(writeGraphJson(a), writeGraphJson(generateRandomDag(options)));
}

TEST(GeneratorsTest, ModelFamiliesScale) {
  for (const char *name : {"mlp", "transformer", "resnet", "unet"}) {
    SCOPED_TRACE(name);
    ModelFamily family;
    ASSERT_TRUE(parseModelFamily(name, family));
    ModelOptions small, large;
    small.layers = 2;
    large.layers = 8;
    Program a = generateModel(family, small);
    Program b = generateModel(family, large);
    checkWellFormed(a);
    checkWellFormed(b);
    EXPECT_LT(a.ops.size(), b.ops.size());
    EXPECT_GT(computeMemoryProfile(b, false).peakBytes, 0u);
  }
  ModelFamily family;
  EXPECT_FALSE(parseModelFamily("lstm", family));
}

TEST(GeneratorsTest, MlirHasTheBoundary) {
  ModelOptions options;
  options.layers = 1;
  std::string text = writeGraphMlir(generateModel(ModelFamily::Mlp, options),
                                    "mlp");
  EXPECT_NE(text.find("remat.graph @mlp("), std::string::npos);
  EXPECT_NE(text.find("remat.backward"), std::string::npos);
  EXPECT_NE(text.find("remat.abstract \"matmul0\""), std::string::npos);
}

TEST(GeneratorsTest, MlirCarriesPoliciesInAFunction) {
  Program program;
  ValueId x = program.addInput(8, "x");
  OpId f = program.addOp({x}, {8}, 3, true, "f");
  program.ops[f].mustRecompute = true;
  OpId g = program.addOp({program.ops[f].results[0]}, {8}, 3, false, "g");
  program.backwardBegin = program.ops.size();
  OpId h = program.addOp({program.ops[g].results[0]}, {8}, 3, true, "f");
  program.markOutput(program.ops[h].results[0]);
  GraphMlirOptions options;
  options.asFunction = true;
  options.policies = true;
  options.uniqueLabels = true;
  std::string text = writeGraphMlir(program, "step", options);
  EXPECT_NE(text.find("func.func @step("), std::string::npos) << text;
  EXPECT_NE(text.find("\"f0\" flops(3) (%v0) {remat.save = false}"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("\"g1\" flops(3) (%v1) {remat.never}"), std::string::npos)
      << text;
  EXPECT_NE(text.find("\"f2\""), std::string::npos) << text;
  EXPECT_NE(text.find("  return %v3"), std::string::npos) << text;
}

TEST(GeneratorsTest, TrainingStepOptionsTurnFeaturesOff) {
  for (unsigned seed = 0; seed < 50; ++seed) {
    TrainingStepOptions options;
    options.seed = seed;
    options.viewChance = 0;
    options.inPlaceChance = 0;
    options.destinationChance = 0;
    options.updateChance = 0;
    options.mustRecomputeChance = 0;
    Program program = generateTrainingStep(options);
    for (const ValueInfo &value : program.values)
      EXPECT_EQ(value.aliasOf, kNone);
    for (const OpInfo &op : program.ops)
      EXPECT_FALSE(op.mustRecompute);
  }
}

} // namespace
