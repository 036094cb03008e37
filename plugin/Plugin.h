//===- Plugin.h - Registration of the Shard passes --------------*- C++ -*-===//
//
// What opt's -load-pass-plugin and the in-process split (InProcess.cpp) both do
// to a PassBuilder: register the Shard passes' names and callbacks.
//
//===----------------------------------------------------------------------===//
#ifndef SHARD_PLUGIN_PLUGIN_H
#define SHARD_PLUGIN_PLUGIN_H

namespace llvm {
class PassBuilder;
} // namespace llvm

namespace shard {

/// Registers the pipeline names, the pass names for instrumentation, the skip of
/// presimplified functions and the multiversioning passes of the default pipelines.
void registerPlugin(llvm::PassBuilder &PB);

} // namespace shard

#endif
