; With a profile (a profile summary, entry counts on the functions), shard-split imports a
; function called at a hot call site up to hot-import-cost (default 2400), far above
; import-cost: the serial inliner's threshold at a hot call is -hot-callsite-threshold
; (3000 against 225). A hot call adds no import depth, so the hot callees of an import are
; imported too. hot-import-cost=0 turns it off.
;
; The plan is written below: @hot and @cold in shard 0, the callees in shard 1. @hot runs
; 1000 times (the summary's hot count) and calls @big_hot (cost 1000), which calls @deep
; (cost 1000) on every run, the local @static_hot (cost 500, promoted where imported) and
; @huge_hot (cost 5000, above the limit). @cold runs once and calls @big_cold (cost 1000).
;
; RUN: rm -rf %t && mkdir %t
; RUN: %opt-shard -passes='shard-split<dir=%t>' -disable-output %s
; RUN: llvm-dis %t/shard.0.bc -o - | FileCheck --check-prefix=S0 --implicit-check-not=define --implicit-check-not=declare %s
; RUN: opt -passes=verify -disable-output %t/shard.0.bc
; RUN: opt -passes=verify -disable-output %t/shard.1.bc
; RUN: FileCheck --check-prefix=MAN %s < %t/manifest
; RUN: rm -rf %t.off && mkdir %t.off
; RUN: %opt-shard -passes='shard-split<dir=%t.off;hot-import-cost=0>' -disable-output %s
; RUN: llvm-dis %t.off/shard.0.bc -o - | FileCheck --check-prefix=OFF --implicit-check-not=define --implicit-check-not=declare %s
; RUN: %opt-shard -passes='shard-split<dir=%t;hot-import-cost=99>' -print-pipeline-passes -disable-output %s | FileCheck --check-prefix=PIPE %s
; PIPE: shard-split<dir={{.*}};hot-import-cost=99>

; S0: define i32 @hot(
; S0: define i32 @cold(
; S0: define available_externally i32 @big_hot(
; S0: define available_externally i32 @deep(
; S0: declare i32 @big_cold(
; S0: define available_externally hidden i32 @static_hot.shard.{{[0-9a-f]+}}(
; S0: declare i32 @huge_hot(
; MAN: promoted static_hot.shard.{{[0-9a-f]+}} static_hot

; OFF: define i32 @hot(
; OFF: define i32 @cold(
; OFF: declare i32 @big_hot(
; OFF: declare i32 @big_cold(
; OFF: declare hidden i32 @static_hot.shard.{{[0-9a-f]+}}(
; OFF: declare i32 @huge_hot(

define i32 @hot(i32 %x) !prof !30 !shard.cost !{i64 100} !shard.partition !{i32 0} {
  %a = call i32 @big_hot(i32 %x)
  %b = call i32 @static_hot(i32 %a)
  %c = call i32 @huge_hot(i32 %b)
  ret i32 %c
}
define i32 @cold(i32 %x) !prof !31 !shard.cost !{i64 100} !shard.partition !{i32 0} {
  %a = call i32 @big_cold(i32 %x)
  ret i32 %a
}
define i32 @big_hot(i32 %x) !prof !30 !shard.cost !{i64 1000} !shard.partition !{i32 1} {
  %y = call i32 @deep(i32 %x)
  ret i32 %y
}
define i32 @deep(i32 %x) !prof !30 !shard.cost !{i64 1000} !shard.partition !{i32 1} {
  %y = mul i32 %x, 3
  ret i32 %y
}
define i32 @big_cold(i32 %x) !prof !31 !shard.cost !{i64 1000} !shard.partition !{i32 1} {
  %y = mul i32 %x, 5
  ret i32 %y
}
define internal i32 @static_hot(i32 %x) !prof !30 !shard.cost !{i64 500} !shard.partition !{i32 1} {
  %y = mul i32 %x, 7
  ret i32 %y
}
define i32 @huge_hot(i32 %x) !prof !30 !shard.cost !{i64 5000} !shard.partition !{i32 1} {
  %y = call i32 @static_hot(i32 %x)
  ret i32 %y
}

!shard.plan = !{!0, !1, !2, !3}
!0 = !{!"version", i32 1}
!1 = !{!"shards", i32 2}
!2 = !{!"asm-shard", i32 0}
!3 = !{!"costs", i64 200, i64 8500}

!30 = !{!"function_entry_count", i64 1000}
!31 = !{!"function_entry_count", i64 1}

!llvm.module.flags = !{!10}
!10 = !{i32 1, !"ProfileSummary", !11}
!11 = !{!12, !13, !14, !15, !16, !17, !18, !19}
!12 = !{!"ProfileFormat", !"InstrProf"}
!13 = !{!"TotalCount", i64 6003}
!14 = !{!"MaxCount", i64 1000}
!15 = !{!"MaxInternalCount", i64 1000}
!16 = !{!"MaxFunctionCount", i64 1000}
!17 = !{!"NumCounts", i64 7}
!18 = !{!"NumFunctions", i64 7}
!19 = !{!"DetailedSummary", !20}
!20 = !{!21, !22, !23}
!21 = !{i32 10000, i64 1000, i32 6}
!22 = !{i32 999000, i64 1000, i32 6}
!23 = !{i32 999999, i64 1, i32 7}
