//===- Presimplify.h - Simplify once what several shards hold ---*- C++ -*-===//
//
// shard-split<presimplify=L> simplifies once, before the shards are written,
// the functions that several shards hold (presimplifyShared, Closure.cpp), and
// marks them; a shard compile that loads the plugin skips them in its own
// simplification pipeline (registerShardSkips, Presimplify.cpp).
//
//===----------------------------------------------------------------------===//
#ifndef SHARD_PRESIMPLIFY_PRESIMPLIFY_H
#define SHARD_PRESIMPLIFY_PRESIMPLIFY_H

#include <cstdint>
#include <vector>

namespace llvm {
class Module;
class PassBuilder;
} // namespace llvm

namespace shard {

struct SplitLimits;

namespace split {
struct Layout;
} // namespace split

/// How presimplifyShared simplifies the closure.
struct ClosureOptions {
  unsigned Level;   // -O level (1-3) of the module simplification pipeline
  unsigned Depth;   // levels of importable callees of the members held for inlining there
  unsigned Threads; // threads that simplify its groups (the output does not depend on them)
  bool Verify;      // verify each closure module before the pipeline runs on it
  bool Views;       // leave out what is called from earlier in its serial SCC (closureOf)
};

/// Simplifies once the functions that shards import or copy (Placed: a Place per
/// definition per shard), for every shard that holds them, the owner too, and marks
/// them PresimplifiedAttr; L then records what they refer to now. The locals the
/// pipeline made (a libcall's new string, a function split off) are defined in M and
/// added to L (with the limits Lim) and to Placed, held wherever a body names them.
void presimplifyShared(llvm::Module &M, split::Layout &L, const SplitLimits &Lim,
                       std::vector<std::vector<uint8_t>> &Placed, const ClosureOptions &Opts);

/// Runs the module simplification pipeline of -O<Level> over M (the split's closure).
void simplifyClosure(llvm::Module &M, unsigned Level);
/// Has the optional passes of the simplification pipeline skip, in the shard compiles, the
/// functions marked PresimplifiedAttr; for the inliner's walk of the call graph, points the
/// calls marked SerialViewMD (split/Scc.cpp) at a copy of their callee marked SerialSccAttr,
/// which the walk's optional passes skip and its inliner inlines nothing into (LLVM 20 and
/// up: LLVM 19's plugin inline advisors are process-wide state).
void registerShardSkips(llvm::PassBuilder &PB);

/// In a shard compile: N more inliner visits for the functions shard-split<revisit=N>
/// marked (Revisit.cpp).
void registerRevisits(llvm::PassBuilder &PB);

} // namespace shard

#endif
