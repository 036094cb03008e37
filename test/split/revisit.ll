; shard-split<revisit=N> (off by default) marks "shard-revisit"="N" on each function a shard owns
; that shares its serial call graph SCC with others, where the shard's own call graph (its
; bodies: owned, imported, copied) leaves it in an SCC of its own. The serial inliner visits
; the parts of such an SCC again as inlining splits it; the shard compile gives the marked
; function N more visits (test/presimplify/revisit.ll).
;
; @loop (shard 0) calls @ret (shard 1, imported into shard 0), which calls @grow (shard 1,
; cost 500: declared in shard 0), which calls @loop: one SCC of three, which each shard cuts:
; @loop, @ret and @grow are marked where they are owned; shard 0's import of @ret is not. @ping
; and @pong (both shard 0) call each other, and shard 0 keeps their cycle: not marked; nor is
; @self, which calls only itself. With presimplify, @ret's body is the closure's, final, which the
; shard compile does not simplify: its owner does not mark it.
;
; RUN: rm -rf %t %t.off && mkdir %t %t.off
; RUN: %opt-shard -passes='shard-split<dir=%t;revisit=2>' -disable-output %s
; RUN: llvm-dis %t/shard.0.bc -o - | FileCheck --check-prefix=S0 %s
; RUN: llvm-dis %t/shard.1.bc -o - | FileCheck --check-prefix=S1 %s
; RUN: %opt-shard -passes='shard-split<dir=%t.off>' -disable-output %s
; RUN: llvm-dis %t.off/shard.0.bc -o - | FileCheck --check-prefix=OFF %s
; RUN: llvm-dis %t.off/shard.1.bc -o - | FileCheck --check-prefix=OFF %s
; RUN: rm -rf %t.pre && mkdir %t.pre
; RUN: %opt-shard -passes='shard-split<dir=%t.pre;revisit=2;presimplify=2>' -disable-output %s
; RUN: llvm-dis %t.pre/shard.1.bc -o - | FileCheck --check-prefix=PRE %s
; RUN: %opt-shard -passes='shard-split<dir=%t;revisit=2>' -print-pipeline-passes -disable-output %s | FileCheck --check-prefix=PIPE %s
; PIPE: shard-split<dir={{.*}};revisit=2>

; S0: define void @loop() #[[MARK:[0-9]+]] {
; S0: define available_externally void @ret() #[[IMP:[0-9]+]] {
; S0: define void @ping() {
; S0: define void @pong() {
; S0: define void @self() {
; S0: attributes #[[MARK]] = { "shard-revisit"="2" }
; S0-NOT: shard-revisit

; S1: define void @ret() #[[MARK:[0-9]+]] {
; S1: define void @grow() #[[MARK]] {
; S1: attributes #[[MARK]] = { "shard-revisit"="2" }

; OFF-NOT: shard-revisit

; PRE: define void @ret() #[[PRE:[0-9]+]] {
; PRE: define void @grow() #[[MARK:[0-9]+]] {
; PRE-DAG: attributes #[[PRE]] = { "shard-presimplified" }
; PRE-DAG: attributes #[[MARK]] = { "shard-revisit"="2" }

define void @loop() !shard.cost !{i64 1000} !shard.partition !{i32 0} {
  call void @ret()
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
define void @ping() !shard.cost !{i64 300} !shard.partition !{i32 0} {
  call void @pong()
  ret void
}
define void @pong() !shard.cost !{i64 300} !shard.partition !{i32 0} {
  call void @ping()
  ret void
}
define void @self() !shard.cost !{i64 300} !shard.partition !{i32 0} {
  call void @self()
  ret void
}

!shard.plan = !{!0, !1, !2, !3}
!0 = !{!"version", i32 1}
!1 = !{!"shards", i32 2}
!2 = !{!"asm-shard", i32 0}
!3 = !{!"costs", i64 1900, i64 580}
