//===- Shard.h - Shard passes and their metadata contract -------*- C++ -*-===//
//
// The passes of the Shard plugin and the metadata they use to talk to each other.
// The metadata contract is documented in README.md ("Metadata contract").
//
//===----------------------------------------------------------------------===//
#ifndef SHARD_PASSES_SHARD_H
#define SHARD_PASSES_SHARD_H

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/IR/PassManager.h"
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace llvm {
class Constant;
class Function;
class GlobalValue;
class Module;
class PassBuilder;
class raw_ostream;
} // namespace llvm

namespace shard {

// Metadata names.
inline constexpr const char *CostMD = "shard.cost";           // function: !{i64 cost}
inline constexpr const char *TotalCostMD = "shard.total_cost"; // named: !{!{i64 total}}
inline constexpr const char *ShardMD = "shard.partition";     // global object: !{i32 shard}
inline constexpr const char *PlanMD = "shard.plan";           // named: see README
// Function attribute: simplified by the split (Presimplify.cpp).
inline constexpr const char *PresimplifiedAttr = "shard-presimplified";

/// Predicted compile cost of a function body (0 for declarations).
uint64_t computeCost(const llvm::Function &F);
/// The cost recorded by shard-cost, or computed now if absent.
uint64_t getCost(const llvm::Function &F);
/// Predicted cost of any defined global value (variables cost by size).
uint64_t getGlobalCost(const llvm::GlobalValue &GV);

/// The plan recorded by shard-partition.
struct Plan {
  unsigned NumShards = 0;
  unsigned AsmShard = 0;             // shard that holds module-level asm
  std::vector<uint64_t> ShardCost;   // predicted cost per shard
  uint64_t Cut = 0;                  // weight of references between shards
};
std::optional<Plan> readPlan(const llvm::Module &M);
/// The shard a defined global value was assigned to (aliases and ifuncs follow the
/// object they resolve to), or std::nullopt when it has none.
std::optional<unsigned> getShard(const llvm::GlobalValue &GV);
/// Adds to Out every global value that constant C refers to (through constant
/// expressions, aggregates and block addresses), each once.
void collectGlobalRefs(const llvm::Constant *C,
                       llvm::SmallPtrSetImpl<const llvm::Constant *> &Seen,
                       llvm::SmallVectorImpl<const llvm::GlobalValue *> &Out);
/// Calls Fn for each global value that the definition GV refers to: through the
/// operands of its instructions (once per operand), its initializer, aliasee,
/// resolver, personality, prefix and prologue data.
void forEachRef(const llvm::GlobalValue &GV,
                llvm::function_ref<void(const llvm::GlobalValue &)> Fn);
/// True for the special arrays the split rewrites per shard (llvm.global_ctors,
/// llvm.global_dtors, llvm.used, llvm.compiler.used): they belong to no shard.
bool isPerShardArray(const llvm::GlobalValue &GV);
/// Name for printing: "@name", or "@<N>" for unnamed values (N = position).
std::string displayName(const llvm::GlobalValue &GV);

/// shard-cost: annotates every defined function with its predicted compile cost.
struct ShardCostPass : llvm::PassInfoMixin<ShardCostPass> {
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);
  void printPipeline(llvm::raw_ostream &OS,
                     llvm::function_ref<llvm::StringRef(llvm::StringRef)>);
  static bool isRequired() { return true; }
};

/// shard-partition<shards=N;slack=S;place=stable|graph>: assigns every defined global
/// value to a shard.
struct ShardPartitionPass : llvm::PassInfoMixin<ShardPartitionPass> {
  unsigned Shards = 0; // 0: choose from the module's cost
  static constexpr unsigned DefaultSlack = 30;
  /// stable: each cut within Slack/1000 of its range's cost; graph: a shard may exceed
  /// the mean cost by Slack/1000.
  unsigned Slack = DefaultSlack;
  bool Graph = false; // place=graph: connectivity-driven placement (not edit-stable)
  ShardPartitionPass(unsigned Shards, unsigned Slack, bool Graph)
      : Shards(Shards), Slack(Slack), Graph(Graph) {}
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);
  void printPipeline(llvm::raw_ostream &OS,
                     llvm::function_ref<llvm::StringRef(llvm::StringRef)>);
  static bool isRequired() { return true; }
};

/// print<shard-plan>: prints the plan for people and FileCheck.
struct ShardPlanPrinterPass : llvm::PassInfoMixin<ShardPlanPrinterPass> {
  llvm::raw_ostream &OS;
  explicit ShardPlanPrinterPass(llvm::raw_ostream &OS) : OS(OS) {}
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);
  void printPipeline(llvm::raw_ostream &OS,
                     llvm::function_ref<llvm::StringRef(llvm::StringRef)>);
  static bool isRequired() { return true; }
};

/// How much shard-split may copy into a shard besides its own definitions, and how it
/// writes the shards.
struct SplitLimits {
  unsigned ImportCost = 125; // import functions up to this cost (twice with inlinehint)
  unsigned DupCost = 60;     // copy local functions called only directly up to this cost
  unsigned Depth = 1;        // import what imports refer to, this many levels deep
  unsigned TinyCost = 30;    // copy or import definitions up to this cost at any depth,
                             // and count no depth for such functions (wrappers)
  uint64_t ConstBytes = 4096; // copy or import constants up to this size
  unsigned Parts = 1, Part = 0; // write only this part's share of the shards (writerOf)
  int NotifyFD = -1;      // write "manifest" or the shard number, a line each, to this fd
  bool QuickExit = false; // end opt after the last file: no teardown, no final verifier
  bool Verify = false;    // verify the input once the files are written (opt -disable-verify)
  bool CopyBodies = false; // copy every body into its shard, never borrow the owner's
  unsigned Presimplify = 0; // -O level (1-3) at which to simplify once what shards share
  unsigned Threads = 1;     // threads that simplify it (the output does not depend on them)
};

/// Runs the module simplification pipeline of -O<Level> over M (the split's closure).
void simplifyClosure(llvm::Module &M, unsigned Level);
/// Has the optional passes of the simplification pipeline skip the functions marked
/// PresimplifiedAttr (in the shard compiles).
void registerPresimplifiedSkip(llvm::PassBuilder &PB);


/// shard-split<dir=PATH;...>: writes one module per shard and a manifest into PATH.
struct ShardSplitPass : llvm::PassInfoMixin<ShardSplitPass> {
  std::string Dir;
  SplitLimits Limits;
  ShardSplitPass(std::string Dir, SplitLimits Limits)
      : Dir(std::move(Dir)), Limits(Limits) {}
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);
  void printPipeline(llvm::raw_ostream &OS,
                     llvm::function_ref<llvm::StringRef(llvm::StringRef)>);
  static bool isRequired() { return true; }
};

} // namespace shard

#endif
