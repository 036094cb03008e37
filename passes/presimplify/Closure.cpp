//===- Closure.cpp - The closure, its groups and their threads ------------===//
//
// presimplifyShared simplifies once the functions that shards import or copy
// (comdat copies, private copies of locals). They are cloned (split/Clone.h),
// with the rest of what shards hold besides their own definitions (the
// constants they import or copy) and, to presimplify-depth levels, the
// importable functions they call (for the inliner), into a closure module,
// where the simplification pipeline of -O<Level> runs over them; the
// simplified bodies and the attributes inferred for them then replace the
// originals, marked, for every shard that holds them, the owner too. The
// closure keeps all it holds but the closed locals, which only what it
// simplifies calls: those it treats as the serial pipeline does (fillClosure),
// and those it deletes are retired. What the bodies refer to is collected
// again, so that the locals they now name are promoted like any other. With
// closure-views (off), what is called from earlier in its serial SCC is held but
// not simplified: its holders read it through its serial view. What the
// pipeline made (a libcall's new string, the functions CoroSplit splits off, a
// local given a new signature) is given back to the source module (Graft.h):
// declarations by name, new locals defined there, each group's while its module
// lives, then added to the layout and placed like any other local.
//
// The closure is simplified in groups (closureGroups), on up to Threads
// threads, each group in a context of its own: the functions of a range of the
// module (by cost) with what they refer to in the closure, the rest only
// declared. A function's simplified body depends on what it calls, which its
// group holds, and not on the threads. A module with debug info is simplified
// in one group, in the module's own context (its debug metadata would not
// survive the trip between contexts).
//
//===----------------------------------------------------------------------===//
#include "ir/Metadata.h"
#include "ir/Support.h"
#include "presimplify/Graft.h"
#include "presimplify/Presimplify.h"
#include "split/Clone.h"
#include "split/Layout.h"
#include "split/Promote.h"

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Bitcode/BitcodeReader.h"
#include "llvm/Bitcode/BitcodeWriter.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/ValueHandle.h"
#include "llvm/IR/Verifier.h"
#include "llvm/Support/Debug.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Transforms/Utils/ModuleUtils.h"

#include <algorithm>
#include <atomic>
#include <thread>

#define DEBUG_TYPE "shard-presimplify"

using namespace llvm;

namespace shard {

namespace {

using namespace split;

/// How many groups the closure is simplified in: a fixed function of the closure's
/// size, never of the threads that run them, so that the output is the same.
unsigned closureGroups(size_t Members) {
  return unsigned(std::clamp<size_t>(Members / 2048, 1, 8));
}

/// What the closure holds: the functions simplified in it (Members) and what they may
/// refer to there (Held, Members included), each in module order.
struct Closure {
  enum Role : uint8_t { Out, Context, Simplified };
  std::vector<uint8_t> Roles; // a Role per definition
  std::vector<uint32_t> Held, Members;
};

/// The closure of the functions Placed imports or copies. What they call that no shard
/// holds is held too, if importable, to Depth levels: the pipeline inlines it into them as
/// the serial one does (a shard imports a callee's callees only to import-depth). With
/// Views, a function called from earlier in its serial SCC is held, not simplified: its
/// holders simplify it, and read it through its serial view (split/Scc.cpp).
Closure closureOf(const Layout &L, const std::vector<std::vector<uint8_t>> &Placed,
                  unsigned Depth, bool Views) {
  Closure CS;
  CS.Roles.assign(L.Defs.size(), Closure::Out);
  for (const std::vector<uint8_t> &P : Placed)
    for (uint32_t I = 0; I < L.Defs.size(); ++I)
      if (P[I] == Import || P[I] == Copy || P[I] == Dup)
        CS.Roles[I] =
            isa<Function>(L.Defs[I]) && !L.BlocksTaken[I] ? Closure::Simplified : Closure::Context;
  if (Views)
    for (uint32_t I = 0; I < L.Defs.size(); ++I)
      for (uint32_t F : L.Calls[I])
        if (CS.Roles[F] == Closure::Simplified && L.CallScc[F] != ~0u &&
            L.CallScc[F] == L.CallScc[I] && L.SccPos[I] < L.SccPos[F])
          CS.Roles[F] = Closure::Context;
  std::vector<uint32_t> Frontier;
  for (uint32_t I = 0; I < L.Defs.size(); ++I)
    if (CS.Roles[I] == Closure::Simplified)
      Frontier.push_back(I);
  for (unsigned D = 0; D < Depth && !Frontier.empty(); ++D) {
    std::vector<uint32_t> Next;
    for (uint32_t I : Frontier)
      for (uint32_t F : L.Calls[I])
        if (CS.Roles[F] == Closure::Out && L.Import[F] && !L.BlocksTaken[F]) {
          CS.Roles[F] = Closure::Context;
          Next.push_back(F);
        }
    Frontier = std::move(Next);
  }
  for (uint32_t I = 0; I < L.Defs.size(); ++I) {
    if (CS.Roles[I] != Closure::Out)
      CS.Held.push_back(I);
    if (CS.Roles[I] == Closure::Simplified)
      CS.Members.push_back(I);
  }
  return CS;
}

/// Whether local function F is called only by Simplified functions (those whose bodies
/// the same closure module simplifies and grafts), and named nowhere else: the closure
/// then sees all its uses, as the serial pipeline does. Simplified by another module
/// (Member there), it is closed there or nowhere: only one module may give it a body.
bool closedLocal(const Function &F, bool Member,
                 const SmallPtrSetImpl<const Function *> &Simplified) {
  if (!F.hasLocalLinkage() || F.use_empty() || (Member && !Simplified.contains(&F)))
    return false;
  return all_of(F.uses(), [&](const Use &U) {
    const auto *CB = dyn_cast<CallBase>(U.getUser());
    return CB && CB->isCallee(&U) && Simplified.contains(CB->getFunction());
  });
}

/// Fills C with a closure module for the definitions Defs (layout indices, in module
/// order) where the functions Members are simplified. Every definition is kept (used),
/// so that nothing is dropped, renamed or given a new signature, but the closed locals
/// (closedLocal), which it appends to Closed: the pipeline treats them as the serial one does, may
/// inline one into its last caller and delete it, give it a new signature or calling
/// convention, so that their simplified bodies replace the originals too (or they are
/// gone). The input is verified only after the split (ShardSplitPass::run): what the
/// pipeline runs on must be valid first, so with Verify the closure module is verified
/// (findings to errs()); false when it is broken, which the caller reports once C is gone
/// (fatal's jump would leave C's map watching the input's values).
bool fillClosure(ClonedModule &C, const Layout &L, const Closure &CS, ArrayRef<uint32_t> Defs,
                 ArrayRef<uint32_t> Members, bool Verify, std::vector<uint32_t> &Closed) {
  cloneDefinitions(L, Defs, [](uint32_t) { return false; }, C);
  assert(C.Moved.empty() && "a closure borrows no body");
  SmallPtrSet<const Function *, 32> Simplified;
  for (uint32_t I : Members)
    Simplified.insert(cast<Function>(L.Defs[I]));
  // A closed local's body is simplified here too, so the locals that only it and the
  // members call are closed as well: to a fixed point.
  std::vector<uint8_t> IsClosed(Defs.size());
  for (bool Grew = true; Grew;) {
    Grew = false;
    for (size_t K = 0; K < Defs.size(); ++K) {
      const auto *F = dyn_cast<Function>(L.Defs[Defs[K]]);
      if (!IsClosed[K] && F &&
          closedLocal(*F, CS.Roles[Defs[K]] == Closure::Simplified, Simplified)) {
        IsClosed[K] = 1;
        Simplified.insert(F);
        Grew = true;
      }
    }
  }
  std::vector<GlobalValue *> Keep;
  for (size_t K = 0; K < Defs.size(); ++K)
    if (IsClosed[K])
      Closed.push_back(Defs[K]);
    else
      Keep.push_back(cast<GlobalValue>(C.VMap[L.Defs[Defs[K]]]));
  appendToCompilerUsed(*C.Mod, Keep);
  bool BrokenDebugInfo = false;
  return !Verify || !verifyModule(*C.Mod, &errs(), &BrokenDebugInfo);
}

/// The functions whose simplified bodies replace the originals: Members and the closed
/// locals, in module order.
std::vector<uint32_t> graftedOf(ArrayRef<uint32_t> Members, ArrayRef<uint32_t> Closed) {
  std::vector<uint32_t> G(Members.begin(), Members.end());
  G.insert(G.end(), Closed.begin(), Closed.end());
  llvm::sort(G);
  G.erase(std::unique(G.begin(), G.end()), G.end());
  return G;
}

/// Calls Fn for the closure's globals with their source globals. The map follows
/// replacements: a pass that rewrites an argument's uses leaves it naming the new value;
/// only globals still mapped to globals count, with the declarations made on demand
/// that no pass dropped.
void forEachSourceGlobal(ValueToValueMapTy &VMap,
                         function_ref<void(GlobalValue &, GlobalValue &)> Fn) {
  for (auto KV : VMap)
    if (auto *GV = dyn_cast<GlobalValue>(KV.first))
      if (auto *CV = dyn_cast_or_null<GlobalValue>(static_cast<Value *>(KV.second)))
        Fn(*CV, *const_cast<GlobalValue *>(GV));
}

/// The closure as one module in the source module's context (a module with debug info).
/// Made: the locals the pipeline made, now in M; Gone: the closed locals it deleted.
/// False when the input is broken (fillClosure).
bool simplifyInPlace(Module &M, Layout &L, const Closure &CS, const ClosureOptions &Opts,
                     std::vector<GlobalObject *> &Made, std::vector<Function *> &Gone) {
  Returner Ret(M);
  ClonedModule C(M);
  std::vector<uint32_t> Closed;
  if (!fillClosure(C, L, CS, CS.Held, CS.Members, Opts.Verify, Closed))
    return false;
  std::vector<uint32_t> Grafted = graftedOf(CS.Members, Closed);
  std::vector<WeakVH> Simplified; // null once the pipeline deletes it (the map would follow
  for (uint32_t I : Grafted)      // a replacement of another signature)
    Simplified.emplace_back(C.VMap[L.Defs[I]]);
  simplifyClosure(*C.Mod, Opts.Level);
  SmallPtrSet<const GlobalValue *, 16> Deleted;
  for (size_t K = 0; K < Grafted.size(); ++K)
    if (!Simplified[K])
      Deleted.insert(L.Defs[Grafted[K]]);
  ValueToValueMapTy Rev;
  forEachSourceGlobal(C.VMap, [&](GlobalValue &CV, GlobalValue &GV) {
    if (!Deleted.contains(&GV))
      Rev[&CV] = &GV;
  });
  reverseMetadata(C.VMap, Rev);
  for (size_t K = 0; K < Grafted.size(); ++K)
    graftOrGone(*cast<Function>(L.Defs[Grafted[K]]), cast_or_null<Function>(Simplified[K]), Rev,
                Ret, Gone);
  finishReturned(Ret, Rev, Made);
  return true;
}

/// One group of the closure, simplified in a context of its own.
struct Group {
  std::vector<uint32_t> Members;        // the functions it simplifies, in module order
  std::vector<uint32_t> Grafted;        // with its closed locals (graftedOf)
  std::vector<uint32_t> Defs;           // with what they refer to in the closure
  SmallVector<char, 0> Bitcode;         // its module: the closure, then simplified
  StringMap<GlobalValue *> Orig;        // the source global of each of its names
  std::vector<std::string> GraftNames;  // the names of Grafted in its module
  StringSet<> GoneNames;                // those the pipeline deleted (another may take one)
  std::string Error;                    // why its module could not be read
};

/// Ranges of the members of about the same cost, each with what it refers to in the
/// closure (transitively), in module order.
std::vector<Group> formGroups(const Layout &L, const Closure &CS) {
  unsigned G = closureGroups(CS.Members.size());
  std::vector<Group> Groups(G);
  uint64_t Total = 0, Sum = 0;
  for (uint32_t I : CS.Members)
    Total += L.Cost[I] + 1;
  for (uint32_t I : CS.Members) {
    Groups[std::min<uint64_t>(G - 1, Sum * G / Total)].Members.push_back(I);
    Sum += L.Cost[I] + 1;
  }
  std::vector<uint8_t> Seen(L.Defs.size());
  for (Group &Gr : Groups) {
    std::fill(Seen.begin(), Seen.end(), 0);
    std::vector<uint32_t> Work = Gr.Members;
    for (uint32_t I : Work)
      Seen[I] = 1;
    while (!Work.empty()) {
      uint32_t I = Work.back();
      Work.pop_back();
      Gr.Defs.push_back(I);
      for (uint32_t R : L.Refs[I])
        if (CS.Roles[R] != Closure::Out && !Seen[R]) {
          Seen[R] = 1;
          Work.push_back(R);
        }
    }
    llvm::sort(Gr.Defs);
  }
  return Groups;
}

void writeBitcode(const Module &M, SmallVector<char, 0> &Out) {
  Out.clear();
  raw_svector_ostream OS(Out);
  WriteBitcodeToFile(M, OS);
}

Expected<std::unique_ptr<Module>> readBitcode(const SmallVector<char, 0> &In, StringRef Name,
                                              LLVMContext &Ctx) {
  return parseBitcodeFile(MemoryBufferRef(StringRef(In.data(), In.size()), Name), Ctx);
}

/// The group's closure module as bitcode, every global named (unnamed ones get a
/// name), with the source global of each name; false when the input is broken.
bool writeGroup(Group &Gr, const Module &M, const Layout &L, const Closure &CS, bool Verify) {
  ClonedModule C(M);
  std::vector<uint32_t> Closed;
  if (!fillClosure(C, L, CS, Gr.Defs, Gr.Members, Verify, Closed))
    return false;
  Gr.Grafted = graftedOf(Gr.Members, Closed);
  for (GlobalValue &GV : C.Mod->global_values())
    if (!GV.hasName())
      GV.setName("shard.unnamed");
  forEachSourceGlobal(C.VMap,
                      [&](GlobalValue &CV, GlobalValue &GV) { Gr.Orig[CV.getName()] = &GV; });
  for (uint32_t I : Gr.Grafted)
    Gr.GraftNames.push_back(C.VMap[L.Defs[I]]->getName().str());
  writeBitcode(*C.Mod, Gr.Bitcode);
  return true;
}

/// Reads the group's module in a context of its own, simplifies it, and writes it back
/// with only the bodies of Grafted and of the functions the pipeline made; notes which of
/// Grafted it deleted (DeadArgumentElimination gives the name to the replacement).
void simplifyGroup(Group &Gr, unsigned Level) {
  LLVMContext Ctx;
  Expected<std::unique_ptr<Module>> Mod = readBitcode(Gr.Bitcode, "closure", Ctx);
  if (!Mod) {
    Gr.Error = toString(Mod.takeError());
    return;
  }
  StringSet<> Drop; // the bodies of the closure's other functions; not those a pass made
  for (Function &F : **Mod)
    if (!F.isDeclaration())
      Drop.insert(F.getName());
  std::vector<WeakVH> Before;
  for (const std::string &N : Gr.GraftNames) {
    Drop.erase(N);
    Before.emplace_back((*Mod)->getFunction(N));
  }
  simplifyClosure(**Mod, Level);
  for (size_t K = 0; K < Before.size(); ++K)
    if (!Before[K])
      Gr.GoneNames.insert(Gr.GraftNames[K]);
  for (Function &F : **Mod)
    if (!F.isDeclaration() && Drop.contains(F.getName())) {
      F.deleteBody();
      F.setComdat(nullptr);
    }
  writeBitcode(**Mod, Gr.Bitcode);
}

/// Simplifies the groups on up to Threads threads, this one included; each group is
/// taken by one thread.
void simplifyGroups(std::vector<Group> &Groups, const ClosureOptions &Opts) {
  std::atomic<size_t> Next{0};
  auto Worker = [&] {
    for (size_t Gr; (Gr = Next++) < Groups.size();)
      simplifyGroup(Groups[Gr], Opts.Level);
  };
  std::vector<std::thread> Pool;
  for (unsigned T = 1; T < std::min<size_t>(Opts.Threads, Groups.size()); ++T)
    Pool.emplace_back(Worker);
  Worker();
  for (std::thread &T : Pool)
    T.join();
}

/// Back in the source module's context: the simplified bodies of Grafted replace the
/// originals (or are Gone); what they refer to is found by name (not a gone one's, which
/// a replacement may have taken: that is a new local). The locals the pipeline made are
/// finished (appended to Made) while the group's module, which holds their originals,
/// lives.
void graftGroup(Group &Gr, Module &M, Layout &L, std::vector<GlobalObject *> &Made,
                std::vector<Function *> &Gone) {
  if (!Gr.Error.empty())
    fatal("shard-split", "presimplify: cannot read a closure module back: " + Gr.Error);
  Expected<std::unique_ptr<Module>> R = readBitcode(Gr.Bitcode, "simplified", M.getContext());
  if (!R)
    fatal("shard-split",
          "presimplify: cannot read a simplified closure module: " + toString(R.takeError()));
  Returner Ret(M);
  ValueToValueMapTy Rev;
  for (GlobalValue &GV : (*R)->global_values())
    if (auto It = Gr.Orig.find(GV.getName());
        It != Gr.Orig.end() && !Gr.GoneNames.contains(GV.getName()))
      Rev[&GV] = It->second;
  for (size_t K = 0; K < Gr.Grafted.size(); ++K) {
    const std::string &N = Gr.GraftNames[K];
    graftOrGone(*cast<Function>(L.Defs[Gr.Grafted[K]]),
                Gr.GoneNames.contains(N) ? nullptr : (*R)->getFunction(N), Rev, Ret, Gone);
  }
  finishReturned(Ret, Rev, Made);
}

/// The closure in groups, each in a context of its own; Made, Gone and the result as for
/// simplifyInPlace, in group order.
bool simplifyInGroups(Module &M, Layout &L, const Closure &CS, const ClosureOptions &Opts,
                      std::vector<GlobalObject *> &Made, std::vector<Function *> &Gone) {
  std::vector<Group> Groups = formGroups(L, CS);
  LLVM_DEBUG(dbgs() << "shard-presimplify: " << CS.Members.size() << " functions, "
                    << CS.Held.size() << " definitions, in " << Groups.size() << " groups on "
                    << std::min<size_t>(std::max(Opts.Threads, 1u), Groups.size()) << " threads\n");
  for (Group &Gr : Groups)
    if (!writeGroup(Gr, M, L, CS, Opts.Verify))
      return false;
  simplifyGroups(Groups, Opts);
  for (Group &Gr : Groups)
    graftGroup(Gr, M, L, Made, Gone);
  return true;
}

/// The closed locals the closure deleted are called by nothing now (their callers have
/// their simplified bodies, or are Gone too): each old body becomes `unreachable`, held
/// by its owner only (whose compile drops it), so that no shard holds or promotes what
/// it referred to.
void retireGone(Layout &L, ArrayRef<Function *> Gone, std::vector<std::vector<uint8_t>> &Placed) {
  for (Function *F : Gone) {
    LLVM_DEBUG(dbgs() << "shard-presimplify: " << F->getName() << " is gone\n");
    F->dropAllReferences();
    new UnreachableInst(F->getContext(), BasicBlock::Create(F->getContext(), "", F));
  }
  for (Function *F : Gone) {
    assert(F->hasLocalLinkage() && F->use_empty() && "only an unused closed local is gone");
    uint32_t I = L.Index.at(F);
    collectLinks(L, I);
    for (std::vector<uint8_t> &P : Placed)
      if (P[I] != Own)
        P[I] = NotHere;
  }
}

} // namespace

void presimplifyShared(Module &M, Layout &L, const SplitLimits &Lim,
                       std::vector<std::vector<uint8_t>> &Placed, const ClosureOptions &Opts) {
  Closure CS = closureOf(L, Placed, Opts.Depth, Opts.Views);
  if (CS.Members.empty())
    return;
  std::vector<GlobalObject *> Made;
  std::vector<Function *> Gone;
  bool Valid = M.debug_compile_units().empty() ? simplifyInGroups(M, L, CS, Opts, Made, Gone)
                                                : simplifyInPlace(M, L, CS, Opts, Made, Gone);
  if (!Valid)
    fatal("shard-split", "input module '" + M.getModuleIdentifier() + "' is broken");
  retireGone(L, Gone, Placed);
  // What the pipeline made enters the layout like any local, before the simplified
  // bodies' links are collected again (they may name it), and is placed where they are.
  uint32_t First = L.Defs.size();
  addDefinitions(L, Made, Lim);
  for (uint32_t I = 0; I < First; ++I)
    if (auto *F = dyn_cast<Function>(L.Defs[I]); F && F->hasFnAttribute(PresimplifiedAttr))
      collectLinks(L, I);
  if (Made.empty())
    return;
  LLVM_DEBUG(dbgs() << "shard-presimplify: " << Made.size() << " new local definitions\n");
  placeAdded(L, First, Placed);
  namePrivatesByReferrer(L, First);
}

} // namespace shard
