//===- Presimplify.cpp - Simplify once what several shards hold -----------===//
//
// A function that several shards hold (imported for inlining, or a copy of a
// small comdat group) would be simplified by each of them. With
// shard-split<presimplify=L>, the split runs the module simplification pipeline
// of -O<L> once over those functions (simplifyClosure, over the closure of
// Closure.cpp), gives their owners and holders the simplified bodies, and marks
// them with the attribute "shard-presimplified". In a shard compile that loads
// the plugin (clang -fpass-plugin), the optional passes of the simplification
// pipeline skip a marked function (registerShardSkips); the optimisation
// pipeline (vectorisers, late cleanup) and the code generator treat it like any
// other. The same hook leaves unsimplified, while the inliner walks the call
// graph, the imports the split marked "shard-serial-scc" (split/Scc.cpp).
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

/// Whether IR, about to go through an optional pass, is marked with attribute Attr: a
/// marked function, a loop of one, or a call graph SCC of marked functions only.
bool markedIR(Any IR, StringRef Attr) {
  auto Marked = [Attr](const Function &F) { return F.hasFnAttribute(Attr); };
  if (const auto *F = any_cast<const Function *>(&IR))
    return Marked(**F);
  if (const auto *L = any_cast<const Loop *>(&IR))
    return Marked(*(*L)->getHeader()->getParent());
  if (const auto *C = any_cast<const LazyCallGraph::SCC *>(&IR))
    return llvm::all_of(**C, [&](const LazyCallGraph::Node &N) { return Marked(N.getFunction()); });
  return false;
}

} // namespace

void registerShardSkips(PassBuilder &PB) {
  PassInstrumentationCallbacks *PIC = PB.getPassInstrumentationCallbacks();
  if (!PIC)
    return;
  // The simplification pipeline ends where the optimisation pipeline drops the
  // available_externally bodies (every -O1..-O3 pipeline that emits code); the
  // inliner's walk of the call graph SCCs is the module inliner wrapper.
  auto Optimising = std::make_shared<bool>(false);
  auto Inlining = std::make_shared<bool>(false);
  PIC->registerBeforeNonSkippedPassCallback([Optimising, Inlining](StringRef ID, Any) {
    if (ID == "EliminateAvailableExternallyPass")
      *Optimising = true;
    else if (ID == "ModuleInlinerWrapperPass")
      *Inlining = true;
  });
  PIC->registerAfterPassCallback([Inlining](StringRef ID, Any, const PreservedAnalyses &) {
    if (ID == "ModuleInlinerWrapperPass")
      *Inlining = false;
  });
  PIC->registerShouldRunOptionalPassCallback([Optimising, Inlining](StringRef, Any IR) {
    return *Optimising || !(markedIR(IR, PresimplifiedAttr) ||
                            (*Inlining && markedIR(IR, SerialSccAttr)));
  });
}

} // namespace shard
