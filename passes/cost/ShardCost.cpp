//===- ShardCost.cpp - Predicted compile cost of each function -----------===//
//
//   opt -load-pass-plugin=ShardPlugin.so -passes=shard-cost -S m.ll
//
// shard-cost attaches !shard.cost !{i64 C} to every defined function and records
// the module total in !shard.total_cost. C predicts the time `opt -O2 | llc`
// spends on the function, in arbitrary units (about one per simple instruction).
// inlineSize predicts instead the size the inliner will see (shard-split's imports).
//
//===----------------------------------------------------------------------===//
#include "cost/ShardCost.h"
#include "ir/Plan.h"

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Metadata.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Transforms/Utils/PromoteMemToReg.h"

using namespace llvm;

namespace shard {

/// Weight of one instruction: calls and switches do more work downstream.
static uint64_t instructionWeight(const Instruction &I) {
  if (const auto *II = dyn_cast<IntrinsicInst>(&I)) {
    if (II->isAssumeLikeIntrinsic() || isa<DbgInfoIntrinsic>(II))
      return 0;
    return 1;
  }
  if (isa<CallBase>(I))
    return 4;
  if (const auto *SI = dyn_cast<SwitchInst>(&I))
    return 2 + SI->getNumCases() / 2;
  return 1;
}

/// A block that only branches on (what `do {} while (0)` and empty branches leave):
/// SimplifyCFG folds it away before any pass would spend time on it.
static bool isForwardingBlock(const BasicBlock &BB) {
  const auto *Br = dyn_cast<BranchInst>(&BB.front());
  return Br && Br->isUnconditional();
}

uint64_t computeCost(const Function &F) {
  if (F.isDeclaration())
    return 0;
  uint64_t Insts = 0, Blocks = 0;
  for (const BasicBlock &BB : F) {
    if (isForwardingBlock(BB))
      continue;
    ++Blocks;
    for (const Instruction &I : BB)
      Insts += instructionWeight(I);
  }
  return 1 + Insts + 2 * Blocks;
}

/// The local variables of F that SROA turns into registers: allocas whose address is only
/// loaded from, stored to and given lifetime markers.
static SmallPtrSet<const Value *, 32> promotableAllocas(const Function &F) {
  SmallPtrSet<const Value *, 32> Promotable;
  for (const BasicBlock &BB : F)
    for (const Instruction &I : BB)
      if (const auto *AI = dyn_cast<AllocaInst>(&I); AI && isAllocaPromotable(AI))
        Promotable.insert(AI);
  return Promotable;
}

/// Weight of one instruction in what the inliner sees after the first simplification: local
/// variables (Promotable), casts, constant offsets and markers are gone, and a call costs
/// its setup.
static uint64_t inlineWeight(const Instruction &I,
                             const SmallPtrSetImpl<const Value *> &Promotable) {
  if (const auto *II = dyn_cast<IntrinsicInst>(&I))
    return II->isAssumeLikeIntrinsic() || isa<DbgInfoIntrinsic>(II) ||
                   II->getIntrinsicID() == Intrinsic::expect
               ? 0
               : 1;
  if (const auto *CB = dyn_cast<CallBase>(&I))
    return 6 + CB->arg_size();
  // Conversions between integers and floating point are real instructions; other casts
  // fold into their users.
  if (const auto *C = dyn_cast<CastInst>(&I))
    return isa<FPToSIInst>(C) || isa<FPToUIInst>(C) || isa<SIToFPInst>(C) || isa<UIToFPInst>(C);
  if (isa<AllocaInst>(I) || isa<PHINode>(I))
    return 0;
  if (const auto *LI = dyn_cast<LoadInst>(&I))
    return !Promotable.contains(LI->getPointerOperand());
  if (const auto *SI = dyn_cast<StoreInst>(&I))
    return !Promotable.contains(SI->getPointerOperand());
  if (const auto *GEP = dyn_cast<GetElementPtrInst>(&I))
    return GEP->hasAllConstantIndices() ? 0 : 1;
  if (const auto *Br = dyn_cast<BranchInst>(&I))
    return Br->isConditional();
  // A switch on a local variable is the front end's dispatch after a scope's cleanups, which
  // SROA and SimplifyCFG turn into plain branches.
  if (const auto *SI = dyn_cast<SwitchInst>(&I)) {
    const auto *Slot = dyn_cast<LoadInst>(SI->getCondition());
    return Slot && Promotable.contains(Slot->getPointerOperand()) ? 1 : 1 + SI->getNumCases() / 2;
  }
  return 1;
}

uint64_t inlineSize(const Function &F) {
  SmallPtrSet<const Value *, 32> Promotable = promotableAllocas(F);
  uint64_t Size = 0;
  for (const BasicBlock &BB : F)
    for (const Instruction &I : BB)
      Size += inlineWeight(I, Promotable);
  return Size;
}

uint64_t getCost(const Function &F) {
  if (auto C = readIntMD(F.getMetadata(CostMD)))
    return *C;
  return computeCost(F);
}

uint64_t getGlobalCost(const GlobalValue &GV) {
  if (const auto *F = dyn_cast<Function>(&GV))
    return getCost(*F);
  if (const auto *V = dyn_cast<GlobalVariable>(&GV)) {
    if (!V->hasInitializer())
      return 0;
    // Emitting data is cheap: one unit, plus one per 256 bytes of initializer.
    uint64_t Size = V->getParent()->getDataLayout().getTypeAllocSize(V->getValueType());
    return 1 + Size / 256;
  }
  return 0; // aliases and ifuncs cost nothing of their own
}

PreservedAnalyses ShardCostPass::run(Module &M, ModuleAnalysisManager &) {
  LLVMContext &Ctx = M.getContext();
  Type *I64 = Type::getInt64Ty(Ctx);
  uint64_t Total = 0;
  for (Function &F : M) {
    if (F.isDeclaration())
      continue;
    uint64_t C = computeCost(F);
    Total += C;
    F.setMetadata(CostMD, MDNode::get(Ctx, ConstantAsMetadata::get(ConstantInt::get(I64, C))));
  }
  for (GlobalVariable &V : M.globals())
    Total += getGlobalCost(V);
  NamedMDNode *NMD = M.getOrInsertNamedMetadata(TotalCostMD);
  NMD->clearOperands();
  NMD->addOperand(MDNode::get(Ctx, ConstantAsMetadata::get(ConstantInt::get(I64, Total))));
  return PreservedAnalyses::all();
}

void ShardCostPass::printPipeline(raw_ostream &OS, function_ref<StringRef(StringRef)>) {
  OS << "shard-cost";
}

} // namespace shard
