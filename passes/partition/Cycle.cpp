//===- Cycle.cpp - keep-cycle: an interpreter's call cycle in one group ---===//
//
//   opt ... -passes='shard-cost,shard-partition<shards=12;keep-cycle>,print<shard-plan>'
//
// shard-partition's keep-cycle (off by default; docs/passes.md): the most
// expensive recursive function keeps its shortest call cycle in its group.
//
//===----------------------------------------------------------------------===//
#include "partition/Groups.h"

#include "llvm/IR/Function.h"
#include "llvm/IR/Instructions.h"
#include "llvm/Support/Debug.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>

#define DEBUG_TYPE "shard-partition"

using namespace llvm;

namespace shard {

namespace {

/// The functions each defined function calls directly (defined ones, by node), in
/// instruction order.
std::vector<SmallVector<uint32_t, 8>> directCalls(const Groups &G) {
  std::vector<SmallVector<uint32_t, 8>> Calls(G.Nodes.size());
  for (uint32_t I = 0; I < G.Nodes.size(); ++I)
    if (const auto *F = dyn_cast<Function>(G.Nodes[I]))
      for (const BasicBlock &BB : *F)
        for (const Instruction &Inst : BB)
          if (const auto *CB = dyn_cast<CallBase>(&Inst))
            if (const Function *Callee = CB->getCalledFunction())
              if (auto It = G.Index.find(Callee); It != G.Index.end())
                Calls[I].push_back(It->second);
  return Calls;
}

} // namespace

/// keep-cycle: the serial inliner works through an SCC of the call graph (an interpreter
/// loop that reaches itself through its API: sqlite3VdbeExec, sqlite3_step, VACUUM) and
/// visits each part again as inlining splits it, its inliner first: calls it refused are
/// taken then, and statics whose other callers inlined them take the last-call bonus. A
/// shard that holds the loop but not the cycle visits it once. So the most expensive of
/// the 16 most expensive functions that reaches itself keeps the shortest such cycle in
/// its group: the groups on it join, while they add at most half a share.
void keepCycle(Groups &G, ArrayRef<uint64_t> Cost, uint64_t Share) {
  std::vector<SmallVector<uint32_t, 8>> Calls = directCalls(G);
  std::vector<uint32_t> ByCost;
  for (uint32_t I = 0; I < G.Nodes.size(); ++I)
    if (isa<Function>(G.Nodes[I]) && !Calls[I].empty())
      ByCost.push_back(I);
  llvm::stable_sort(ByCost, [&](uint32_t A, uint32_t B) { return Cost[A] > Cost[B]; });
  ByCost.resize(std::min<size_t>(ByCost.size(), 16)); // a bound on the searches
  for (uint32_t R : ByCost) {
    // Breadth first from R: the first call back to R closes the shortest cycle.
    std::vector<uint32_t> From(G.Nodes.size(), ~0u);
    std::vector<uint32_t> Queue{R};
    From[R] = R;
    uint32_t Last = ~0u;
    for (size_t Q = 0; Q < Queue.size() && Last == ~0u; ++Q)
      for (uint32_t C : Calls[Queue[Q]]) {
        if (C == R && Queue[Q] != R) {
          Last = Queue[Q];
          break;
        }
        if (From[C] == ~0u) {
          From[C] = Queue[Q];
          Queue.push_back(C);
        }
      }
    if (Last == ~0u)
      continue; // not recursive through others: the next most expensive
    uint32_t Root = G.find(R);
    SmallVector<uint32_t, 8> Join;
    uint64_t Added = 0;
    std::vector<uint64_t> GroupCost = G.costs(Cost);
    for (uint32_t N = Last; N != R; N = From[N])
      if (uint32_t Gr = G.find(N); Gr != Root && Gr != G.find(G.Asm) && !is_contained(Join, Gr)) {
        Join.push_back(Gr);
        Added += GroupCost[Gr];
      }
    LLVM_DEBUG(dbgs() << "shard-partition: " << G.Nodes[R]->getName() << "'s cycle: "
                      << Join.size() << " groups of cost " << Added << "\n");
    if (Added <= Share / 2)
      for (uint32_t Gr : Join)
        shard_uf_union(G.Parent.data(), Root, Gr);
    return;
  }
}

} // namespace shard
