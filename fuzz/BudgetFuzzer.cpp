//===- BudgetFuzzer.cpp - libFuzzer target for the budget parser ----------===//
//
// Feeds arbitrary text to parseBudget. Besides crashes and sanitizer reports,
// checks the parser's contract: an accepted budget is in range, and
// formatBudget prints it in a form that parses back to the same budget.
//
//===----------------------------------------------------------------------===//

#include "remat/Support/Budget.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <cstdlib>
#include <string>

using namespace remat;

static void failContract(llvm::StringRef text, llvm::StringRef what,
                         llvm::StringRef detail) {
  llvm::errs() << "budget '" << text << "': " << what << ": " << detail
               << "\n";
  std::abort();
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  llvm::StringRef text(reinterpret_cast<const char *>(data), size);
  std::string error;
  std::optional<Budget> budget = parseBudget(text, error);
  if (!budget) {
    if (error.empty())
      failContract(text, "rejected without a message", "");
    return 0;
  }
  if (budget->kind == Budget::Kind::Fraction &&
      !(budget->fraction > 0.0 && budget->fraction <= 1.0))
    failContract(text, "fraction out of (0, 1]", formatBudget(*budget));

  std::string printed = formatBudget(*budget);
  std::string reparseError;
  std::optional<Budget> reparsed = parseBudget(printed, reparseError);
  if (!reparsed)
    failContract(text, "printed form '" + printed + "' does not parse",
                 reparseError);
  if (*reparsed != *budget)
    failContract(text, "printed form '" + printed + "' reads back differently",
                 formatBudget(*reparsed));
  return 0;
}
