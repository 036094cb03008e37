//===- Groups.h - The partition's groups of global values -------*- C++ -*-===//
//
// The union-find over a module's defined global values that shard-partition
// builds its groups with (inseparable values, then clusters), and keep-cycle,
// which joins the groups on an interpreter's call cycle (Cycle.cpp).
//
//===----------------------------------------------------------------------===//
#ifndef SHARD_PARTITION_GROUPS_H
#define SHARD_PARTITION_GROUPS_H

#include "ir/Plan.h"
#include "partition/partition.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/IR/Module.h"

#include <cstdint>
#include <vector>

namespace shard {

/// The defined global values of a module, numbered in module order, with the
/// union-find that keeps inseparable ones together. Node Asm (the last one)
/// stands for module-level asm.
struct Groups {
  std::vector<llvm::GlobalValue *> Nodes;
  llvm::DenseMap<const llvm::GlobalValue *, uint32_t> Index;
  std::vector<uint32_t> Parent;
  uint32_t Asm = 0;

  explicit Groups(llvm::Module &M) {
    for (llvm::GlobalValue &GV : M.global_values()) {
      if (GV.isDeclaration() || isPerShardArray(GV))
        continue;
      Index[&GV] = Nodes.size();
      Nodes.push_back(&GV);
    }
    Asm = Nodes.size();
    Parent.resize(Nodes.size() + 1);
    shard_uf_init(Parent.data(), Parent.size());
  }
  void join(uint32_t A, const llvm::GlobalValue *B) {
    auto It = Index.find(B);
    if (It != Index.end())
      shard_uf_union(Parent.data(), A, It->second);
  }
  void join(const llvm::GlobalValue *A, const llvm::GlobalValue *B) {
    auto It = Index.find(A);
    if (It != Index.end())
      join(It->second, B);
  }
  /// Joins GV with every defined global value constant C refers to.
  void joinRefs(const llvm::GlobalValue *GV, const llvm::Constant *C) {
    llvm::SmallPtrSet<const llvm::Constant *, 8> Seen;
    llvm::SmallVector<const llvm::GlobalValue *, 4> Refs;
    collectGlobalRefs(C, Seen, Refs);
    for (const llvm::GlobalValue *R : Refs)
      join(GV, R);
    if (Refs.empty() || llvm::none_of(Refs, [](auto *R) { return !R->isDeclaration(); }))
      join(Asm, GV); // nothing to follow: keep it with module asm (shard of record)
  }
  uint32_t find(uint32_t X) { return shard_uf_find(Parent.data(), X); }
  /// The cost of each group, at its root (indexed by node, the asm node's last).
  std::vector<uint64_t> costs(llvm::ArrayRef<uint64_t> Cost) {
    std::vector<uint64_t> GroupCost(Nodes.size() + 1);
    for (uint32_t I = 0; I < Nodes.size(); ++I)
      GroupCost[find(I)] += Cost[I];
    return GroupCost;
  }
};

/// keep-cycle: joins the groups on the shortest call cycle through the most expensive
/// recursive function, while they add at most half of Share (Cycle.cpp).
void keepCycle(Groups &G, llvm::ArrayRef<uint64_t> Cost, uint64_t Share);

} // namespace shard

#endif
