//===- Place.cpp - How each shard holds each definition -------------------===//
//
// placeShard walks the references from a shard's own definitions and chooses
// what it copies, imports or declares (Layout.h); holdPerShard and placeAdded
// place what the walk does not reach: the instrumentation names, and the
// locals presimplify made.
//
//===----------------------------------------------------------------------===//
#include "split/Layout.h"
#include "split/ShardSplit.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/IR/Function.h"

#include <algorithm>

using namespace llvm;

namespace shard {
namespace split {

/// Marks in Placed how shard S holds each definition: its own, the comdat groups
/// and small locals they need (copies), and what it imports for inlining and
/// folding, up to Lim.Depth imports deep. Breadth-first by import depth, so each
/// definition gets the shallowest depth whatever the order of references. Tiny
/// definitions (cost up to Lim.TinyCost: the accessors and wrappers C++ libraries nest
/// many levels deep; functions of inline size up to Lim.TinySize; always_inline
/// functions, at any cost) and the input's own available_externally definitions (C++
/// extern templates such as std::string's members, which the serial build has every one
/// of) are followed at any depth, and a tiny or inline function adds no depth: what a
/// wrapper refers to is copied or imported as if its caller referred to it. Past the
/// depth, what an import calls is imported too while the chain of imports that reached it
/// costs up to Lim.ChainCost in all, none of them linkonce (C's layered APIs, such as
/// Duktape's duk_require_string -> duk_require_lstring -> duk_get_lstring -> duk_get_tval,
/// which the serial inliner folds into their caller one after the other; C++'s inline
/// functions nest far deeper, and the tiny ones already go at any depth).
void placeShard(const Layout &L, const SplitLimits &Lim, unsigned S, std::vector<uint8_t> &Placed) {
  Placed.assign(L.Defs.size(), NotHere);
  // Discardable groups reach one level deeper than imports: past that, their owner
  // keeps them alive (keepAlive) and a declaration does.
  const unsigned CopyDepth = Lim.Depth + 1;
  std::vector<std::vector<uint32_t>> Level(1);
  for (uint32_t I = 0; I < L.Defs.size(); ++I)
    if (L.Owner[I] == S) {
      Placed[I] = Own;
      Level[0].push_back(I);
    }
  auto Tiny = [&](uint32_t R) {
    return L.Unit[R] >= 0 ? L.UnitCost[L.Unit[R]] <= Lim.TinyCost
                          : L.Cost[R] <= Lim.TinyCost || alwaysInlined(*L.Defs[R]) ||
                                (Lim.TinySize && isa<Function>(L.Defs[R]) &&
                                 L.Size[R] <= Lim.TinySize);
  };
  // An inline function (inlinehint: C++'s `inline`, a member defined in its class) small
  // enough to import: the serial inliner takes it as surely as a wrapper.
  auto Hinted = [&](uint32_t R) {
    const auto *F = dyn_cast<Function>(L.Defs[R]);
    return F && F->hasFnAttribute(Attribute::InlineHint) && L.Cost[R] <= importLimit(*F, Lim);
  };
  // The cost of the chain of imports that placed each import (ChainCost).
  std::vector<uint64_t> Chain(L.Defs.size(), 0);
  auto Chained = [&](uint32_t I, uint32_t R) {
    return Lim.ChainCost && Placed[I] == Import && !L.Defs[I]->hasLinkOnceLinkage() &&
           !L.Defs[R]->hasLinkOnceLinkage() && Chain[I] + L.Cost[R] <= Lim.ChainCost;
  };
  for (unsigned D = 0; D < Level.size(); ++D) {
    for (size_t K = 0; K < Level[D].size(); ++K) { // grows while we walk it
      uint32_t I = Level[D][K];
      // A tiny or inline function adds no depth: what a wrapper calls is as deep as the
      // wrapper, as the serial inliner sees it once the wrapper is inlined. (Not so for a
      // constant: the functions a vtable names are seldom inlined.)
      // A call at a hot site adds no depth either: the serial inliner takes hot callees
      // (and theirs) far above its ordinary threshold.
      auto Hot = [&](uint32_t R) { return llvm::binary_search(L.HotCalls[I], R); };
      auto Next = [&](uint32_t R, Place P) {
        assert(Placed[R] == NotHere && "a definition is placed once");
        Placed[R] = P;
        unsigned To = isa<Function>(L.Defs[R]) && (Tiny(R) || Hinted(R) || Hot(R)) ? D : D + 1;
        if (Level.size() <= To)
          Level.emplace_back();
        Level[To].push_back(R);
      };
      // A function whose address is only taken here (a callback, a table entry) is not
      // inlined: a copy or an import of it would be compiled for nothing.
      auto Called = [&](uint32_t R) {
        return !isa<Function>(L.Defs[R]) || llvm::binary_search(L.Calls[I], R);
      };
      for (uint32_t R : L.Refs[I]) {
        if (Placed[R] != NotHere)
          continue;
        if (L.PerShard[R]) {
          Placed[R] = L.Defs[R]->hasLocalLinkage() ? Dup : Copy;
          Level[D].push_back(R);
        } else if (L.Unit[R] >= 0) {
          if ((D < CopyDepth || Tiny(R)) && Called(R))
            for (uint32_t Member : L.UnitMembers[L.Unit[R]])
              if (Placed[Member] == NotHere)
                Next(Member, L.UnitImported[L.Unit[R]] ? Import : Copy);
        } else if (L.Dup[R]) {
          Placed[R] = Dup;
          Level[D].push_back(R);
        } else if (((Lim.ImportCost && L.Defs[R]->hasAvailableExternallyLinkage()) ||
                    (L.Import[R] && (D < Lim.Depth || Tiny(R) || Chained(I, R))) ||
                    (L.HotImport[R] && Hot(R))) &&
                   Called(R)) {
          Chain[R] = (Placed[I] == Import ? Chain[I] : 0) + L.Cost[R];
          Next(R, Import);
        }
      }
    }
  }
}

void holdPerShard(const Layout &L, std::vector<std::vector<uint8_t>> &Placed) {
  for (std::vector<uint8_t> &P : Placed)
    for (uint32_t I = 0; I < L.Defs.size(); ++I)
      if (P[I] != NotHere)
        for (uint32_t R : L.Refs[I])
          if (L.PerShard[R] && (P[R] == NotHere || P[R] == Import))
            P[R] = L.Defs[R]->hasLocalLinkage() ? Dup : Copy;
}

namespace {

/// The owner of each definition from First on: the owner of the first definition before
/// First (in layout order) that reaches it through them, which thus holds what names it;
/// shard 0 for one that none reaches (named from metadata only).
void ownAdded(Layout &L, uint32_t First) {
  std::vector<uint8_t> Owned(L.Defs.size() - First, 0);
  std::vector<uint32_t> Work;
  for (uint32_t I = 0; I < First; ++I) {
    Work.assign(1, I);
    while (!Work.empty()) {
      uint32_t J = Work.back();
      Work.pop_back();
      for (uint32_t R : L.Refs[J])
        if (R >= First && !Owned[R - First]) {
          Owned[R - First] = 1;
          L.Owner[R] = L.Owner[I];
          Work.push_back(R);
        }
    }
  }
}

} // namespace

void placeAdded(Layout &L, uint32_t First, std::vector<std::vector<uint8_t>> &Placed) {
  ownAdded(L, First);
  std::vector<uint32_t> Work;
  for (unsigned S = 0; S < Placed.size(); ++S) {
    std::vector<uint8_t> &P = Placed[S];
    assert(P.size() == First && "placed before the definitions were added");
    P.resize(L.Defs.size(), NotHere);
    for (uint32_t I = First; I < L.Defs.size(); ++I)
      if (L.Owner[I] == S)
        P[I] = Own;
    Work.clear();
    for (uint32_t I = 0; I < L.Defs.size(); ++I)
      if (P[I] != NotHere)
        Work.push_back(I);
    // What a held definition names is held too: the result depends on what is reached
    // (and called), not on the order of the walk.
    while (!Work.empty()) {
      uint32_t I = Work.back();
      Work.pop_back();
      for (uint32_t R : L.Refs[I]) {
        if (R < First || P[R] != NotHere)
          continue;
        bool Called = !isa<Function>(L.Defs[R]) || llvm::binary_search(L.Calls[I], R);
        P[R] = L.Dup[R] ? Dup : L.Import[R] && Called ? Import : NotHere;
        if (P[R] != NotHere)
          Work.push_back(R);
      }
    }
  }
}

} // namespace split
} // namespace shard
