//===- Metadata.h - The metadata contract between the Shard passes -*- C++ -*-===//
//
// Names of the metadata and attributes through which the passes talk to each
// other and to the driver. docs/contract.md documents each one.
//
//===----------------------------------------------------------------------===//
#ifndef SHARD_IR_METADATA_H
#define SHARD_IR_METADATA_H

namespace shard {

// Written by shard-cost.
inline constexpr const char *CostMD = "shard.cost";            // function: !{i64 cost}
inline constexpr const char *TotalCostMD = "shard.total_cost"; // named: !{!{i64 total}}
// Written by shard-partition.
inline constexpr const char *ShardMD = "shard.partition"; // global object: !{i32 shard}
inline constexpr const char *PlanMD = "shard.plan";       // named: see docs/contract.md
// Written by shard-mv-annotate and shard-mv.
inline constexpr const char *MVMD = "shard.mv";              // !{!"x86-64-v3", ...}: chosen targets
inline constexpr const char *MVReasonMD = "shard.mv.reason"; // !{!"...", ...}: why, per target
inline constexpr const char *MVFamilyMD = "shard.mv.family"; // !{!"f"}: member of f's family
inline constexpr const char *MVCloneMD = "shard.mv.clone";   // !{!"x86-64-v3"} or !{!"default"}
// Function attribute set by shard-split<presimplify=L>: simplified once by the split.
inline constexpr const char *PresimplifiedAttr = "shard-presimplified";
// Function attribute of a serial view (below), made by the shard compile: left unsimplified,
// and nothing inlined into it, while the inliner walks the shard.
inline constexpr const char *SerialSccAttr = "shard-serial-scc";
// Call metadata set by shard-split<serial-scc> (to an import) and <serial-view> (to a function
// the shard holds) on a call that the serial inliner weighs with the callee's body as it was
// (both in one call graph SCC, the caller first): the shard compile gives such calls a copy of
// that body, a serial view, while its inliner walks the call graph.
inline constexpr const char *SerialViewMD = "shard.serial.view"; // !{}
// Call metadata set by shard-split<last-call-size=N> on the call of a shared local's serially last
// caller: the shard compile's inliner gives it the last-call-to-static bonus once the call is
// the shared copy's only use there, as the serial inliner does once every other call is inlined.
inline constexpr const char *LastCallMD = "shard.last.call"; // !{}
// Function attribute set by shard-split<revisit=N> on a function the serial inliner walks in a
// call cycle that its shard cuts: the shard compile's inliner visits it N more times.
inline constexpr const char *RevisitAttr = "shard-revisit";
// Function attribute set by shard-split on a shard's inexact copy (import, shared local) of a
// definition the input held exactly: the shard compile's FunctionAttrs infers its attributes.
inline constexpr const char *ExactAttr = "shard-exact";
// LLVM's function attribute that replaces the inline cost of a call to the function (InlineCost):
// shard-split<decl-size=N> sets it on the declarations of small functions other shards define.
inline constexpr const char *CallInlineCostAttr = "call-inline-cost";

} // namespace shard

#endif
