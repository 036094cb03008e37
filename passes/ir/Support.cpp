//===- Support.cpp - Fatal errors and target machines for the passes -----===//
//
// An in-process split is a thread-local recovery point: fatal() jumps back to it
// instead of calling report_fatal_error, so the plugin never installs a fatal error
// handler of its own (a host such as libshard's engine has one for the process).
//
//===----------------------------------------------------------------------===//
#include "ir/Support.h"

#include "llvm/Config/llvm-config.h"
#include "llvm/IR/Module.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/ErrorHandling.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/Target/TargetOptions.h"
#include "llvm/TargetParser/Triple.h"

#include <csetjmp>

using namespace llvm;

namespace shard {

namespace {

/// The in-process split running on this thread.
struct InProcessSplit {
  std::jmp_buf Jump;
  MemorySink *Sink;
  std::string Fatal; // fatal()'s message
  std::string Log;   // what the passes printed about the error
  raw_string_ostream LogOS{Log};
};
thread_local InProcessSplit *Current = nullptr;

} // namespace

void fatal(StringRef Pass, const Twine &Msg) {
  if (InProcessSplit *S = Current) {
    S->Fatal = (Twine(Pass) + ": " + Msg).str();
    std::longjmp(S->Jump, 1);
  }
  report_fatal_error(Twine(Pass) + ": " + Msg, /*gen_crash_diag=*/false);
}

bool runInProcess(MemorySink &Sink, function_ref<std::string()> Fn, std::string &Error) {
  // On the heap: what fatal() writes before the jump is not a local of this frame.
  auto S = std::make_unique<InProcessSplit>();
  S->Sink = &Sink;
  InProcessSplit *Outer = Current;
  Current = S.get();
  if (!setjmp(S->Jump))
    S->Fatal = Fn();
  Current = Outer;
  if (S->Fatal.empty())
    return true;
  S->LogOS.flush();
  Error = S->Fatal;
  if (StringRef Log = StringRef(S->Log).rtrim('\n'); !Log.empty())
    Error += "\n" + Log.str();
  return false;
}

MemorySink *memorySink() { return Current ? Current->Sink : nullptr; }

raw_ostream &errorStream() {
  if (Current)
    return Current->LogOS;
  return errs();
}

std::unique_ptr<TargetMachine> createTargetMachine(const Triple &TT, std::optional<Reloc::Model> RM,
                                                   std::string &Err) {
  // LLVM 21 takes the Triple itself where LLVM 19 and 20 take its string.
#if LLVM_VERSION_MAJOR >= 21
  const Target *T = TargetRegistry::lookupTarget(TT, Err);
  if (!T)
    return nullptr;
  return std::unique_ptr<TargetMachine>(T->createTargetMachine(TT, "", "", TargetOptions(), RM));
#else
  const Target *T = TargetRegistry::lookupTarget(TT.str(), Err);
  if (!T)
    return nullptr;
  return std::unique_ptr<TargetMachine>(
      T->createTargetMachine(TT.str(), "", "", TargetOptions(), RM));
#endif
}

OptimizationLevel optLevel(unsigned Level) {
  return Level == 1   ? OptimizationLevel::O1
         : Level == 3 ? OptimizationLevel::O3
                      : OptimizationLevel::O2;
}

void runModulePipeline(Module &M, std::optional<PGOOptions> PGO, PassInstrumentationCallbacks *PIC,
                       function_ref<ModulePassManager(PassBuilder &)> Build) {
  Triple TT(M.getTargetTriple());
  std::unique_ptr<TargetMachine> TM;
  std::string Err;
  if (!TT.str().empty())
    TM = createTargetMachine(TT, Reloc::PIC_, Err);
  LoopAnalysisManager LAM;
  FunctionAnalysisManager FAM;
  CGSCCAnalysisManager CGAM;
  ModuleAnalysisManager MAM;
  PassBuilder PB(TM.get(), PipelineTuningOptions(), PGO, PIC);
  PB.registerModuleAnalyses(MAM);
  PB.registerCGSCCAnalyses(CGAM);
  PB.registerFunctionAnalyses(FAM);
  PB.registerLoopAnalyses(LAM);
  PB.crossRegisterProxies(LAM, FAM, CGAM, MAM);
  ModulePassManager MPM = Build(PB);
  MPM.run(M, MAM);
}

} // namespace shard
