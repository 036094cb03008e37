//===- ProfileGen.cpp - IR-level instrumentation before the split ---------===//
//
//   opt -load-pass-plugin=ShardPlugin.so
//       -passes='shard-profile-gen<level=2;path=default_%m.profraw>,shard-cost,...' m.bc
//
// shard-profile-gen instruments the whole module as clang -O<level>
// -fprofile-generate does: it runs that pipeline up to and including the
// lowering of the instrumentation (the early simplification, IPSCCP, GlobalOpt
// and the pre-inliner, then PGOInstrumentationGen, which hashes each function's
// control flow, and InstrProfilingLoweringPass, which makes the counters and
// the profile records), and skips every optional pass after it. The module then
// holds the serial build's counters as ordinary globals, which the split places
// and promotes like any other, and the shards compile without instrumentation:
// a shard cannot instrument its functions itself, since their control flow and
// so their hashes differ from the whole module's, and the profile would match
// neither the serial build's functions nor shard-profile-use's.
//
//===----------------------------------------------------------------------===//
#include "profile/ProfileGen.h"
#include "ir/Support.h"

#include "llvm/Config/llvm-config.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/PassInstrumentation.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/Debug.h"
#include "llvm/Support/PGOOptions.h"
#include "llvm/Support/VirtualFileSystem.h"

#define DEBUG_TYPE "shard-profile-gen"

using namespace llvm;

namespace shard {

PreservedAnalyses ShardProfileGenPass::run(Module &M, ModuleAnalysisManager &) {
  // Optional passes after the lowering are skipped; the required ones still run (the
  // always-inliner, which the pipeline runs next, and passes that act only on what a
  // front end asked for).
  PassInstrumentationCallbacks PIC;
  bool Lowered = false;
  PIC.registerShouldRunOptionalPassCallback([&Lowered](StringRef, Any) { return !Lowered; });
  PIC.registerAfterPassCallback([&Lowered](StringRef ID, Any, const PreservedAnalyses &) {
    if (ID == "InstrProfilingLoweringPass")
      Lowered = true;
  });
#if LLVM_VERSION_MAJOR >= 22
  PGOOptions PGO(Path, "", "", "", PGOOptions::IRInstr, PGOOptions::NoCSAction,
                 PGOOptions::ColdFuncOpt::Default, false, false, Atomic);
#else
  PGOOptions PGO(Path, "", "", "", vfs::getRealFileSystem(), PGOOptions::IRInstr,
                 PGOOptions::NoCSAction, PGOOptions::ColdFuncOpt::Default, false, false, Atomic);
#endif
  runModulePipeline(M, PGO, &PIC, [this](PassBuilder &PB) {
    return PB.buildPerModuleDefaultPipeline(optLevel(Level));
  });
  assert(Lowered && "the pipeline lowers the instrumentation");
  LLVM_DEBUG(dbgs() << "shard-profile-gen: instrumented for '" << Path << "'\n");
  return PreservedAnalyses::none();
}

void ShardProfileGenPass::printPipeline(raw_ostream &OS, function_ref<StringRef(StringRef)>) {
  OS << "shard-profile-gen<path=" << Path << ";level=" << Level << (Atomic ? ";atomic" : "") << ">";
}

} // namespace shard
