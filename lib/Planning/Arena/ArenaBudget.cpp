//===- ArenaBudget.cpp - Plans whose placed arena meets a budget ----------===//
//
// Until a plan fits, each correction scales the live target by budget /
// arena, i.e. assumes the next plan fragments as much as this one, and
// aims a little lower (kRetargetMargin); that usually lands in one or two
// steps. Once one target fits and a higher one does not, a
// safeguarded false position between them (the line through the two plans'
// arenas, kept a quarter of the bracket from its ends) looks for a cheaper
// plan that still fits. The arena is not monotone in the target, so every
// plan is judged on its own arena.
//
//===----------------------------------------------------------------------===//

#include "remat/Planning/ArenaBudget.h"

#include "remat/Planning/MemoryProfile.h"
#include "remat/Planning/StepArena.h"

#include <algorithm>

using namespace remat;

StepArena remat::plannedStepArena(const Program &program, const Plan &plan,
                                  uint64_t alignment, bool countInputs,
                                  ArenaStrategy strategy) {
  Program planned = materialize(program, plan);
  MemoryProfile profile = computeMemoryProfile(planned, countInputs);
  return placeStepArena(planned, profile, alignment, strategy);
}

namespace {

/// Until a plan fits, each re-plan aims this fraction of the budget lower
/// than the missed plan's fragmentation alone asks for.
constexpr uint64_t kRetargetMargin = 4096;

/// a * b / c without overflow for the sizes at hand (c > 0).
uint64_t scale(uint64_t a, uint64_t b, uint64_t c) {
  return static_cast<uint64_t>(static_cast<unsigned __int128>(a) * b / c);
}

} // namespace

ArenaBudgetResult remat::fitArenaBudget(
    const Program &program, const ArenaBudgetOptions &options,
    SolverResult first,
    llvm::function_ref<SolverResult(uint64_t, std::shared_ptr<const Plan>)>
        solveAt) {
  const uint64_t budget = options.arenaBudget;
  ArenaBudgetResult kept;
  bool haveKept = false;
  auto consider = [&](SolverResult result, uint64_t target) {
    StepArena placed =
        plannedStepArena(program, result.plan, options.alignment,
                         options.countInputs, ArenaStrategy::Quick);
    // A near miss after placement in start order on a large step (within
    // 1/512 of the live peak, ArenaPlacement.h): placing again with other
    // orders too costs far less than the re-plan a miss leads to (a 102k-op
    // transformer at 0.5: best fit in start order 1.00003 of the peak, over
    // the budget; the order by size reaches the peak).
    if (placed.layout.startOrderKept && placed.layout.arenaBytes > budget)
      placed.layout = placeArena(placed.buffers, ArenaStrategy::NearMiss);
    uint64_t arena = placed.layout.arenaBytes;
    bool fits = arena <= budget;
    ++kept.plans;
    bool better;
    if (!haveKept)
      better = true;
    else if (fits != kept.fits)
      better = fits;
    else if (fits)
      better = result.extraCost != kept.result.extraCost
                   ? result.extraCost < kept.result.extraCost
                   : arena < kept.arenaBytes();
    else
      better = arena < kept.arenaBytes();
    if (better) {
      kept.result = result;
      kept.arena = std::move(placed);
      kept.liveTarget = target;
      kept.fits = fits;
      haveKept = true;
    }
    return std::make_pair(arena, result);
  };

  auto [arena, last] = consider(std::move(first), budget);
  // The highest target known to fit and the lowest known not to.
  std::optional<uint64_t> fitTarget, overTarget;
  (arena <= budget ? fitTarget : overTarget) = budget;
  // The arenas of the plans at fitTarget and overTarget.
  uint64_t fitArena = arena, overArena = arena;
  // The plan at overTarget: every re-plan aims below it, and goes on from
  // it.
  std::shared_ptr<const Plan> overPlan;
  if (overTarget)
    overPlan = std::make_shared<const Plan>(last.plan);
  uint64_t target = budget;
  while (kept.plans < options.maxPlans) {
    if (options.deadline &&
        std::chrono::steady_clock::now() >= *options.deadline)
      break;
    uint64_t next;
    if (!fitTarget) {
      // The solver could not reach the target: a lower one is no easier.
      if (!last.feasible || arena == 0)
        break;
      // Aim the live peak at budget / (this plan's arena / its live peak),
      // less 1/kRetargetMargin of the budget: the next plan fragments a
      // little differently, and aimed exactly it misses as often as it
      // fits (a 108k-op random DAG at 0.5: 2 and then 29 parts per
      // million over, three re-plans). The margin is well within the
      // 1/256 at which the bracket stops narrowing, so a plan that fits
      // there is kept.
      uint64_t aim = scale(last.peakBytes, budget, arena);
      aim -= std::min(aim, budget / kRetargetMargin);
      next = std::min(aim, target - 1);
    } else {
      if (!overTarget)
        break;
      // Stop narrowing when the bracket is within an alignment unit or
      // 1/256 of the budget: the plans no longer differ much. Likewise
      // when the plan at the highest target that fits has an arena that
      // close to the budget: no plan can use much more of it (on a 25k-op
      // U-Net at 0.5, the four plans bisection made after such a plan
      // all missed the budget).
      uint64_t tolerance = std::max(options.alignment, budget / 256);
      uint64_t width = *overTarget - *fitTarget;
      if (width <= tolerance || budget - fitArena <= tolerance)
        break;
      // The target where the line through the two plans' arenas meets the
      // budget, kept at least a quarter of the bracket from either end so
      // that the bracket shrinks by that much at least. Near the budget the
      // arena grows faster than the target (fragmentation rises with it):
      // on a 50k-op U-Net at 0.5 the midpoints missed four times running.
      // At least a byte: a target at either end was already planned.
      uint64_t margin = std::max<uint64_t>(width / 4, 1);
      next = *fitTarget + width / 2;
      if (overArena > fitArena)
        next = std::clamp<uint64_t>(
            *fitTarget + scale(width, budget - fitArena, overArena - fitArena),
            *fitTarget + margin, *overTarget - margin);
    }
    if (next == 0)
      break;
    target = next;
    std::tie(arena, last) = consider(solveAt(target, overPlan), target);
    if (arena <= budget) {
      if (!fitTarget || target > *fitTarget) {
        fitTarget = target;
        fitArena = arena;
      }
    } else if (!overTarget || target < *overTarget) {
      overTarget = target;
      overArena = arena;
      overPlan = std::make_shared<const Plan>(last.plan);
    }
  }
  kept.result.feasible = kept.fits;
  return kept;
}
