//===- ProfileGen.h - IR-level instrumentation before the split -*- C++ -*-===//
//
// shard-profile-gen<level=L;path=P[;atomic]>: the -O<L> pipeline's IR-level
// instrumentation and its lowering, on the whole module, before the split
// (docs/passes.md).
//
//===----------------------------------------------------------------------===//
#ifndef SHARD_PROFILE_PROFILEGEN_H
#define SHARD_PROFILE_PROFILEGEN_H

#include "llvm/IR/PassManager.h"
#include <string>

namespace shard {

struct ShardProfileGenPass : llvm::PassInfoMixin<ShardProfileGenPass> {
  ShardProfileGenPass(std::string Path, unsigned Level, bool Atomic)
      : Path(std::move(Path)), Level(Level), Atomic(Atomic) {}
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);
  void printPipeline(llvm::raw_ostream &OS, llvm::function_ref<llvm::StringRef(llvm::StringRef)>);
  static bool isRequired() { return true; }

private:
  std::string Path; // the raw profile the program writes (clang's default_%m.profraw)
  unsigned Level;
  bool Atomic; // -fprofile-update=atomic
};

} // namespace shard

#endif
