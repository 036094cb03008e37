//===- Scc.cpp - Imports the serial inliner sees unsimplified -------------===//
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
// and each function's place in its SCC. markSerialSccImports marks, in a shard,
// each import that a function the shard holds calls from within their SCC and
// from an earlier place (SerialSccAttr). A shard compile that loads the plugin
// skips the optional passes on a marked function while the inliner walks the
// call graph (registerShardSkips), so such a caller sees the body the serial
// inliner saw. The shard's other callers of it see that body too.
//
//===----------------------------------------------------------------------===//
#include "ir/Metadata.h"
#include "split/Clone.h"
#include "split/Layout.h"

#include "llvm/Analysis/LazyCallGraph.h"
#include "llvm/Analysis/TargetLibraryInfo.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/Debug.h"

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
  uint32_t Sccs = 0;
  for (LazyCallGraph::RefSCC &RC : CG.postorder_ref_sccs())
    for (LazyCallGraph::SCC &C : RC) {
      uint32_t Pos = 0;
      for (LazyCallGraph::Node &N : C)
        if (auto It = L.Index.find(&N.getFunction()); It != L.Index.end()) {
          L.CallScc[It->second] = Sccs;
          L.SccPos[It->second] = Pos++;
        }
      ++Sccs;
    }
  LLVM_DEBUG(dbgs() << "shard-split: " << Sccs << " call graph SCCs\n");
}

unsigned markSerialSccImports(const Layout &L, const std::vector<uint8_t> &Here, ClonedModule &C) {
  if (L.CallScc.empty())
    return 0;
  unsigned Marked = 0;
  for (uint32_t G = 0; G < L.Defs.size(); ++G) {
    if (Here[G] == NotHere || L.CallScc[G] == ~0u)
      continue;
    for (uint32_t F : L.Calls[G]) {
      // The inliner takes an SCC's calls function by function, in the SCC's order: F is
      // still as it was when G's call to it comes first.
      if (F == G || Here[F] != Import || L.CallScc[F] != L.CallScc[G] ||
          L.SccPos[F] < L.SccPos[G])
        continue;
      // A presimplified import already has the body the split gave every holder.
      auto *Fn = cast<Function>(C.VMap[L.Defs[F]]);
      if (Fn->hasFnAttribute(PresimplifiedAttr) || Fn->hasFnAttribute(SerialSccAttr))
        continue;
      Fn->addFnAttr(SerialSccAttr);
      ++Marked;
    }
  }
  return Marked;
}

} // namespace split
} // namespace shard
