; shard-split<serial-scc> (the default; no-serial-scc turns it off): the serial inliner works
; through the calls of one call graph SCC together, so a function called from within its own
; SCC is inlined as it was before its own callees went into it. A shard that imports such a
; callee cuts the cycle with its declarations, and would simplify the import first. The split
; marks it "shard-serial-scc", for the shard compile to leave it unsimplified while the inliner
; walks the call graph (test/presimplify/serial-scc-skip.ll).
;
; @loop (shard 0) calls @ret and @plain (shard 1); @ret calls @grow, which calls @loop back:
; @loop, @ret and @grow form one SCC, @plain none. Shard 0 imports @ret and @plain and marks
; @ret only; @grow (cost 500) it declares. Shard 1 imports nothing (@loop costs 1000).
; The inliner takes an SCC's calls function by function, in the SCC's order (opt
; -passes=print-lcg): @loop before @ret, whose calls are still its own when @loop's call to it
; comes. @second (shard 0) and @first (shard 1) call each other, but @first comes first: its
; own calls go first, so shard 0 imports @first unmarked.
; With presimplify, the split gives every holder the import's simplified body: no mark.
;
; RUN: rm -rf %t && mkdir %t %t.off %t.pre
; RUN: %opt-shard -passes='shard-split<dir=%t>' -disable-output %s
; RUN: llvm-dis %t/shard.0.bc -o - | FileCheck --check-prefix=S0 %s
; RUN: llvm-dis %t/shard.1.bc -o - | FileCheck --check-prefix=S1 %s
; RUN: opt -passes=verify -disable-output %t/shard.0.bc
; RUN: %opt-shard -passes='shard-split<dir=%t.off;no-serial-scc>' -disable-output %s
; RUN: llvm-dis %t.off/shard.0.bc -o - | FileCheck --check-prefix=OFF %s
; RUN: %opt-shard -passes='shard-split<dir=%t.pre;presimplify=2>' -disable-output %s
; RUN: llvm-dis %t.pre/shard.0.bc -o - | FileCheck --check-prefix=PRE %s
; RUN: %opt-shard -passes='shard-split<dir=%t;no-serial-scc>' -print-pipeline-passes -disable-output %s | FileCheck --check-prefix=PIPE %s
; PIPE: shard-split<dir={{.*}};no-serial-scc>

; S0: define void @loop() {
; S0: define available_externally void @ret() #[[SCC:[0-9]+]] {
; S0: declare void @grow()
; S0: define available_externally void @plain() {
; S0: define available_externally void @first() {
; S0: define void @second() {
; S0: attributes #[[SCC]] = { "shard-serial-scc" }

; S1-NOT: shard-serial-scc

; OFF-NOT: shard-serial-scc

; PRE-NOT: shard-serial-scc
; PRE: define available_externally void @ret() #[[PRE:[0-9]+]] {
; PRE-NOT: shard-serial-scc
; PRE: attributes #[[PRE]] = { {{.*}}"shard-presimplified"
; PRE-NOT: shard-serial-scc

define void @loop() !shard.cost !{i64 1000} !shard.partition !{i32 0} {
  call void @ret()
  call void @plain()
  ret void
}
define void @ret() !shard.cost !{i64 80} !shard.partition !{i32 1} {
  call void @grow()
  ret void
}
define void @grow() !shard.cost !{i64 500} !shard.partition !{i32 1} {
  call void @loop()
  ret void
}
define void @plain() !shard.cost !{i64 80} !shard.partition !{i32 1} {
  call void @ext()
  ret void
}
define void @first() !shard.cost !{i64 80} !shard.partition !{i32 1} {
  call void @second()
  ret void
}
define void @second() !shard.cost !{i64 1000} !shard.partition !{i32 0} {
  call void @first()
  ret void
}
declare void @ext()

!shard.plan = !{!0, !1, !2, !3}
!0 = !{!"version", i32 1}
!1 = !{!"shards", i32 2}
!2 = !{!"asm-shard", i32 0}
!3 = !{!"costs", i64 2000, i64 740}
