//===- Promote.h - Names, promotion and linkage across shards ---*- C++ -*-===//
//
// What the split changes in the source module so that its shards link: stable
// names for private globals, hidden global symbols for the locals that cross
// shards (listed in the manifest, for the driver to make local again), and weak
// linkage for the discardable definitions that other shards need.
//
//===----------------------------------------------------------------------===//
#ifndef SHARD_SPLIT_PROMOTE_H
#define SHARD_SPLIT_PROMOTE_H

#include "llvm/ADT/StringSet.h"
#include <cstdint>
#include <string>
#include <vector>

namespace llvm {
class Module;
} // namespace llvm

namespace shard {
namespace split {

struct Layout;

/// A local made a global symbol, as the manifest lists it.
struct Promotion {
  std::string NewName, OldName; // OldName "-": keep NewName when localising
  bool Grouped = false;         // in a comdat of its name (copySharedLocals), for the driver
                                // to make private once local
};

/// Names that must survive promotion: locals named by module asm or kept by llvm.used.
llvm::StringSet<> pinnedNames(const llvm::Module &M);

/// Marks each local variable that the module never stores to, and whose address does
/// not escape, constant, as the serial build's GlobalOpt does before it inlines anything:
/// a shard then imports its initializer, and its loads fold, where a promoted variable
/// would keep them. (Not unnamed_addr: a copy in each shard would keep its own table.)
/// Not the Pinned ones, which module asm may write. Returns how many it marked.
unsigned markReadOnlyLocals(llvm::Module &M, const llvm::StringSet<> &Pinned);

/// Names each private global after the global that refers to it, so that an edit to
/// one function renames nothing that other functions refer to.
void namePrivatesByReferrer(llvm::Module &M, const llvm::StringSet<> &Pinned);

/// Names the private definitions from First on (made by presimplify, L.Refs collected)
/// after their referrers too, so that one more string in one function renames nothing in
/// the others.
void namePrivatesByReferrer(const Layout &L, uint32_t First);

/// Makes every local that some shard refers to but does not hold a hidden global (a
/// private copy of it elsewhere becomes an import), and names every unnamed global
/// that is not local. Returns the promotions in layout order.
std::vector<Promotion> promoteCrossShardLocals(llvm::Module &M, const Layout &L, unsigned NumShards,
                                               const llvm::StringSet<> &Pinned,
                                               std::vector<std::vector<uint8_t>> &Placed);

/// Gives each shard that imports a member of a linkonce_odr comdat group a linkonce_odr
/// copy of the whole group (Copy), where no shard declares a member without holding it:
/// its owner then needs no weak_odr definition for the others, and drops the group once
/// every call there is inlined, as a serial build does. Marks the copied members in
/// Copied; returns how many copies it made.
unsigned copyOdrGroups(const Layout &L, std::vector<std::vector<uint8_t>> &Placed,
                       std::vector<uint8_t> &Copied);

/// Which definitions the split must promote under Placed: the locals that some shard
/// refers to without holding them (or only imports), and the unnamed non-locals.
std::vector<uint8_t> promotedDefinitions(const Layout &L, unsigned NumShards,
                                         const std::vector<std::vector<uint8_t>> &Placed);

/// Gives each shard that imports a promoted local function of Shared (shareLocals) a
/// linkonce_odr copy of it (Copy), where no shard declares it without holding it, and
/// makes the function linkonce_odr in a comdat of its promoted name: its owner drops it
/// once every call there is inlined, as a serial build deletes the static, and a shard
/// that keeps a call compiles a copy, of which the linker keeps one. Run after
/// promoteCrossShardLocals. Returns how many functions it shared.
unsigned copySharedLocals(llvm::Module &M, const Layout &L, const std::vector<uint8_t> &Shared,
                          std::vector<std::vector<uint8_t>> &Placed,
                          std::vector<Promotion> &Promoted);

/// Makes a discardable definition that another shard refers to without holding it
/// weak in its owner.
void keepAlive(const Layout &L, unsigned NumShards,
               const std::vector<std::vector<uint8_t>> &Placed);

} // namespace split
} // namespace shard

#endif
