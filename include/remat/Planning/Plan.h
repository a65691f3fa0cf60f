//===- Plan.h - Rematerialization decisions and their effect ----*- C++ -*-===//
//
// A plan is a list of recomputations. Each one recomputes an original value
// right before an original op (`before`), by re-executing a chain of original
// ops (`chain`, in program order, ending with the value's defining op). The
// copy replaces the value in `before` and in every later use, until a later
// recomputation of the same value takes over. Chain operands that are not
// themselves in the chain read the current version of that value at `before`
// (the latest copy placed at or before it, else the original). Intermediate
// chain results are transient: they die inside the recomputation. An original
// op left without readers (all of them now read copies) is dropped, with the
// producers that only fed it: the copy moved it rather than repeated it.
//
// `materialize` applies a plan to a Program; remat-apply performs exactly the
// same rewrite on IR, so the predicted and re-analysed peaks agree.
//
//===----------------------------------------------------------------------===//

#ifndef REMAT_PLANNING_PLAN_H
#define REMAT_PLANNING_PLAN_H

#include "remat/Planning/Program.h"

namespace remat {

struct Recompute {
  /// Original value to recompute.
  ValueId value = kNone;
  /// Original op before which the copy is made.
  OpId before = kNone;
  /// Original ops to re-execute, in program order; the last defines `value`.
  std::vector<OpId> chain;
};

struct Plan {
  /// Recomputations before the same op are emitted in this order, so one
  /// may make a copy that the chain of a later one reads. Solvers append in
  /// decision order, except that a copy made for such a chain goes ahead of
  /// the recomputations in front of the same op.
  std::vector<Recompute> recomputes;
};

/// Whether `a` and `b` make the same recomputations in the same order.
bool samePlan(const Plan &a, const Plan &b);

/// Returns `program` with the plan applied. Copies keep `origin` pointing at
/// the original op/value. Recomputations are grouped before their `before`
/// op in plan order; chain ops within a group in program order.
Program materialize(const Program &program, const Plan &plan);

/// Where `materialize` put things, for callers that relate its result back to
/// `program` (the solvers).
struct MaterializeMap {
  /// For each op of `program`, its index in the result (kNone when dropped:
  /// every reader of its results moved to copies).
  std::vector<OpId> opIndex;
  /// For each op of the result, whether it is a recomputed copy.
  std::vector<bool> isCopy;
  /// For each recomputation of the plan, the value of the result that holds
  /// its copy of `value`.
  std::vector<ValueId> copies;
};

/// As above, also describing the layout of the result in `map`.
Program materialize(const Program &program, const Plan &plan,
                    MaterializeMap &map);

/// As above, into `result`, whose storage is reused: solvers that
/// materialize once per plan they try keep one Program for it, rather than
/// allocating (and on large programs, faulting in) the whole program anew
/// each time.
void materialize(const Program &program, const Plan &plan,
                 MaterializeMap &map, Program &result);

/// Checks that a plan is well formed for `program` (chain ops recomputable,
/// chain closed under the rule above, `before` after the value's definition,
/// every value read while its buffer holds it: InPlaceWrites.h)
/// and that every copy it makes is read: by `before`, by a later chain, by a
/// later op before another copy of the value takes over, or as an output.
/// Returns an empty string when valid, else a description of the problem.
std::string verifyPlan(const Program &program, const Plan &plan);

/// verifyPlan without the check that every copy is read, which costs a
/// materialization: what the solvers' inner loops test before they evaluate
/// a candidate (evaluatePlan then drops unread copies).
std::string verifyPlanShape(const Program &program, const Plan &plan);

/// Removes the recomputations that read a value after an in-place write
/// overwrote its buffer, or write in place into a buffer their chain does
/// not create (InPlaceWrites.h): the recomputation would read the wrong
/// contents, or make bufferization copy a buffer. Solvers that build chains
/// without knowing of in-place writes are repaired this way; the plan then
/// keeps those values instead.
void dropOverwrittenReads(const Program &program, Plan &plan);

/// Removes the recomputations whose copy nothing reads (search moves leave
/// them behind when a longer chain later absorbs their reader). Removing a
/// copy nobody reads only removes work and bytes: the peak never rises.
void dropUnreadRecomputes(const Program &program, Plan &plan);

/// As above, leaving in `planned` (whose storage is reused) the program the
/// final plan makes: the check materializes it anyway, and callers that go
/// on to measure the plan need not build it again.
void dropUnreadRecomputes(const Program &program, Plan &plan,
                          Program &planned);

/// Both of the above until neither drops anything: each drop can call for
/// the other (a copy dropped for an overwrite leaves the copies its chain
/// read unread; an unread copy dropped leaves its readers on an overwritten
/// original). The result is a plan verifyPlan accepts.
void dropInvalidRecomputes(const Program &program, Plan &plan);

/// As above, leaving in `planned` the program the final plan makes.
void dropInvalidRecomputes(const Program &program, Plan &plan,
                           Program &planned);

} // namespace remat

#endif // REMAT_PLANNING_PLAN_H
