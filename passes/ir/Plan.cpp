//===- Plan.cpp - Reading the shard plan and walking references ---------===//
//
// Helpers shared by the passes: plan metadata, the shard of a global value, and
// the references of definitions and constants.
//
//===----------------------------------------------------------------------===//
#include "ir/Plan.h"

#include "llvm/IR/Constants.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/GlobalAlias.h"
#include "llvm/IR/GlobalIFunc.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/Metadata.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace shard {

void collectGlobalRefs(const Constant *C, SmallPtrSetImpl<const Constant *> &Seen,
                       SmallVectorImpl<const GlobalValue *> &Out) {
  SmallVector<const Constant *, 16> Work{C};
  while (!Work.empty()) {
    const Constant *Cur = Work.pop_back_val();
    if (!Seen.insert(Cur).second)
      continue;
    if (const auto *GV = dyn_cast<GlobalValue>(Cur)) {
      Out.push_back(GV);
      continue;
    }
    if (isa<ConstantData>(Cur)) // no operands worth walking
      continue;
    for (const Use &U : Cur->operands())
      if (const auto *Op = dyn_cast<Constant>(U.get()))
        Work.push_back(Op);
  }
}

void forEachRef(const GlobalValue &GV, function_ref<void(const GlobalValue &)> Fn) {
  SmallPtrSet<const Constant *, 32> Seen;
  SmallVector<const GlobalValue *, 8> Refs;
  auto Walk = [&](const Value *V) {
    if (const auto *G = dyn_cast_or_null<GlobalValue>(V)) {
      Fn(*G);
    } else if (const auto *C = dyn_cast_or_null<Constant>(V)) {
      if (isa<ConstantData>(C))
        return;
      Refs.clear();
      collectGlobalRefs(C, Seen, Refs);
      for (const GlobalValue *R : Refs)
        Fn(*R);
    }
  };
  if (const auto *F = dyn_cast<Function>(&GV)) {
    if (F->hasPersonalityFn())
      Walk(F->getPersonalityFn());
    if (F->hasPrefixData())
      Walk(F->getPrefixData());
    if (F->hasPrologueData())
      Walk(F->getPrologueData());
    for (const BasicBlock &BB : *F)
      for (const Instruction &I : BB)
        for (const Use &U : I.operands())
          Walk(U.get());
  } else if (const auto *V = dyn_cast<GlobalVariable>(&GV)) {
    if (V->hasInitializer())
      Walk(V->getInitializer());
  } else if (const auto *GA = dyn_cast<GlobalAlias>(&GV)) {
    Walk(GA->getAliasee());
  } else if (const auto *GI = dyn_cast<GlobalIFunc>(&GV)) {
    Walk(GI->getResolver());
  }
}

bool isPerShardArray(const GlobalValue &GV) {
  if (!GV.hasAppendingLinkage())
    return false;
  StringRef N = GV.getName();
  return N == "llvm.global_ctors" || N == "llvm.global_dtors" || N == "llvm.used" ||
         N == "llvm.compiler.used";
}

std::optional<uint64_t> readIntMD(const MDNode *N) {
  if (!N || N->getNumOperands() != 1)
    return std::nullopt;
  if (auto *C = mdconst::dyn_extract<ConstantInt>(N->getOperand(0)))
    return C->getZExtValue();
  return std::nullopt;
}

static std::optional<unsigned> readShardMD(const GlobalObject &GO) {
  if (std::optional<uint64_t> S = readIntMD(GO.getMetadata(ShardMD)))
    return unsigned(*S);
  return std::nullopt;
}

std::optional<unsigned> getShard(const GlobalValue &GV) {
  if (GV.isDeclaration())
    return std::nullopt;
  if (const auto *GO = dyn_cast<GlobalObject>(&GV))
    return readShardMD(*GO);
  // Aliases and ifuncs live with the objects they point to (the partition keeps
  // every object of the expression together); without one, with module asm.
  const Constant *Target = nullptr;
  if (const auto *GA = dyn_cast<GlobalAlias>(&GV))
    Target = GA->getAliasee();
  else if (const auto *GI = dyn_cast<GlobalIFunc>(&GV))
    Target = GI->getResolver();
  if (Target) {
    SmallPtrSet<const Constant *, 8> Seen;
    SmallVector<const GlobalValue *, 4> Refs;
    collectGlobalRefs(Target, Seen, Refs);
    for (const GlobalValue *R : Refs) {
      if (const auto *GO = dyn_cast<GlobalObject>(R)) {
        if (!GO->isDeclaration())
          return readShardMD(*GO);
      } else if (isa<GlobalAlias>(R) && R != &GV) {
        // An alias of an alias lives where the inner alias does (the partition
        // joined them); without this it fell back to the asm shard and the
        // split left it there pointing at a declaration (verifier error).
        return getShard(*R);
      }
    }
  }
  if (auto P = readPlan(*GV.getParent()))
    return P->AsmShard;
  return std::nullopt;
}

std::optional<Plan> readPlan(const Module &M) {
  const NamedMDNode *NMD = M.getNamedMetadata(PlanMD);
  if (!NMD)
    return std::nullopt;
  Plan P;
  bool HaveShards = false;
  for (const MDNode *N : NMD->operands()) {
    if (N->getNumOperands() < 1)
      continue;
    auto *Key = dyn_cast<MDString>(N->getOperand(0));
    if (!Key)
      continue;
    SmallVector<uint64_t, 8> Vals;
    for (unsigned I = 1; I < N->getNumOperands(); ++I)
      if (auto *C = mdconst::dyn_extract<ConstantInt>(N->getOperand(I)))
        Vals.push_back(C->getZExtValue());
    if (Key->getString() == "shards" && Vals.size() == 1) {
      P.NumShards = unsigned(Vals[0]);
      HaveShards = true;
    } else if (Key->getString() == "asm-shard" && Vals.size() == 1) {
      P.AsmShard = unsigned(Vals[0]);
    } else if (Key->getString() == "cut" && Vals.size() == 1) {
      P.Cut = Vals[0];
    } else if (Key->getString() == "costs") {
      P.ShardCost.assign(Vals.begin(), Vals.end());
    }
  }
  if (!HaveShards || P.NumShards == 0)
    return std::nullopt;
  P.ShardCost.resize(P.NumShards);
  return P;
}

std::string displayName(const GlobalValue &GV) {
  if (GV.hasName())
    return ("@" + GV.getName()).str();
  unsigned N = 0; // unnamed values print as @<position among global values>
  for (const GlobalValue &Other : GV.getParent()->global_values()) {
    if (&Other == &GV)
      break;
    ++N;
  }
  return "@<" + std::to_string(N) + ">";
}

} // namespace shard
