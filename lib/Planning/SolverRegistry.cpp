//===- SolverRegistry.cpp - Solvers by name -------------------------------===//
//
// The registry behind createSolver, the "none" baseline solver, and the
// result bookkeeping every solver shares.
//
//===----------------------------------------------------------------------===//

#include "Solvers.h"

#include "remat/Planning/MemoryProfile.h"

using namespace remat;

namespace {

/// Recomputes nothing: reports the peak of the program as it is.
class NoneSolver : public Solver {
public:
  std::string name() const override { return "none"; }
  SolverResult solve(const Program &program,
                     const SolverOptions &options) override {
    return evaluatePlan(program, Plan(), options);
  }
};

struct SolverEntry {
  const char *name;
  std::unique_ptr<Solver> (*create)();
};

std::unique_ptr<Solver> createNoneSolver() {
  return std::make_unique<NoneSolver>();
}

/// The first entry is the default solver.
const SolverEntry kSolvers[] = {
    {"greedy", createGreedySolver},
    {"ilp", createIlpSolver},
    {"chain", createChainSolver},
    {"checkpoint-all", createCheckpointAllSolver},
    {"sqrt-n", createSqrtNSolver},
    {"xla", createXlaSolver},
    {"none", createNoneSolver},
};

} // namespace

SolverResult remat::evaluatePlan(const Program &program, Plan plan,
                                 const SolverOptions &options) {
  SolverResult result;
  plan = shareRecomputedCopies(program, std::move(plan));
  Program planned = materialize(program, plan);
  result.peakBytes =
      computeMemoryProfile(planned, options.countInputs).peakBytes;
  // What the planned step executes beyond the original: chain ops, minus
  // originals the plan moved rather than repeated.
  uint64_t before = 0, after = 0;
  for (const OpInfo &op : program.ops)
    before += op.flops;
  for (const OpInfo &op : planned.ops)
    after += op.flops;
  result.extraFlops = after - before;
  result.feasible = options.minimize || !options.budgetBytes ||
                    result.peakBytes <= *options.budgetBytes;
  result.plan = std::move(plan);
  return result;
}

bool remat::isBetterResult(const SolverResult &a, const SolverResult &b,
                           const SolverOptions &options) {
  if (a.feasible != b.feasible)
    return a.feasible;
  if ((options.minimize || !a.feasible) && a.peakBytes != b.peakBytes)
    return a.peakBytes < b.peakBytes;
  return a.extraFlops < b.extraFlops;
}

std::unique_ptr<Solver> remat::createSolver(const std::string &name) {
  for (const SolverEntry &entry : kSolvers)
    if (name == entry.name)
      return entry.create();
  return nullptr;
}

std::string remat::availableSolvers() {
  std::string names;
  for (const SolverEntry &entry : kSolvers) {
    if (!names.empty())
      names += ",";
    names += entry.name;
  }
  return names;
}
