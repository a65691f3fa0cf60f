//===- Codegen.cpp - How the step's machine code is generated -------------===//

#include "Codegen.h"

#include "llvm/Support/CommandLine.h"

void remat::run::disablePostRaScheduling() {
  llvm::StringRef option = kNoPostRaSchedulingOption;
  option.consume_front("-");
  auto [name, value] = option.split('=');
  auto &registered = llvm::cl::getRegisteredOptions();
  // Absent from an LLVM built without that pass: nothing to turn off. Set
  // once: an option given twice is an error.
  llvm::cl::Option *scheduler = registered.lookup(name);
  if (scheduler && scheduler->getNumOccurrences() == 0)
    scheduler->addOccurrence(/*pos=*/0, name, value);
}
