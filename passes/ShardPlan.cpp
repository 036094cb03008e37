//===- ShardPlan.cpp - Reading and printing the shard plan ---------------===//
//
// Helpers shared by the passes (plan metadata, references of constants) and
// print<shard-plan>, which prints the plan for people and for FileCheck.
//
//===----------------------------------------------------------------------===//
#include "Shard.h"

#include "llvm/IR/Constants.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/GlobalAlias.h"
#include "llvm/IR/GlobalIFunc.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/Metadata.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

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

static std::optional<unsigned> readShardMD(const GlobalObject &GO) {
  const MDNode *N = GO.getMetadata(ShardMD);
  if (!N || N->getNumOperands() != 1)
    return std::nullopt;
  if (auto *C = mdconst::dyn_extract<ConstantInt>(N->getOperand(0)))
    return unsigned(C->getZExtValue());
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

static const char *kindName(const GlobalValue &GV) {
  if (isa<Function>(GV))
    return "function";
  if (isa<GlobalVariable>(GV))
    return "variable";
  if (isa<GlobalAlias>(GV))
    return "alias";
  return "ifunc";
}

PreservedAnalyses ShardPlanPrinterPass::run(Module &M, ModuleAnalysisManager &) {
  std::optional<Plan> P = readPlan(M);
  if (!P) {
    OS << "shard-plan: none (run shard-partition first)\n";
    return PreservedAnalyses::all();
  }
  std::vector<std::vector<const GlobalValue *>> Members(P->NumShards);
  for (const GlobalValue &GV : M.global_values())
    if (auto S = getShard(GV); S && *S < P->NumShards)
      Members[*S].push_back(&GV);
  uint64_t Total = 0, Max = 0;
  for (uint64_t C : P->ShardCost) {
    Total += C;
    Max = std::max(Max, C);
  }
  // Imbalance: the largest shard over the mean (1.00 is perfect balance).
  double Imbalance = Total ? double(Max) * P->NumShards / double(Total) : 1.0;
  OS << "shard-plan: shards=" << P->NumShards << " total-cost=" << Total
     << " max-cost=" << Max << " imbalance=" << format("%.2f", Imbalance)
     << " cut=" << P->Cut << "\n";
  if (!M.getModuleInlineAsm().empty())
    OS << "module-asm: shard " << P->AsmShard << "\n";
  for (unsigned S = 0; S < P->NumShards; ++S) {
    unsigned Funcs = 0;
    for (const GlobalValue *GV : Members[S])
      Funcs += isa<Function>(GV);
    OS << "shard " << S << ": cost=" << P->ShardCost[S] << " functions=" << Funcs
       << " globals=" << Members[S].size() << "\n";
    for (const GlobalValue *GV : Members[S]) {
      OS << "  " << displayName(*GV) << " " << kindName(*GV);
      if (const auto *F = dyn_cast<Function>(GV))
        OS << " cost=" << getCost(*F);
      if (const Comdat *C = GV->getComdat())
        OS << " comdat=" << C->getName();
      OS << " " << (GV->hasLocalLinkage() ? "local" : "global") << "\n";
    }
  }
  return PreservedAnalyses::all();
}

void ShardPlanPrinterPass::printPipeline(raw_ostream &OS,
                                         function_ref<StringRef(StringRef)>) {
  OS << "print<shard-plan>";
}

} // namespace shard
