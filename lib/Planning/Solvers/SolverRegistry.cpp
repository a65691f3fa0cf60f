//===- SolverRegistry.cpp - Solvers by name -------------------------------===//
//
// The registry behind createSolver: the solvers of the files listed in
// REMAT_SOLVER_SOURCES (lib/Planning/CMakeLists.txt), which CMake writes into
// SolverFiles.inc as REMAT_SOLVER_FILE(FileStem) lines, in that order. A file
// listed there that does not define solversOf<FileStem> fails to link, so no
// solver can be dropped silently.
//
//===----------------------------------------------------------------------===//

#include "SolverSupport.h"

using namespace remat;

namespace remat {
#define REMAT_SOLVER_FILE(Stem) std::vector<SolverRegistration> solversOf##Stem();
#include "SolverFiles.inc"
#undef REMAT_SOLVER_FILE
} // namespace remat

namespace {

/// Every registered solver, the default (the first) first.
const std::vector<SolverRegistration> &registeredSolvers() {
  static const std::vector<SolverRegistration> solvers = [] {
    std::vector<SolverRegistration> all;
    for (auto solversOfFile : {
#define REMAT_SOLVER_FILE(Stem) solversOf##Stem,
#include "SolverFiles.inc"
#undef REMAT_SOLVER_FILE
         })
      for (const SolverRegistration &solver : solversOfFile())
        all.push_back(solver);
    return all;
  }();
  return solvers;
}

} // namespace

std::unique_ptr<Solver> remat::createSolver(const std::string &name) {
  for (const SolverRegistration &solver : registeredSolvers())
    if (name == solver.name)
      return solver.create();
  return nullptr;
}

std::string remat::availableSolvers() {
  std::string names;
  for (const SolverRegistration &solver : registeredSolvers()) {
    if (!names.empty())
      names += ",";
    names += solver.name;
  }
  return names;
}
