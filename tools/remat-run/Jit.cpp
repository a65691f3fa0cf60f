//===- Jit.cpp - The lowered module compiled on every core ----------------===//

#include "Jit.h"

#include "Codegen.h"

#include "remat/Runtime/RematRuntime.h"

#include "mlir/Target/LLVMIR/Export.h"
#include "llvm/Bitcode/BitcodeReader.h"
#include "llvm/Bitcode/BitcodeWriter.h"
#include "llvm/ExecutionEngine/Orc/ExecutionUtils.h"
#include "llvm/ExecutionEngine/JITEventListener.h"
#include "llvm/ExecutionEngine/Orc/JITTargetMachineBuilder.h"
#include "llvm/ExecutionEngine/Orc/RTDyldObjectLinkingLayer.h"
#include "llvm/ExecutionEngine/Orc/SelfExecutorProcessControl.h"
#include "llvm/ExecutionEngine/Orc/TaskDispatch.h"
#include "llvm/ExecutionEngine/SectionMemoryManager.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/Threading.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/Transforms/Utils/SplitModule.h"

using namespace remat::run;
namespace orc = llvm::orc;

namespace {

llvm::Error failure(const llvm::Twine &what, llvm::Error cause) {
  return llvm::createStringError(what + ": " + llvm::toString(std::move(cause)));
}

/// Adds `void <name>(void **arguments)`, which calls `function` with
/// `*arguments[i]` as its argument i (and stores a result through the
/// pointer after them): one signature to call any step through.
std::string addPackedEntry(llvm::Module &module, llvm::Function &function) {
  llvm::LLVMContext &context = module.getContext();
  auto *pointer = llvm::PointerType::getUnqual(context);
  std::string name = ("_remat_packed" + function.getName()).str();
  auto *packed = llvm::Function::Create(
      llvm::FunctionType::get(llvm::Type::getVoidTy(context), {pointer},
                              /*isVarArg=*/false),
      llvm::GlobalValue::ExternalLinkage, name, module);
  llvm::IRBuilder<> builder(llvm::BasicBlock::Create(context, "", packed));
  auto argumentSlot = [&](unsigned i) {
    return builder.CreateLoad(
        pointer, builder.CreateConstGEP1_64(pointer, packed->getArg(0), i));
  };
  llvm::SmallVector<llvm::Value *> arguments;
  for (llvm::Argument &argument : function.args())
    arguments.push_back(
        builder.CreateLoad(argument.getType(), argumentSlot(argument.getArgNo())));
  llvm::Value *result = builder.CreateCall(&function, arguments);
  if (!result->getType()->isVoidTy())
    builder.CreateStore(result, argumentSlot(function.arg_size()));
  builder.CreateRetVoid();
  return name;
}

/// The parts compiled concurrently, each in a context of its own (a context
/// is used by one thread at a time), and a function each part defines.
struct Part {
  orc::ThreadSafeModule module;
  std::string definedFunction;
};

llvm::Expected<Part> partFromBitcode(llvm::StringRef bitcode) {
  auto context = std::make_unique<llvm::LLVMContext>();
  llvm::Expected<std::unique_ptr<llvm::Module>> module = llvm::parseBitcodeFile(
      llvm::MemoryBufferRef(bitcode, "step part"), *context);
  if (!module)
    return module.takeError();
  Part part;
  for (llvm::Function &function : **module)
    if (!function.isDeclaration() && !function.hasLocalLinkage()) {
      part.definedFunction = function.getName().str();
      break;
    }
  part.module = orc::ThreadSafeModule(std::move(*module), std::move(context));
  return part;
}

/// `module` whole (one thread) or in `count` parts of about equal size.
llvm::Expected<llvm::SmallVector<Part>>
splitIntoParts(std::unique_ptr<llvm::Module> module,
               std::unique_ptr<llvm::LLVMContext> context, unsigned count) {
  llvm::SmallVector<Part> parts;
  if (count <= 1) {
    parts.push_back({orc::ThreadSafeModule(std::move(module), std::move(context)),
                     ""});
    return parts;
  }
  // The parts share the whole module's context; bitcode moves each into
  // its own. Functions are dealt out by size, not by name.
  llvm::SmallVector<llvm::SmallString<0>> bitcodes;
  llvm::SplitModule(
      *module, count,
      [&](std::unique_ptr<llvm::Module> part) {
        llvm::raw_svector_ostream stream(bitcodes.emplace_back());
        llvm::WriteBitcodeToFile(*part, stream);
      },
      /*PreserveLocals=*/false, /*RoundRobin=*/true);
  // The whole module, then its context: a module unregisters from it.
  module.reset();
  context.reset();
  for (const llvm::SmallString<0> &bitcode : bitcodes) {
    llvm::Expected<Part> part = partFromBitcode(bitcode);
    if (!part)
      return part.takeError();
    parts.push_back(std::move(*part));
  }
  return parts;
}

/// The allocator the runtime's counters belong to (the copy linked into
/// this tool), and the process's other symbols (libm, the runtime).
llvm::Error addHostSymbols(orc::LLJIT &jit) {
  orc::JITDylib &main = jit.getMainJITDylib();
  orc::MangleAndInterner intern(jit.getExecutionSession(), jit.getDataLayout());
  orc::SymbolMap symbols;
  auto add = [&](const char *name, auto *function) {
    symbols[intern(name)] = {orc::ExecutorAddr::fromPtr(function),
                             llvm::JITSymbolFlags::Exported};
  };
  add("_mlir_memref_to_llvm_alloc", &_mlir_memref_to_llvm_alloc);
  add("_mlir_memref_to_llvm_aligned_alloc", &_mlir_memref_to_llvm_aligned_alloc);
  add("_mlir_memref_to_llvm_free", &_mlir_memref_to_llvm_free);
  add("memrefCopy", &memrefCopy);
  if (llvm::Error error = main.define(orc::absoluteSymbols(std::move(symbols))))
    return error;
  llvm::Expected<std::unique_ptr<orc::DynamicLibrarySearchGenerator>> process =
      orc::DynamicLibrarySearchGenerator::GetForCurrentProcess(
          jit.getDataLayout().getGlobalPrefix());
  if (!process)
    return process.takeError();
  main.addGenerator(std::move(*process));
  return llvm::Error::success();
}

/// The JIT's object layer: LLVM's runtime linker, with the code announced
/// to gdb and, with `perf`, to perf (jitdump files for `perf inject
/// --jit`), so that the compiled step can be debugged and profiled by
/// function.
orc::LLJITBuilderState::ObjectLinkingLayerCreator linkerFor(bool perf) {
  return [perf](orc::ExecutionSession &session)
             -> llvm::Expected<std::unique_ptr<orc::ObjectLayer>> {
    auto linker = std::make_unique<orc::RTDyldObjectLinkingLayer>(
        session, [](const llvm::MemoryBuffer &) {
          return std::make_unique<llvm::SectionMemoryManager>();
        });
    if (llvm::JITEventListener *gdb =
            llvm::JITEventListener::createGDBRegistrationListener())
      linker->registerJITEventListener(*gdb);
    if (perf) {
      llvm::JITEventListener *listener =
          llvm::JITEventListener::createPerfJITEventListener();
      if (!listener)
        return llvm::createStringError(
            "--perf: this LLVM was built without perf support");
      linker->registerJITEventListener(*listener);
    }
    return linker;
  };
}

/// Compiles on a pool of threads and runs every other task of the session
/// (a lookup's completion, above all) on the thread that hands it over.
/// ORC's LLJIT::initialize and deinitialize wait for their init-symbol
/// lookups on a condition variable on their stack, which the completion
/// signals after releasing the lock it counted down under: run on a pool
/// thread, the signal could come after the waiter saw the count reach zero
/// and returned, into a stack frame reused since. It hung remat-run in the
/// dispatcher's shutdown (a thread stuck in pthread_cond_signal on the
/// main thread's stack, in one run of each of two differential soaks of
/// 320 runs) and could write into a live frame. Those lookups run after
/// every part is compiled, so their symbols are ready and they complete, in
/// place, before the wait.
class CompileThreadsDispatcher : public orc::TaskDispatcher {
public:
  explicit CompileThreadsDispatcher(size_t threads) : pool(threads) {}

  void dispatch(std::unique_ptr<orc::Task> task) override {
    if (llvm::isa<orc::MaterializationTask>(*task))
      pool.dispatch(std::move(task));
    else
      task->run();
  }

  void shutdown() override { pool.shutdown(); }

private:
  orc::DynamicThreadPoolTaskDispatcher pool;
};

} // namespace

CompiledModule::~CompiledModule() {
  if (!jit)
    return;
  llvm::consumeError(jit->deinitialize(jit->getMainJITDylib()));
  // ORC's session end removes the JITDylibs before it stops the compile
  // threads, and a task still in flight then finds its resource tracker
  // defunct ("JIT session error"), or state already freed: remat-run once
  // crashed as it exited. With thread exits delayed, that error came on 5
  // of 30 runs of a SqueezeNet step compiled on two threads, none on one.
  // The dispatcher's shutdown waits for every task first.
  jit->getExecutionSession().getExecutorProcessControl().getDispatcher()
      .shutdown();
}

llvm::Expected<std::unique_ptr<CompiledModule>>
CompiledModule::compile(mlir::ModuleOp module, llvm::StringRef entry,
                        unsigned optLevel, unsigned threads, bool perf) {
  llvm::InitializeNativeTarget();
  llvm::InitializeNativeTargetAsmPrinter();
  disablePostRaScheduling();
  if (threads == 0)
    threads = llvm::hardware_concurrency().compute_thread_count();

  // The host's CPU and features, so that LLVM's vectorizers and code
  // generation use its vector unit (AVX-512 where it has it).
  llvm::Expected<orc::JITTargetMachineBuilder> host =
      orc::JITTargetMachineBuilder::detectHost();
  if (!host)
    return failure("cannot describe the host CPU", host.takeError());
  llvm::Expected<std::unique_ptr<llvm::TargetMachine>> layout =
      host->createTargetMachine();
  if (!layout)
    return failure("cannot describe the host CPU", layout.takeError());

  auto context = std::make_unique<llvm::LLVMContext>();
  std::unique_ptr<llvm::Module> llvmModule =
      mlir::translateModuleToLLVMIR(module, *context);
  if (!llvmModule)
    return llvm::createStringError("cannot translate the module to LLVM IR");
  llvmModule->setDataLayout((*layout)->createDataLayout());
  llvmModule->setTargetTriple((*layout)->getTargetTriple());
  std::string cInterface = ("_mlir_ciface_" + entry).str();
  llvm::Function *entryFunction = llvmModule->getFunction(cInterface);
  if (!entryFunction || entryFunction->isDeclaration())
    return llvm::createStringError("the module defines no @" + cInterface);
  std::string packedName = addPackedEntry(*llvmModule, *entryFunction);

  llvm::Expected<llvm::SmallVector<Part>> parts =
      splitIntoParts(std::move(llvmModule), std::move(context), threads);
  if (!parts)
    return failure("cannot split the module", parts.takeError());

  auto compiled = std::unique_ptr<CompiledModule>(new CompiledModule);
  // One part compiles on this thread, as every task then runs.
  bool concurrent = parts->size() > 1;
  std::unique_ptr<orc::TaskDispatcher> dispatcher;
  if (concurrent)
    dispatcher = std::make_unique<CompileThreadsDispatcher>(parts->size());
  else
    dispatcher = std::make_unique<orc::InPlaceTaskDispatcher>();
  llvm::Expected<std::unique_ptr<orc::SelfExecutorProcessControl>> process =
      orc::SelfExecutorProcessControl::Create(nullptr, std::move(dispatcher));
  if (!process)
    return failure("cannot start the JIT", process.takeError());
  llvm::Expected<std::unique_ptr<orc::LLJIT>> jit =
      orc::LLJITBuilder()
          .setJITTargetMachineBuilder(*host)
          .setExecutorProcessControl(std::move(*process))
          .setSupportConcurrentCompilation(concurrent)
          .setObjectLinkingLayerCreator(linkerFor(perf))
          .create();
  if (!jit)
    return failure("cannot start the JIT", jit.takeError());
  compiled->jit = std::move(*jit);
  orc::LLJIT &engine = *compiled->jit;
  // Each part is optimized on the thread that compiles it, with a target
  // machine of its own: the optimizer asks it for cost models.
  engine.getIRTransformLayer().setTransform(
      [builder = *host, optLevel](orc::ThreadSafeModule part,
                                  orc::MaterializationResponsibility &)
          -> llvm::Expected<orc::ThreadSafeModule> {
        orc::JITTargetMachineBuilder copy = builder;
        llvm::Expected<std::unique_ptr<llvm::TargetMachine>> machine =
            copy.createTargetMachine();
        if (!machine)
          return machine.takeError();
        if (llvm::Error error = part.withModuleDo([&](llvm::Module &module) {
              return makeOptimizer(optLevel, machine->get())(&module);
            }))
          return std::move(error);
        return std::move(part);
      });
  if (llvm::Error error = addHostSymbols(engine))
    return failure("cannot link the runtime", std::move(error));

  // Looking up a function of every part at once compiles the parts
  // concurrently; one at a time, each lookup would wait for its part.
  orc::JITDylib &main = engine.getMainJITDylib();
  orc::SymbolLookupSet wanted;
  for (Part &part : *parts) {
    if (!part.definedFunction.empty())
      wanted.add(engine.mangleAndIntern(part.definedFunction));
    if (llvm::Error error = engine.addIRModule(std::move(part.module)))
      return failure("cannot JIT-compile the module", std::move(error));
  }
  wanted.add(engine.mangleAndIntern(packedName));
  if (llvm::Expected<orc::SymbolMap> found =
          engine.getExecutionSession().lookup(
              orc::makeJITDylibSearchOrder(
                  &main, orc::JITDylibLookupFlags::MatchAllSymbols),
              std::move(wanted));
      !found)
    return failure("cannot JIT-compile the module", found.takeError());
  if (llvm::Error error = engine.initialize(main))
    return failure("cannot run the module's constructors", std::move(error));
  llvm::Expected<orc::ExecutorAddr> packed = engine.lookup(packedName);
  if (!packed)
    return failure("cannot find @" + cInterface, packed.takeError());
  compiled->packedEntry = packed->toPtr<void (*)(void **)>();
  return compiled;
}
