//===- ShardPartition.cpp - Assign global values to shards ---------------===//
//
//   opt -load-pass-plugin=ShardPlugin.so -disable-output m.bc
//       -passes='shard-cost,shard-partition<shards=8>,print<shard-plan>'
//
// shard-partition<shards=N> assigns every defined global value to one shard and
// records the plan as metadata (!shard.partition on global objects, !shard.plan
// on the module). Values that must stay in one object file are grouped first:
// comdat members, aliases and ifuncs with what they point to, block-address users
// with the function, !associated globals, whatever module asm names, and the
// members of a multiversioned family (!shard.mv.family, from shard-mv). Locals
// whose references all come from one group join it (clustering). Groups are then
// placed (partition/partition.c):
// - place=stable (the default): in module order, discardable groups next to their
//   users, cut into contiguous ranges at content-defined points, so that an edit
//   to one function moves nothing else;
// - place=graph: largest first onto the shard they share most references with,
//   under a balance bound, then refined. Not edit-stable; the split's corner-case
//   tests use it because it puts callers and callees of tiny modules predictably
//   apart or together.
// Ties are broken by name, then by module order.
//
//===----------------------------------------------------------------------===//
#include "partition/ShardPartition.h"
#include "partition/Groups.h"
#include "cost/ShardCost.h"
#include "ir/Plan.h"
#include "ir/Support.h"
#include "partition/partition.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/GlobalAlias.h"
#include "llvm/IR/GlobalIFunc.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/Metadata.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/Debug.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Support/xxhash.h"
#include <algorithm>
#include <map>
#include <numeric>

#define DEBUG_TYPE "shard-partition"

using namespace llvm;

namespace shard {

namespace {

/// The global values or functions that use constant C (through other constants).
void collectUsers(const Constant *C, SmallVectorImpl<const GlobalValue *> &Out) {
  SmallVector<const User *, 8> Work(C->users().begin(), C->users().end());
  SmallPtrSet<const User *, 8> Seen;
  while (!Work.empty()) {
    const User *U = Work.pop_back_val();
    if (!Seen.insert(U).second)
      continue;
    if (const auto *I = dyn_cast<Instruction>(U))
      Out.push_back(I->getFunction());
    else if (const auto *GV = dyn_cast<GlobalValue>(U))
      Out.push_back(GV);
    else
      Work.append(U->users().begin(), U->users().end());
  }
}

/// Identifier-like words of module asm ([A-Za-z0-9_.$]+).
SmallVector<StringRef, 16> asmWords(StringRef Asm) {
  SmallVector<StringRef, 16> Words;
  auto IsWordChar = [](char C) { return isAlnum(C) || C == '_' || C == '.' || C == '$'; };
  size_t I = 0;
  while (I < Asm.size()) {
    if (!IsWordChar(Asm[I])) {
      ++I;
      continue;
    }
    size_t J = I;
    while (J < Asm.size() && IsWordChar(Asm[J]))
      ++J;
    Words.push_back(Asm.slice(I, J));
    I = J;
  }
  return Words;
}

void groupInseparables(Module &M, Groups &G) {
  DenseMap<const Comdat *, const GlobalValue *> ComdatLeader;
  StringMap<const GlobalValue *> MVFamilyLeader;
  for (GlobalValue *GV : G.Nodes) {
    if (const auto *GO = dyn_cast<GlobalObject>(GV)) {
      // A multiversioned family (shard-mv: default, clones, resolver, pointer
      // and stub, all internal) stays in one shard; its ifunc follows the resolver.
      if (const MDNode *MD = GO->getMetadata(MVFamilyMD))
        if (MD->getNumOperands() == 1)
          if (auto *Name = dyn_cast_or_null<MDString>(MD->getOperand(0).get())) {
            auto [It, New] = MVFamilyLeader.try_emplace(Name->getString(), GV);
            if (!New)
              G.join(It->second, GV);
          }
      if (const Comdat *C = GO->getComdat()) {
        auto [It, New] = ComdatLeader.try_emplace(C, GV);
        if (!New)
          G.join(It->second, GV);
      }
      // !associated: the global must land in the object of the symbol it names.
      if (const MDNode *MD = GO->getMetadata(LLVMContext::MD_associated))
        if (MD->getNumOperands() == 1)
          if (auto *VAM = dyn_cast_or_null<ValueAsMetadata>(MD->getOperand(0).get()))
            if (auto *Target = dyn_cast<GlobalValue>(VAM->getValue()->stripPointerCasts()))
              G.join(GV, Target);
    }
    if (auto *GA = dyn_cast<GlobalAlias>(GV))
      G.joinRefs(GA, GA->getAliasee());
    else if (auto *GI = dyn_cast<GlobalIFunc>(GV))
      G.joinRefs(GI, GI->getResolver());
  }
  // Block addresses are only valid in the module that defines the function.
  for (Function &F : M) {
    for (BasicBlock &BB : F) {
      if (!BB.hasAddressTaken())
        continue;
      if (BlockAddress *BA = BlockAddress::lookup(&BB)) {
        SmallVector<const GlobalValue *, 4> Users;
        collectUsers(BA, Users);
        for (const GlobalValue *U : Users)
          G.join(&F, U);
      }
    }
  }
  // Module asm refers to symbols by name: keep them, and the users of any local
  // among them (which cannot be renamed), with the asm.
  StringRef Asm = M.getModuleInlineAsm();
  for (StringRef W : asmWords(Asm)) {
    GlobalValue *GV = M.getNamedValue(W);
    if (!GV)
      continue;
    G.join(G.Asm, GV);
    if (GV->hasLocalLinkage()) {
      SmallVector<const GlobalValue *, 8> Users;
      collectUsers(GV, Users);
      for (const GlobalValue *U : Users)
        G.join(G.Asm, U);
    }
  }
}

MDNode *planEntry(LLVMContext &Ctx, StringRef Key, ArrayRef<uint64_t> Vals, Type *Ty) {
  SmallVector<Metadata *, 8> Ops{MDString::get(Ctx, Key)};
  for (uint64_t V : Vals)
    Ops.push_back(ConstantAsMetadata::get(ConstantInt::get(Ty, V)));
  return MDNode::get(Ctx, Ops);
}

/// The reference graph between nodes: one edge per (referrer, referenced) pair,
/// weighted by the number of references.
struct RefGraph {
  std::vector<uint32_t> From, To, W;
};

RefGraph buildRefGraph(const Groups &G) {
  RefGraph R;
  DenseMap<std::pair<uint32_t, uint32_t>, uint32_t> Edge;
  for (uint32_t I = 0; I < G.Nodes.size(); ++I)
    forEachRef(*G.Nodes[I], [&](const GlobalValue &Ref) {
      auto It = G.Index.find(&Ref);
      if (It == G.Index.end() || It->second == I)
        return;
      auto [E, New] = Edge.try_emplace({I, It->second}, uint32_t(R.From.size()));
      if (New) {
        R.From.push_back(I);
        R.To.push_back(It->second);
        R.W.push_back(0);
      }
      ++R.W[E->second];
    });
  return R;
}

/// Numbers the groups (given by their roots, in placement order) and sums their
/// costs; returns each node's group number (GroupOf[N], module asm, stays 0).
std::vector<uint32_t> numberGroups(Groups &G, ArrayRef<uint64_t> Cost, ArrayRef<uint32_t> Roots,
                                   std::vector<uint64_t> &GroupCost) {
  size_t N = G.Nodes.size();
  std::vector<uint32_t> GroupOf(N + 1, 0), RootPos(N + 1, 0);
  for (uint32_t K = 0; K < Roots.size(); ++K)
    RootPos[Roots[K]] = K;
  GroupCost.assign(Roots.size(), 0);
  for (uint32_t I = 0; I < N; ++I) {
    GroupOf[I] = RootPos[G.find(I)];
    GroupCost[GroupOf[I]] += Cost[I];
  }
  return GroupOf;
}

/// The references between different groups, summed: directed (referrer to referenced)
/// or undirected (each pair once, lower group first).
RefGraph groupGraph(const RefGraph &R, ArrayRef<uint32_t> GroupOf, bool Directed) {
  std::map<std::pair<uint32_t, uint32_t>, uint32_t> Edge;
  for (size_t E = 0; E < R.From.size(); ++E) {
    uint32_t A = GroupOf[R.From[E]], B = GroupOf[R.To[E]];
    if (A != B)
      Edge[Directed ? std::make_pair(A, B) : std::make_pair(std::min(A, B), std::max(A, B))] +=
          R.W[E];
  }
  RefGraph GR;
  for (auto &[Ends, W] : Edge) {
    GR.From.push_back(Ends.first);
    GR.To.push_back(Ends.second);
    GR.W.push_back(W);
  }
  return GR;
}

/// Whether a global may float to its users in stable placement: a front end emits it
/// where convenient (a linkonce template after the code that instantiated it), and no
/// other unit's code calls it by its position.
bool floats(const GlobalValue &GV) {
  return GV.hasLocalLinkage() || GV.hasLinkOnceLinkage() || GV.hasAvailableExternallyLinkage();
}

/// place=stable: groups in module order, except discardable ones (templates, locals
/// used from several groups), which follow the code that uses them most
/// (shard_stable_order); then cut into contiguous ranges at content-defined points
/// (shard_bisect), so that an edit to one function moves nothing else.
std::vector<uint32_t> placeStable(Groups &G, ArrayRef<uint64_t> Cost, const RefGraph &R,
                                  ArrayRef<uint32_t> Roots, unsigned NumShards, unsigned Window,
                                  std::vector<unsigned> &GroupShard, std::vector<uint64_t> &Load) {
  size_t NG = Roots.size();
  std::vector<uint64_t> GroupCost;
  std::vector<uint32_t> GroupOf = numberGroups(G, Cost, Roots, GroupCost);
  std::vector<uint8_t> Floating(NG, 1);
  for (uint32_t I = 0; I < G.Nodes.size(); ++I)
    if (!floats(*G.Nodes[I]) || G.find(I) == G.find(G.Asm))
      Floating[GroupOf[I]] = 0;
  RefGraph GR = groupGraph(R, GroupOf, /*Directed=*/true);
  shard_graph Grp{NG, GR.From.size(), GroupCost.data(), GR.From.data(), GR.To.data(), GR.W.data()};
  std::vector<uint32_t> Order(NG);
  if (shard_stable_order(&Grp, Floating.data(), Order.data()))
    fatal("shard-partition", "out of memory");
  std::vector<uint64_t> OrderedCost(NG), Key(NG);
  for (size_t K = 0; K < NG; ++K) {
    OrderedCost[K] = GroupCost[Order[K]];
    Key[K] = xxh3_64bits(G.Nodes[Roots[Order[K]]]->getName());
  }
  std::vector<unsigned> OrderedShard(NG);
  shard_bisect(NG, OrderedCost.data(), Key.data(), NumShards, Window, OrderedShard.data(),
               Load.data());
  for (size_t K = 0; K < NG; ++K)
    GroupShard[Order[K]] = OrderedShard[K];
  return GroupOf;
}

/// place=graph: groups largest first onto the shard they share most references with, under
/// a balance bound, then refinement moves (shard_assign). One edit can move many groups.
std::vector<uint32_t> placeByGraph(Groups &G, ArrayRef<uint64_t> Cost, const RefGraph &R,
                                   std::vector<uint32_t> Roots, unsigned NumShards, unsigned Slack,
                                   std::vector<unsigned> &GroupShard, std::vector<uint64_t> &Load) {
  // Groups in tie-break order (name of the first member, then module order).
  std::stable_sort(Roots.begin(), Roots.end(), [&](uint32_t A, uint32_t B) {
    return G.Nodes[A]->getName() < G.Nodes[B]->getName();
  });
  std::vector<uint64_t> GroupCost;
  std::vector<uint32_t> GroupOf = numberGroups(G, Cost, Roots, GroupCost);
  RefGraph GR = groupGraph(R, GroupOf, /*Directed=*/false);
  shard_graph Grp{Roots.size(),   GR.From.size(), GroupCost.data(),
                  GR.From.data(), GR.To.data(),   GR.W.data()};
  if (shard_assign(&Grp, NumShards, Slack, GroupShard.data(), Load.data()))
    fatal("shard-partition", "out of memory");
  return GroupOf;
}

/// Whether the serial inliner takes local L into its caller whatever the caller's size:
/// a function called once (the "last call to a static" bonus), or a variable (its loads
/// fold where its only user sees it).
bool joinsAnyCaller(const GlobalValue &L) {
  const auto *F = dyn_cast<Function>(&L);
  if (!F)
    return true;
  if (!F->hasOneUse())
    return false;
  const auto *CB = dyn_cast<CallBase>(F->use_begin()->getUser());
  return CB && CB->isCallee(&*F->use_begin());
}

/// Clusters in two rounds. The first, bounded by a shard's share, joins helpers to their
/// callers bottom-up, as the inliner works. The second lets a group bigger than a share
/// (the interpreter loop of a virtual machine) take, up to half a share more, whole
/// clusters whose root the serial inliner would take into it however big it is
/// (joinsAnyCaller): left in another shard, that helper would stay a call and its
/// caller's hot path slower. A helper called twice stays out with its own helpers, as
/// serially it stays a function of its own. Groups stay within about 1.5 shares, so
/// balance remains possible.
void cluster(Groups &G, const shard_graph &Item, ArrayRef<uint8_t> Mergeable, uint64_t Total,
             unsigned NumShards) {
  std::vector<uint64_t> GroupCost = G.costs(ArrayRef(Item.cost, Item.n));
  uint64_t Largest = *std::max_element(GroupCost.begin(), GroupCost.end());
  uint64_t Share = Total / NumShards, Cap = std::max(Share, Largest + Share / 2);
  shard_cluster(&Item, Mergeable.data(), Share, G.Parent.data());
  if (Cap == Share)
    return;
  std::vector<uint8_t> Bonus(Item.n);
  for (size_t I = 0; I < Item.n; ++I)
    Bonus[I] = Mergeable[I] && joinsAnyCaller(*G.Nodes[I]);
  shard_cluster(&Item, Bonus.data(), Cap, G.Parent.data());
}

} // namespace

PreservedAnalyses ShardPartitionPass::run(Module &M, ModuleAnalysisManager &) {
  LLVMContext &Ctx = M.getContext();
  Groups G(M);
  groupInseparables(M, G);
  size_t N = G.Nodes.size();
  std::vector<uint64_t> Cost(N);
  uint64_t Total = 0;
  for (size_t I = 0; I < N; ++I)
    Total += Cost[I] = getGlobalCost(*G.Nodes[I]);
  unsigned NumShards = Shards ? Shards : shard_auto_count(Total);

  // Cluster: a local whose referrers all sit in one group joins it (a static
  // helper with its only caller), so the optimiser sees them together as in a
  // serial build (cluster() bounds the clusters).
  RefGraph R = buildRefGraph(G);
  shard_graph Item{N, R.From.size(), Cost.data(), R.From.data(), R.To.data(), R.W.data()};
  std::vector<uint8_t> Mergeable(N);
  uint32_t AsmRoot = G.find(G.Asm);
  for (size_t I = 0; I < N; ++I)
    Mergeable[I] = G.Nodes[I]->hasLocalLinkage() && G.find(I) != AsmRoot;
  cluster(G, Item, Mergeable, Total, NumShards);
  if (KeepCycle)
    keepCycle(G, Cost, Total / NumShards);

  std::vector<uint32_t> Roots;
  for (uint32_t I = 0; I < N; ++I)
    if (G.find(I) == I) // a lone asm node (index N) carries nothing
      Roots.push_back(I);
  std::vector<unsigned> GroupShard(Roots.size());
  std::vector<uint64_t> Load(NumShards);
  std::vector<uint32_t> GroupOf =
      Graph ? placeByGraph(G, Cost, R, Roots, NumShards, Slack, GroupShard, Load)
            : placeStable(G, Cost, R, Roots, NumShards, Slack, GroupShard, Load);
  std::vector<unsigned> ShardOf(N + 1, 0);
  for (uint32_t I = 0; I < N; ++I) {
    ShardOf[I] = GroupShard[GroupOf[I]];
    assert(ShardOf[I] < NumShards && "placement left a group outside the shards");
  }
  ShardOf[N] = G.find(G.Asm) < N ? ShardOf[G.find(G.Asm)] : 0;

  Type *I32 = Type::getInt32Ty(Ctx), *I64 = Type::getInt64Ty(Ctx);
  for (Function &F : M) // a re-run must not leave stale assignments behind
    F.setMetadata(ShardMD, nullptr);
  for (GlobalVariable &V : M.globals())
    V.setMetadata(ShardMD, nullptr);
  for (size_t I = 0; I < N; ++I)
    if (auto *GO = dyn_cast<GlobalObject>(G.Nodes[I]))
      GO->setMetadata(ShardMD,
                      MDNode::get(Ctx, ConstantAsMetadata::get(ConstantInt::get(I32, ShardOf[I]))));

  NamedMDNode *NMD = M.getOrInsertNamedMetadata(PlanMD);
  NMD->clearOperands();
  NMD->addOperand(planEntry(Ctx, "version", {1}, I32));
  NMD->addOperand(planEntry(Ctx, "shards", {NumShards}, I32));
  NMD->addOperand(planEntry(Ctx, "asm-shard", {ShardOf[N]}, I32));
  NMD->addOperand(planEntry(Ctx, "costs", Load, I64));
  uint64_t Cut = shard_cut(&Item, ShardOf.data());
  NMD->addOperand(planEntry(Ctx, "cut", {Cut}, I64));
  LLVM_DEBUG(dbgs() << "shard-partition: " << N << " globals in " << Roots.size() << " groups, "
                    << NumShards << " shards, total cost " << Total << ", cut " << Cut << "\n");
  return PreservedAnalyses::all();
}

void ShardPartitionPass::printPipeline(raw_ostream &OS, function_ref<StringRef(StringRef)>) {
  OS << "shard-partition<shards=" << Shards;
  if (Slack != DefaultSlack)
    OS << ";slack=" << Slack;
  if (Graph)
    OS << ";place=graph";
  if (KeepCycle)
    OS << ";keep-cycle";
  OS << ">";
}

} // namespace shard
