; shard-split (import-reached, the default): a local function that other shards reach only through
; the bodies of their available_externally imports is not promoted: each such shard gets a private
; copy, dropped with the import unless the import is inlined, and the owner keeps the local internal,
; so that its inliner may take it into every caller and delete it, as the serial build does. What
; only such a copy names is copied so too. A local that some shard names from its own code
; (@both, called by @other) or whose address is taken (@cb) is promoted as before.
;
; The plan is written below: @top in shard 0 calls @mid (shard 1, imported into shard 0); @mid calls
; @stat (too large to import), which calls @deep, and @both, and stores @cb; @other in shard 2
; calls @both.
;
; The costs are pinned (!shard.cost), the bodies stand-ins: import-size=0 leaves the imports
; to the costs.
; RUN: rm -rf %t && mkdir %t
; RUN: %opt-shard -passes='shard-split<dir=%t;import-size=0>' -disable-output %s
; RUN: llvm-dis %t/shard.0.bc -o - | FileCheck --check-prefix=S0 --implicit-check-not=define --implicit-check-not=declare %s
; RUN: llvm-dis %t/shard.1.bc -o - | FileCheck --check-prefix=S1 --implicit-check-not=define --implicit-check-not=declare %s
; RUN: llvm-dis %t/shard.2.bc -o - | FileCheck --check-prefix=S2 --implicit-check-not=define --implicit-check-not=declare %s
; RUN: opt -passes=verify -disable-output %t/shard.0.bc
; RUN: opt -passes=verify -disable-output %t/shard.1.bc
; RUN: FileCheck --check-prefix=MAN --implicit-check-not=promoted %s < %t/manifest
; With no-import-reached (and no-import-callees, which copies @stat too: only @mid calls it),
; shard 0 declares @stat, promoted in its owner; @deep stays in shard 1 only.
; RUN: rm -rf %t.off && mkdir %t.off
; RUN: %opt-shard -passes='shard-split<dir=%t.off;import-size=0;no-import-reached;no-import-callees>' -disable-output %s
; RUN: llvm-dis %t.off/shard.0.bc -o - | FileCheck --check-prefix=OFF0 --implicit-check-not=deep %s
; RUN: FileCheck --check-prefix=OFF-MAN %s < %t.off/manifest
; RUN: %opt-shard -passes='shard-split<dir=%t;no-import-reached>' -print-pipeline-passes -disable-output %s | FileCheck --check-prefix=PIPE %s
; PIPE: shard-split<dir={{.*}};no-import-reached>

; S0: define void @top(
; S0: define available_externally void @mid(
; S0: define internal void @stat(
; S0: define internal void @deep(
; S0: declare hidden void @both.shard.{{[0-9a-f]+}}(
; S0: declare hidden void @cb.shard.{{[0-9a-f]+}}(
; S0: declare void @ext(

; S1: define void @mid(
; S1: define internal void @stat(
; S1: define internal void @deep(
; S1: define hidden void @both.shard.{{[0-9a-f]+}}(
; S1: define hidden void @cb.shard.{{[0-9a-f]+}}(
; S1: declare void @ext(

; S2: declare hidden void @both.shard.{{[0-9a-f]+}}(
; S2: define void @other(

; MAN-DAG: promoted both.shard.{{[0-9a-f]+}} both
; MAN-DAG: promoted cb.shard.{{[0-9a-f]+}} cb

; OFF0: declare hidden void @stat.shard.{{[0-9a-f]+}}(
; OFF-MAN: promoted stat.shard.{{[0-9a-f]+}} stat

@slot = global ptr null, !shard.partition !{i32 1}

define void @top() !shard.cost !{i64 100} !shard.partition !{i32 0} {
  call void @mid()
  ret void
}
define void @mid() !shard.cost !{i64 100} !shard.partition !{i32 1} {
  call void @stat()
  call void @both()
  store ptr @cb, ptr @slot
  ret void
}
define internal void @stat() !shard.cost !{i64 200} !shard.partition !{i32 1} {
  call void @deep()
  call void @ext(i32 1)
  ret void
}
define internal void @deep() !shard.cost !{i64 200} !shard.partition !{i32 1} {
  call void @ext(i32 2)
  ret void
}
define internal void @both() !shard.cost !{i64 200} !shard.partition !{i32 1} {
  call void @ext(i32 3)
  ret void
}
define internal void @cb() !shard.cost !{i64 200} !shard.partition !{i32 1} {
  call void @ext(i32 4)
  ret void
}
define void @other() !shard.cost !{i64 100} !shard.partition !{i32 2} {
  call void @both()
  ret void
}
declare void @ext(i32)

!shard.plan = !{!0, !1, !2, !3}
!0 = !{!"version", i32 1}
!1 = !{!"shards", i32 3}
!2 = !{!"asm-shard", i32 0}
!3 = !{!"costs", i64 100, i64 900, i64 100}
