//===- Scc.cpp - The serial inliner's order: views and last calls ---------===//
//
// The serial inliner walks the call graph's SCCs bottom-up, and works through
// the calls of one SCC's functions together, function by function in the SCC's
// order: where a function and its callee share an SCC (a recursive cycle, such
// as an interpreter's loop through its call and return helpers) and the caller
// comes first, it takes the callee's body as it was before the callee's own
// calls were inlined into it. A shard that imports that callee cuts the cycle
// with its declarations, so the import becomes an SCC of its own, simplified
// first: its callees are inlined into it (a static's last call takes the bonus),
// and it is no longer cheap enough for its caller. Lua's luaD_poscall: serially
// inlined into luaV_execute at cost 135, in a shard at 310 not inlined.
//
// markCallSccs numbers the SCCs of the module's LazyCallGraph (the inliner's)
// and each function's place in its SCC. markSerialSccCalls marks, in a shard,
// each call from a function with a body there to an import in the same SCC,
// placed later (SerialViewMD). The shard compile, which loads the plugin, points the
// marked calls at a copy of the callee made just before the inliner's walk, a
// serial view: nothing is inlined into it and no optional pass runs on it during
// the walk, so such a caller sees the body the serial inliner saw; after the walk
// the calls left go back to the callee (presimplify/Presimplify.cpp). The shard's
// other calls to the import see it simplified, as the serial inliner's later
// callers do.
//
// With serial-view (off by default), the same for a call to a function the shard
// holds (its own, or a private copy), where the shard's own call graph does not
// keep the two in one SCC.
//
// The same order tells which caller of a local the serial inliner weighs last: the
// one that takes the bonus of a local's last call once every other call is inlined.
// A local the split shares (share-locals) is a linkonce_odr copy in each shard,
// which never gets it. markLastCallers finds that caller, and the shard that owns
// it marks its calls (LastCallMD); the shard compile's inline advisor gives such a
// call the bonus once it is the copy's only use there (presimplify/Presimplify.cpp).
//
// As inlining splits an SCC, the serial inliner visits its parts again; a shard that
// cuts the SCC visits its part once. With revisit=N (off by default), markRevisits
// marks the functions a shard owns whose serial SCC it so cuts, for N more visits in
// the shard compile (presimplify/Revisit.cpp).
//
//===----------------------------------------------------------------------===//
#include "ir/Metadata.h"
#include "split/Clone.h"
#include "split/Layout.h"

#include "llvm/ADT/MapVector.h"
#include "llvm/Analysis/LazyCallGraph.h"
#include "llvm/Analysis/TargetLibraryInfo.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/Debug.h"

#include <optional>

#define DEBUG_TYPE "shard-split"

using namespace llvm;

namespace shard {
namespace split {

void markCallSccs(Module &M, Layout &L) {
  // The inliner's own view: LazyCallGraph, whose call edges are direct calls to definitions.
  TargetLibraryInfoImpl TLII(Triple(M.getTargetTriple()));
  TargetLibraryInfo TLI(TLII);
  LazyCallGraph CG(M, [&TLI](Function &) -> TargetLibraryInfo & { return TLI; });
  CG.buildRefSCCs();
  L.CallScc.assign(L.Defs.size(), ~0u);
  L.SccPos.assign(L.Defs.size(), 0);
  L.SccSize.clear();
  uint32_t Sccs = 0;
  for (LazyCallGraph::RefSCC &RC : CG.postorder_ref_sccs())
    for (LazyCallGraph::SCC &C : RC) {
      uint32_t Pos = 0;
      for (LazyCallGraph::Node &N : C)
        if (auto It = L.Index.find(&N.getFunction()); It != L.Index.end()) {
          L.CallScc[It->second] = Sccs;
          L.SccPos[It->second] = Pos++;
        }
      L.SccSize.push_back(Pos);
      ++Sccs;
    }
  LLVM_DEBUG(dbgs() << "shard-split: " << Sccs << " call graph SCCs\n");
}

/// Marks Kind (an empty node) on each call in G to one of Callees. Returns how many.
static unsigned markCalls(Function &G, const SmallPtrSetImpl<const Function *> &Callees,
                          const char *Kind) {
  MDNode *Mark = MDNode::get(G.getContext(), {});
  unsigned Marked = 0;
  for (Instruction &I : instructions(G))
    if (auto *CB = dyn_cast<CallBase>(&I); CB && Callees.count(CB->getCalledFunction())) {
      CB->setMetadata(Kind, Mark);
      ++Marked;
    }
  return Marked;
}

/// The SCC of each function with a body in a shard (Here), by the calls among them: the
/// call graph the shard's inliner walks. ~0u for the others.
static std::vector<uint32_t> shardSccs(const Layout &L, const std::vector<uint8_t> &Here) {
  const uint32_t None = ~0u;
  std::vector<uint32_t> Index(L.Defs.size(), None), Low(L.Defs.size()), Scc(L.Defs.size(), None);
  std::vector<uint32_t> Stack;
  std::vector<std::pair<uint32_t, uint32_t>> Walk; // Tarjan's: a function, its next call
  uint32_t Next = 0, Sccs = 0;
  auto Visit = [&](uint32_t V) {
    Index[V] = Low[V] = Next++;
    Stack.push_back(V);
    Walk.push_back({V, 0});
  };
  for (uint32_t R = 0; R < L.Defs.size(); ++R) {
    if (Here[R] == NotHere || Index[R] != None)
      continue;
    Visit(R);
    while (!Walk.empty()) {
      auto [V, E] = Walk.back();
      if (E < L.Calls[V].size()) {
        ++Walk.back().second;
        uint32_t W = L.Calls[V][E];
        if (Here[W] == NotHere)
          continue;
        if (Index[W] == None)
          Visit(W);
        else if (Scc[W] == None)
          Low[V] = std::min(Low[V], Index[W]);
        continue;
      }
      Walk.pop_back();
      if (!Walk.empty())
        Low[Walk.back().first] = std::min(Low[Walk.back().first], Low[V]);
      if (Low[V] != Index[V])
        continue;
      uint32_t W;
      do {
        W = Stack.back();
        Stack.pop_back();
        Scc[W] = Sccs;
      } while (W != V);
      ++Sccs;
    }
  }
  return Scc;
}

unsigned markSerialSccCalls(const Layout &L, const std::vector<uint8_t> &Here, ClonedModule &C) {
  if (!L.SccImports && !L.SccCalls)
    return 0;
  auto Holds = [&](uint32_t I) { return Here[I] == Own || Here[I] == Copy || Here[I] == Dup; };
  std::vector<uint32_t> Shard; // the shard's own SCCs, made for the first held candidate
  // Whether G's calls to F (both in one serial SCC, F placed later) need the view.
  auto Viewed = [&](uint32_t G, uint32_t F) {
    if (Here[F] == Import)
      return L.SccImports;
    if (!L.SccCalls || !Holds(G) || !Holds(F))
      return false;
    // Where the shard keeps them in one SCC, its inliner takes the calls as serially.
    if (Shard.empty())
      Shard = shardSccs(L, Here);
    return Shard[F] != Shard[G];
  };
  unsigned Marked = 0;
  SmallPtrSet<const Function *, 8> Later;
  for (uint32_t G = 0; G < L.Defs.size(); ++G) {
    if (Here[G] == NotHere || L.CallScc[G] == ~0u)
      continue;
    Later.clear();
    for (uint32_t F : L.Calls[G]) {
      // The inliner takes an SCC's calls function by function, in the SCC's order: F is
      // still as it was when G's call to it comes first.
      if (F == G || L.CallScc[F] != L.CallScc[G] || L.SccPos[F] < L.SccPos[G] || !Viewed(G, F))
        continue;
      // A presimplified callee already has the body the split gave every holder.
      if (auto *Fn = cast<Function>(C.VMap[L.Defs[F]]); !Fn->hasFnAttribute(PresimplifiedAttr))
        Later.insert(Fn);
    }
    if (!Later.empty())
      Marked += markCalls(*cast<Function>(C.VMap[L.Defs[G]]), Later, SerialViewMD);
  }
  return Marked;
}

unsigned markRevisits(const Layout &L, const std::vector<uint8_t> &Here, ClonedModule &C) {
  if (!L.Revisit || L.CallScc.empty())
    return 0;
  // How many functions each of the shard's own SCCs holds (its SCCs number fewer than its
  // functions).
  std::vector<uint32_t> Walk = shardSccs(L, Here), Size(L.Defs.size(), 0);
  for (uint32_t I = 0; I < L.Defs.size(); ++I)
    if (Walk[I] != ~0u)
      ++Size[Walk[I]];
  unsigned Marked = 0;
  for (uint32_t I = 0; I < L.Defs.size(); ++I) {
    if (Here[I] != Own || L.CallScc[I] == ~0u || L.SccSize[L.CallScc[I]] < 2 || Size[Walk[I]] > 1)
      continue;
    // A presimplified body is final: the shard compile skips its simplification.
    auto *F = cast<Function>(C.VMap[L.Defs[I]]);
    if (F->hasFnAttribute(PresimplifiedAttr))
      continue;
    F->addFnAttr(RevisitAttr, std::to_string(L.Revisit));
    ++Marked;
  }
  LLVM_DEBUG(dbgs() << "shard-split: " << Marked << " functions to revisit\n");
  return Marked;
}

unsigned markLastCallers(Layout &L, uint64_t MaxSize,
                         const std::vector<uint8_t> &Shared,
                         const std::vector<std::vector<uint8_t>> &Placed) {
  L.LastCaller.assign(L.Defs.size(), ~0u);
  if (L.CallScc.empty() || !MaxSize)
    return 0;
  // The serial inliner walks the SCCs bottom-up, and an SCC's calls function by function
  // in its order: the caller in the latest SCC, placed latest there, weighs its call last.
  auto Later = [&](uint32_t A, uint32_t B) {
    return std::make_pair(L.CallScc[A], L.SccPos[A]) > std::make_pair(L.CallScc[B], L.SccPos[B]);
  };
  unsigned N = 0;
  for (uint32_t I = 0; I < Shared.size(); ++I) {
    // The bonus comes serially only once every other call is inlined, which a shard cannot
    // know: only functions small enough that the serial inliner takes most calls on cost.
    auto *F = dyn_cast<Function>(L.Defs[I]);
    if (!Shared[I] || !F || !F->hasLinkOnceODRLinkage() || L.CallScc[I] == ~0u ||
        L.Size[I] > MaxSize)
      continue;
    // Only a function called directly, as the bonus needs: no address taken.
    std::optional<uint32_t> Last;
    for (const Use &U : F->uses()) {
      const auto *CB = dyn_cast<CallBase>(U.getUser());
      auto It = CB && CB->isCallee(&U) ? L.Index.find(CB->getFunction()) : L.Index.end();
      // (A definition presimplify made has no place in the serial call graph.)
      if (It == L.Index.end() || It->second >= L.CallScc.size() ||
          L.CallScc[It->second] == ~0u) {
        Last.reset();
        break;
      }
      if (!Last || Later(It->second, *Last))
        Last = It->second;
    }
    if (!Last)
      continue;
    unsigned S = L.Owner[*Last];
    if (Placed[S][*Last] != Own || (Placed[S][I] != Own && Placed[S][I] != Copy))
      continue;
    L.LastCaller[I] = *Last;
    ++N;
  }
  LLVM_DEBUG(dbgs() << "shard-split: " << N << " shared locals with a last caller\n");
  return N;
}

unsigned markLastCalls(const Layout &L, const std::vector<uint8_t> &Here, ClonedModule &C) {
  // Per caller this shard owns, the locals it is the last caller of: one walk per caller.
  MapVector<uint32_t, SmallPtrSet<const Function *, 4>> ByCaller;
  for (uint32_t I = 0; I < L.LastCaller.size(); ++I)
    if (uint32_t G = L.LastCaller[I]; G != ~0u && Here[G] == Own)
      ByCaller[G].insert(cast<Function>(C.VMap[L.Defs[I]]));
  unsigned Marked = 0;
  for (auto &[G, Locals] : ByCaller)
    Marked += markCalls(*cast<Function>(C.VMap[L.Defs[G]]), Locals, LastCallMD);
  return Marked;
}

} // namespace split
} // namespace shard
