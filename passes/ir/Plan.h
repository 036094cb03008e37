//===- Plan.h - Reading the shard plan and walking references ---*- C++ -*-===//
//
// What every stage after shard-partition reads: the plan, the shard of each
// global value, and the global values a definition or constant refers to.
//
//===----------------------------------------------------------------------===//
#ifndef SHARD_IR_PLAN_H
#define SHARD_IR_PLAN_H

#include "ir/Metadata.h"

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/SmallVector.h"
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace llvm {
class Constant;
class GlobalValue;
class MDNode;
class Module;
} // namespace llvm

namespace shard {

/// The plan recorded by shard-partition.
struct Plan {
  unsigned NumShards = 0;
  unsigned AsmShard = 0;           // shard that holds module-level asm
  std::vector<uint64_t> ShardCost; // predicted cost per shard
  uint64_t Cut = 0;                // weight of references between shards
};
std::optional<Plan> readPlan(const llvm::Module &M);
/// The integer of a one-operand node !{iN V} (shard.cost, shard.partition), if it is one.
std::optional<uint64_t> readIntMD(const llvm::MDNode *N);
/// The shard a defined global value was assigned to (aliases and ifuncs follow the
/// object they resolve to), or std::nullopt when it has none.
std::optional<unsigned> getShard(const llvm::GlobalValue &GV);
/// Adds to Out every global value that constant C refers to (through constant
/// expressions, aggregates and block addresses), each once.
void collectGlobalRefs(const llvm::Constant *C, llvm::SmallPtrSetImpl<const llvm::Constant *> &Seen,
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

} // namespace shard

#endif
