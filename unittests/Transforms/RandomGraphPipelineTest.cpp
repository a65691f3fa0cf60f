//===- RandomGraphPipelineTest.cpp - The pipeline on random training steps ===//
//
// Seeded random training steps written as IR text (tosa elementwise ops and
// reductions, views, name tags, barriers, remat.never ops and checkpoints with
// policies in a forward part, a
// remat.backward marker, a backward part that reads forward residuals in
// reverse order), run through remat-pipeline under random budgets. The
// rewritten IR must keep the promises of the report when analysed again from
// scratch, and the decisions must survive canonicalization and CSE.
//
// The generator writes no IR that canonicalize or CSE could simplify on its
// own (no dead values, no duplicate ops, no identity reshapes or reductions
// over size-1 axes), so that any change they make is a change to the
// planner's decisions.
//
//===----------------------------------------------------------------------===//

#include "remat/Analysis/ProgramBuilder.h"
#include "remat/Dialect/Remat/RematOps.h"
#include "remat/InitRemat.h"
#include "remat/Planning/MemoryProfile.h"
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
// The generator
//===----------------------------------------------------------------------===//

struct Shape {
  int64_t rows;
  int64_t cols;
};

std::string typeOf(Shape shape) {
  return llvm::formatv("tensor<{0}x{1}xf32>", shape.rows, shape.cols).str();
}

/// The tosa broadcast of two rank-2 shapes, if they are compatible.
std::optional<Shape> broadcast(Shape a, Shape b) {
  auto dim = [](int64_t x, int64_t y) -> std::optional<int64_t> {
    if (x == y || y == 1)
      return x;
    if (x == 1)
      return y;
    return std::nullopt;
  };
  std::optional<int64_t> rows = dim(a.rows, b.rows);
  std::optional<int64_t> cols = dim(a.cols, b.cols);
  if (!rows || !cols)
    return std::nullopt;
  return Shape{*rows, *cols};
}

class StepGenerator {
public:
  explicit StepGenerator(unsigned seed) : rng(seed) {}

  /// One training step in a module: a remat.graph, or a func.func holding a
  /// remat.backward marker.
  std::string generate(bool asGraph) {
    rows = pick<int64_t>({2, 4, 8, 16});
    cols = pick<int64_t>({2, 4, 8, 16});
    std::string args;
    unsigned numInputs = uniform(2, 4);
    for (unsigned i = 0; i < numInputs; ++i) {
      Shape shape = chance(25) ? Shape{1, cols} : Shape{rows, cols};
      unsigned id = addValue("%a" + std::to_string(i), shape);
      inputs.push_back(id);
      args += (i ? ", " : "") + values[id].name + ": " + typeOf(shape);
    }

    std::vector<unsigned> pool = inputs;
    unsigned numOps = uniform(4, 30);
    for (unsigned i = 0; i < numOps; ++i) {
      if (chance(10))
        emitCheckpoint(pool);
      else if (std::optional<unsigned> v = emitForwardOp(pool, pool, "  "))
        pool.push_back(*v);
    }
    unsigned loss = emitLoss(pool);
    body += "  remat.backward\n";
    std::vector<unsigned> backward = emitBackward(pool, loss);

    std::vector<unsigned> results = {loss};
    for (unsigned v : backward)
      if (v != loss && values[v].uses == 0)
        results.push_back(v);
    std::string names, types;
    for (auto [i, v] : llvm::enumerate(results)) {
      names += (i ? ", " : "") + values[v].name;
      types += (i ? ", " : "") + typeOf(values[v].shape);
    }

    std::string text = asGraph ? "remat.graph @step(" : "func.func @step(";
    text += args + ") -> (" + types + ") {\n";
    text += header + body;
    text += asGraph ? "  remat.return " : "  return ";
    text += names + " : " + types + "\n}\n";
    return text;
  }

  /// Whether a checkpoint policy forces recomputations: those may raise the
  /// peak above the unplanned one.
  bool hasNotSaveable() const { return notSaveable; }

private:
  struct GeneratedValue {
    std::string name;
    Shape shape;
    unsigned uses = 0;
    /// A tosa.reshape result: never reshaped again, as canonicalize would
    /// fold the pair.
    bool isReshape = false;
  };

  uint64_t uniform(uint64_t lo, uint64_t hi) {
    return lo + rng() % (hi - lo + 1);
  }
  bool chance(unsigned percent) { return uniform(1, 100) <= percent; }
  template <typename T>
  T pick(std::initializer_list<T> choices) {
    return choices.begin()[uniform(0, choices.size() - 1)];
  }

  unsigned addValue(std::string name, Shape shape) {
    values.push_back({std::move(name), shape});
    return values.size() - 1;
  }
  unsigned newValue(Shape shape) {
    return addValue("%v" + std::to_string(values.size()), shape);
  }

  /// Picks from `candidates`, preferring values nothing uses yet so that few
  /// forward values end up as leaves.
  std::optional<unsigned> pickOperand(const std::vector<unsigned> &candidates) {
    if (candidates.empty())
      return std::nullopt;
    std::vector<unsigned> unused;
    for (unsigned v : candidates)
      if (values[v].uses == 0)
        unused.push_back(v);
    const std::vector<unsigned> &from =
        !unused.empty() && chance(60) ? unused : candidates;
    return from[uniform(0, from.size() - 1)];
  }

  /// Records an op; fails if the same op on the same operands exists, which
  /// CSE would merge.
  bool claim(const std::string &key, std::initializer_list<unsigned> operands) {
    if (!emitted.insert(key).second)
      return false;
    for (unsigned v : operands)
      ++values[v].uses;
    return true;
  }

  /// Sometimes marked remat.never, which the planner must respect.
  std::optional<unsigned> emitUnary(unsigned a, const std::string &indent) {
    std::string op = pick<const char *>(
        {"tosa.tanh", "tosa.exp", "tosa.sigmoid", "tosa.abs"});
    if (!claim(op + values[a].name, {a}))
      return std::nullopt;
    Shape shape = values[a].shape;
    unsigned v = newValue(shape);
    body += llvm::formatv("{0}{1} = {2} {3}{4} : ({5}) -> {5}\n", indent,
                          values[v].name, op, values[a].name,
                          chance(5) ? " {remat.never}" : "", typeOf(shape));
    return v;
  }

  std::optional<unsigned> emitBinary(unsigned a, unsigned b,
                                     const std::string &indent) {
    std::optional<Shape> shape = broadcast(values[a].shape, values[b].shape);
    if (a == b || !shape)
      return std::nullopt;
    std::string op = pick<const char *>(
        {"tosa.add", "tosa.sub", "tosa.mul", "tosa.maximum"});
    if (!claim(op + values[a].name + "," + values[b].name, {a, b}))
      return std::nullopt;
    unsigned v = newValue(*shape);
    bool isMul = op == "tosa.mul";
    body += llvm::formatv("{0}{1} = {2} {3}, {4}{5} : ({6}, {7}{8}) -> {9}\n",
                          indent, values[v].name, op, values[a].name,
                          values[b].name, isMul ? ", %shift" : "",
                          typeOf(values[a].shape), typeOf(values[b].shape),
                          isMul ? ", tensor<1xi8>" : "", typeOf(*shape));
    return v;
  }

  std::optional<unsigned> emitReduce(unsigned a, const std::string &indent) {
    Shape from = values[a].shape;
    std::vector<int> axes;
    if (from.rows > 1)
      axes.push_back(0);
    if (from.cols > 1)
      axes.push_back(1);
    if (axes.empty())
      return std::nullopt;
    int axis = axes[uniform(0, axes.size() - 1)];
    std::string op = pick<const char *>({"tosa.reduce_sum", "tosa.reduce_max"});
    if (!claim(op + values[a].name + "/" + std::to_string(axis), {a}))
      return std::nullopt;
    Shape to = axis == 0 ? Shape{1, from.cols} : Shape{from.rows, 1};
    unsigned v = newValue(to);
    body += llvm::formatv("{0}{1} = {2} {3} {{axis = {4} : i32} : ({5}) -> "
                          "{6}\n",
                          indent, values[v].name, op, values[a].name, axis,
                          typeOf(from), typeOf(to));
    return v;
  }

  /// A view with the dimensions swapped (a reshape, not a transpose).
  std::optional<unsigned> emitReshape(unsigned a, const std::string &indent) {
    Shape from = values[a].shape;
    if (values[a].isReshape || from.rows == from.cols ||
        !claim("reshape" + values[a].name, {a}))
      return std::nullopt;
    Shape to{from.cols, from.rows};
    std::string shapeName =
        llvm::formatv("%shape_{0}x{1}", to.rows, to.cols).str();
    if (shapes.insert(shapeName).second)
      header += llvm::formatv("  {0} = tosa.const_shape {{values = "
                              "dense<[{1}, {2}]> : tensor<2xindex>} : () -> "
                              "!tosa.shape<2>\n",
                              shapeName, to.rows, to.cols);
    unsigned v = newValue(to);
    values[v].isReshape = true;
    body += llvm::formatv("{0}{1} = tosa.reshape {2}, {3} : ({4}, "
                          "!tosa.shape<2>) -> {5}\n",
                          indent, values[v].name, values[a].name, shapeName,
                          typeOf(from), typeOf(to));
    return v;
  }

  /// A view the planner cannot look through: ordered, not recomputable.
  std::optional<unsigned> emitBarrier(unsigned a, const std::string &indent) {
    claim("barrier" + std::to_string(values.size()), {a});
    unsigned v = newValue(values[a].shape);
    body +=
        llvm::formatv("{0}{1} = remat.barrier {2} : {3}\n", indent,
                      values[v].name, values[a].name, typeOf(values[a].shape));
    return v;
  }

  std::optional<unsigned> emitTag(unsigned a, const std::string &indent) {
    claim("tag" + std::to_string(values.size()), {a});
    unsigned v = newValue(values[a].shape);
    body += llvm::formatv("{0}{1} = remat.name \"t{2}\" {3} : {4}\n", indent,
                          values[v].name, v, values[a].name,
                          typeOf(values[a].shape));
    return v;
  }

  /// A random forward op whose first operand comes from `first` and whose
  /// second (for binary ops) from `pool`.
  std::optional<unsigned> emitForwardOp(const std::vector<unsigned> &first,
                                        const std::vector<unsigned> &pool,
                                        const std::string &indent) {
    std::optional<unsigned> a = pickOperand(first);
    if (!a)
      return std::nullopt;
    unsigned kind = uniform(1, 100);
    if (kind <= 35)
      return emitUnary(*a, indent);
    if (kind <= 75) {
      std::vector<unsigned> compatible;
      for (unsigned b : pool)
        if (b != *a && broadcast(values[*a].shape, values[b].shape))
          compatible.push_back(b);
      std::optional<unsigned> b = pickOperand(compatible);
      return b ? emitBinary(*a, *b, indent) : emitUnary(*a, indent);
    }
    if (kind <= 85)
      return emitReduce(*a, indent);
    if (kind <= 93)
      return emitReshape(*a, indent);
    if (kind <= 97)
      return emitTag(*a, indent);
    return emitBarrier(*a, indent);
  }

  /// A remat.checkpoint around a chain of ops: each inner value feeds the
  /// next, so none is dead once the body is inlined.
  void emitCheckpoint(std::vector<unsigned> &pool) {
    std::string saved = body;
    body.clear();
    std::optional<unsigned> last = emitForwardOp(pool, pool, "    ");
    if (!last) {
      body = saved;
      return;
    }
    unsigned numInner = uniform(0, 3);
    for (unsigned i = 0; i < numInner; ++i)
      if (std::optional<unsigned> next = emitForwardOp({*last}, pool, "    "))
        last = next;
    ++values[*last].uses;
    std::string inner = body;
    body = saved;
    unsigned v = newValue(values[*last].shape);
    std::string policy = pick<const char *>(
        {"", "policy(nothing_saveable) ", "policy(everything_saveable) "});
    notSaveable |= policy != "policy(everything_saveable) ";
    body += llvm::formatv("  {0} = remat.checkpoint {1}-> {2} {{\n{3}    "
                          "remat.yield {4} : {2}\n  }\n",
                          values[v].name, policy, typeOf(values[v].shape),
                          inner, values[*last].name);
    pool.push_back(v);
  }

  /// Sums every forward value nothing uses yet into a 1x1 loss, so that no
  /// forward op is dead.
  unsigned emitLoss(const std::vector<unsigned> &pool) {
    std::vector<unsigned> leaves;
    for (unsigned v : pool)
      if (values[v].uses == 0 &&
          std::find(inputs.begin(), inputs.end(), v) == inputs.end())
        leaves.push_back(v);
    if (leaves.empty())
      leaves.push_back(*emitUnary(inputs.front(), "  "));
    std::optional<unsigned> loss;
    for (unsigned leaf : leaves) {
      unsigned scalar = leaf;
      while (values[scalar].shape.rows > 1 || values[scalar].shape.cols > 1)
        scalar = *emitReduce(scalar, "  ");
      loss = loss ? *emitBinary(*loss, scalar, "  ") : scalar;
    }
    return *loss;
  }

  /// Walks the forward values in reverse, combining residuals with recent
  /// gradients (the 1x1 loss broadcasts against everything).
  std::vector<unsigned> emitBackward(const std::vector<unsigned> &forward,
                                     unsigned loss) {
    std::vector<unsigned> grads = {loss};
    for (auto it = forward.rbegin(); it != forward.rend(); ++it) {
      if (!chance(60))
        continue;
      unsigned residual = *it;
      std::vector<unsigned> recent;
      for (size_t i = grads.size(); i-- > 0 && recent.size() < 3;)
        if (broadcast(values[residual].shape, values[grads[i]].shape))
          recent.push_back(grads[i]);
      if (recent.empty())
        recent.push_back(loss);
      unsigned grad = recent[uniform(0, recent.size() - 1)];
      if (std::optional<unsigned> v = chance(50)
                                          ? emitBinary(residual, grad, "  ")
                                          : emitBinary(grad, residual, "  "))
        grads.push_back(*v);
      if (chance(20))
        if (std::optional<unsigned> v = emitUnary(grads.back(), "  "))
          grads.push_back(*v);
      if (chance(10))
        if (std::optional<unsigned> v = emitReduce(grads.back(), "  "))
          grads.push_back(*v);
    }
    return grads;
  }

  std::mt19937 rng;
  int64_t rows = 0, cols = 0;
  std::vector<GeneratedValue> values;
  std::vector<unsigned> inputs;
  std::set<std::string> emitted;
  std::set<std::string> shapes;
  bool notSaveable = false;
  std::string header =
      "  %shift = \"tosa.const\"() <{values = dense<0> : tensor<1xi8>}> : () "
      "-> tensor<1xi8>\n";
  std::string body;
};

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
    StepGenerator generator(seed);
    std::string source = generator.generate(seed % 2 == 0);
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
    if (!generator.hasNotSaveable()) {
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
      if (!generator.hasNotSaveable())
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
    std::string source = StepGenerator(seed).generate(seed % 2 == 1);
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
    std::string source = StepGenerator(seed).generate(seed % 2 == 0);
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
    std::string source = StepGenerator(seed).generate(seed % 2 == 0);
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
