//===- Driver.cpp - Planning a training step, as remat-plan does ---------===//

#include "remat/Planning/Driver.h"

#include "remat/Planning/ArenaBudget.h"
#include "remat/Planning/PeakFloor.h"
#include "remat/Planning/Schedule.h"

#include "PlanMerit.h"
#include "Solvers/SolverSupport.h"

#include <algorithm>
#include <cassert>
#include <chrono>
#include <thread>

using namespace remat;

namespace {

using Clock = std::chrono::steady_clock;

/// Seconds from now until `deadline`; 0 once it has passed.
double secondsUntil(Clock::time_point deadline) {
  return std::max(
      0.0, std::chrono::duration<double>(deadline - Clock::now()).count());
}

/// Half of the time from now until `deadline`: a solve that arena re-plans
/// may follow leaves them the other half.
Clock::time_point halfway(Clock::time_point deadline) {
  Clock::time_point now = Clock::now();
  return now + (std::max(deadline, now) - now) / 2;
}

/// One step's planning under one time limit: every solve gets what is left
/// of it.
class StepPlanner {
public:
  StepPlanner(const PlanningOptions &options, StepPlan &plan,
              Clock::time_point deadline)
      : options(options), plan(plan), deadline(deadline) {}

  /// Plans the step under plan.solverOptions; a missed budget is then
  /// answered with `min`'s plan where that is closer to it (isBetterPlan),
  /// so that no budget's answer is a plan `min`'s plan beats.
  void run(const Program &given) {
    timePriced = given.costPerSecond > 0;
    if (options.schedule)
      planInBetterOrder(given);
    else
      planInGivenOrder(given);
    if (plan.solverOptions.budgetBytes && !plan.result.feasible)
      keepTheLeastPlanIfCloser(given);
  }

private:
  void planInGivenOrder(const Program &program) {
    keepOrderPlan(planOrder(program, deadline, leastGiven));
  }

  /// One order's planning: its solve and, under an arena budget, the fit
  /// of that solve's plan to the arena, and Best's placement of the fitted
  /// plan where the order planned on a thread of its own (keepArenaFit).
  struct OrderPlan {
    SolverResult result;
    std::optional<ArenaBudgetResult> fit;
    std::optional<ArenaLayout> bestLayout;
  };

  /// Plans `program` (one of the two orders) until `until`, recording its
  /// solver's least-peak plan in `least`.
  OrderPlan planOrder(const Program &program, Clock::time_point until,
                      std::shared_ptr<const SolverResult> &least) {
    OrderPlan order;
    bool arena = arenaBudgeted();
    order.result = solveBy(program, arena ? halfway(until) : until, least);
    if (arena) {
      order.fit = fitToArena(program, std::move(order.result), until, least);
      order.result = order.fit->result;
    }
    return order;
  }

  /// Plans the step in the memory-aware order of remat-schedule and in its
  /// given order, and keeps the better plan (isBetterPlan), a tie going to
  /// the memory-aware order. Without this choice, reordering first can make
  /// the plan worse: a budget the given order meets can be missed after
  /// reordering.
  void planInBetterOrder(const Program &given) {
    if (options.parallelOrders)
      return planOrdersInParallel(given);
    std::optional<Program> scheduled = memoryAwareOrder(given);
    if (!scheduled)
      return planInGivenOrder(given);
    // The memory-aware order until half of the time left, the given one
    // until the deadline.
    OrderPlan inSchedule =
        planOrder(*scheduled, halfway(deadline), leastScheduled);
    keepBetterOrder(planOrder(given, deadline, leastGiven),
                    std::move(inSchedule));
  }

  /// planInBetterOrder on two threads, each order until the deadline: the
  /// given order plans while the memory-aware one is found and planned
  /// (the two are apart until the choice), and each order's thread places
  /// its fitted plan as keepArenaFit would, in case it is kept. The plans
  /// are those of one thread unless the time limit cuts a solve short.
  void planOrdersInParallel(const Program &given) {
    OrderPlan asGiven;
    std::thread givenThread([&] {
      asGiven = planOrder(given, deadline, leastGiven);
      placeBest(asGiven);
    });
    std::optional<Program> scheduled = memoryAwareOrder(given);
    if (!scheduled) {
      givenThread.join();
      return keepOrderPlan(std::move(asGiven));
    }
    OrderPlan inSchedule = planOrder(*scheduled, deadline, leastScheduled);
    placeBest(inSchedule);
    givenThread.join();
    keepBetterOrder(std::move(asGiven), std::move(inSchedule));
  }

  /// remat-schedule's order of `given`, or none where it is the given
  /// order; records it and both orders' peaks in plan.order.
  std::optional<Program> memoryAwareOrder(const Program &given) {
    OrderChoice &choice = plan.order.emplace();
    choice.givenPeakBytes = choice.scheduledPeakBytes = plan.before.peakBytes;
    std::vector<OpId> order = scheduleForMemory(given, options.countInputs);
    if (isIdentityOrder(order))
      return std::nullopt;
    Program scheduled = reorder(given, order);
    memoryOrder = std::move(order);
    choice.scheduledPeakBytes =
        computeMemoryProfile(scheduled, options.countInputs).peakBytes;
    return scheduled;
  }

  /// Keeps the better of the two orders' plans (planInBetterOrder).
  void keepBetterOrder(OrderPlan asGiven, OrderPlan inSchedule) {
    OrderChoice &choice = *plan.order;
    bool keepGiven =
        arenaBudgeted()
            ? isBetterPlan(arenaMerit(*asGiven.fit),
                           arenaMerit(*inSchedule.fit), false)
            : isBetterPlan(liveMerit(asGiven.result),
                           liveMerit(inSchedule.result),
                           plan.solverOptions.minimize);
    OrderPlan &kept = keepGiven ? asGiven : inSchedule;
    OrderPlan &other = keepGiven ? inSchedule : asGiven;
    if (!keepGiven) {
      choice.scheduled = true;
      choice.order = memoryOrder;
    }
    choice.other = std::move(other.result);
    keepOrderPlan(std::move(kept));
  }

  void keepOrderPlan(OrderPlan kept) {
    if (kept.fit)
      keepArenaFit(std::move(*kept.fit), std::move(kept.bestLayout));
    else
      plan.result = std::move(kept.result);
  }

  /// A missed budget: plans the step as `min` does (with the time left)
  /// and keeps that plan where it is closer to the budget (isBetterPlan,
  /// in the bytes the budget bounds). The budgeted search's least peak can
  /// be above `min`'s, and under an arena budget the re-plan that reached
  /// the smallest arena can cost far more FLOPs than `min`'s plan.
  void keepTheLeastPlanIfCloser(const Program &given) {
    StepPlan least;
    least.before = plan.before;
    least.arenaBefore = plan.arenaBefore;
    least.solverOptions = plan.solverOptions;
    least.solverOptions.budgetBytes.reset();
    least.solverOptions.minimize = true;
    if (!reuseLeastPlans(least))
      StepPlanner(options, least, deadline).run(given);

    // Often the budgeted search ended on `min`'s plan itself (greedy's
    // least peak, GreedySearchSolver.cpp): nothing to place or choose.
    bool sameOrder = (plan.order && plan.order->scheduled) ==
                     (least.order && least.order->scheduled);
    if (sameOrder && samePlan(plan.result.plan, least.result.plan))
      return;
    uint64_t budget = *plan.solverOptions.budgetBytes;
    PlanMerit missed = liveMerit(plan.result), closer = liveMerit(least.result);
    std::optional<StepArena> placed;
    if (arenaBudgeted()) {
      placed = plannedStepArena(keptProgram(given, least), least.result.plan,
                                options.alignment, options.countInputs,
                                ArenaStrategy::Quick);
      keepBetterLayout(*placed, placeBestIfItCanFit(*placed));
      missed.bytes = plan.arenaAfter->layout.arenaBytes;
      closer.bytes = placed->layout.arenaBytes;
    }
    closer.fits = closer.bytes <= budget;
    if (!isBetterPlan(closer, missed, false))
      return;
    plan.result = std::move(least.result);
    plan.result.feasible = closer.fits;
    plan.result.note = closer.fits ? "the budgeted search missed it; the "
                                     "least-peak plan meets it"
                                   : "the least-peak plan comes closer to the "
                                     "budget than the budgeted search";
    plan.order = std::move(least.order);
    plan.liveTargetBytes.reset();
    plan.plans += least.plans;
    plan.arenaAfter = std::move(placed);
  }

  /// `least` as planning it under `min` would make it, from the solvers'
  /// own least-peak plans of each order (SolverResult::leastPeak), where
  /// they made them: the same plans, chosen between by the same rule
  /// (planInBetterOrder), without planning, reordering and placing the
  /// step again (a 100k-op random layered DAG at 0.5: 53.5 -> 37.3 s).
  /// Under a time model the driver's `min` ranks by both time and FLOPs
  /// (solveBy) and the solvers' by time alone: there it plans again.
  bool reuseLeastPlans(StepPlan &least) const {
    if (!leastGiven || timePriced)
      return false;
    if (!plan.order) {
      least.result = *leastGiven;
      return true;
    }
    OrderChoice &choice = least.order.emplace();
    choice.givenPeakBytes = plan.order->givenPeakBytes;
    choice.scheduledPeakBytes = plan.order->scheduledPeakBytes;
    if (!plan.order->other) {
      // The memory-aware order was the given one: only it was planned.
      least.result = *leastGiven;
      return true;
    }
    if (!leastScheduled) {
      least.order.reset();
      return false;
    }
    if (isBetterPlan(liveMerit(*leastGiven), liveMerit(*leastScheduled),
                     /*minimize=*/true)) {
      least.result = *leastGiven;
      choice.other = *leastScheduled;
      return true;
    }
    choice.scheduled = true;
    choice.order = memoryOrder;
    least.result = *leastScheduled;
    choice.other = *leastGiven;
    return true;
  }

  bool arenaBudgeted() const {
    return options.arenaBudget && plan.solverOptions.budgetBytes;
  }

  /// Plans `program` with what is left until `until`. A solve always gets
  /// a moment (1% of the limit), so that a step whose other solves overran
  /// still gets a plan.
  SolverResult solveBy(const Program &program, Clock::time_point until,
                       std::shared_ptr<const SolverResult> &least,
                       std::optional<uint64_t> liveTarget = std::nullopt,
                       std::shared_ptr<const Plan> startFrom = nullptr) {
    SolverOptions solve = plan.solverOptions;
    if (liveTarget)
      solve.budgetBytes = liveTarget;
    solve.startFrom = std::move(startFrom);
    solve.timeLimitSeconds =
        std::max(secondsUntil(until), options.timeLimitSeconds / 100);
    if (!solve.minimize || !timePriced) {
      SolverResult result = createSolver(options.solver)->solve(program, solve);
      // The order's first solve from scratch: later ones, going on from a
      // re-plan's start, reach another least peak.
      if (!solve.startFrom && !least)
        least = result.leastPeak;
      return result;
    }
    // The least-peak searches rank their moves by cost per byte, and a
    // time model's costs per FLOP span orders of magnitude (a pooling
    // window's is 300 times a matrix product's): ranked by time, the
    // search can stop above the peak it reaches ranked by FLOPs (SqueezeNet
    // at batch 8: 8.8 against 7.8 MiB). Both rankings search, each with
    // half of the time; either plan is priced in time.
    solve.timeLimitSeconds /= 2;
    SolverResult byTime = createSolver(options.solver)->solve(program, solve);
    Program flopsPriced = program;
    for (OpInfo &op : flopsPriced.ops)
      op.cost = op.flops;
    flopsPriced.costPerSecond = 0;
    SolverResult byFlops =
        createSolver(options.solver)->solve(flopsPriced, solve);
    SolverResult priced = evaluatePlan(program, std::move(byFlops.plan), solve);
    if (!isBetterResult(priced, byTime, solve))
      return byTime;
    priced.note = byFlops.note;
    return priced;
  }

  /// The budget bounds the placed arena: re-plans `program` against lower
  /// live targets until the plan's arena fits (ArenaBudget.h). Each re-plan
  /// gets half of the time left until `until`, leaving the rest to the
  /// next ones; none starts after it.
  ArenaBudgetResult fitToArena(const Program &program, SolverResult first,
                               Clock::time_point until,
                               std::shared_ptr<const SolverResult> &least) {
    ArenaBudgetOptions arena;
    arena.arenaBudget = *plan.solverOptions.budgetBytes;
    arena.alignment = options.alignment;
    arena.countInputs = options.countInputs;
    arena.deadline = until;
    return fitArenaBudget(
        program, arena, std::move(first),
        [&](uint64_t liveTarget, std::shared_ptr<const Plan> startFrom) {
          return solveBy(program, halfway(until), least, liveTarget,
                         std::move(startFrom));
        });
  }

  /// The re-plans judged each plan by its quick placement; the kept one
  /// gets Best's where it could meet the budget and Best comes closer (on
  /// a 100k-op U-Net at 0.5, 1.027 -> 1.012 of the live peak): `best`,
  /// where it was placed already (placeBest). The two orders were compared
  /// on their quick placements, as on one thread, where only the kept
  /// order is placed with Best.
  void keepArenaFit(ArenaBudgetResult fitted,
                    std::optional<ArenaLayout> best = std::nullopt) {
    if (!best)
      best = placeBestIfItCanFit(fitted.arena);
    keepBetterLayout(fitted.arena, std::move(best));
    // Best's placement can meet the budget that every quick one missed (a
    // 6,000-op random layered DAG at 0.99: 1.004 of the budget in start
    // order, 0.974 with Best), and the plan is then as good as met.
    if (fitted.arenaBytes() <= *plan.solverOptions.budgetBytes)
      fitted.result.feasible = fitted.fits = true;
    plan.result = std::move(fitted.result);
    plan.liveTargetBytes = fitted.liveTarget;
    plan.plans = fitted.plans;
    plan.arenaAfter = std::move(fitted.arena);
  }

  /// Best's placement of an order's fitted plan, ahead of keepArenaFit.
  void placeBest(OrderPlan &order) const {
    if (order.fit)
      order.bestLayout = placeBestIfItCanFit(order.fit->arena);
  }

  /// Best's placement of `quick`'s buffers, where Quick placed them in
  /// start order only and Best could meet the budget. A plan whose live
  /// bytes alone exceed it (ArenaLayout::lowerBound) misses it in every
  /// placement: its error reports the start-order arena, and best-effort's
  /// plan is placed with Best by the pass (placeStepArena). On a 100k-op
  /// random layered DAG at 0.5 that placement took 8-10 s of 23 s, to
  /// come 0.06% closer to a budget half of its live peak.
  std::optional<ArenaLayout> placeBestIfItCanFit(const StepArena &quick) const {
    const ArenaLayout &layout = quick.layout;
    if (!layout.startOrderOnly ||
        layout.lowerBound > *plan.solverOptions.budgetBytes)
      return std::nullopt;
    return placeArena(quick.buffers);
  }

  /// Takes `best` where it is a smaller arena than `quick`'s; `quick` is
  /// then placed as Best places it.
  static void keepBetterLayout(StepArena &quick,
                               std::optional<ArenaLayout> best) {
    if (!best)
      return;
    ArenaLayout &layout = quick.layout;
    if (best->arenaBytes < layout.arenaBytes)
      layout = std::move(*best);
    layout.startOrderOnly = false;
  }

  const PlanningOptions &options;
  StepPlan &plan;
  Clock::time_point deadline;
  /// Each order's least-peak plan, where its solver made one, and the
  /// memory-aware order (reuseLeastPlans).
  std::shared_ptr<const SolverResult> leastGiven, leastScheduled;
  std::vector<OpId> memoryOrder;
  /// A time model priced the step's ops (Program::costPerSecond).
  bool timePriced = false;
};

} // namespace

Program remat::keptProgram(const Program &given, const StepPlan &plan) {
  return plan.order && plan.order->scheduled ? reorder(given, plan.order->order)
                                             : given;
}

StepPlan remat::planStep(const Program &program,
                         const PlanningOptions &options) {
  assert(createSolver(options.solver) && "planStep needs a known solver");
  StepPlan plan;
  plan.before = computeMemoryProfile(program, options.countInputs);
  plan.arenaBefore = placeStepArena(program, plan.before, options.alignment);
  if (!plan.planned())
    return plan;

  SolverOptions &solve = plan.solverOptions;
  solve.countInputs = options.countInputs;
  solve.minRematBytes = options.minRematBytes;
  solve.isolateSearch = options.isolateSearch;
  // A fraction is of the peak (or arena) in the given order, also with
  // `schedule`: both orders are planned under the same bytes.
  if (options.budget) {
    solve.budgetBytes = options.budget->resolve(
        options.arenaBudget ? plan.arenaBefore.layout.arenaBytes
                            : plan.before.peakBytes);
    solve.minimize = !solve.budgetBytes.has_value();
  }

  std::optional<uint64_t> budget = solve.budgetBytes;
  if (budget) {
    PeakFloor floor = computePeakFloor(program, options.countInputs);
    if (*budget < floor.bytes) {
      plan.belowFloor = floor;
      if (!options.searchBelowFloor) {
        plan.result.peakBytes = plan.before.peakBytes;
        plan.result.feasible = false;
        plan.result.note = "the budget is below the step's floor";
        return plan;
      }
      // No plan meets it: the closest one has the least peak there is,
      // which `min` plans. A search for the budget itself would spend
      // its time on what cannot be (the shared ResNet-50 step, batch 2,
      // at 0.5 of its arena: 31 s, against 0.9 s as `min`).
      solve.budgetBytes.reset();
      solve.minimize = true;
    }
  }

  Clock::time_point start = Clock::now();
  StepPlanner(options, plan,
              start +
                  std::chrono::duration_cast<Clock::duration>(
                      std::chrono::duration<double>(options.timeLimitSeconds)))
      .run(program);
  plan.solveMs =
      std::chrono::duration<double, std::milli>(Clock::now() - start).count();
  if (plan.belowFloor) {
    solve.budgetBytes = budget;
    solve.minimize = false;
    plan.result.feasible = false;
    if (plan.order && plan.order->other)
      plan.order->other->feasible = false;
    plan.result.note = "the budget is below the step's floor; the least-peak "
                       "plan is kept";
  }
  return plan;
}
