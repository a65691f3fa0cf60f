//===- BudgetTest.cpp - Budget parsing and byte arithmetic ----------------===//

#include "remat/Support/Budget.h"

#include <gtest/gtest.h>

#include <limits>

using namespace remat;

namespace {

Budget parseOk(llvm::StringRef text) {
  std::string error;
  std::optional<Budget> budget = parseBudget(text, error);
  EXPECT_TRUE(budget.has_value()) << text.str() << ": " << error;
  return budget.value_or(Budget::min());
}

std::string parseError(llvm::StringRef text) {
  std::string error;
  std::optional<Budget> budget = parseBudget(text, error);
  EXPECT_FALSE(budget.has_value()) << text.str() << " parsed unexpectedly";
  return error;
}

TEST(BudgetParse, PlainBytes) {
  Budget b = parseOk("67108864");
  EXPECT_EQ(b.kind, Budget::Kind::Bytes);
  EXPECT_EQ(b.bytes, 67108864u);
  EXPECT_EQ(parseOk("0").bytes, 0u);
}

TEST(BudgetParse, BinaryAndDecimalUnits) {
  EXPECT_EQ(parseOk("64MiB").bytes, 64u << 20);
  EXPECT_EQ(parseOk("14KiB").bytes, 14u << 10);
  EXPECT_EQ(parseOk("2GiB").bytes, 2ull << 30);
  EXPECT_EQ(parseOk("1TiB").bytes, 1ull << 40);
  EXPECT_EQ(parseOk("512KB").bytes, 512000u);
  EXPECT_EQ(parseOk("3MB").bytes, 3000000u);
  EXPECT_EQ(parseOk("1GB").bytes, 1000000000u);
  EXPECT_EQ(parseOk("100B").bytes, 100u);
  EXPECT_EQ(parseOk(" 8 MiB ").bytes, 8u << 20);
}

TEST(BudgetParse, FractionalSizes) {
  EXPECT_EQ(parseOk("1.5GiB").bytes, 3ull << 29);
  EXPECT_EQ(parseOk("0.5KiB").bytes, 512u);
  EXPECT_NE(parseError("0.3B").find("whole number of bytes"),
            std::string::npos);
}

TEST(BudgetParse, Fractions) {
  Budget b = parseOk("0.5");
  EXPECT_EQ(b.kind, Budget::Kind::Fraction);
  EXPECT_DOUBLE_EQ(b.fraction, 0.5);
  EXPECT_DOUBLE_EQ(parseOk("1.0").fraction, 1.0);
  EXPECT_NE(parseError("1.5").find("(0, 1]"), std::string::npos);
  EXPECT_NE(parseError("0.0").find("(0, 1]"), std::string::npos);
}

TEST(BudgetParse, Min) {
  EXPECT_EQ(parseOk("min").kind, Budget::Kind::Min);
  EXPECT_EQ(parseOk("  min ").kind, Budget::Kind::Min);
}

TEST(BudgetParse, Garbage) {
  EXPECT_NE(parseError("").find("expected a budget"), std::string::npos);
  EXPECT_NE(parseError("lots").find("malformed"), std::string::npos);
  EXPECT_NE(parseError("12XB").find("unknown budget unit"), std::string::npos);
  EXPECT_NE(parseError("1.2.3").find("malformed"), std::string::npos);
  EXPECT_NE(parseError("64 MiB extra").find("unknown budget unit"),
            std::string::npos);
}

TEST(BudgetParse, Negative) {
  EXPECT_NE(parseError("-1").find("negative"), std::string::npos);
  EXPECT_NE(parseError("-0.5").find("negative"), std::string::npos);
  EXPECT_NE(parseError("-3MiB").find("negative"), std::string::npos);
}

// One grammar for every spelling: exponents, infinities and NaNs are
// rejected alike, and the message says what is accepted.
TEST(BudgetParse, ExponentsInfinitiesAndNaNsAreRejected) {
  for (const char *text : {"2e3", "1e0", "1.5e3KB", "5E-1", "1e30TB"})
    EXPECT_NE(parseError(text).find("has an exponent"), std::string::npos)
        << text;
  for (const char *text : {"inf", "nan", "+0.5", ".5", "5."})
    EXPECT_NE(parseError(text).find("malformed budget"), std::string::npos)
        << text;
  EXPECT_NE(parseError("-inf").find("must not be negative, got '-inf'"),
            std::string::npos);
}

TEST(BudgetParse, ErrorsStateTheGrammar) {
  for (const char *text : {"", "lots", "2e3", "-1", "1.5", "12XB", "0.3B"})
    EXPECT_NE(parseError(text).find("a budget is 'min', a whole number of "
                                    "bytes"),
              std::string::npos)
        << text;
}

TEST(BudgetParse, Overflow) {
  EXPECT_NE(parseError("18446744073709551616").find("64 bits"),
            std::string::npos);
  EXPECT_NE(parseError("17179869184GiB").find("overflows"), std::string::npos);
  EXPECT_NE(parseError("99999999999999999999.5TB").find("overflows"),
            std::string::npos);
  EXPECT_EQ(parseOk("18446744073709551615").bytes, ~0ull);
}

TEST(BudgetFormat, RoundTrips) {
  for (const char *text : {"64MiB", "1000", "0.5", "min", "3KiB", "1.0",
                           "0.25", "1TiB", "0.7"}) {
    Budget b = parseOk(text);
    EXPECT_EQ(parseOk(formatBudget(b)), b) << text;
  }
  EXPECT_EQ(formatBudget(Budget::ofBytes(64u << 20)), "64MiB");
  EXPECT_EQ(formatBudget(Budget::ofBytes(1000)), "1000");
  EXPECT_EQ(formatBudget(Budget::ofBytes(0)), "0");
  EXPECT_EQ(formatBudget(Budget::ofFraction(0.5)), "0.5");
  EXPECT_EQ(formatBudget(Budget::ofFraction(1.0)), "1.0");
}

// Small fractions are printed without an exponent, which the grammar
// rejects (found by fuzzing).
TEST(BudgetFormat, SmallFractionsRoundTrip) {
  for (const char *text : {"000.0000008601185923634331492", "0.00001",
                           "0.0000000000000000000000000000000000000001"}) {
    Budget b = parseOk(text);
    std::string printed = formatBudget(b);
    EXPECT_EQ(printed.find_first_of("eE"), std::string::npos) << printed;
    EXPECT_EQ(parseOk(printed), b) << text;
  }
  EXPECT_EQ(formatBudget(Budget::ofFraction(0.00001)), "0.00001");
  Budget tiny = Budget::ofFraction(std::numeric_limits<double>::denorm_min());
  EXPECT_EQ(parseOk(formatBudget(tiny)), tiny);
}

TEST(BudgetResolve, FractionRoundsDown) {
  EXPECT_EQ(Budget::ofFraction(0.5).resolve(1001), 500u);
  EXPECT_EQ(Budget::ofBytes(77).resolve(1000), 77u);
  EXPECT_FALSE(Budget::min().resolve(1000).has_value());
}

TEST(ByteSize, DenseBytesRoundsUpAndDetectsOverflow) {
  EXPECT_EQ(denseBytes(16, 32), 64u);
  EXPECT_EQ(denseBytes(3, 1), 1u);
  EXPECT_EQ(denseBytes(9, 1), 2u);
  EXPECT_EQ(denseBytes(0, 32), 0u);
  EXPECT_FALSE(denseBytes(~0ull, 64).has_value());
}

TEST(ByteSize, StaticElementCount) {
  EXPECT_EQ(staticElementCount({2, 3, 4}), 24u);
  EXPECT_EQ(staticElementCount({}), 1u);
  EXPECT_FALSE(staticElementCount({2, -1}).has_value());
  EXPECT_FALSE(
      staticElementCount({1ll << 40, 1ll << 40}).has_value());
}

} // namespace
