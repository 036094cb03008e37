; shard-split<import-callees> (the default; no-import-callees turns it off): a local function
; that only one function refers to is copied privately into every shard that imports or copies
; that function, at any size, and again for the locals only such a copy refers to. The serial
; inliner takes such a static into its one caller first (the last-call bonus), and weighs the
; caller with it; an import without it looked smaller, and was inlined where the serial build
; keeps a call (sqlite3.c's sqlite3BtreeNext without btreeNext, at 64 shards). A shard that
; owns the function gets no copy (single-caller, off by default, gives it one too).
;
; @top (shard 0) calls @api (shard 1, cost 60: imported), whose one callee @step (cost 200)
; calls @q, which @other calls too: import-reached would not copy @step (its copy would
; promote @q, promoted nowhere else); import-callees copies it, and promotes @q. @own (shard 2)
; calls @helper, placed in shard 1, which only @own calls: not copied, promoted.
;
; The costs are pinned (!shard.cost), the bodies stand-ins: import-size=0 leaves the imports
; to the costs.
; RUN: rm -rf %t && mkdir %t %t.off
; RUN: %opt-shard -passes='shard-split<dir=%t;import-size=0>' -disable-output %s
; RUN: llvm-dis %t/shard.0.bc -o - | FileCheck --check-prefix=S0 --implicit-check-not=define --implicit-check-not=declare %s
; RUN: llvm-dis %t/shard.2.bc -o - | FileCheck --check-prefix=S2 --implicit-check-not=define --implicit-check-not=declare %s
; RUN: opt -passes=verify -disable-output %t/shard.0.bc
; RUN: FileCheck --check-prefix=MAN --implicit-check-not=promoted %s < %t/manifest
; RUN: %opt-shard -passes='shard-split<dir=%t.off;import-size=0;no-import-callees>' -disable-output %s
; RUN: llvm-dis %t.off/shard.0.bc -o - | FileCheck --check-prefix=OFF0 %s
; RUN: FileCheck --check-prefix=OFF-MAN --implicit-check-not=promoted %s < %t.off/manifest
; RUN: %opt-shard -passes='shard-split<dir=%t;no-import-callees>' -print-pipeline-passes -disable-output %s | FileCheck --check-prefix=PIPE %s
; PIPE: shard-split<dir={{.*}};no-import-callees>

; S0: define void @top(
; S0: define available_externally void @api(
; S0: define internal void @step(
; S0: declare hidden void @q.shard.{{[0-9a-f]+}}(

; S2: declare hidden void @helper.shard.{{[0-9a-f]+}}(
; S2: define void @own(

; MAN-DAG: promoted q.shard.{{[0-9a-f]+}} q
; MAN-DAG: promoted helper.shard.{{[0-9a-f]+}} helper

; OFF0: declare hidden void @step.shard.{{[0-9a-f]+}}(
; OFF-MAN-DAG: promoted step.shard.{{[0-9a-f]+}} step
; OFF-MAN-DAG: promoted helper.shard.{{[0-9a-f]+}} helper

define void @top() !shard.cost !{i64 1000} !shard.partition !{i32 0} {
  call void @api()
  ret void
}
define void @api() !shard.cost !{i64 60} !shard.partition !{i32 1} {
  call void @step(i32 1)
  ret void
}
define internal void @step(i32 %x) !shard.cost !{i64 200} !shard.partition !{i32 1} {
  call void @q(i32 %x)
  ret void
}
define internal void @q(i32 %x) !shard.cost !{i64 100} !shard.partition !{i32 1} {
  call void @ext(i32 %x)
  ret void
}
define void @other() !shard.cost !{i64 1000} !shard.partition !{i32 1} {
  call void @q(i32 2)
  ret void
}
define internal void @helper(i32 %x) !shard.cost !{i64 200} !shard.partition !{i32 1} {
  call void @ext(i32 %x)
  ret void
}
define void @own() !shard.cost !{i64 1000} !shard.partition !{i32 2} {
  call void @helper(i32 3)
  ret void
}
declare void @ext(i32)

!shard.plan = !{!0, !1, !2, !3}
!0 = !{!"version", i32 1}
!1 = !{!"shards", i32 3}
!2 = !{!"asm-shard", i32 0}
!3 = !{!"costs", i64 1000, i64 1560, i64 1000}
