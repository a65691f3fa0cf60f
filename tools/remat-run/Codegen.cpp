//===- Codegen.cpp - How the step's machine code is generated -------------===//

#include "Codegen.h"

#include "llvm/IR/Module.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Passes/StandardInstrumentations.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Target/TargetMachine.h"

void remat::run::disablePostRaScheduling() {
  llvm::StringRef option = kNoPostRaSchedulingOption;
  option.consume_front("-");
  auto [name, value] = option.split('=');
  auto &registered = llvm::cl::getRegisteredOptions();
  // Absent from an LLVM built without that pass: nothing to turn off. Set
  // once: an option given twice is an error. The pass obeys the option only
  // when it was given at a position past 0, as from a command line; at 0
  // it keeps the subtarget's choice, which is on for AMD Zen.
  llvm::cl::Option *scheduler = registered.lookup(name);
  if (scheduler && scheduler->getNumOccurrences() == 0)
    scheduler->addOccurrence(/*pos=*/1, name, value);
}

std::function<llvm::Error(llvm::Module *)>
remat::run::makeOptimizer(unsigned optLevel,
                          llvm::TargetMachine *targetMachine) {
  return [optLevel, targetMachine](llvm::Module *module) -> llvm::Error {
    llvm::OptimizationLevel level;
    switch (optLevel) {
    case 0:
      level = llvm::OptimizationLevel::O0;
      break;
    case 1:
      level = llvm::OptimizationLevel::O1;
      break;
    case 2:
      level = llvm::OptimizationLevel::O2;
      break;
    default:
      level = llvm::OptimizationLevel::O3;
      break;
    }
    llvm::LoopAnalysisManager loops;
    llvm::FunctionAnalysisManager functions;
    llvm::CGSCCAnalysisManager cgscc;
    llvm::ModuleAnalysisManager modules;
    // The standard instrumentations hold the one that skips optnone
    // functions.
    llvm::PassInstrumentationCallbacks callbacks;
    llvm::StandardInstrumentations instrumentations(module->getContext(),
                                                    /*DebugLogging=*/false);
    instrumentations.registerCallbacks(callbacks, &modules);
    // As upstream's transformer tunes it: the vectorizers on, SLP too.
    llvm::PipelineTuningOptions tuning;
    tuning.LoopUnrolling = true;
    tuning.LoopInterleaving = true;
    tuning.LoopVectorization = true;
    tuning.SLPVectorization = true;
    llvm::PassBuilder builder(targetMachine, tuning, std::nullopt, &callbacks);
    builder.registerModuleAnalyses(modules);
    builder.registerCGSCCAnalyses(cgscc);
    builder.registerFunctionAnalyses(functions);
    builder.registerLoopAnalyses(loops);
    builder.crossRegisterProxies(loops, functions, cgscc, modules);
    llvm::ModulePassManager pipeline =
        optLevel == 0 ? builder.buildO0DefaultPipeline(level)
                      : builder.buildPerModuleDefaultPipeline(level);
    pipeline.run(*module, modules);
    return llvm::Error::success();
  };
}
