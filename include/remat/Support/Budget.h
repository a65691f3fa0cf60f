//===- Budget.h - Peak-memory budgets and byte sizes ------------*- C++ -*-===//
//
// One parser for budgets, shared by the `#remat.budget` attribute and every
// pass option, so that "64MiB" means the same thing everywhere.
//
//===----------------------------------------------------------------------===//

#ifndef REMAT_SUPPORT_BUDGET_H
#define REMAT_SUPPORT_BUDGET_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/Hashing.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <optional>
#include <string>

namespace remat {

struct Budget {
  enum class Kind { Bytes, Fraction, Min };

  Kind kind = Kind::Bytes;
  /// For Kind::Bytes.
  uint64_t bytes = 0;
  /// For Kind::Fraction, in (0, 1].
  double fraction = 1.0;

  static Budget ofBytes(uint64_t bytes) { return {Kind::Bytes, bytes, 1.0}; }
  static Budget ofFraction(double f) { return {Kind::Fraction, 0, f}; }
  static Budget min() { return {Kind::Min, 0, 1.0}; }

  /// The budget in bytes for a step whose peak without rematerialization is
  /// `unrematerializedPeak`; std::nullopt for Kind::Min (the solver decides).
  std::optional<uint64_t> resolve(uint64_t unrematerializedPeak) const;

  bool operator==(const Budget &other) const;
  bool operator!=(const Budget &other) const { return !(*this == other); }
};

llvm::hash_code hash_value(const Budget &budget);

/// Parses a budget: a byte count ("67108864"), a size with a unit ("64MiB",
/// "1.5GiB", "512KB", "100B"), a fraction ("0.5", a number with a decimal
/// point and no unit, in (0, 1]) or "min". Whitespace between number and unit
/// is allowed. On failure returns std::nullopt and sets `error` to a message
/// that says what is wrong.
std::optional<Budget> parseBudget(llvm::StringRef text, std::string &error);

/// Parses a budget given as a number token and an optional unit, as the
/// attribute parser sees it. `number` is the literal's spelling.
std::optional<Budget> parseBudget(llvm::StringRef number, llvm::StringRef unit,
                                  std::string &error);

/// Prints a budget in the form parseBudget reads back to the same value:
/// sizes in the largest binary unit dividing them exactly ("64MiB", "1000").
std::string formatBudget(const Budget &budget);

/// A human-readable size for messages ("1.50 MiB (1572864 bytes)").
std::string formatBytes(uint64_t bytes);

/// A short size for tables and pictures ("1.5 MiB", "300 B").
std::string formatBytesShort(uint64_t bytes);

/// Bytes of a dense array of `numElements` elements of `bitWidth` bits each,
/// rounded up to whole bytes; std::nullopt on overflow.
std::optional<uint64_t> denseBytes(uint64_t numElements, uint64_t bitWidth);

/// numElements of a static shape; std::nullopt on overflow or a negative
/// (dynamic) dimension.
std::optional<uint64_t> staticElementCount(llvm::ArrayRef<int64_t> shape);

} // namespace remat

#endif // REMAT_SUPPORT_BUDGET_H
