//===- Emit.h - Shard files, the manifest, the notify protocol --*- C++ -*-===//
//
// What shard-split writes into its directory (docs/contract.md): shard.K.bc for
// every shard K, the manifest, and, with notify=FD, a line to the driver as
// each file is complete. With parts=P, P processes share the shards (writerOf).
// With memory, the same bytes go to the in-process split's sink instead.
//
//===----------------------------------------------------------------------===//
#ifndef SHARD_SPLIT_EMIT_H
#define SHARD_SPLIT_EMIT_H

#include "llvm/ADT/ArrayRef.h"
#include <cstdint>
#include <string>
#include <vector>

namespace llvm {
class Module;
} // namespace llvm

namespace shard {

struct MemorySink;
struct Plan;

namespace split {

struct Layout;
struct Promotion;

/// The part that writes shard S when Parts processes split a module.
unsigned writerOf(unsigned S, unsigned Parts);

/// Where the files go: into the directory Dir, or to Sink (memory).
struct Output {
  std::string Dir;
  MemorySink *Sink = nullptr;
};

/// Writes shard S's module (the definitions Here places in it) to DIR/shard.S.bc;
/// false if the sink stopped the split.
bool writeShard(const llvm::Module &M, const Plan &P, const Layout &L, unsigned S,
                const std::vector<uint8_t> &Here, const Output &Out);

/// Writes DIR/manifest: the target, the relocation model, each shard's predicted work
/// and function count, and the promoted names; false if the sink stopped the split.
bool writeManifest(const llvm::Module &M, const Output &Out, llvm::ArrayRef<uint64_t> Work,
                   llvm::ArrayRef<unsigned> Functions, llvm::ArrayRef<Promotion> Promoted);

/// Tells the driver on file descriptor FD (notify=FD; -1: nobody) that a file is complete:
/// What is "manifest" or a shard number.
void notify(int FD, const std::string &What);

} // namespace split
} // namespace shard

#endif
