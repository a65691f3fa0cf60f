//===- remat-bench.cpp - Synthetic graphs and solver runs -----------------===//
//
// The engine behind bench/run.py, without MLIR:
//
//   remat-bench gen --model=NAME [--layers=N --batch=B --width=W --length=L]
//                   [--seed=S --depth=D --dag-width=W --density=P]
//                   [--format=mlir|json]
//       prints a generated training step (NAME: mlp, transformer, resnet,
//       unet, or dag for a random layered DAG) as a remat.graph of
//       remat.abstract ops, or as node-link JSON for
//       remat-translate --import-graph-json.
//
//   remat-bench gen --model=layered [--nodes=N --seed=S --layer-width=W
//                   --layer-variance=V --edge-density=E --skip-density=P]
//                   [--format=mlir|json]
//       a random layered DAG after Gagrani et al. 2022 (the CP remat study's
//       benchmark): no backward part, ops in the graph's own random
//       topological order; JSON in the published node-link variant.
//
//   remat-bench run --model=NAME [graph options] --solvers=a,b,...
//                   --budgets=0.9,0.5,min [--time-limit=SECONDS]
//       plans the graph with every solver at every budget (a fraction of the
//       peak without rematerialization, or min) and prints one CSV row per
//       run: model,ops,peak_before,solver,budget,budget_bytes,peak,feasible,
//       extra_flops,base_flops,extra_flops_percent,solve_ms,optimal,gap,note,
//       floor (a peak no plan goes below: the most bytes one op needs at
//       once, its operands, results and scratch, or the step's results,
//       all live at its end, whichever is larger).
//       Plans keep the program order: peak_before is the fixed-order peak.
//
//   remat-bench plan --model=NAME [graph options] --solvers=a,b,...
//                    --budgets=0.5,64MiB,min [--budget-kind=arena|live]
//                    [--alignment=A] [--schedule=0|1] [--time-limit=SECONDS]
//                    [--parallel-orders=0|1]
//       plans the graph as remat-plan does (planStep, Driver.h: the same
//       budget resolution, order choice, time split and arena fitting, with
//       remat-plan's defaults; both orders on two threads unless
//       --parallel-orders=0) and prints one CSV row per run: model,ops,
//       operands (the ops' operands, counted per op: with ops, the size of
//       the input), solver,budget,budget_bytes,order,peak_before,
//       arena_before,peak,arena,feasible,extra_flops,plans,solve_ms,
//       recomputes (each as
//       value@before:chain ops, in the kept order's ids). The arena is
//       placed as remat-plan places it without best-effort: a missed
//       budget's in start order only, on steps of more than 4096 buffers.
//
//   remat-bench place --model=NAME [graph options] [--alignment=A]
//       places the unplanned step's buffers in one arena with the default
//       placement and the size-sorted best-fit baseline, and prints one CSV
//       row per strategy: model,ops,buffers,strategy,live,arena,
//       fragmentation,place_ms.
//
//===----------------------------------------------------------------------===//

#include "remat/Planning/Driver.h"
#include "remat/Planning/Testing/Generators.h"
#include "remat/Planning/MemoryProfile.h"
#include "remat/Planning/PeakFloor.h"
#include "remat/Planning/Schedule.h"
#include "remat/Planning/Solver.h"
#include "remat/Planning/StepArena.h"
#include "remat/Planning/TargetMemory.h"

#include "llvm/ADT/STLExtras.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <map>
#include <optional>
#include <set>
#include <sstream>
#include <string>
#include <vector>

using namespace remat;

namespace {

std::vector<std::string> split(const std::string &text) {
  std::vector<std::string> parts;
  std::stringstream stream(text);
  std::string part;
  while (std::getline(stream, part, ','))
    if (!part.empty())
      parts.push_back(part);
  return parts;
}

[[noreturn]] void usage(const char *message) {
  std::fprintf(stderr, "remat-bench: %s\n(see the comment at the top of "
                       "tools/remat-bench/remat-bench.cpp)\n",
               message);
  std::exit(2);
}

/// The generated graph: a Program, and for --model=layered the DAG it came
/// from (its JSON is the published variant, not writeGraphJson's).
struct Graph {
  Program program;
  std::optional<LayeredDag> layered;
};

bool buildGraph(const std::map<std::string, std::string> &args, Graph &graph,
                std::string &name) {
  Program &program = graph.program;
  auto get = [&](const char *key, const char *fallback) {
    auto it = args.find(key);
    return it == args.end() ? std::string(fallback) : it->second;
  };
  auto number = [&](const char *key, const char *fallback) {
    return std::strtoull(get(key, fallback).c_str(), nullptr, 10);
  };
  auto real = [&](const char *key, double fallback) {
    auto it = args.find(key);
    return it == args.end() ? fallback : std::strtod(it->second.c_str(), nullptr);
  };
  name = get("model", "");
  if (name == "layered") {
    LayeredDagOptions options;
    options.seed = number("seed", "1");
    options.nodes = number("nodes", "100");
    options.width = real("layer-width", options.width);
    options.layerVariance = real("layer-variance", options.layerVariance);
    options.edgeDensity = real("edge-density", options.edgeDensity);
    options.skipDensity = real("skip-density", options.skipDensity);
    graph.layered = generateLayeredDag(options);
    program = layeredDagProgram(*graph.layered);
    return true;
  }
  if (name == "dag") {
    RandomDagOptions options;
    options.seed = number("seed", "1");
    options.depth = number("depth", "16");
    options.width = number("dag-width", "4");
    options.density = std::strtod(get("density", "0.1").c_str(), nullptr);
    program = generateRandomDag(options);
    return true;
  }
  ModelFamily family;
  if (!parseModelFamily(name, family))
    return false;
  ModelOptions options;
  options.layers = number("layers", "8");
  options.batch = number("batch", "8");
  options.width = number("width", "256");
  options.length = number("length", "128");
  program = generateModel(family, options);
  return true;
}

std::string csvField(std::string text) {
  for (char &c : text)
    if (c == ',' || c == '\n' || c == '"')
      c = ';';
  return text;
}

/// The `place` command: times both placements of the step's buffers.
int placeBuffers(const Program &program, const std::string &model,
                 std::map<std::string, std::string> &args) {
  uint64_t alignment =
      args.count("alignment") ? std::strtoull(args["alignment"].c_str(),
                                              nullptr, 10)
                              : 64;
  MemoryProfile profile = computeMemoryProfile(program, false);
  std::cout << "model,ops,buffers,strategy,live,arena,fragmentation,"
               "place_ms\n";
  for (auto [name, strategy] :
       {std::pair("best", ArenaStrategy::Best),
        std::pair("size-best-fit", ArenaStrategy::SizeBestFit)}) {
    auto start = std::chrono::steady_clock::now();
    StepArena arena = placeStepArena(program, profile, alignment, strategy);
    double ms = std::chrono::duration<double, std::milli>(
                    std::chrono::steady_clock::now() - start)
                    .count();
    std::printf("%s,%zu,%zu,%s,%llu,%llu,%.4f,%.3f\n", model.c_str(),
                program.ops.size(), arena.buffers.size(), name,
                (unsigned long long)arena.layout.liveBytes,
                (unsigned long long)arena.layout.arenaBytes,
                double(arena.layout.arenaBytes) /
                    double(std::max<uint64_t>(arena.layout.liveBytes, 1)),
                ms);
  }
  return 0;
}

/// The plan's recomputations as value@before:chain ops (space-separated).
std::string formatRecomputes(const Plan &plan) {
  std::string text;
  for (const Recompute &r : plan.recomputes) {
    if (!text.empty())
      text += ' ';
    text += std::to_string(r.value) + '@' + std::to_string(r.before) + ':';
    for (auto [i, op] : llvm::enumerate(r.chain))
      text += (i ? "-" : "") + std::to_string(op);
  }
  return text;
}

/// The `plan` command: what remat-plan would decide for the graph, per
/// solver and budget.
int planWithDriver(const Program &program, const std::string &model,
                   std::map<std::string, std::string> &args) {
  PlanningOptions defaults;
  if (args.count("budget-kind") && args["budget-kind"] != "arena" &&
      args["budget-kind"] != "live")
    usage("--budget-kind must be arena or live");
  if (args.count("alignment"))
    defaults.alignment = std::strtoull(args["alignment"].c_str(), nullptr, 10);
  if (std::string problem = checkArenaAlignment(defaults.alignment);
      !problem.empty())
    usage(("--alignment " + problem).c_str());
  defaults.arenaBudget =
      !args.count("budget-kind") || args["budget-kind"] == "arena";
  if (args.count("schedule"))
    defaults.schedule = args["schedule"] != "0";
  if (args.count("parallel-orders"))
    defaults.parallelOrders = args["parallel-orders"] != "0";
  if (args.count("time-limit"))
    defaults.timeLimitSeconds = std::strtod(args["time-limit"].c_str(), nullptr);
  if (!(defaults.timeLimitSeconds > 0))
    usage("--time-limit must be a positive number of seconds");
  size_t operands = 0;
  for (const OpInfo &op : program.ops)
    operands += op.operands.size();
  std::cout << "model,ops,operands,solver,budget,budget_bytes,order,"
               "peak_before,"
               "arena_before,peak,arena,feasible,extra_flops,plans,solve_ms,"
               "recomputes\n";
  for (const std::string &budgetText :
       split(args.count("budgets") ? args["budgets"] : "0.5")) {
    std::string error;
    std::optional<Budget> budget = parseBudget(budgetText, error);
    if (!budget)
      usage(("invalid budget '" + budgetText + "': " + error).c_str());
    for (const std::string &solver :
         split(args.count("solvers") ? args["solvers"] : "greedy")) {
      if (!createSolver(solver))
        usage(("unknown solver " + solver + "; available: " +
               availableSolvers())
                  .c_str());
      PlanningOptions options = defaults;
      options.budget = budget;
      options.solver = solver;
      StepPlan step = planStep(program, options);
      if (!step.planned())
        usage("the step's buffers overflow any arena");
      bool scheduled = step.order && step.order->scheduled;
      Program planned =
          materialize(keptProgram(program, step), step.result.plan);
      MemoryProfile after = computeMemoryProfile(planned, options.countInputs);
      // As remat-plan places it (without best-effort).
      StepArena arena = placeStepArena(
          planned, after, options.alignment,
          step.result.feasible ? ArenaStrategy::Best : ArenaStrategy::Quick,
          step.arenaAfter ? &*step.arenaAfter : nullptr);
      std::optional<uint64_t> budgetBytes = step.solverOptions.budgetBytes;
      std::printf(
          "%s,%zu,%zu,%s,%s,%s,%s,%llu,%llu,%llu,%llu,%d,%llu,%u,%.3f,%s\n",
          model.c_str(), program.ops.size(), operands, solver.c_str(),
          budgetText.c_str(),
          budgetBytes ? std::to_string(*budgetBytes).c_str() : "",
          scheduled ? "scheduled" : "given",
          (unsigned long long)step.before.peakBytes,
          (unsigned long long)step.arenaBefore.layout.arenaBytes,
          (unsigned long long)after.peakBytes,
          (unsigned long long)arena.layout.arenaBytes,
          step.result.feasible ? 1 : 0,
          (unsigned long long)step.result.extraFlops, step.plans, step.solveMs,
          formatRecomputes(step.result.plan).c_str());
      std::fflush(stdout);
    }
  }
  return 0;
}

} // namespace

int main(int argc, char **argv) {
  if (argc < 2)
    usage("expected a command: gen, run, plan or place");
  std::string command = argv[1];
  std::map<std::string, std::string> args;
  for (int i = 2; i < argc; ++i) {
    std::string arg = argv[i];
    if (arg.rfind("--", 0) != 0)
      usage(("unexpected argument " + arg).c_str());
    size_t eq = arg.find('=');
    if (eq == std::string::npos)
      args[arg.substr(2)] = "1";
    else
      args[arg.substr(2, eq - 2)] = arg.substr(eq + 1);
  }
  Graph graph;
  std::string model;
  if (!buildGraph(args, graph, model))
    usage("--model must be mlp, transformer, resnet, unet, dag or layered");
  const Program &program = graph.program;

  if (command == "gen") {
    std::string format = args.count("format") ? args["format"] : "mlir";
    if (format == "json")
      std::cout << (graph.layered ? writeLayeredDagJson(*graph.layered)
                                  : writeGraphJson(program));
    else if (format == "mlir")
      std::cout << writeGraphMlir(program, model);
    else
      usage("--format must be mlir or json");
    return 0;
  }
  if (command == "place")
    return placeBuffers(program, model, args);
  if (command == "plan")
    return planWithDriver(program, model, args);
  if (command != "run")
    usage("expected a command: gen, run, plan or place");

  std::vector<std::string> solvers =
      split(args.count("solvers") ? args["solvers"] : "greedy");
  std::vector<std::string> budgets =
      split(args.count("budgets") ? args["budgets"] : "0.5");
  double timeLimit =
      args.count("time-limit") ? std::strtod(args["time-limit"].c_str(), nullptr)
                               : 60;
  uint64_t peakBefore = computeMemoryProfile(program, false).peakBytes;
  uint64_t floorBytes = computePeakFloor(program, false).bytes;
  uint64_t baseFlops = 0;
  for (const OpInfo &op : program.ops)
    baseFlops += op.flops;
  if (!args.count("no-header"))
    std::cout << "model,ops,peak_before,solver,budget,budget_bytes,peak,"
                 "feasible,extra_flops,base_flops,extra_flops_percent,"
                 "solve_ms,optimal,gap,note,floor\n";
  for (const std::string &budget : budgets) {
    for (const std::string &name : solvers) {
      std::unique_ptr<Solver> solver = createSolver(name);
      if (!solver)
        usage(("unknown solver " + name + "; available: " + availableSolvers())
                  .c_str());
      SolverOptions options;
      options.timeLimitSeconds = timeLimit;
      if (budget == "min")
        options.minimize = true;
      else
        options.budgetBytes =
            uint64_t(std::strtod(budget.c_str(), nullptr) * double(peakBefore));
      auto start = std::chrono::steady_clock::now();
      SolverResult result = solver->solve(program, options);
      double ms = std::chrono::duration<double, std::milli>(
                      std::chrono::steady_clock::now() - start)
                      .count();
      char line[1024];
      std::snprintf(
          line, sizeof(line),
          "%s,%zu,%llu,%s,%s,%llu,%llu,%d,%llu,%llu,%.4f,%.3f,%d,%.6g,%s,%llu\n",
          model.c_str(), program.ops.size(), (unsigned long long)peakBefore,
          name.c_str(), budget.c_str(),
          (unsigned long long)(options.budgetBytes ? *options.budgetBytes
                                                   : result.peakBytes),
          (unsigned long long)result.peakBytes, result.feasible ? 1 : 0,
          (unsigned long long)result.extraFlops,
          (unsigned long long)baseFlops,
          baseFlops ? 100.0 * double(result.extraFlops) / double(baseFlops) : 0,
          ms, result.optimal ? 1 : 0, result.gap,
          csvField(result.note).c_str(), (unsigned long long)floorBytes);
      std::cout << line << std::flush;
    }
  }
  return 0;
}
