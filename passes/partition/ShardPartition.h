//===- ShardPartition.h - Assign global values to shards --------*- C++ -*-===//
#ifndef SHARD_PARTITION_SHARDPARTITION_H
#define SHARD_PARTITION_SHARDPARTITION_H

#include "llvm/IR/PassManager.h"

namespace shard {

/// shard-partition<shards=N;slack=S;place=stable|graph[;keep-cycle]>: assigns every
/// defined global value to a shard.
struct ShardPartitionPass : llvm::PassInfoMixin<ShardPartitionPass> {
  unsigned Shards = 0; // 0: choose from the module's cost
  static constexpr unsigned DefaultSlack = 30;
  /// stable: each cut within Slack/1000 of its range's cost; graph: a shard may exceed
  /// the mean cost by Slack/1000.
  unsigned Slack = DefaultSlack;
  bool Graph = false; // place=graph: connectivity-driven placement (not edit-stable)
  bool KeepCycle = false; // keep-cycle: the largest recursive function's shortest call cycle
                          // stays in its group (keepCycle)
  ShardPartitionPass(unsigned Shards, unsigned Slack, bool Graph, bool KeepCycle = false)
      : Shards(Shards), Slack(Slack), Graph(Graph), KeepCycle(KeepCycle) {}
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);
  void printPipeline(llvm::raw_ostream &OS, llvm::function_ref<llvm::StringRef(llvm::StringRef)>);
  static bool isRequired() { return true; }
};

/// print<shard-plan>: prints the plan for people and FileCheck.
struct ShardPlanPrinterPass : llvm::PassInfoMixin<ShardPlanPrinterPass> {
  llvm::raw_ostream &OS;
  explicit ShardPlanPrinterPass(llvm::raw_ostream &OS) : OS(OS) {}
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);
  void printPipeline(llvm::raw_ostream &OS, llvm::function_ref<llvm::StringRef(llvm::StringRef)>);
  static bool isRequired() { return true; }
};

} // namespace shard

#endif
