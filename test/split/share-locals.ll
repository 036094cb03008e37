; shard-split<share-locals> (the default; no-share-locals turns it off): a local function that
; the split promotes anyway, because another shard names it, is imported as a global would be,
; up to import-cost rather than local-import-cost: importing it promotes nothing more, and the
; shard's inliner sees the body the serial inliner takes into each caller. Where every shard
; that names it imports it, each holds a hidden linkonce_odr copy in a comdat of its promoted
; name instead, its owner included: the owner drops it once its own calls are inlined (the
; serial build deletes the static), a shard that keeps a call compiles a copy, the linker keeps
; one, and the manifest lists it as grouped, for the driver to make that group private.
;
; The plan is written below. @top (shard 0) calls @helper, @deep's caller @api and @cb; @own
; (shard 1) calls @helper and @deep and stores @cb. @helper, @deep and @cb cost 150 (above
; local-import-cost, 125). @helper is shared. Shard 0 names @deep only through its import of @api,
; one level deeper than it imports (and @deep has two callers: no private copy of it): it
; declares it, so @deep is promoted and kept by its owner.
; @cb's address is taken: it stays with its owner too.
;
; The costs are pinned (!shard.cost), the bodies stand-ins: import-size=0 leaves the imports
; to the costs.
; RUN: rm -rf %t && mkdir %t %t.off
; RUN: %opt-shard -passes='shard-split<dir=%t;chain-cost=0;import-size=0>' -disable-output %s
; RUN: llvm-dis %t/shard.0.bc -o - | FileCheck --check-prefix=S0 --implicit-check-not=define --implicit-check-not=declare %s
; RUN: llvm-dis %t/shard.1.bc -o - | FileCheck --check-prefix=S1 --implicit-check-not=define --implicit-check-not=declare %s
; RUN: opt -passes=verify -disable-output %t/shard.0.bc
; RUN: opt -passes=verify -disable-output %t/shard.1.bc
; RUN: FileCheck --check-prefix=MAN --implicit-check-not=promoted --implicit-check-not=grouped %s < %t/manifest
; RUN: %opt-shard -passes='shard-split<dir=%t.off;chain-cost=0;import-size=0;no-share-locals>' -disable-output %s
; RUN: llvm-dis %t.off/shard.0.bc -o - | FileCheck --check-prefix=OFF0 %s
; RUN: FileCheck --check-prefix=OFF-MAN --implicit-check-not=grouped %s < %t.off/manifest
; RUN: %opt-shard -passes='shard-split<dir=%t;no-share-locals>' -print-pipeline-passes -disable-output %s | FileCheck --check-prefix=PIPE %s
; PIPE: shard-split<dir={{.*}};no-share-locals>

; S0: $[[H:helper.shard.[0-9a-f]+]] = comdat any
; S0: define void @top(
; S0: define linkonce_odr hidden void @[[H]](i32 %x){{( #[0-9]+)?}} comdat {
; S0: define available_externally void @api(
; S0: declare hidden void @deep.shard.{{[0-9a-f]+}}(
; S0: declare hidden void @cb.shard.{{[0-9a-f]+}}(
; S0: declare void @ext(

; S1: $[[H:helper.shard.[0-9a-f]+]] = comdat any
; S1: define void @own(
; S1: define linkonce_odr hidden void @[[H]](i32 %x){{( #[0-9]+)?}} comdat {
; S1: define void @api(
; S1: define hidden void @deep.shard.{{[0-9a-f]+}}(
; S1: define hidden void @cb.shard.{{[0-9a-f]+}}(
; S1: declare void @ext(

; MAN-DAG: promoted [[H:helper.shard.[0-9a-f]+]] helper
; MAN-DAG: grouped [[H]]
; MAN-DAG: promoted deep.shard.{{[0-9a-f]+}} deep
; MAN-DAG: promoted cb.shard.{{[0-9a-f]+}} cb

; OFF0: declare hidden void @helper.shard.{{[0-9a-f]+}}(
; OFF-MAN: promoted helper.shard.{{[0-9a-f]+}} helper

@slot = global ptr null, !shard.partition !{i32 1}

define void @top() !shard.cost !{i64 1000} !shard.partition !{i32 0} {
  call void @helper(i32 1)
  call void @api()
  call void @cb(i32 2)
  ret void
}
define void @own() !shard.cost !{i64 1000} !shard.partition !{i32 1} {
  call void @helper(i32 3)
  call void @deep(i32 5)
  store ptr @cb, ptr @slot
  ret void
}
define internal void @helper(i32 %x) !shard.cost !{i64 150} !shard.partition !{i32 1} {
  call void @ext(i32 %x)
  ret void
}
define void @api() !shard.cost !{i64 60} !shard.partition !{i32 1} {
  call void @deep(i32 4)
  ret void
}
define internal void @deep(i32 %x) !shard.cost !{i64 150} !shard.partition !{i32 1} {
  call void @ext(i32 %x)
  ret void
}
define internal void @cb(i32 %x) !shard.cost !{i64 150} !shard.partition !{i32 1} {
  call void @ext(i32 %x)
  ret void
}
declare void @ext(i32)

!shard.plan = !{!0, !1, !2, !3}
!0 = !{!"version", i32 1}
!1 = !{!"shards", i32 2}
!2 = !{!"asm-shard", i32 0}
!3 = !{!"costs", i64 1000, i64 1510}
