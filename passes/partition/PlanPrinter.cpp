//===- PlanPrinter.cpp - print<shard-plan> --------------------------------===//
//
// Prints the plan that shard-partition recorded, a shard per paragraph, for
// people and for FileCheck:
//
//   opt -load-pass-plugin=ShardPlugin.so -disable-output m.ll
//       -passes='shard-partition<shards=4>,print<shard-plan>'
//
//===----------------------------------------------------------------------===//
#include "cost/ShardCost.h"
#include "ir/Plan.h"
#include "partition/ShardPartition.h"

#include "llvm/IR/Function.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

namespace shard {

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
  OS << "shard-plan: shards=" << P->NumShards << " total-cost=" << Total << " max-cost=" << Max
     << " imbalance=" << format("%.2f", Imbalance) << " cut=" << P->Cut << "\n";
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

void ShardPlanPrinterPass::printPipeline(raw_ostream &OS, function_ref<StringRef(StringRef)>) {
  OS << "print<shard-plan>";
}

} // namespace shard
