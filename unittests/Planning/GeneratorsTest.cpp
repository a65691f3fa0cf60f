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

} // namespace
