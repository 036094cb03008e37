//===- Graft.h - Simplified bodies back into the source module --*- C++ -*-===//
//
// What presimplify's closure modules give back to the module being split: the
// simplified bodies, grafted onto the originals (graftOrGone), and what the
// pipeline made there (Returner, finishReturned).
//
//===----------------------------------------------------------------------===//
#ifndef SHARD_PRESIMPLIFY_GRAFT_H
#define SHARD_PRESIMPLIFY_GRAFT_H

#include "split/Clone.h"

#include "llvm/Transforms/Utils/ValueMapper.h"

#include <utility>
#include <vector>

namespace shard {

/// Gives back to the source module (Dst) what a pass created in a closure module. A
/// declaration (an intrinsic, a library function) is the source's global of that name,
/// as getOrInsertFunction would find it, or a new declaration. A new local (a constant,
/// a function split off) is copied and defined by finishReturned, in the order made. A
/// group's module names the source's globals: names are looked up first.
struct Returner final : split::GlobalMaterializer {
  std::vector<std::pair<llvm::GlobalObject *, llvm::GlobalObject *>> Made; // copy, original
  using GlobalMaterializer::GlobalMaterializer;
  llvm::GlobalValue *makeGlobal(llvm::GlobalValue &GV) override;
};

/// Grafts CF, F simplified, onto F (its body, attributes and calling convention, marked
/// presimplified; Rev maps what CF refers to back, Ret makes what a pass created); without
/// it (a closed local the pipeline deleted, inlined or replaced by one of another
/// signature), F is Gone.
void graftOrGone(llvm::Function &F, llvm::Function *CF, llvm::ValueToValueMapTy &Rev,
                 Returner &Ret, std::vector<llvm::Function *> &Gone);

/// Completes the locals Ret made, while their originals live: initialisers and bodies,
/// mapped like the members' bodies. Appends them to Made, in the order they were made.
void finishReturned(Returner &Ret, llvm::ValueToValueMapTy &Rev,
                    std::vector<llvm::GlobalObject *> &Made);

} // namespace shard

#endif
