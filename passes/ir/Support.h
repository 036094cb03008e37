//===- Support.h - Fatal errors and target machines for the passes -*- C++ -*-===//
//
// The one way the passes report an error opt cannot recover from, and the one
// place that hides how the LLVM majors differ in creating a TargetMachine.
//
//===----------------------------------------------------------------------===//
#ifndef SHARD_IR_SUPPORT_H
#define SHARD_IR_SUPPORT_H

#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/CodeGen.h"
#include <memory>
#include <optional>
#include <string>

namespace llvm {
class TargetMachine;
class Triple;
} // namespace llvm

namespace shard {

/// Ends the process with "LLVM ERROR: PASS: MSG" (no crash report): for conditions
/// that a pass cannot recover from, such as a file it cannot write.
[[noreturn]] void fatal(llvm::StringRef Pass, const llvm::Twine &Msg);

/// A TargetMachine for TT with the default CPU and features (functions carry their
/// own), or null with Err set when no target is registered for TT.
std::unique_ptr<llvm::TargetMachine>
createTargetMachine(const llvm::Triple &TT, std::optional<llvm::Reloc::Model> RM, std::string &Err);

} // namespace shard

#endif
