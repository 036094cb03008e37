//===- InProcess.cpp - The plugin's in-process split ----------------------===//
//
// shard_plugin_split_v2 (shard-plugin.h) runs the driver's phase-1 pipeline text
// on a module of its host, as opt runs it: a PassBuilder with the plugin's
// callbacks (registerPlugin), every target registered, and the TargetMachine opt
// makes for a module with a triple and no -mcpu (default CPU and features, -O2
// code generation; none without a triple), which also gives such a module without a
// data layout its target's, as opt's reader does. shard-split<memory> hands the manifest
// and each shard's bitcode to the host's sink, the bytes opt would write.
//
// The host's process goes on after any error a module or a pipeline text can
// cause: a bad pipeline comes back from the parser, and the passes' fatal() jumps
// back to this call (runInProcess). A fatal error inside LLVM itself goes to the
// host's handler (libshard's engine has one that recovers), and a crash is a crash.
//
//===----------------------------------------------------------------------===//
#include "Plugin.h"
#include "ir/Support.h"
#include "shard-plugin.h"

#include "llvm/IR/Module.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/TargetParser/Triple.h"

#include <cstdlib>
#include <cstring>
#include <mutex>
#include <type_traits>

using namespace llvm;

namespace {

/// The host's sink behind the MemorySink of shard-split<memory>.
class HostSink : public shard::MemorySink {
  const shard_plugin_sink &Sink;

public:
  bool Stopped = false; // a callback returned nonzero
  bool Heard = false;   // the split sent something, or asked about a shard

  explicit HostSink(const shard_plugin_sink &Sink) : Sink(Sink) {}

  bool manifest(StringRef Text) override {
    Heard = true;
    Stopped = Sink.manifest(Sink.user, Text.data(), Text.size()) != 0;
    return !Stopped;
  }

  /// The host owns the bitcode: a malloc'ed copy.
  bool shard(unsigned S, StringRef Bitcode) override {
    Heard = true;
    char *Copy = static_cast<char *>(std::malloc(Bitcode.size() ? Bitcode.size() : 1));
    if (!Copy)
      shard::fatal("shard-split", "out of memory for shard " + Twine(S));
    std::memcpy(Copy, Bitcode.data(), Bitcode.size());
    Stopped = Sink.shard(Sink.user, static_cast<int>(S), Copy, Bitcode.size()) != 0;
    return !Stopped;
  }

  /// Asked about every shard: a part that writes none was heard too.
  std::optional<bool> claim(unsigned S, bool Static) override {
    Heard = true;
    int Answer = Sink.claim ? Sink.claim(Sink.user, static_cast<int>(S)) : Static;
    Stopped = Answer < 0;
    if (Stopped)
      return std::nullopt;
    return Answer != 0;
  }
};

/// Registers every target once, as opt does at its start (a host may have done it).
void initializeTargets() {
  static std::once_flag Once;
  std::call_once(Once, [] {
    InitializeAllTargetInfos();
    InitializeAllTargets();
    InitializeAllTargetMCs();
    InitializeAllAsmPrinters();
    InitializeAllAsmParsers();
  });
}

/// Runs the pipeline text Passes on M as opt does; the error, or "" on success.
std::string runPipeline(Module &M, StringRef Passes, const HostSink &Host) {
  Triple TT(M.getTargetTriple());
  std::unique_ptr<TargetMachine> TM;
  std::string TMError; // as for opt, a module whose target is missing gets no TargetMachine
  if (TT.getArch() != Triple::UnknownArch)
    TM = shard::createTargetMachine(TT, std::nullopt, TMError);
  // opt gives a module with a triple and no data layout its target's as it reads it.
  if (TM && M.getDataLayoutStr().empty())
    M.setDataLayout(TM->createDataLayout());
  LoopAnalysisManager LAM;
  FunctionAnalysisManager FAM;
  CGSCCAnalysisManager CGAM;
  ModuleAnalysisManager MAM;
  PassInstrumentationCallbacks PIC;
  PassBuilder PB(TM.get(), PipelineTuningOptions(), std::nullopt, &PIC);
  shard::registerPlugin(PB);
  PB.registerModuleAnalyses(MAM);
  PB.registerCGSCCAnalyses(CGAM);
  PB.registerFunctionAnalyses(FAM);
  PB.registerLoopAnalyses(LAM);
  PB.crossRegisterProxies(LAM, FAM, CGAM, MAM);
  ModulePassManager MPM;
  if (Error E = PB.parsePassPipeline(MPM, Passes))
    return "shard_plugin_split_v2: bad pipeline '" + Passes.str() + "': " + toString(std::move(E));
  MPM.run(M, MAM);
  if (Host.Stopped)
    return "shard-split: stopped by the host";
  if (!Host.Heard)
    return "shard_plugin_split_v2: the pipeline '" + Passes.str() +
           "' sent nothing (expected shard-split<memory;...>)";
  return "";
}

/// *Error = a malloc'ed copy of Msg (nothing if Error is null or memory is short).
void setError(char **Error, const std::string &Msg) {
  if (!Error)
    return;
  *Error = static_cast<char *>(std::malloc(Msg.size() + 1));
  if (*Error)
    std::memcpy(*Error, Msg.c_str(), Msg.size() + 1);
}

} // namespace

// Exported despite -fvisibility=hidden: the host looks this symbol up by name.
extern "C" __attribute__((visibility("default"))) int
shard_plugin_split_v2(LLVMModuleRef M, const char *Passes, const shard_plugin_sink *Sink,
                      char **Error) {
  static_assert(std::is_same_v<decltype(&shard_plugin_split_v2), shard_plugin_split_fn>,
                "the entry point has shard-plugin.h's type");
  if (Error)
    *Error = nullptr;
  if (!M || !Passes || !Sink || !Sink->manifest || !Sink->shard) {
    setError(Error, "shard_plugin_split_v2: expected a module, a pipeline text and a sink "
                    "with both callbacks");
    return 1;
  }
  initializeTargets();
  HostSink Host(*Sink);
  std::string Msg;
  if (shard::runInProcess(
          Host, [&] { return runPipeline(*unwrap(M), Passes, Host); }, Msg))
    return 0;
  setError(Error, Msg);
  return 1;
}
