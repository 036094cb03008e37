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
/// written, dropCallMarks(C) then moveBodiesBack(C) returns them.
void buildShard(ClonedModule &C, const llvm::Module &M, const Plan &P, const Layout &L, unsigned S,
                const std::vector<uint8_t> &Here);

/// Removes the marks buildShard set on calls in the bodies C borrowed (SerialViewMD,
/// LastCallMD): they are this shard's, and returned with the bodies to the source, a later
/// shard's copy or import of the function would carry them, so that what a shard holds
/// would depend on which shards its writer wrote before it.
void dropCallMarks(ClonedModule &C);

} // namespace split
} // namespace shard

#endif
