//===- Clone.h - The clone engine of the split and the closure --*- C++ -*-===//
//
// The one engine that copies definitions of the source module into another
// module: a shard (ShardModule.cpp) or a closure module for presimplify
// (presimplify/Closure.cpp). cloneDefinitions fills a ClonedModule with the
// definitions it holds, declaring what they refer to on demand (Declarer), and
// may borrow bodies instead of copying them; moveBodiesBack returns them. The
// pieces that graft bodies between modules of one context (spliceBody,
// mapFunctionData, mapAttachments, reverseMetadata) and make one module's
// globals in another (GlobalMaterializer, copyFunction, copyVariable) are shared
// with the closure.
//
//===----------------------------------------------------------------------===//
#ifndef SHARD_SPLIT_CLONE_H
#define SHARD_SPLIT_CLONE_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/IR/GlobalValue.h"
#include "llvm/IR/Module.h"
#include "llvm/Transforms/Utils/ValueMapper.h"
#include <cstdint>
#include <memory>
#include <utility>
#include <vector>

namespace llvm {
class Constant;
class Function;
class GlobalObject;
class GlobalVariable;
} // namespace llvm

namespace shard {
namespace split {

struct Layout;

/// A function in Dst like F (its type, address space, name and attributes, personality
/// and prefix/prologue data included), with linkage Linkage and no body.
llvm::Function *copyFunction(llvm::Module &Dst, const llvm::Function &F,
                             llvm::GlobalValue::LinkageTypes Linkage);
/// A variable in Dst like G (its type, constness, thread-local mode, address space, name
/// and attributes), with linkage Linkage and no initializer.
llvm::GlobalVariable *copyVariable(llvm::Module &Dst, const llvm::GlobalVariable &G,
                                   llvm::GlobalValue::LinkageTypes Linkage);

/// The shape of the materializers of the split and the closure: while values are mapped
/// into module Dst, makes there the global value that stands for a global value the map
/// lacks (makeGlobal); other values are the mapper's.
struct GlobalMaterializer : llvm::ValueMaterializer {
  llvm::Module &Dst;
  explicit GlobalMaterializer(llvm::Module &Dst) : Dst(Dst) {}
  llvm::Value *materialize(llvm::Value *V) final;
  /// The global value of Dst that stands for GV (never null; it may fail the pass).
  virtual llvm::GlobalValue *makeGlobal(llvm::GlobalValue &GV) = 0;
};

/// Creates in Dst the declarations of global values a shard refers to but does not
/// hold, on demand while its definitions are cloned: a shard declares only what it uses.
struct Declarer final : GlobalMaterializer {
  /// The declarations made, each with the global value it declares.
  std::vector<std::pair<llvm::GlobalValue *, const llvm::GlobalValue *>> Made;
  using GlobalMaterializer::GlobalMaterializer;
  llvm::GlobalValue *makeGlobal(llvm::GlobalValue &GV) override;
};

/// A module the engine fills with definitions of a source module, with what it knows of
/// the source.
struct ClonedModule {
  /// Declared first, so that it is freed last: freed after the map, its values have no
  /// handles left to update.
  std::unique_ptr<llvm::Module> Mod;
  llvm::ValueToValueMapTy VMap; // source values to this module's
  Declarer Decl;                // makes the declarations in Mod
  std::vector<std::pair<llvm::Function *, llvm::Function *>> Moved; // borrowed: source, here
  /// An empty module with Src's identity and target.
  explicit ClonedModule(const llvm::Module &Src);
};

/// Fills C with the definitions Held (layout indices, in module order): bodies and
/// initialisers, declaring what they refer to. Like CloneModule, but without a
/// declaration of every other global of the module, and without a walk over the whole
/// module for each shard. The bodies of the functions Move accepts are not copied but
/// moved from the source module (C.Moved lists them; moveBodiesBack returns them).
void cloneDefinitions(const Layout &L, llvm::ArrayRef<uint32_t> Held,
                      llvm::function_ref<bool(uint32_t)> Move, ClonedModule &C);

/// Returns the bodies cloneDefinitions moved into C to their functions in the source module,
/// mapping back what it mapped. The source is then as it was.
void moveBodiesBack(ClonedModule &C);

/// Moves From's blocks to the end of To (in the same context) and remaps what they use
/// with VM (Mat makes what VM lacks); the locals VM does not name stay as they are.
void spliceBody(llvm::Function &To, llvm::Function &From, llvm::ValueToValueMapTy &VM,
                llvm::ValueMaterializer *Mat = nullptr);

/// Sets To's personality, prefix and prologue data to From's, mapped by Map.
void mapFunctionData(llvm::Function &To, const llvm::Function &From,
                     llvm::function_ref<llvm::Constant *(const llvm::Constant *)> Map);

/// Gives Dst the metadata attachments of Src, mapped with VM and Flags (Mat makes what
/// VM lacks).
void mapAttachments(llvm::GlobalObject &Dst, const llvm::GlobalObject &Src,
                    llvm::ValueToValueMapTy &VM, llvm::RemapFlags Flags,
                    llvm::ValueMaterializer *Mat);

/// Adds to Rev the metadata map of VMap reversed: copies back to their originals.
void reverseMetadata(llvm::ValueToValueMapTy &VMap, llvm::ValueToValueMapTy &Rev);

} // namespace split
} // namespace shard

#endif
