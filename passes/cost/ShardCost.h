//===- ShardCost.h - Predicted compile cost of each function ----*- C++ -*-===//
#ifndef SHARD_COST_SHARDCOST_H
#define SHARD_COST_SHARDCOST_H

#include "llvm/IR/PassManager.h"
#include <cstdint>

namespace llvm {
class Function;
class GlobalValue;
} // namespace llvm

namespace shard {

/// Predicted compile cost of a function body (0 for declarations).
uint64_t computeCost(const llvm::Function &F);
/// Predicted size of a function body as the inliner prices it once simplified, in
/// instructions (about a fifth of LLVM's inline cost).
uint64_t inlineSize(const llvm::Function &F);
/// The cost recorded by shard-cost, or computed now if absent.
uint64_t getCost(const llvm::Function &F);
/// Predicted cost of any defined global value (variables cost by size).
uint64_t getGlobalCost(const llvm::GlobalValue &GV);

/// shard-cost: annotates every defined function with its predicted compile cost.
struct ShardCostPass : llvm::PassInfoMixin<ShardCostPass> {
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);
  void printPipeline(llvm::raw_ostream &OS, llvm::function_ref<llvm::StringRef(llvm::StringRef)>);
  static bool isRequired() { return true; }
};

} // namespace shard

#endif
