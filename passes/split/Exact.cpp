//===- Exact.cpp - Copies whose attributes the shard compile infers -------===//
//
// See Exact.h. The split marks (markExactCopies); the shard compile, which loads the
// plugin at -O1 and up, flips the marked functions' linkage around each run of
// PostOrderFunctionAttrsPass on their SCC (registerExactCopies) and nowhere else: the
// inliner, GlobalOpt and code generation see the copies as the split made them.
//
//===----------------------------------------------------------------------===//
#include "split/Exact.h"
#include "ir/Metadata.h"
#include "split/Clone.h"
#include "split/Layout.h"

#include "llvm/Analysis/LazyCallGraph.h"
#include "llvm/IR/PassInstrumentation.h"
#include "llvm/Passes/PassBuilder.h"

#include <memory>

using namespace llvm;

namespace shard {
namespace split {

unsigned markExactCopies(const Layout &L, const std::vector<uint8_t> &Here, ClonedModule &C) {
  unsigned N = 0;
  if (!L.ExactCopies)
    return N;
  for (uint32_t I = 0; I < L.Defs.size(); ++I) {
    if (Here[I] == NotHere || !L.Exact[I] || !isa<Function>(L.Defs[I]))
      continue;
    auto *F = cast<Function>(C.VMap[L.Defs[I]]);
    // A presimplified body skips the shard's FunctionAttrs (the split inferred its attributes).
    if (F->isDeclaration() || F->hasExactDefinition() || F->hasFnAttribute(PresimplifiedAttr))
      continue;
    F->addFnAttr(ExactAttr);
    ++N;
  }
  return N;
}

} // namespace split

namespace {

/// The marked functions of an SCC with the linkage to give them back.
using Flipped = std::vector<std::pair<Function *, GlobalValue::LinkageTypes>>;

void flip(Any IR, Flipped &Out) {
  const auto *C = any_cast<const LazyCallGraph::SCC *>(&IR);
  if (!C)
    return;
  for (LazyCallGraph::Node &N : **C) {
    Function &F = N.getFunction();
    if (F.hasFnAttribute(ExactAttr) && !F.hasExactDefinition()) {
      Out.emplace_back(&F, F.getLinkage());
      F.setLinkage(GlobalValue::ExternalLinkage);
    }
  }
}

void restore(Flipped &Out) {
  for (auto [F, Linkage] : Out)
    F->setLinkage(Linkage);
  Out.clear();
}

} // namespace

void registerExactCopies(PassBuilder &PB) {
  PassInstrumentationCallbacks *PIC = PB.getPassInstrumentationCallbacks();
  if (!PIC)
    return;
  auto Out = std::make_shared<Flipped>();
  auto IsAttrs = [](StringRef ID) { return ID == "PostOrderFunctionAttrsPass"; };
  PIC->registerBeforeNonSkippedPassCallback([Out, IsAttrs](StringRef ID, Any IR) {
    if (IsAttrs(ID))
      flip(IR, *Out);
  });
  PIC->registerAfterPassCallback(
      [Out, IsAttrs](StringRef ID, Any, const PreservedAnalyses &) {
        if (IsAttrs(ID))
          restore(*Out);
      });
  PIC->registerAfterPassInvalidatedCallback(
      [Out, IsAttrs](StringRef ID, const PreservedAnalyses &) {
        if (IsAttrs(ID))
          restore(*Out);
      });
}

} // namespace shard
