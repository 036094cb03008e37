//===- ProfileUse.h - Apply an IR-level profile before the split -*- C++ -*-===//
//
// shard-profile-use<path=P;level=L>: the -O<L> pipeline's use of the IR-level
// profile P, on the whole module, before the split (docs/passes.md).
//
//===----------------------------------------------------------------------===//
#ifndef SHARD_PROFILE_PROFILEUSE_H
#define SHARD_PROFILE_PROFILEUSE_H

#include "llvm/IR/PassManager.h"
#include <string>

namespace shard {

struct ShardProfileUsePass : llvm::PassInfoMixin<ShardProfileUsePass> {
  ShardProfileUsePass(std::string Path, unsigned Level) : Path(std::move(Path)), Level(Level) {}
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);
  void printPipeline(llvm::raw_ostream &OS, llvm::function_ref<llvm::StringRef(llvm::StringRef)>);
  static bool isRequired() { return true; }

private:
  std::string Path;
  unsigned Level;
};

} // namespace shard

#endif
