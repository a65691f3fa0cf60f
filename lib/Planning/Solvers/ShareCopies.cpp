//===- ShareCopies.cpp - Later readers read copies made inside chains -----===//
//
// A recomputation re-executes a chain of ops; the chain's intermediate
// results are transient, so a later reader of one of them still reads the
// version current before the chain (often the original, which therefore
// stays live across the whole gap). Splitting the chain at such an
// intermediate makes the intermediate a recomputation of its own, whose copy
// becomes the current version (Plan.h): later readers read it and the older
// version dies at its last earlier reader.
//
// Nor is a chain cut between the op creating a buffer and a chain op that
// writes in place into it (a piece may only write into a buffer it creates).
//
// This never raises the peak and never adds FLOPs: the same ops run at the
// same places; the copy lives from the chain to the readers that moved to
// it, a stretch in which the older version was live anyway, and the older
// version's life only shortens (an original left without readers is
// dropped, which saves its FLOPs). That needs the older buffer to die with
// its moved readers: a value whose buffer another value read later shares
// (a view of it, or what it views) is not handed on. So every plan goes
// through it (evaluatePlan), whatever the solver.
//
// Where the copy would become current is decided in reverse placement order,
// because the readers a copy serves end where the next version of the same
// value takes over, and a later chain that splits at the same value is such
// a version.
//
//===----------------------------------------------------------------------===//

#include "SolverSupport.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"

#include <algorithm>
#include <numeric>

using namespace remat;

namespace {

class CopySharer {
public:
  CopySharer(const Program &program, const Plan &plan)
      : program(program), plan(plan), notSaveable(notSaveableValues(program)) {
    size_t numValues = program.values.size();
    aliases.assign(numValues, {});
    for (ValueId v = 0; v < numValues; ++v) {
      if (program.values[v].aliasOf == kNone)
        continue;
      auto &group = aliases[program.rootOf(v)];
      if (group.empty())
        group.push_back(program.rootOf(v));
      group.push_back(v);
    }
    readers.assign(numValues, {});
    for (OpId op = 0; op < program.ops.size(); ++op)
      for (ValueId operand : program.ops[op].operands)
        if (readers[operand].empty() || readers[operand].back() != op)
          readers[operand].push_back(op);

    // Placement order: by `before`, then plan order (materialize's order).
    order.resize(plan.recomputes.size());
    std::iota(order.begin(), order.end(), 0);
    llvm::sort(order, [&](unsigned a, unsigned b) {
      OpId x = plan.recomputes[a].before, y = plan.recomputes[b].before;
      return x != y ? x < y : a < b;
    });
    chainReaders.assign(numValues, {});
    for (unsigned p = 0; p < order.size(); ++p) {
      const Recompute &r = plan.recomputes[order[p]];
      for (OpId c : r.chain)
        for (ValueId operand : program.ops[c].operands) {
          OpId def = program.values[operand].def;
          if (def != kNone && llvm::is_contained(r.chain, def))
            continue;
          auto &list = chainReaders[operand];
          if (list.empty() || list.back() != p)
            list.push_back(p);
        }
    }
  }

  Plan run() {
    std::vector<llvm::SmallVector<Recompute, 1>> pieces(plan.recomputes.size());
    nextVersion.assign(program.values.size(), kNone);
    for (unsigned p = order.size(); p-- > 0;) {
      unsigned k = order[p];
      pieces[k] = split(plan.recomputes[k], p);
      for (const Recompute &piece : pieces[k])
        nextVersion[piece.value] = p;
    }
    Plan shared;
    for (auto &list : pieces)
      for (Recompute &piece : list)
        shared.recomputes.push_back(std::move(piece));
    return shared;
  }

private:
  /// Whether a copy of `value` made at placement position `p` (in front of
  /// op `before`) would be read before the next version takes over.
  bool readLater(ValueId value, OpId before, unsigned p) const {
    unsigned next = nextVersion[value];
    OpId end = next == kNone ? program.ops.size()
                             : plan.recomputes[order[next]].before;
    auto it = llvm::lower_bound(readers[value], before);
    if (it != readers[value].end() && *it < end)
      return true;
    if (next == kNone && program.values[value].isOutput)
      return true;
    const auto &chains = chainReaders[value];
    auto c = std::upper_bound(chains.begin(), chains.end(), p);
    return c != chains.end() && (next == kNone || *c < next);
  }

  /// Whether another value sharing `value`'s buffer (a view of it, or what
  /// it is a view of, or another view of that) is read at or after `before`
  /// (placement position `p`): then the older version's buffer stays live
  /// whatever `value`'s readers read, and a copy they moved to would only
  /// add its bytes.
  bool bufferHeldElsewhere(ValueId value, OpId before, unsigned p) const {
    for (ValueId other : aliases[program.rootOf(value)]) {
      if (other == value)
        continue;
      if (program.values[other].isOutput ||
          llvm::lower_bound(readers[other], before) != readers[other].end())
        return true;
      const auto &chains = chainReaders[other];
      if (std::upper_bound(chains.begin(), chains.end(), p) != chains.end())
        return true;
    }
    return false;
  }

  /// The recomputation, cut after every chain op whose result is read
  /// later or by a later piece. Unchanged when an op would have to hand on
  /// two results (a recomputation makes one value current).
  llvm::SmallVector<Recompute, 1> split(const Recompute &recompute,
                                        unsigned p) const {
    const std::vector<OpId> &chain = recompute.chain;
    size_t m = chain.size();
    llvm::SmallVector<Recompute, 1> unchanged{recompute};
    if (m < 2)
      return unchanged;
    bool mayShare = program.backwardBegin == kNone ||
                    recompute.before >= program.backwardBegin;
    // No cut between the op that creates a buffer and a chain op writing in
    // place into it: the later piece would write into a buffer it does not
    // create, and the copy handed on would be overwritten within the chain.
    // verifyPlan refuses such a piece, evaluatePlan drops it, and with it
    // the recomputation the whole chain made (the peak rose).
    std::vector<bool> mayCut(m, true);
    for (size_t k = 0; k < m; ++k)
      for (ValueId result : program.ops[chain[k]].results) {
        if (!program.values[result].writesInPlace)
          continue;
        auto creator =
            llvm::find(chain, program.values[program.rootOf(result)].def);
        size_t first =
            creator < chain.begin() + k ? creator - chain.begin() : 0;
        for (size_t j = first; j < k; ++j)
          mayCut[j] = false;
      }
    // exported[j]: the value chain[j] hands on (kNone: none, a cut ends
    // there only if set).
    std::vector<ValueId> exported(m, kNone);
    exported[m - 1] = recompute.value;
    size_t nextCut = m - 1;
    for (size_t j = m - 1; j-- > 0;) {
      const OpInfo &op = program.ops[chain[j]];
      unsigned count = 0;
      for (ValueId result : op.results) {
        bool read = readLater(result, recompute.before, p);
        bool held = read && bufferHeldElsewhere(result, recompute.before, p);
        bool later = mayShare && !notSaveable[result] && read && !held;
        // A reader beyond the piece this op falls in needs the copy too.
        bool crosses = llvm::any_of(
            llvm::ArrayRef<OpId>(chain).drop_front(nextCut + 1),
            [&](OpId reader) {
              return llvm::is_contained(program.ops[reader].operands, result);
            });
        // Handing it on to the next piece would make it current all the
        // same.
        if (crosses && (held || !mayCut[j]))
          return unchanged;
        if (!mayCut[j])
          continue;
        if (later || crosses) {
          exported[j] = result;
          ++count;
        }
      }
      if (count == 0)
        continue;
      // A cut here ends the piece: any other result a later chain op reads
      // would be lost with it.
      bool otherRead = llvm::any_of(op.results, [&](ValueId result) {
        return result != exported[j] &&
               llvm::any_of(llvm::ArrayRef<OpId>(chain).drop_front(j + 1),
                            [&](OpId reader) {
                              return llvm::is_contained(
                                  program.ops[reader].operands, result);
                            });
      });
      if (count > 1 || otherRead)
        return unchanged;
      nextCut = j;
    }
    if (nextCut == m - 1)
      return unchanged;
    llvm::SmallVector<Recompute, 1> pieces;
    std::vector<OpId> piece;
    for (size_t j = 0; j < m; ++j) {
      piece.push_back(chain[j]);
      if (exported[j] == kNone)
        continue;
      pieces.push_back({exported[j], recompute.before, std::move(piece)});
      piece.clear();
    }
    return pieces;
  }

  const Program &program;
  const Plan &plan;
  std::vector<bool> notSaveable;
  /// Per buffer-owning value with views: it and every value sharing its
  /// buffer (empty otherwise).
  std::vector<std::vector<ValueId>> aliases;
  /// Original ops reading each value, in program order.
  std::vector<std::vector<OpId>> readers;
  /// Placement positions of the recomputations whose chains read each value
  /// from outside the chain, ascending.
  std::vector<std::vector<unsigned>> chainReaders;
  std::vector<unsigned> order;
  /// Per value: the placement position of the next version made so far in
  /// the reverse walk (kNone: none).
  std::vector<unsigned> nextVersion;
};

} // namespace

Plan remat::shareRecomputedCopies(const Program &program, Plan plan) {
  if (plan.recomputes.empty())
    return plan;
  return CopySharer(program, plan).run();
}
