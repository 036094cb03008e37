//===- ShardModule.h - Build the module of one shard ------------*- C++ -*-===//
//
// Turns a placement (one Place per definition) into a shard module: the
// definitions it holds, imports made available_externally, its share of the
// per-shard arrays (ctors, dtors, used), the named metadata, and the source
// module's order, without the split's own metadata.
//
//===----------------------------------------------------------------------===//
#ifndef SHARD_SPLIT_SHARDMODULE_H
#define SHARD_SPLIT_SHARDMODULE_H

#include <cstdint>
#include <vector>

namespace llvm {
class Module;
} // namespace llvm

namespace shard {

struct Plan;

namespace split {

struct ClonedModule;
struct Layout;

/// Fills C (empty, made from M) with shard S's module: the definitions Here places in it.
/// It may borrow the bodies of the shard's own functions from M: once the module is
/// written, moveBodiesBack(C) returns them.
void buildShard(ClonedModule &C, const llvm::Module &M, const Plan &P, const Layout &L, unsigned S,
                const std::vector<uint8_t> &Here);

} // namespace split
} // namespace shard

#endif
