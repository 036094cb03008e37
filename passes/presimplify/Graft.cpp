//===- Graft.cpp - Simplified bodies back into the source module ----------===//
//
// A closure module's simplified bodies replace the originals in the module
// being split, with what they refer to mapped back (graftOrGone); what the
// pipeline made there (a libcall's new string, a function split off) is made
// again in that module (Returner) and completed (finishReturned).
//
//===----------------------------------------------------------------------===//
#include "presimplify/Graft.h"
#include "ir/Metadata.h"
#include "ir/Plan.h"
#include "ir/Support.h"

#include "llvm/IR/Function.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace shard {

using namespace split;

GlobalValue *Returner::makeGlobal(GlobalValue &GV) {
  auto *F = dyn_cast<Function>(&GV);
  auto *V = dyn_cast<GlobalVariable>(&GV);
  if (GV.isDeclaration()) {
    if (GlobalValue *E = Dst.getNamedValue(GV.getName()))
      return E;
    if (F)
      return copyFunction(Dst, *F, F->getLinkage());
    if (V)
      return copyVariable(Dst, *V, V->getLinkage());
  } else if (GV.hasLocalLinkage() && (F || V)) {
    GlobalObject *New = F ? static_cast<GlobalObject *>(copyFunction(Dst, *F, F->getLinkage()))
                          : copyVariable(Dst, *V, V->getLinkage());
    Made.push_back({New, cast<GlobalObject>(&GV)});
    return New;
  }
  fatal("shard-split", "presimplify made a new global " + displayName(GV));
}

/// Gives F the body CF (in another module of the same context), CF's attributes and
/// calling convention, marked presimplified, mapping with Rev what CF refers to back to
/// the source module (Ret makes what a pass created there).
static void graftBody(Function &F, Function &CF, ValueToValueMapTy &Rev, Returner &Ret) {
  assert(!CF.isDeclaration() && F.arg_size() == CF.arg_size() && "a simplified body for F");
  const RemapFlags Flags = RF_IgnoreMissingLocals;
  auto Map = [&](const Constant *V) { return MapValue(V, Rev, Flags, nullptr, &Ret); };
  F.dropAllReferences(); // the body, personality and attachments; not the linkage
  F.setAttributes(CF.getAttributes());
  F.setCallingConv(CF.getCallingConv());
  F.addFnAttr(PresimplifiedAttr);
  mapAttachments(F, CF, Rev, Flags, &Ret);
  for (auto [A, CA] : zip(F.args(), CF.args()))
    Rev[&CA] = &A;
  spliceBody(F, CF, Rev, &Ret);
  mapFunctionData(F, CF, Map);
}

void graftOrGone(Function &F, Function *CF, ValueToValueMapTy &Rev, Returner &Ret,
                 std::vector<Function *> &Gone) {
  if (CF)
    graftBody(F, *CF, Rev, Ret);
  else
    Gone.push_back(&F);
}

void finishReturned(Returner &Ret, ValueToValueMapTy &Rev, std::vector<GlobalObject *> &Made) {
  for (size_t K = 0; K < Ret.Made.size(); ++K) { // grows while they are mapped
    auto [New, Orig] = Ret.Made[K];
    if (auto *F = dyn_cast<Function>(New)) {
      graftBody(*F, *cast<Function>(Orig), Rev, Ret);
    } else {
      mapAttachments(*New, *Orig, Rev, RF_IgnoreMissingLocals, &Ret);
      if (auto *V = cast<GlobalVariable>(Orig); V->hasInitializer())
        cast<GlobalVariable>(New)->setInitializer(
            MapValue(V->getInitializer(), Rev, RF_IgnoreMissingLocals, nullptr, &Ret));
    }
    Made.push_back(New);
  }
  Ret.Made.clear();
}

} // namespace shard
