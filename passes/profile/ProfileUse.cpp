//===- ProfileUse.cpp - Apply an IR-level profile before the split -------===//
//
//   opt -load-pass-plugin=ShardPlugin.so
//       -passes='shard-profile-use<path=P.profdata;level=2>,shard-cost,...' m.bc
//
// shard-profile-use applies an IR-level profile (clang -fprofile-generate's,
// merged by llvm-profdata) to the whole module as clang -O<level>
// -fprofile-use=P does before it goes on: it runs that pipeline up to and
// including the profile's use and indirect-call promotion (the early
// simplification, IPSCCP, GlobalOpt and the pre-inliner that the profile's
// control-flow hashes were taken after), skips every optional pass after it,
// then sizes the memory intrinsics by their value profiles (pgo-memop-opt, which
// the pipeline runs after inlining). The module then carries the counts (entry
// counts, branch weights, the profile summary) that each shard's compile uses
// without the profile: a shard cannot apply it itself, since its functions'
// control flow and a promoted local's name differ from the whole module's.
//
//===----------------------------------------------------------------------===//
#include "profile/ProfileUse.h"
#include "ir/Support.h"

#include "llvm/Config/llvm-config.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/PassInstrumentation.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/ProfileData/InstrProfReader.h"
#include "llvm/Support/Debug.h"
#include "llvm/Support/PGOOptions.h"
#include "llvm/Support/VirtualFileSystem.h"
#include "llvm/Transforms/Instrumentation/PGOInstrumentation.h"

#define DEBUG_TYPE "shard-profile-use"

using namespace llvm;

namespace shard {

namespace {

/// Dies (fatal) unless Path is an indexed IR-level profile without a context-sensitive
/// part (which the pipeline applies after inlining: not here).
void checkProfile(const std::string &Path) {
  auto FS = vfs::getRealFileSystem();
  auto Reader = IndexedInstrProfReader::create(Path, *FS);
  if (!Reader)
    fatal("shard-profile-use",
          "cannot read the profile '" + Path + "': " + toString(Reader.takeError()));
  if (!(*Reader)->isIRLevelProfile() || (*Reader)->hasCSIRLevelProfile())
    fatal("shard-profile-use", "'" + Path +
                                   "' is not an IR-level profile without a context-sensitive "
                                   "part (llvm-profdata merge of -fprofile-generate's)");
}

} // namespace

PreservedAnalyses ShardProfileUsePass::run(Module &M, ModuleAnalysisManager &) {
  checkProfile(Path);
  // Optional passes after indirect-call promotion are skipped, but for pgo-memop-opt,
  // appended; the required ones still run (the always-inliner, which the pipeline runs
  // next, and passes that act only on what a front end asked for: coroutines,
  // -finstrument-functions-after-inlining).
  PassInstrumentationCallbacks PIC;
  bool Used = false;
  PIC.registerShouldRunOptionalPassCallback(
      [&Used](StringRef ID, Any) { return !Used || ID == "PGOMemOPSizeOpt"; });
  PIC.registerAfterPassCallback([&Used](StringRef ID, Any, const PreservedAnalyses &) {
    if (ID == "PGOIndirectCallPromotion")
      Used = true;
  });
#if LLVM_VERSION_MAJOR >= 22
  PGOOptions PGO(Path, "", "", "", PGOOptions::IRUse);
#else
  PGOOptions PGO(Path, "", "", "", vfs::getRealFileSystem(), PGOOptions::IRUse);
#endif
  runModulePipeline(M, PGO, &PIC, [this](PassBuilder &PB) {
    ModulePassManager MPM = PB.buildPerModuleDefaultPipeline(optLevel(Level));
    MPM.addPass(createModuleToFunctionPassAdaptor(PGOMemOPSizeOpt()));
    return MPM;
  });
  assert(Used && "the pipeline applies the profile");
  LLVM_DEBUG(dbgs() << "shard-profile-use: applied '" << Path << "'\n");
  return PreservedAnalyses::none();
}

void ShardProfileUsePass::printPipeline(raw_ostream &OS, function_ref<StringRef(StringRef)>) {
  OS << "shard-profile-use<path=" << Path << ";level=" << Level << ">";
}

} // namespace shard
