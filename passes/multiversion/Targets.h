//===- Targets.h - Feature sets of subtargets (multiversioning internal) -*- C++ -*-===//
//
// What the multiversioning passes need to know about a "target-cpu" /
// "target-features" pair beyond the targets of MV.h: the features it has, as
// LLVM's X86 target parser sees them.
//
//===----------------------------------------------------------------------===//
#ifndef SHARD_MULTIVERSION_TARGETS_H
#define SHARD_MULTIVERSION_TARGETS_H

#include "multiversion/MV.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringRef.h"

namespace shard {

/// The features of code compiled with "target-cpu"=CPU and "target-features"=FS:
/// CPU's features with everything they imply (none for a CPU name LLVM does not
/// know, such as ""), then each "+f" / "-f" of FS in order with what it implies.
/// A feature maps to true when enabled; a feature never mentioned is absent.
llvm::StringMap<bool> effectiveFeatures(llvm::StringRef CPU, llvm::StringRef FS);

/// Whether every target of Targets that strictly implies another (has all its
/// features and more) comes after it (LeastFirst) or before it (!LeastFirst, the
/// order of sortMostCapableFirst). For assertions.
bool isOrderedByCapability(llvm::ArrayRef<MVTarget> Targets, bool LeastFirst);

} // namespace shard

#endif
