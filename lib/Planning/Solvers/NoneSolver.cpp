//===- NoneSolver.cpp - solver=none: the step as it is --------------------===//

#include "SolverSupport.h"

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

} // namespace

namespace remat {
/// The solvers of this file, in the registry's order (SolverSupport.h).
std::vector<SolverRegistration> solversOfNoneSolver() {
  return {{"none", makeSolver<NoneSolver>}};
}
} // namespace remat
