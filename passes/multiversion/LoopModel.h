//===- LoopModel.h - Which loops the loop vectoriser takes -------*- C++ -*-===//
//
// shard-mv-annotate prices an innermost loop in vector form only when the loop
// vectoriser would probably take it. examineLoop() is that guess, made from the
// loop's shape alone (no cost): inductions, reductions and fixed-order
// recurrences only, one exit, a computable trip count that is not short, memory
// at invariant or affine addresses, and no calls but vectorisable intrinsics.
// The intrinsic classes below are shared with the pricing.
//
//===----------------------------------------------------------------------===//
#ifndef SHARD_MULTIVERSION_LOOPMODEL_H
#define SHARD_MULTIVERSION_LOOPMODEL_H

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/IR/Intrinsics.h"

namespace llvm {
class Instruction;
class IntrinsicInst;
class Loop;
class ScalarEvolution;
} // namespace llvm

namespace shard {

/// Bit counts, where POPCNT, LZCNT and TZCNT show.
inline bool isBitOp(llvm::Intrinsic::ID ID) {
  return ID == llvm::Intrinsic::ctpop || ID == llvm::Intrinsic::ctlz || ID == llvm::Intrinsic::cttz;
}

/// Fused multiply-adds, which cost an fmul and an fadd without FMA.
inline bool isFMAOp(llvm::Intrinsic::ID ID) {
  return ID == llvm::Intrinsic::fmuladd || ID == llvm::Intrinsic::fma;
}

/// Intrinsics that cost nothing and do not stop vectorisation.
bool isFreeIntrinsic(const llvm::IntrinsicInst &II);

/// What examineLoop() finds about an innermost loop.
struct LoopFacts {
  bool Vectorisable = false;
  /// A header phi is carried through the addend of an fmuladd without reassoc
  /// (a strict reduction, which FMA makes longer).
  bool StrictFMA = false;
  unsigned WidestBits = 8; // the widest scalar the loop computes with
  llvm::SmallPtrSet<const llvm::Instruction *, 16>
      Control; // induction updates, exit compare, branches
  llvm::SmallPtrSet<const llvm::Instruction *, 8>
      Scalarised;               // strided loads and stores: one per lane
  const char *WhyNot = nullptr; // why it is not vectorisable (for -debug output)
};

/// Examines the innermost loop L (of a function in SSA form).
LoopFacts examineLoop(llvm::Loop *L, llvm::ScalarEvolution &SE);

} // namespace shard

#endif
