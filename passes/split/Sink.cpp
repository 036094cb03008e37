//===- Sink.cpp - Private copies in place of promoted locals --------------===//
//
// Each function here turns some of the imports or declarations of a local
// function into private copies (Dup), where that makes the local promoted
// nowhere; promoteCrossShardLocals makes the copies imports again wherever the
// local stays promoted for another shard.
//
//===----------------------------------------------------------------------===//
#include "split/Sink.h"
#include "split/Layout.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/IR/Function.h"
#include "llvm/Support/Debug.h"

#include <algorithm>

#define DEBUG_TYPE "shard-split"

using namespace llvm;

namespace shard {
namespace split {

namespace {

/// Marks in Live what shard P keeps whatever its optimiser inlines: its own definitions,
/// and the private copies (Dup, Copy) that they name, at any depth. An import is never
/// kept, nor a copy only imports name.
void markLive(const Layout &L, const std::vector<uint8_t> &P, std::vector<uint8_t> &Live) {
  std::fill(Live.begin(), Live.end(), 0);
  std::vector<uint32_t> Work;
  for (uint32_t I = 0; I < L.Defs.size(); ++I)
    if (P[I] == Own)
      Live[I] = 1, Work.push_back(I);
  while (!Work.empty()) {
    uint32_t I = Work.back();
    Work.pop_back();
    for (uint32_t R : L.Refs[I])
      if (!Live[R] && (P[R] == Dup || P[R] == Copy))
        Live[R] = 1, Work.push_back(R);
  }
}

/// Whether shard P names local R without holding it privately (what promotes a local).
bool namesAcross(const Layout &L, const std::vector<uint8_t> &P, uint32_t R) {
  return L.Defs[R]->hasLocalLinkage() && (P[R] == NotHere || P[R] == Import);
}

} // namespace

unsigned sinkImportReachedLocals(const Layout &L, std::vector<std::vector<uint8_t>> &Placed) {
  const uint32_t N = L.Defs.size();
  // A copy may be made of a local function that is not pinned and whose address is not
  // taken, or of what a shard copies privately anyway (a small constant, a small function).
  auto Copyable = [&](uint32_t R) { return L.Sinkable[R] || L.Dup[R]; };
  std::vector<uint8_t> Live(N), Strong(N), Promoted(N);
  std::vector<std::vector<unsigned>> Weak(N); // per local: the shards that reach it only so
  for (unsigned S = 0; S < Placed.size(); ++S)
    for (uint32_t I = 0; I < N; ++I)
      if (Placed[S][I] != NotHere)
        for (uint32_t R : L.Refs[I])
          Promoted[R] |= namesAcross(L, Placed[S], R);
  unsigned Sunk = 0;
  // A copy reaches only weakly what it names: repeat until nothing changes.
  for (bool Changed = true; Changed;) {
    Changed = false;
    std::fill(Strong.begin(), Strong.end(), 0);
    for (std::vector<unsigned> &W : Weak)
      W.clear();
    for (unsigned S = 0; S < Placed.size(); ++S) {
      const std::vector<uint8_t> &P = Placed[S];
      markLive(L, P, Live);
      for (uint32_t I = 0; I < N; ++I)
        if (P[I] != NotHere)
          for (uint32_t R : L.Refs[I])
            if (namesAcross(L, P, R)) {
              if (Live[I])
                Strong[R] = 1;
              else if (Weak[R].empty() || Weak[R].back() != S)
                Weak[R].push_back(S);
            }
    }
    // A copy in S must not promote what it names: each of its locals is held there, promoted
    // already, or copied in turn.
    auto Resolved = [&](uint32_t R, unsigned S) {
      return llvm::all_of(L.Refs[R], [&](uint32_t X) {
        return !L.Defs[X]->hasLocalLinkage() || Placed[S][X] != NotHere || Promoted[X] ||
               Copyable(X);
      });
    };
    for (uint32_t R = 0; R < N; ++R) {
      if (Strong[R] || Weak[R].empty() || !Copyable(R) ||
          !llvm::all_of(Weak[R], [&](unsigned S) { return Resolved(R, S); }))
        continue;
      for (unsigned S : Weak[R])
        Placed[S][R] = Dup;
      Sunk += Weak[R].size();
      Changed = true;
    }
  }
  LLVM_DEBUG(dbgs() << "shard-split: " << Sunk << " copies of locals reached only by imports\n");
  return Sunk;
}

unsigned sinkSingleShardLocals(const Layout &L, std::vector<std::vector<uint8_t>> &Placed) {
  // The one shard that refers to each definition, Many if several do, None if none.
  constexpr unsigned None = ~0u, Many = ~0u - 1;
  std::vector<unsigned> By(L.Defs.size(), None);
  for (unsigned S = 0; S < Placed.size(); ++S)
    for (uint32_t I = 0; I < L.Defs.size(); ++I)
      if (Placed[S][I] != NotHere)
        for (uint32_t R : L.Refs[I])
          By[R] = By[R] == None || By[R] == S ? S : Many;
  unsigned Sunk = 0;
  for (uint32_t R = 0; R < L.Defs.size(); ++R) {
    unsigned S = By[R];
    // An import is a copyable body, not pinned, outside the copy units; a local one
    // whose address is not taken may be copied. Its references were placed in S with it.
    const auto *F = dyn_cast<Function>(L.Defs[R]);
    if (S >= Many || S == L.Owner[R] || Placed[S][R] != Import || !F || !F->hasLocalLinkage() ||
        F->hasAddressTaken())
      continue;
    Placed[S][R] = Dup;
    ++Sunk;
  }
  LLVM_DEBUG(dbgs() << "shard-split: " << Sunk << " imported locals copied into their one shard\n");
  return Sunk;
}

unsigned sinkSingleCallerLocals(const Layout &L, std::vector<std::vector<uint8_t>> &Placed,
                                bool NotOwned) {
  // The one definition that refers to each one, Many if several do, None if none.
  constexpr uint32_t None = ~0u, Many = ~0u - 1;
  std::vector<uint32_t> By(L.Defs.size(), None);
  for (uint32_t I = 0; I < L.Defs.size(); ++I)
    for (uint32_t R : L.Refs[I])
      By[R] = By[R] == None ? I : Many;
  unsigned Sunk = 0;
  // A copy may reach a local that only it calls: repeat until nothing changes.
  for (bool Changed = true; Changed;) {
    Changed = false;
    for (uint32_t R = 0; R < L.Defs.size(); ++R) {
      uint32_t F = By[R];
      if (F >= Many || !L.Sinkable[R] || !isa<Function>(L.Defs[F]))
        continue;
      for (unsigned S = 0; S < Placed.size(); ++S)
        if (S != L.Owner[R] && Placed[S][F] != NotHere && (!NotOwned || Placed[S][F] != Own) &&
            (Placed[S][R] == NotHere || Placed[S][R] == Import)) {
          Placed[S][R] = Dup;
          ++Sunk;
          Changed = true;
        }
    }
  }
  LLVM_DEBUG(dbgs() << "shard-split: " << Sunk << " copies of single-caller locals\n");
  return Sunk;
}

} // namespace split
} // namespace shard
