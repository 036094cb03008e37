//===- Support.h - what the engine's compile and link share ---------------===//
//
// Initialization, fatal-error recovery and the C buffers of the engine.
//
//===----------------------------------------------------------------------===//

#ifndef SHARD_ENGINE_SUPPORT_H
#define SHARD_ENGINE_SUPPORT_H

#include "engine.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"

#include <string>

namespace shard_engine {

/// Initializes LLVM's targets and installs the fatal error handler, once per process.
void initialize();

/// Runs FN; a fatal LLVM error inside it returns false with its message in FATAL (what
/// FN allocated is leaked).
bool runRecoverable(llvm::function_ref<void()> Fn, std::string &Fatal);

/// A malloc'ed copy of DATA.
shard_engine_buf toBuf(llvm::ArrayRef<char> Data);

/// Sets *LOG (when LOG is not null) to a malloc'ed copy of MSG, or null when MSG is empty;
/// prints MSG to stderr when SHARD_ENGINE_VERBOSE is set.
void setLog(char **Log, llvm::StringRef Msg);

} // namespace shard_engine

#endif
