//===- Presimplify.cpp - Simplify once what several shards hold -----------===//
//
// A function that several shards hold (imported for inlining, or a copy of a
// small comdat group) would be simplified by each of them. With
// shard-split<presimplify=L>, the split runs the module simplification pipeline
// of -O<L> once over those functions (simplifyClosure, over the closure of
// Closure.cpp), gives their owners and holders the simplified bodies, and marks
// them with the attribute "shard-presimplified". In a shard compile that loads
// the plugin (clang -fpass-plugin), the optional passes of the simplification
// pipeline skip a marked function (registerPresimplifiedSkip); the optimisation
// pipeline (vectorisers, late cleanup) and the code generator treat it like any
// other.
//
//===----------------------------------------------------------------------===//
#include "presimplify/Presimplify.h"
#include "ir/Metadata.h"
#include "ir/Support.h"

#include "llvm/Analysis/LazyCallGraph.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/PassInstrumentation.h"
#include "llvm/Passes/PassBuilder.h"

#include <memory>

using namespace llvm;

namespace shard {

void simplifyClosure(Module &M, unsigned Level) {
  // A module without a target (tests) gets the default cost model.
  runModulePipeline(M, std::nullopt, nullptr, [Level](PassBuilder &PB) {
    return PB.buildModuleSimplificationPipeline(optLevel(Level), ThinOrFullLTOPhase::None);
  });
}

namespace {

bool marked(const Function &F) { return F.hasFnAttribute(PresimplifiedAttr); }

/// Whether an optional pass about to run on IR may skip it: a marked function, a
/// loop of one, or a call graph SCC of marked functions only.
bool presimplified(Any IR) {
  if (const auto *F = any_cast<const Function *>(&IR))
    return marked(**F);
  if (const auto *L = any_cast<const Loop *>(&IR))
    return marked(*(*L)->getHeader()->getParent());
  if (const auto *C = any_cast<const LazyCallGraph::SCC *>(&IR))
    return llvm::all_of(**C, [](const LazyCallGraph::Node &N) { return marked(N.getFunction()); });
  return false;
}

} // namespace

void registerPresimplifiedSkip(PassBuilder &PB) {
  PassInstrumentationCallbacks *PIC = PB.getPassInstrumentationCallbacks();
  if (!PIC)
    return;
  // The simplification pipeline ends where the optimisation pipeline drops the
  // available_externally bodies (every -O1..-O3 pipeline that emits code).
  auto Optimising = std::make_shared<bool>(false);
  PIC->registerBeforeNonSkippedPassCallback([Optimising](StringRef ID, Any) {
    if (ID == "EliminateAvailableExternallyPass")
      *Optimising = true;
  });
  PIC->registerShouldRunOptionalPassCallback(
      [Optimising](StringRef, Any IR) { return *Optimising || !presimplified(IR); });
}

} // namespace shard
