//===- RandomGraphPipelineTest.cpp - The pipeline on random training steps ===//
//
// Seeded random training steps of the testing library (generateTrainingStep,
// with two-result ops, ops that cannot be recomputed, checkpoint policies
// and a backward part that reads forward residuals in reverse order),
// written as IR by its printer (writeGraphMlir: remat.abstract ops with
// `remat.never` and `remat.save` attributes, in a remat.graph or a
// func.func), run through remat-pipeline under random budgets. The
// rewritten IR must keep the promises of the report when analysed again
// from scratch, and the decisions must survive canonicalization and CSE.
// (The upstream dialects' ops, views and checkpoint regions are covered by
// the lit tests and the differential tests of scripts/random_step.py.)
//
//===----------------------------------------------------------------------===//

#include "remat/Analysis/ProgramBuilder.h"
#include "remat/Dialect/Remat/RematOps.h"
#include "remat/InitRemat.h"
#include "remat/Planning/MemoryProfile.h"
#include "remat/Planning/Testing/Generators.h"
#include "remat/Transforms/Passes.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"

#include "gtest/gtest.h"

#include <optional>
#include <random>
#include <set>

using namespace mlir;
using namespace remat;

namespace {

constexpr unsigned kNumSeeds = 200;

//===----------------------------------------------------------------------===//
// The steps
//===----------------------------------------------------------------------===//

/// A seeded random training step as IR, and whether a checkpoint policy in
/// it forces recomputations (those may raise the peak above the unplanned
/// one).
struct GeneratedStep {
  std::string source;
  bool hasNotSaveable = false;
};

/// The testing library's random training step (Generators.h), printed by
/// its IR printer as remat.abstract ops with their policies, in a
/// remat.graph or a func.func holding a remat.backward marker. Without what
/// remat.abstract cannot carry (views, in-place writes, scratch buffers).
/// Every value nothing reads is returned, so that no op is dead: any change
/// canonicalize or CSE make is a change to the planner's decisions (unique
/// labels keep CSE from merging alike ops).
GeneratedStep generateStep(unsigned seed, bool asGraph) {
  TrainingStepOptions options;
  options.seed = seed;
  options.viewChance = 0;
  options.scratchChance = 0;
  options.inPlaceChance = 0;
  options.destinationChance = 0;
  options.updateChance = 0;
  Program program = generateTrainingStep(options);
  std::vector<bool> read(program.values.size(), false);
  for (const OpInfo &op : program.ops)
    for (ValueId operand : op.operands)
      read[operand] = true;
  GeneratedStep step;
  for (ValueId v = 0; v < program.values.size(); ++v)
    if (!read[v] && program.values[v].def != kNone)
      program.markOutput(v);
  for (const OpInfo &op : program.ops)
    step.hasNotSaveable |= op.mustRecompute && op.canRecompute();
  GraphMlirOptions print;
  print.asFunction = !asGraph;
  print.policies = true;
  print.uniqueLabels = true;
  step.source = writeGraphMlir(program, "step", print);
  return step;
}

//===----------------------------------------------------------------------===//
// The fixture
//===----------------------------------------------------------------------===//

struct Report {
  /// Before recomputation, in the order kept.
  uint64_t peakBefore = 0;
  /// Before recomputation and reordering: the step as given.
  uint64_t peakGiven = 0;
  uint64_t peakAfter = 0;
  /// The placed arena after recomputation: what an arena budget bounds.
  uint64_t arenaAfter = 0;
  uint64_t extraFlops = 0;
  std::optional<uint64_t> budgetBytes;
  bool feasible = false;
  /// Which order remat-plan kept ("scheduled", "original"), or empty without
  /// reordering.
  std::string order;
};

class RandomGraphPipelineTest : public ::testing::Test {
protected:
  RandomGraphPipelineTest() {
    // Pipelines may only be registered once per process.
    static bool registered = [] {
      registerRematPasses();
      registerUpstreamPasses();
      return true;
    }();
    (void)registered;
    DialectRegistry registry;
    registerRematDialects(registry);
    registerUpstreamDialects(registry);
    context.appendDialectRegistry(registry);
    context.disableMultithreading();
    handler.emplace(&context, [this](Diagnostic &diag) {
      diagnostics += diag.str() + "\n";
      return success();
    });
    SmallString<128> path;
    EXPECT_FALSE(
        llvm::sys::fs::createTemporaryFile("remat-report", "json", path));
    reportPath = path.str().str();
  }

  ~RandomGraphPipelineTest() override { llvm::sys::fs::remove(reportPath); }

  OwningOpRef<ModuleOp> parse(const std::string &source) {
    diagnostics.clear();
    OwningOpRef<ModuleOp> module =
        parseSourceString<ModuleOp>(source, &context);
    EXPECT_TRUE(module) << diagnostics << source;
    return module;
  }

  static FunctionOpInterface step(ModuleOp module) {
    FunctionOpInterface function;
    module.walk([&](FunctionOpInterface fn) { function = fn; });
    return function;
  }

  /// The peak of the module's step, analysed from scratch.
  std::optional<uint64_t> peakOf(ModuleOp module, bool countInputs) {
    FailureOr<GraphProgram> graph = buildProgram(step(module));
    if (failed(graph)) {
      ADD_FAILURE() << "cannot analyse:\n" << diagnostics;
      return std::nullopt;
    }
    return computeMemoryProfile(graph->program, countInputs).peakBytes;
  }

  /// Runs the passes of `pipeline` (no `builtin.module(...)` around them) on
  /// `module`.
  LogicalResult run(ModuleOp module, StringRef pipeline) {
    PassManager pm(&context);
    std::string error;
    llvm::raw_string_ostream os(error);
    if (failed(parsePassPipeline(pipeline, pm, os))) {
      ADD_FAILURE() << "bad pipeline '" << pipeline.str() << "': " << error;
      return failure();
    }
    return pm.run(module);
  }

  LogicalResult run(ModuleOp module, const RematPipelineOptions &options) {
    PassManager pm(&context);
    buildRematPipeline(pm, options);
    return pm.run(module);
  }

  std::optional<Report> readReport() {
    llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> buffer =
        llvm::MemoryBuffer::getFile(reportPath);
    if (!buffer) {
      ADD_FAILURE() << "no report at " << reportPath;
      return std::nullopt;
    }
    llvm::Expected<llvm::json::Value> json =
        llvm::json::parse((*buffer)->getBuffer());
    if (!json) {
      ADD_FAILURE() << "bad report: " << llvm::toString(json.takeError());
      return std::nullopt;
    }
    const llvm::json::Array *graphs =
        json->getAsObject() ? json->getAsObject()->getArray("graphs") : nullptr;
    const llvm::json::Object *graph =
        graphs && graphs->size() == 1 ? (*graphs)[0].getAsObject() : nullptr;
    std::optional<int64_t> before =
        graph ? graph->getInteger("peak_before_bytes") : std::nullopt;
    std::optional<int64_t> after =
        graph ? graph->getInteger("peak_after_bytes") : std::nullopt;
    std::optional<bool> feasible =
        graph ? graph->getBoolean("feasible") : std::nullopt;
    std::optional<int64_t> extraFlops =
        graph ? graph->getInteger("extra_flops") : std::nullopt;
    if (!before || !after || !feasible || !extraFlops) {
      ADD_FAILURE() << "unexpected report:\n" << (*buffer)->getBuffer().str();
      return std::nullopt;
    }
    Report report;
    report.peakBefore = *before;
    report.peakAfter = *after;
    report.arenaAfter = graph->getInteger("arena_bytes").value_or(0);
    report.feasible = *feasible;
    report.extraFlops = *extraFlops;
    report.peakGiven = report.peakBefore;
    if (const llvm::json::Object *order = graph->getObject("order")) {
      report.order = order->getString("kept").value_or("").str();
      report.peakGiven =
          order->getInteger("given_peak_bytes").value_or(report.peakGiven);
    }
    if (std::optional<int64_t> budget = graph->getInteger("budget_bytes"))
      report.budgetBytes = *budget;
    return report;
  }

  static unsigned countRecomputes(ModuleOp module) {
    unsigned count = 0;
    module.walk([&](RecomputeOp) { ++count; });
    return count;
  }

  struct Outcome {
    Report report;
    /// The peak of the rewritten IR, analysed from scratch.
    uint64_t peak = 0;
    unsigned regions = 0;
  };

  /// Runs remat-pipeline with `budget` ("0.45", "min", or none: the policies
  /// alone) through the textual pipeline or the C++ builder, and checks the
  /// report against a fresh analysis of the result. std::nullopt after a
  /// failure.
  std::optional<Outcome> runAndCheck(ModuleOp module,
                                     std::optional<std::string> budget,
                                     bool countInputs, bool textual,
                                     bool schedule = true) {
    llvm::sys::fs::remove(reportPath);
    diagnostics.clear();
    LogicalResult result = failure();
    if (textual) {
      std::string options = llvm::formatv("best-effort=true count-inputs={0} "
                                          "schedule={1} report={2}",
                                          countInputs, schedule, reportPath);
      if (budget)
        options += " budget=" + *budget;
      result = run(module, "remat-pipeline{" + options + "}");
    } else {
      RematPipelineOptions options;
      options.budget = budget.value_or("");
      options.bestEffort = true;
      options.countInputs = countInputs;
      options.schedule = schedule;
      options.report = reportPath;
      result = run(module, options);
    }
    if (failed(result)) {
      ADD_FAILURE() << "remat-pipeline failed:\n" << diagnostics;
      return std::nullopt;
    }
    if (failed(verify(module))) {
      ADD_FAILURE() << "invalid IR after remat-pipeline:\n" << diagnostics;
      return std::nullopt;
    }
    std::optional<Report> report = readReport();
    std::optional<uint64_t> peak = peakOf(module, countInputs);
    if (!report || !peak)
      return std::nullopt;
    EXPECT_EQ(*peak, report->peakAfter);
    if (report->feasible) {
      EXPECT_TRUE(report->budgetBytes.has_value() || !budget);
      EXPECT_LE(*peak, report->budgetBytes.value_or(*peak));
    }
    if (::testing::Test::HasFailure())
      return std::nullopt;
    return Outcome{*report, *peak, countRecomputes(module)};
  }

  /// A budget that is a fraction in [0.30, 1.00] of the peak.
  static std::string fraction(std::mt19937 &rng) {
    return llvm::formatv("{0:F2}", (30 + rng() % 71) / 100.0).str();
  }

  MLIRContext context;
  std::optional<ScopedDiagnosticHandler> handler;
  std::string diagnostics;
  std::string reportPath;
};

//===----------------------------------------------------------------------===//
// The properties
//===----------------------------------------------------------------------===//

TEST_F(RandomGraphPipelineTest, ReportMatchesTheRewrittenIR) {
  std::mt19937 budgets(2024);
  unsigned runs = 0, rematerialized = 0;
  for (unsigned seed = 0; seed < kNumSeeds; ++seed) {
    GeneratedStep generator = generateStep(seed, seed % 2 == 0);
    const std::string &source = generator.source;
    bool countInputs = seed % 3 == 0;
    SCOPED_TRACE(llvm::formatv("seed {0}, count-inputs {1}\n{2}", seed,
                               countInputs, source)
                     .str());

    // Without a budget only the policies act. Their recomputations may raise
    // the peak; a budget may then only lower it.
    OwningOpRef<ModuleOp> module = parse(source);
    ASSERT_TRUE(module);
    std::optional<Outcome> constrained =
        runAndCheck(*module, std::nullopt, countInputs, /*textual=*/true);
    ASSERT_TRUE(constrained.has_value()) << "without a budget";
    if (!generator.hasNotSaveable) {
      EXPECT_EQ(constrained->regions, 0u);
      EXPECT_EQ(constrained->peak, constrained->report.peakBefore);
    }

    // The textual pipeline and the C++ builder must be the same pipeline.
    for (std::string budget :
         {fraction(budgets),
          seed % 2 ? std::string("min") : fraction(budgets)}) {
      SCOPED_TRACE("budget " + budget);
      module = parse(source);
      ASSERT_TRUE(module);
      std::optional<Outcome> outcome =
          runAndCheck(*module, budget, countInputs, budget != "min");
      ASSERT_TRUE(outcome.has_value());
      EXPECT_EQ(outcome->report.peakGiven, constrained->report.peakGiven);
      // A fraction bounds the placed arena (budget-kind=arena), min the
      // live peak.
      if (budget == "min")
        EXPECT_LE(outcome->peak, constrained->peak);
      else
        EXPECT_LE(outcome->report.arenaAfter, constrained->report.arenaAfter);
      if (!generator.hasNotSaveable)
        EXPECT_LE(outcome->peak, outcome->report.peakBefore);
      ++runs;
      rematerialized += outcome->regions > constrained->regions;
    }
  }
  // The generator must exercise the planner, not only the trivial path.
  EXPECT_GT(rematerialized, runs / 4);
}

TEST_F(RandomGraphPipelineTest, DecisionsSurviveCanonicalizeAndCse) {
  std::mt19937 budgets(7);
  for (unsigned seed = 0; seed < kNumSeeds; ++seed) {
    std::string source = generateStep(seed, seed % 2 == 1).source;
    bool countInputs = seed % 4 == 0;
    std::string budget = seed % 5 == 0 ? "min" : fraction(budgets);
    SCOPED_TRACE(llvm::formatv("seed {0}, budget {1}, count-inputs {2}\n{3}",
                               seed, budget, countInputs, source)
                     .str());
    OwningOpRef<ModuleOp> module = parse(source);
    ASSERT_TRUE(module);
    std::optional<Outcome> planned =
        runAndCheck(*module, budget, countInputs, /*textual=*/true);
    ASSERT_TRUE(planned.has_value());
    // The generator writes no dead op, so one here is an original whose
    // every use went to a recomputed copy. Canonicalize erases it, and the
    // operands it kept alive may then no longer be live at the peak, making
    // the report's peak wrong.
    step(*module)->walk([](Operation *op) {
      // Constants are read-only globals: whether one is left unused changes
      // no peak.
      if (!isOpTriviallyDead(op) || op->hasTrait<OpTrait::ConstantLike>())
        return;
      std::string text;
      llvm::raw_string_ostream os(text);
      op->print(os, OpPrintingFlags().useLocalScope());
      ADD_FAILURE() << "remat-apply left a dead op: " << text;
    });

    ASSERT_TRUE(succeeded(run(*module, "canonicalize,cse"))) << diagnostics;
    ASSERT_TRUE(succeeded(verify(*module))) << diagnostics;
    EXPECT_EQ(countRecomputes(*module), planned->regions);
    EXPECT_EQ(peakOf(*module, countInputs), planned->peak);
    if (HasFailure())
      return;
  }
}

// Reordering is a choice the planner makes, not a step before it: with
// schedule (the default) the result is never worse, by the solvers' rule,
// than planning the order as given.
TEST_F(RandomGraphPipelineTest, ReorderingNeverPlansWorse) {
  std::mt19937 budgets(11);
  unsigned keptScheduled = 0, keptOriginal = 0;
  for (unsigned seed = 0; seed < kNumSeeds; ++seed) {
    std::string source = generateStep(seed, seed % 2 == 0).source;
    bool countInputs = seed % 3 == 2;
    std::string budget = seed % 4 == 0 ? "min" : fraction(budgets);
    SCOPED_TRACE(llvm::formatv("seed {0}, budget {1}, count-inputs {2}\n{3}",
                               seed, budget, countInputs, source)
                     .str());
    std::optional<Outcome> outcomes[2];
    for (bool schedule : {false, true}) {
      OwningOpRef<ModuleOp> module = parse(source);
      ASSERT_TRUE(module);
      outcomes[schedule] = runAndCheck(*module, budget, countInputs,
                                       /*textual=*/true, schedule);
      ASSERT_TRUE(outcomes[schedule].has_value());
    }
    const Report &given = outcomes[false]->report;
    const Report &chosen = outcomes[true]->report;
    // Both plans answer the same budget in bytes.
    EXPECT_EQ(chosen.peakGiven, given.peakBefore);
    if (budget != "min")
      EXPECT_EQ(chosen.budgetBytes, given.budgetBytes);
    // isBetterResult(given, chosen) must not hold; a budget (not min)
    // bounds the placed arena, so an infeasible one compares arenas.
    if (chosen.feasible != given.feasible)
      EXPECT_TRUE(chosen.feasible);
    else if (budget == "min" && chosen.peakAfter != given.peakAfter)
      EXPECT_LT(chosen.peakAfter, given.peakAfter);
    else if (!chosen.feasible && chosen.arenaAfter != given.arenaAfter)
      EXPECT_LT(chosen.arenaAfter, given.arenaAfter);
    else
      EXPECT_LE(chosen.extraFlops, given.extraFlops);
    if (HasFailure())
      return;
    keptScheduled += chosen.order == "scheduled";
    keptOriginal += chosen.order == "original";
  }
  EXPECT_GT(keptScheduled, 0u);
  EXPECT_GT(keptOriginal, 0u);
}

TEST_F(RandomGraphPipelineTest, ScheduleNeverRaisesThePeak) {
  unsigned improved = 0;
  for (unsigned seed = 0; seed < kNumSeeds; ++seed) {
    std::string source = generateStep(seed, seed % 2 == 0).source;
    bool countInputs = seed % 3 == 1;
    SCOPED_TRACE(llvm::formatv("seed {0}, count-inputs {1}\n{2}", seed,
                               countInputs, source)
                     .str());
    OwningOpRef<ModuleOp> module = parse(source);
    ASSERT_TRUE(module);
    // The memory model sees checkpoint bodies only once they are inlined.
    ASSERT_TRUE(succeeded(run(*module, "remat-inline-checkpoints")))
        << diagnostics;
    std::optional<uint64_t> before = peakOf(*module, countInputs);
    ASSERT_TRUE(succeeded(run(
        *module,
        llvm::formatv("remat-schedule{{count-inputs={0}}", countInputs).str())))
        << diagnostics;
    ASSERT_TRUE(succeeded(verify(*module))) << diagnostics;
    std::optional<uint64_t> after = peakOf(*module, countInputs);
    ASSERT_TRUE(before && after);
    EXPECT_LE(*after, *before);
    improved += *after < *before;
    if (HasFailure())
      return;
  }
  EXPECT_GT(improved, 0u);
}

} // namespace
