//===- Budget.cpp - Peak-memory budgets and byte sizes --------------------===//

#include "remat/Support/Budget.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/ADT/Twine.h"
#include "llvm/ADT/bit.h"
#include "llvm/Support/CheckedArithmetic.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

#include <cmath>
#include <cstdlib>

using namespace remat;

std::optional<uint64_t> Budget::resolve(uint64_t unrematerializedPeak) const {
  switch (kind) {
  case Kind::Bytes:
    return bytes;
  case Kind::Fraction:
    // Round down: a budget must never be looser than what was asked for.
    return static_cast<uint64_t>(
        std::floor(fraction * static_cast<double>(unrematerializedPeak)));
  case Kind::Min:
    return std::nullopt;
  }
  return std::nullopt;
}

bool Budget::operator==(const Budget &other) const {
  if (kind != other.kind)
    return false;
  switch (kind) {
  case Kind::Bytes:
    return bytes == other.bytes;
  case Kind::Fraction:
    return fraction == other.fraction;
  case Kind::Min:
    return true;
  }
  return false;
}

llvm::hash_code remat::hash_value(const Budget &budget) {
  return llvm::hash_combine(static_cast<int>(budget.kind), budget.bytes,
                            llvm::bit_cast<uint64_t>(budget.fraction));
}

static std::optional<uint64_t> unitScale(llvm::StringRef unit) {
  return llvm::StringSwitch<std::optional<uint64_t>>(unit)
      .Case("B", 1)
      .Case("KiB", 1ull << 10)
      .Case("MiB", 1ull << 20)
      .Case("GiB", 1ull << 30)
      .Case("TiB", 1ull << 40)
      .Case("KB", 1000ull)
      .Case("MB", 1000ull * 1000)
      .Case("GB", 1000ull * 1000 * 1000)
      .Case("TB", 1000ull * 1000 * 1000 * 1000)
      .Default(std::nullopt);
}

std::optional<Budget> remat::parseBudget(llvm::StringRef number,
                                         llvm::StringRef unit,
                                         std::string &error) {
  number = number.trim();
  unit = unit.trim();
  if (number.empty()) {
    error = "expected a budget: bytes, a size such as '64MiB', a fraction "
            "such as '0.5', or 'min'";
    return std::nullopt;
  }
  if (number.starts_with("-")) {
    error = "budget must not be negative, got '" + number.str() + "'";
    return std::nullopt;
  }
  bool isInteger = number.find_first_not_of("0123456789") ==
                   llvm::StringRef::npos;
  std::optional<uint64_t> scale = 1;
  if (!unit.empty()) {
    scale = unitScale(unit);
    if (!scale) {
      error = "unknown budget unit '" + unit.str() +
              "' (expected B, KiB, MiB, GiB, TiB, KB, MB, GB or TB)";
      return std::nullopt;
    }
  }

  if (isInteger) {
    uint64_t value = 0;
    if (number.getAsInteger(10, value)) {
      error = "budget '" + number.str() + "' does not fit in 64 bits";
      return std::nullopt;
    }
    std::optional<uint64_t> bytes = llvm::checkedMulUnsigned(value, *scale);
    if (!bytes) {
      error = "budget '" + number.str() + unit.str() +
              "' overflows 64-bit byte counts";
      return std::nullopt;
    }
    return Budget::ofBytes(*bytes);
  }

  // A decimal number: digits with one '.' and an optional exponent.
  std::string spelling = number.str();
  char *end = nullptr;
  double value = std::strtod(spelling.c_str(), &end);
  if (end != spelling.c_str() + spelling.size() || spelling.empty() ||
      !std::isfinite(value) ||
      number.find_first_not_of("0123456789.eE+-") != llvm::StringRef::npos) {
    error = "malformed budget '" + number.str() + unit.str() + "'";
    return std::nullopt;
  }
  if (unit.empty()) {
    if (!(value > 0.0 && value <= 1.0)) {
      error = "a budget fraction must be in (0, 1], got '" + number.str() +
              "'";
      return std::nullopt;
    }
    return Budget::ofFraction(value);
  }
  double bytes = value * static_cast<double>(*scale);
  if (bytes >= 18446744073709551616.0) {
    error = "budget '" + number.str() + unit.str() +
            "' overflows 64-bit byte counts";
    return std::nullopt;
  }
  if (bytes != std::floor(bytes)) {
    error = "budget '" + number.str() + unit.str() +
            "' is not a whole number of bytes";
    return std::nullopt;
  }
  return Budget::ofBytes(static_cast<uint64_t>(bytes));
}

/// The grammar every budget error states, so that a rejected spelling says
/// what would have been accepted.
static constexpr llvm::StringLiteral kBudgetGrammar =
    "a budget is 'min', a whole number of bytes ('67108864'), a size with a "
    "unit B, KB, MB, GB, TB, KiB, MiB, GiB or TiB ('64MiB', '1.5GiB'), or a "
    "fraction of the peak in (0, 1] written with a decimal point ('0.5'); "
    "signs, exponents, inf and nan are not accepted";

std::optional<Budget> remat::parseBudget(llvm::StringRef text,
                                         std::string &error) {
  text = text.trim();
  if (text == "min")
    return Budget::min();
  auto fail = [&](const llvm::Twine &what) -> std::optional<Budget> {
    error = (what + "; " + kBudgetGrammar).str();
    return std::nullopt;
  };
  if (text.empty())
    return fail("expected a budget");
  if (text.starts_with("-"))
    return fail("budget must not be negative, got '" + text + "'");
  // "<digits>[.<digits>][ ]<unit>": the unit starts at the first letter.
  size_t split = text.find_if([](char c) {
    return std::isalpha(static_cast<unsigned char>(c));
  });
  llvm::StringRef number = text.take_front(split).rtrim();
  llvm::StringRef unit = text.drop_front(number.size()).ltrim();
  bool wellFormed = !number.empty() &&
                    number.find_first_not_of("0123456789.") ==
                        llvm::StringRef::npos &&
                    number.count('.') <= 1 && number != "." &&
                    !number.starts_with(".") && !number.ends_with(".");
  if (!wellFormed)
    return fail("malformed budget '" + text + "'");
  if (unit.size() > 1 && (unit[0] == 'e' || unit[0] == 'E') &&
      (std::isdigit(static_cast<unsigned char>(unit[1])) || unit[1] == '+' ||
       unit[1] == '-'))
    return fail("budget '" + text + "' has an exponent");
  std::optional<Budget> budget = parseBudget(number, unit, error);
  if (!budget)
    return fail(error);
  return budget;
}

std::string remat::formatBudget(const Budget &budget) {
  switch (budget.kind) {
  case Budget::Kind::Min:
    return "min";
  case Budget::Kind::Fraction: {
    // The fewest decimals that read back exactly, in fixed notation: the
    // grammar has no exponents, and "%g" writes small fractions with one.
    // The smallest double needs 1074 decimals, so the loop ends.
    std::string s;
    for (int decimals = 1;; ++decimals) {
      s.clear();
      llvm::raw_string_ostream os(s);
      os << llvm::format("%.*f", decimals, budget.fraction);
      if (std::strtod(s.c_str(), nullptr) == budget.fraction)
        return s;
    }
  }
  case Budget::Kind::Bytes: {
    static const std::pair<uint64_t, const char *> units[] = {
        {1ull << 40, "TiB"}, {1ull << 30, "GiB"}, {1ull << 20, "MiB"},
        {1ull << 10, "KiB"}};
    for (auto [scale, name] : units)
      if (budget.bytes != 0 && budget.bytes % scale == 0)
        return std::to_string(budget.bytes / scale) + name;
    return std::to_string(budget.bytes);
  }
  }
  return {};
}

/// `bytes` in the largest binary unit not above it, with `decimals` digits;
/// plain bytes below 1 KiB.
static std::string scaledBytes(uint64_t bytes, int decimals) {
  static const std::pair<uint64_t, const char *> units[] = {
      {1ull << 30, "GiB"}, {1ull << 20, "MiB"}, {1ull << 10, "KiB"}};
  std::string s;
  llvm::raw_string_ostream os(s);
  for (auto [scale, name] : units)
    if (bytes >= scale) {
      os << llvm::format("%.*f ", decimals, bytes / double(scale)) << name;
      return s;
    }
  os << bytes << " B";
  return s;
}

std::string remat::formatBytes(uint64_t bytes) {
  if (bytes < (1ull << 10))
    return scaledBytes(bytes, 2);
  return scaledBytes(bytes, 2) + " (" + std::to_string(bytes) + " bytes)";
}

std::string remat::formatBytesShort(uint64_t bytes) {
  return scaledBytes(bytes, 1);
}

std::optional<uint64_t> remat::denseBytes(uint64_t numElements,
                                          uint64_t bitWidth) {
  std::optional<uint64_t> bits = llvm::checkedMulUnsigned(numElements, bitWidth);
  if (!bits)
    return std::nullopt;
  return *bits / 8 + (*bits % 8 != 0);
}

std::optional<uint64_t>
remat::staticElementCount(llvm::ArrayRef<int64_t> shape) {
  uint64_t count = 1;
  for (int64_t dim : shape) {
    if (dim < 0)
      return std::nullopt;
    std::optional<uint64_t> next =
        llvm::checkedMulUnsigned(count, static_cast<uint64_t>(dim));
    if (!next)
      return std::nullopt;
    count = *next;
  }
  return count;
}
