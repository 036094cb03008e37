//===- Hot.cpp - The calls a profile says are hot --------------------------===//
//
// With a profile in the module (a profile summary, counts on the functions'
// entries and branches: a front end's -fprofile-instr-use, or shard-profile-use),
// the serial inliner takes the callee of a hot call far above its ordinary
// threshold (-hot-callsite-threshold, 3000 against 225). markHotCalls finds
// those calls once, over the whole module, so that a shard imports their callees
// (Layout.cpp, placeShard) instead of leaving calls on the hottest paths.
//
//===----------------------------------------------------------------------===//
#include "split/Layout.h"
#include "split/ShardSplit.h"

#include "llvm/Analysis/BlockFrequencyInfo.h"
#include "llvm/Analysis/BranchProbabilityInfo.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/ProfileSummaryInfo.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"

#include <algorithm>

using namespace llvm;

namespace shard {
namespace split {

void markHotCalls(Module &M, Layout &L, const SplitLimits &Lim) {
  L.HotCalls.assign(L.Defs.size(), {});
  if (!Lim.HotImportCost || !M.getProfileSummary(/*IsCS=*/false))
    return;
  ProfileSummaryInfo PSI(M);
  for (uint32_t I = 0; I < L.Defs.size(); ++I) {
    auto *F = dyn_cast<Function>(L.Defs[I]);
    auto Entry = F ? F->getEntryCount() : std::nullopt;
    if (!Entry || !Entry->getCount())
      continue; // (no call of a function never entered is hot)
    DominatorTree DT(*F);
    LoopInfo LI(DT);
    BranchProbabilityInfo BPI(*F, LI);
    BlockFrequencyInfo BFI(*F, BPI, LI);
    std::vector<uint32_t> &Hot = L.HotCalls[I];
    for (const BasicBlock &BB : *F)
      for (const Instruction &Inst : BB) {
        const auto *CB = dyn_cast<CallBase>(&Inst);
        const Function *Callee = CB ? CB->getCalledFunction() : nullptr;
        auto It = Callee ? L.Index.find(Callee) : L.Index.end();
        if (It != L.Index.end() && PSI.isHotCallSite(*CB, &BFI))
          Hot.push_back(It->second);
      }
    llvm::sort(Hot);
    Hot.erase(std::unique(Hot.begin(), Hot.end()), Hot.end());
  }
}

} // namespace split
} // namespace shard
