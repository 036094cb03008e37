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
    for (const GlobalValue *R : Refs)
      if (const auto *GO = dyn_cast<GlobalObject>(R))
        if (!GO->isDeclaration())
          return readShardMD(*GO);
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
     << " max-cost=" << Max << " imbalance=" << format("%.2f", Imbalance) << "\n";
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
