//===- Presimplify.h - Simplify once what several shards hold ---*- C++ -*-===//
#ifndef SHARD_PRESIMPLIFY_PRESIMPLIFY_H
#define SHARD_PRESIMPLIFY_PRESIMPLIFY_H

namespace llvm {
class Module;
class PassBuilder;
} // namespace llvm

namespace shard {

/// Runs the module simplification pipeline of -O<Level> over M (the split's closure).
void simplifyClosure(llvm::Module &M, unsigned Level);
/// Has the optional passes of the simplification pipeline skip the functions marked
/// PresimplifiedAttr (in the shard compiles).
void registerPresimplifiedSkip(llvm::PassBuilder &PB);

} // namespace shard

#endif
