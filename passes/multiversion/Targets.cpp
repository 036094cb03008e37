//===- Targets.cpp - Multiversioning targets: names, features, tests -----===//
//
// A target is an x86-64 ISA level (x86-64-v2, -v3, -v4) or a CPU name that
// LLVM knows (haswell, znver4, ...). Its features come from LLVM's X86 target
// parser, with everything they imply; effectiveFeatures() reads the features
// of any "target-cpu" / "target-features" pair the same way. The resolver
// tests what __builtin_cpu_supports can test: the level itself for ISA levels
// (one bit, as clang does), and for CPU names every feature the run-time
// library knows except system features that compiled code never uses (see
// isSystemFeature). cloneFeatures() gives a clone its "target-features".
//
//===----------------------------------------------------------------------===//
#include "multiversion/Targets.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/TargetParser/X86TargetParser.h"
#include <algorithm>

using namespace llvm;

namespace shard {

namespace {

/// The names __builtin_cpu_supports accepts (llvm::X86::getCpuSupportsMask
/// asserts on anything else).
const StringSet<> &cpuSupportsNames() {
  static const StringSet<> Names = [] {
    StringSet<> S;
#define X86_FEATURE_COMPAT(ENUM, STR, ...) S.insert(STR);
#define X86_MICROARCH_LEVEL(ENUM, STR, ...) S.insert(STR);
#include "llvm/TargetParser/X86TargetParser.def"
    return S;
  }();
  return Names;
}

/// Features that code compiled from baseline sources never uses (only the OS
/// or explicit intrinsics do). They are not tested for CPU names: a virtual
/// machine often hides them, and the clone would then never run.
bool isSystemFeature(StringRef F) {
  static const char *const System[] = {
      "cldemote", "clflushopt", "clwb",     "clzero",    "enqcmd",    "fsgsbase",
      "hreset",   "invpcid",    "kl",       "lwp",       "movdir64b", "movdiri",
      "mwaitx",   "pconfig",    "pku",      "prefetchi", "prfchw",    "ptwrite",
      "rdpid",    "rdpru",      "rdrnd",    "rdseed",    "rtm",       "serialize",
      "sgx",      "shstk",      "tsxldtrk", "uintr",     "usermsr",   "waitpkg",
      "wbnoinvd", "widekl",     "xsave",    "xsavec",    "xsaveopt",  "xsaves"};
  return llvm::is_contained(System, F);
}

bool isISALevel(StringRef Name) {
  return Name == "x86-64-v2" || Name == "x86-64-v3" || Name == "x86-64-v4";
}

/// Enables CPU's features and everything they imply (avx2 implies avx, sse4.2,
/// ...) in Feats. CPU must be a name LLVM knows.
void addCPUFeatures(StringRef CPU, StringMap<bool> &Feats) {
  SmallVector<StringRef, 64> CPUFeats;
  X86::getFeaturesForCPU(CPU, CPUFeats, /*NeedPlus=*/false);
  for (StringRef F : CPUFeats) {
    Feats[F] = true;
    X86::updateImpliedFeatures(F, true, Feats);
  }
}

} // namespace

bool MVTarget::has(StringRef Feature) const { return llvm::is_contained(Features, Feature); }

bool MVTarget::implies(const MVTarget &Other) const {
  return llvm::all_of(Other.Features, [&](const std::string &F) { return has(F); });
}

std::optional<MVTarget> parseMVTarget(StringRef Name, std::string &Err) {
  if (Name == "x86-64" || Name == "default") {
    Err = "'" + Name.str() + "' is the baseline, not a target";
    return std::nullopt;
  }
  if (X86::parseArchX86(Name, /*Only64Bit=*/true) == X86::CK_None) {
    Err = "unknown x86-64 target '" + Name.str() +
          "' (expected x86-64-v2, x86-64-v3, x86-64-v4 or a CPU name such as haswell)";
    return std::nullopt;
  }
  MVTarget T;
  T.Name = Name.str();
  // The CPU's features, and the x86-64 baseline, which LLVM leaves implicit for
  // some CPUs (znver4 does not list cmov).
  StringMap<bool> All;
  addCPUFeatures("x86-64", All);
  addCPUFeatures(Name, All);
  for (const auto &KV : All)
    if (KV.getValue())
      T.Features.push_back(KV.getKey().str());
  llvm::sort(T.Features);
  if (isISALevel(Name)) {
    T.Supports.push_back(T.Name);
  } else {
    for (const std::string &F : T.Features)
      if (cpuSupportsNames().contains(F) && !isSystemFeature(F))
        T.Supports.push_back(F);
  }
  // The highest ISA level the target has, for ordering.
  for (unsigned L = 4; L >= 2 && !T.Level; --L) {
    SmallVector<StringRef, 64> LevelFeats;
    X86::getFeaturesForCPU("x86-64-v" + std::to_string(L), LevelFeats, false);
    if (llvm::all_of(LevelFeats, [&](StringRef F) { return T.has(F); }))
      T.Level = L;
  }
  return T;
}

StringMap<bool> effectiveFeatures(StringRef CPU, StringRef FS) {
  StringMap<bool> Feats;
  if (X86::parseArchX86(CPU, /*Only64Bit=*/true) != X86::CK_None)
    addCPUFeatures(CPU, Feats);
  SmallVector<StringRef, 32> Parts;
  FS.split(Parts, ',', -1, false);
  for (StringRef P : Parts) {
    bool On = P.consume_front("+");
    if (!On && !P.consume_front("-"))
      continue;
    Feats[P] = On;
    X86::updateImpliedFeatures(P, On, Feats);
  }
  return Feats;
}

bool parseMVTargetList(StringRef List, std::vector<MVTarget> &Out, std::string &Err) {
  // ',' on the command line; ':' in pipeline parameters, where ',' separates passes.
  SmallVector<StringRef, 8> Names;
  std::string Copy = List.str();
  std::replace(Copy.begin(), Copy.end(), ':', ',');
  StringRef(Copy).split(Names, ',', /*MaxSplit=*/-1, /*KeepEmpty=*/false);
  for (StringRef N : Names) {
    N = N.trim();
    if (N.empty())
      continue;
    if (llvm::any_of(Out, [&](const MVTarget &T) { return T.Name == N; }))
      continue;
    std::optional<MVTarget> T = parseMVTarget(N, Err);
    if (!T)
      return false;
    Out.push_back(std::move(*T));
  }
  return true;
}

void sortMostCapableFirst(std::vector<MVTarget> &Targets) {
  // A target that implies another has a level at least as high and strictly more
  // features, so this order puts it first.
  std::stable_sort(Targets.begin(), Targets.end(), [](const MVTarget &A, const MVTarget &B) {
    if (A.Level != B.Level)
      return A.Level > B.Level;
    if (A.Features.size() != B.Features.size())
      return A.Features.size() > B.Features.size();
    return A.Name < B.Name;
  });
  assert(isOrderedByCapability(Targets, /*LeastFirst=*/false) &&
         "a target comes before every target it implies");
}

bool isOrderedByCapability(ArrayRef<MVTarget> Targets, bool LeastFirst) {
  auto StrictlyImplies = [](const MVTarget &A, const MVTarget &B) {
    return A.implies(B) && !B.implies(A);
  };
  for (size_t I = 0; I < Targets.size(); ++I)
    for (size_t J = I + 1; J < Targets.size(); ++J)
      if (LeastFirst ? StrictlyImplies(Targets[I], Targets[J])
                     : StrictlyImplies(Targets[J], Targets[I]))
        return false;
  return true;
}

/// The subtarget attributes of a clone for T on top of the baseline features FS.
std::string cloneFeatures(StringRef FS, const MVTarget &T) {
  SmallVector<StringRef, 32> Parts;
  FS.split(Parts, ',', -1, false);
  std::vector<std::string> Out;
  for (StringRef P : Parts) {
    StringRef Name = P.drop_front();
    if (P.starts_with("-") && T.has(Name))
      continue;
    if (P.starts_with("+") && T.has(Name))
      continue;
    Out.push_back(P.str());
  }
  for (const std::string &F : T.Features)
    Out.push_back("+" + F);
  llvm::sort(Out, [](const std::string &A, const std::string &B) {
    return StringRef(A).drop_front() < StringRef(B).drop_front();
  });
  std::string S;
  for (const std::string &P : Out)
    S += (S.empty() ? "" : ",") + P;
  return S;
}

} // namespace shard
