//===- Sink.h - Private copies in place of promoted locals ------*- C++ -*-===//
//
// A local function that other shards refer to is promoted to a hidden global in
// its owner, which then keeps it even where the serial build inlines every call
// and deletes it. These placements give those shards private copies instead, so
// that the local is promoted nowhere.
//
//===----------------------------------------------------------------------===//
#ifndef SHARD_SPLIT_SINK_H
#define SHARD_SPLIT_SINK_H

#include <cstdint>
#include <vector>

namespace shard {
namespace split {

struct Layout;

/// Gives a shard a private copy (Dup) of each local function that it reaches only
/// through the bodies of its imports, where no shard reaches it otherwise: promoted
/// nowhere, it stays local in its owner, which inlines and deletes it as the serial build
/// does; a copy is dropped with the import that names it, unless that import is inlined.
/// What only such copies name is copied so too. Returns how many copies it made.
unsigned sinkImportReachedLocals(const Layout &L, std::vector<std::vector<uint8_t>> &Placed);

/// Gives a shard a private copy (Dup) of each local function that it imports and that no
/// other shard refers to, its owner included: as in the serial build, the shard's inliner
/// then sees a static with its every caller (the last-call bonus applies) and drops it
/// once inlined, and the owner drops its copy, now unused, instead of keeping a promoted
/// symbol. Returns how many it sank.
unsigned sinkSingleShardLocals(const Layout &L, std::vector<std::vector<uint8_t>> &Placed);

/// Gives every shard that holds F, other than R's owner, a private copy (Dup) of each
/// local function R that only F refers to: there, as in the serial build, R is a static
/// with one call (the last-call bonus applies), and R is no longer promoted, so its owner's
/// inliner sees it so too (or drops it, unused). NotOwned: only the shards that import or
/// copy F, not one that owns it (import-callees: an imported body is then the one the
/// serial inliner weighs, with its one-call statics inlined). Returns how many copies it made.
unsigned sinkSingleCallerLocals(const Layout &L, std::vector<std::vector<uint8_t>> &Placed,
                                bool NotOwned);

} // namespace split
} // namespace shard

#endif
