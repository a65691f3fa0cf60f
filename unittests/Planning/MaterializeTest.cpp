//===- MaterializeTest.cpp - Tests for materialize and verifyPlan ---------===//

#include "remat/Planning/MemoryProfile.h"
#include "remat/Planning/Plan.h"

#include "gtest/gtest.h"

using namespace remat;

namespace {

ValueId result(const Program &program, OpId op, unsigned i = 0) {
  return program.ops[op].results[i];
}

/// x -> a = f(x) -> b = g(a) -> c = h(b) -> d = k(a, c) (output).
/// Values: x=0, a=1, b=2, c=3, d=4.
Program makeChain() {
  Program program;
  ValueId x = program.addInput(0, "x");
  ValueId a = result(program, program.addOp({x}, {100}, 7, true, "f"));
  ValueId b = result(program, program.addOp({a}, {10}, 1, true, "g"));
  ValueId c = result(program, program.addOp({b}, {10}, 1, true, "h"));
  ValueId d = result(program, program.addOp({a, c}, {10}, 1, true, "k"));
  program.markOutput(d);
  return program;
}

TEST(MaterializeTest, EmptyPlanIsTheIdentity) {
  Program program = makeChain();
  MaterializeMap map;
  Program result = materialize(program, Plan(), map);
  ASSERT_EQ(result.ops.size(), program.ops.size());
  ASSERT_EQ(result.values.size(), program.values.size());
  for (OpId op = 0; op < program.ops.size(); ++op) {
    EXPECT_EQ(result.ops[op].operands, program.ops[op].operands);
    EXPECT_EQ(result.ops[op].origin, op);
    EXPECT_EQ(map.opIndex[op], op);
    EXPECT_FALSE(map.isCopy[op]);
  }
  EXPECT_EQ(computeMemoryProfile(result, false).liveBytes,
            computeMemoryProfile(program, false).liveBytes);
}

TEST(MaterializeTest, RecomputeOneValue) {
  Program program = makeChain();
  Plan plan;
  plan.recomputes.push_back({/*value=*/1, /*before=*/3, /*chain=*/{0}});
  ASSERT_EQ(verifyPlan(program, plan), "");

  MaterializeMap map;
  Program result = materialize(program, plan, map);
  ASSERT_EQ(result.ops.size(), 5u);
  ASSERT_EQ(result.values.size(), 6u);
  // f, g, h, f', k.
  EXPECT_EQ(result.ops[3].origin, 0u);
  EXPECT_EQ(result.ops[3].name, "f");
  EXPECT_EQ(result.ops[3].operands, llvm::SmallVector<ValueId>{0});
  EXPECT_EQ(map.isCopy, (std::vector<bool>{false, false, false, true, false}));
  EXPECT_EQ(map.opIndex, (std::vector<OpId>{0, 1, 2, 4}));
  EXPECT_EQ(map.copies, std::vector<ValueId>{5});

  const ValueInfo &copy = result.values[5];
  EXPECT_EQ(copy.origin, 1u);
  EXPECT_EQ(copy.def, 3u);
  EXPECT_EQ(copy.bytes, 100u);
  EXPECT_EQ(copy.name, program.values[1].name);
  EXPECT_EQ(result.ops[4].operands, (llvm::SmallVector<ValueId>{5, 3}));
  // Original values keep their ids; their defs follow their ops.
  EXPECT_EQ(result.values[4].def, 4u);
  EXPECT_TRUE(result.values[4].isOutput);

  // a now dies at g; its copy lives from f' to k.
  MemoryProfile profile = computeMemoryProfile(result, false);
  EXPECT_EQ(profile.ranges[1].end, 1u);
  EXPECT_EQ(profile.liveBytes, (std::vector<uint64_t>{100, 110, 20, 110, 120}));
}

TEST(MaterializeTest, ChainIntermediatesAreTransient) {
  // Recompute b = g(f(x)) before k2, which reads b late.
  Program program;
  ValueId x = program.addInput(0);
  ValueId a = result(program, program.addOp({x}, {100}, 1, true));
  ValueId b = result(program, program.addOp({a}, {10}, 1, true));
  ValueId c = result(program, program.addOp({b}, {10}, 1, true));
  OpId late = program.addOp({b, c}, {10}, 1, true);
  program.markOutput(result(program, late));

  Plan plan;
  plan.recomputes.push_back({b, late, {0, 1}});
  ASSERT_EQ(verifyPlan(program, plan), "");
  Program result = materialize(program, plan);
  ASSERT_EQ(result.ops.size(), 6u);
  ValueId aCopy = result.ops[3].results[0];
  ValueId bCopy = result.ops[4].results[0];
  EXPECT_EQ(result.ops[4].operands, llvm::SmallVector<ValueId>{aCopy});
  EXPECT_EQ(result.ops[5].operands, (llvm::SmallVector<ValueId>{bCopy, c}));
  MemoryProfile profile = computeMemoryProfile(result, false);
  // a' dies at the chain op that reads it.
  EXPECT_EQ(profile.ranges[aCopy].end, 4u);
  EXPECT_EQ(profile.liveBytes,
            (std::vector<uint64_t>{100, 110, 20, 110, 120, 30}));
}

TEST(MaterializeTest, LaterGroupsReadTheCurrentVersion) {
  // a = f(x); b = g(a); u1 = h(a, b); u2 = k(b); u3 = m(a, b, u2).
  Program program;
  ValueId x = program.addInput(0);
  ValueId a = result(program, program.addOp({x}, {50}, 1, true));
  ValueId b = result(program, program.addOp({a}, {50}, 1, true));
  OpId u1 = program.addOp({a, b}, {1}, 1, true);
  OpId u2 = program.addOp({b}, {1}, 1, true);
  OpId u3 = program.addOp({a, b, result(program, u2)}, {1}, 1, true);
  program.markOutput(result(program, u1));
  program.markOutput(result(program, u3));

  Plan plan;
  // a recomputed before u1; then b recomputed from the copy of a before u2;
  // two groups before u3 in plan order.
  plan.recomputes.push_back({a, u1, {0}});
  plan.recomputes.push_back({b, u2, {1}});
  plan.recomputes.push_back({a, u3, {0}});
  plan.recomputes.push_back({b, u3, {1}});
  ASSERT_EQ(verifyPlan(program, plan), "");
  MaterializeMap map;
  Program result = materialize(program, plan, map);
  // f g [f'] h [g'] k [f''] [g''] m
  ASSERT_EQ(result.ops.size(), 9u);
  ValueId a1 = map.copies[0], b1 = map.copies[1], a2 = map.copies[2],
          b2 = map.copies[3];
  EXPECT_EQ(result.ops[2].results, llvm::SmallVector<ValueId>{a1});
  EXPECT_EQ(result.ops[3].operands, (llvm::SmallVector<ValueId>{a1, b}));
  EXPECT_EQ(result.ops[4].operands, llvm::SmallVector<ValueId>{a1});
  EXPECT_EQ(result.ops[5].operands, llvm::SmallVector<ValueId>{b1});
  EXPECT_EQ(result.ops[6].results, llvm::SmallVector<ValueId>{a2});
  // The second group before u3 reads the copy the first one made.
  EXPECT_EQ(result.ops[7].operands, llvm::SmallVector<ValueId>{a2});
  EXPECT_EQ(result.ops[7].results, llvm::SmallVector<ValueId>{b2});
  EXPECT_EQ(result.ops[8].operands,
            (llvm::SmallVector<ValueId>{a2, b2, result.ops[5].results[0]}));
  EXPECT_EQ(map.opIndex, (std::vector<OpId>{0, 1, 3, 5, 8}));
}

TEST(MaterializeTest, RecomputedOutputsAreReturnedFromTheCopy) {
  Program program;
  ValueId x = program.addInput(0);
  ValueId a = result(program, program.addOp({x}, {10}, 1, true));
  OpId use = program.addOp({a}, {10}, 1, true);
  program.markOutput(a);
  program.markOutput(result(program, use));

  Plan plan;
  plan.recomputes.push_back({a, use, {0}});
  Program result = materialize(program, plan);
  ValueId copy = result.ops[1].results[0];
  EXPECT_FALSE(result.values[a].isOutput);
  EXPECT_TRUE(result.values[copy].isOutput);
}

TEST(MaterializeTest, GroupsInFrontOfTheBoundaryAreBackward) {
  Program program = makeChain();
  program.backwardBegin = 3;
  Plan plan;
  plan.recomputes.push_back({1, 3, {0}});
  Program result = materialize(program, plan);
  EXPECT_EQ(result.backwardBegin, 3u);
  EXPECT_EQ(result.ops[result.backwardBegin].origin, 0u);

  Program later = makeChain();
  later.backwardBegin = 2;
  EXPECT_EQ(materialize(later, plan).backwardBegin, 2u);
}

TEST(MaterializeTest, CopiedViewsAliasTheCurrentBuffer) {
  // r = alloc; v = view(r); s = f(v); late = k(v, s).
  Program program;
  ValueId x = program.addInput(0);
  ValueId r = result(program, program.addOp({x}, {64}, 1, true));
  ValueId v = result(program, program.addOp({r}, {0}, 0, true));
  program.setAlias(v, r);
  ValueId s = result(program, program.addOp({v}, {8}, 1, true));
  OpId late = program.addOp({v, s}, {8}, 1, true);
  program.markOutput(result(program, late));

  Plan plan;
  plan.recomputes.push_back({v, late, {0, 1}});
  ASSERT_EQ(verifyPlan(program, plan), "");
  Program result = materialize(program, plan);
  ValueId rCopy = result.ops[3].results[0];
  ValueId vCopy = result.ops[4].results[0];
  EXPECT_EQ(result.values[vCopy].aliasOf, rCopy);
  EXPECT_EQ(result.rootOf(vCopy), rCopy);
  MemoryProfile profile = computeMemoryProfile(result, false);
  EXPECT_EQ(profile.ranges[r].end, 2u);
  EXPECT_EQ(profile.ranges[rCopy].end, 5u);
}

TEST(MaterializeTest, OriginalViewsFollowTheCurrentBuffer) {
  // a = f(x); u = g(a); w = view(a) late: the view is taken of a's copy.
  Program program;
  ValueId x = program.addInput(0);
  ValueId a = result(program, program.addOp({x}, {64}, 1, true));
  program.addOp({a}, {8}, 1, true);
  OpId viewOp = program.addOp({a}, {0}, 0, true);
  ValueId w = result(program, viewOp);
  program.setAlias(w, a);
  program.markOutput(w);

  Plan plan;
  plan.recomputes.push_back({a, viewOp, {0}});
  Program result = materialize(program, plan);
  ValueId copy = result.ops[2].results[0];
  EXPECT_EQ(result.values[w].aliasOf, copy);
  MemoryProfile profile = computeMemoryProfile(result, false);
  EXPECT_EQ(profile.ranges[a].end, 1u);
  EXPECT_EQ(profile.ranges[copy].end, 3u);
}

TEST(VerifyPlanTest, AcceptsTheEmptyPlan) {
  EXPECT_EQ(verifyPlan(makeChain(), Plan()), "");
}

TEST(VerifyPlanTest, RejectsMalformedRecomputations) {
  Program program = makeChain();
  auto check = [&](Recompute recompute) {
    Plan plan;
    plan.recomputes.push_back(std::move(recompute));
    return verifyPlan(program, plan);
  };
  EXPECT_NE(check({0, 3, {0}}), "");       // input
  EXPECT_NE(check({1, 3, {}}), "");        // empty chain
  EXPECT_NE(check({1, 3, {1}}), "");       // chain ends elsewhere
  EXPECT_NE(check({1, 0, {0}}), "");       // before the definition
  EXPECT_EQ(check({1, 2, {0}}), "");       // h does not read a; k does
  EXPECT_NE(check({2, 3, {1}}), "");       // nothing reads the copy of b
  EXPECT_NE(check({3, 3, {1, 0, 2}}), ""); // out of order
  EXPECT_NE(check({3, 3, {1, 1, 2}}), ""); // duplicate
  EXPECT_NE(check({9, 3, {0}}), "");       // no such value
  EXPECT_NE(check({1, 9, {0}}), "");       // no such op
  EXPECT_EQ(check({3, 3, {1, 2}}), "");
  EXPECT_NE(check({3, 3, {0, 2}}), ""); // f feeds nothing in the chain

  program.ops[0].recomputable = false;
  EXPECT_NE(check({1, 3, {0}}), "");
  program.ops[0].recomputable = true;
  program.ops[0].mustKeep = true;
  EXPECT_NE(check({1, 3, {0}}), "");
}

TEST(VerifyPlanTest, ACopyMayServeALaterChainOnly) {
  // k does not read b, but the recomputation of c after it does.
  Program program = makeChain();
  Plan plan;
  plan.recomputes.push_back({2, 3, {1}});
  plan.recomputes.push_back({3, 3, {2}});
  EXPECT_EQ(verifyPlan(program, plan), "");

  // Not when the chain comes first.
  std::swap(plan.recomputes[0], plan.recomputes[1]);
  EXPECT_NE(verifyPlan(program, plan), "");
}

TEST(VerifyPlanTest, NamesTheFaultyRecomputation) {
  Program program = makeChain();
  Plan plan;
  plan.recomputes.push_back({1, 3, {0}});
  plan.recomputes.push_back({1, 2, {0}});
  EXPECT_EQ(verifyPlan(program, plan).rfind("recompute #1: ", 0), 0u);
}

} // namespace
