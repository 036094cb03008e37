//===- Exact.h - Copies whose attributes the shard compile infers -*- C++ -*-===//
//
// A shard holds some functions as copies that LLVM cannot take for the definition that
// runs: imports (available_externally) and shared locals (linkonce_odr, one kept by the
// linker). FunctionAttrs infers nothing for such an inexact definition (another, less
// refined one might be linked), so the shard's callers of a C static lose the memory,
// capture and nofree facts that the serial build infers (sqlite3.c's patternCompare, which
// reloads what it read around each call of sqlite3Utf8Read). Every copy is a refinement of
// the same input definition, which was exact: the split marks such copies, and the shard
// compile lets FunctionAttrs treat them as exact.
//
//===----------------------------------------------------------------------===//
#ifndef SHARD_SPLIT_EXACT_H
#define SHARD_SPLIT_EXACT_H

#include <cstdint>
#include <vector>

namespace llvm {
class PassBuilder;
} // namespace llvm

namespace shard {
namespace split {

struct ClonedModule;
struct Layout;

/// With L.ExactCopies, marks with ExactAttr the functions shard C holds (Here) as inexact
/// copies of a definition the input held exactly (Layout::Exact). Returns how many.
unsigned markExactCopies(const Layout &L, const std::vector<uint8_t> &Here, ClonedModule &C);

} // namespace split

/// In a shard compile: while FunctionAttrs infers the attributes of a call graph SCC, its
/// functions marked ExactAttr are exact (external) definitions, then get their linkage back.
void registerExactCopies(llvm::PassBuilder &PB);

} // namespace shard

#endif
