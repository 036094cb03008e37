; shard-split<dup-one-caller> (the default; no-dup-one-caller turns it off): a shard gets a
; private copy of a local function above tiny-cost only when one function calls it. A private
; copy of a static with several callers has fewer calls in a shard than in the module, so a
; shard's inliner would take its last call with the last-call bonus where the serial build's
; inliner sees every call and does not; and where the copies stay called, every such shard
; emits one. Such a static is imported or declared like a global instead, promoted in its
; owner: one body, inlined on the serial build's terms. This holds for the copies of small
; locals (dup-cost) and for those of locals reached only through imports (import-reached).
;
; The plan is written below. Small locals: @mid (cost 45) is called by @a (shard 0) and @b
; (shard 1), so shard 0 imports it; @one (45, called by @a only) and @tiny (20, below
; tiny-cost) are copied. Reached through imports: @top (shard 0) imports @g1 and @g2 (shard 1),
; which both call @r (200, too large to import): shard 0 declares it. @s (200), called by @g1
; only, is copied into shard 0.
;
; The costs are pinned (!shard.cost), the bodies stand-ins: import-size=0 leaves the imports
; to the costs.
; RUN: rm -rf %t && mkdir %t
; RUN: %opt-shard -passes='shard-split<dir=%t;import-size=0;no-share-locals>' -disable-output %s
; RUN: llvm-dis %t/shard.0.bc -o - | FileCheck --check-prefix=S0 --implicit-check-not=define --implicit-check-not=declare %s
; RUN: llvm-dis %t/shard.1.bc -o - | FileCheck --check-prefix=S1 --implicit-check-not=define --implicit-check-not=declare %s
; RUN: opt -passes=verify -disable-output %t/shard.0.bc
; RUN: opt -passes=verify -disable-output %t/shard.1.bc
; RUN: FileCheck --check-prefix=MAN --implicit-check-not=promoted %s < %t/manifest
; Off: @mid and @r are copied into shard 0 as well, and nothing is promoted.
; RUN: rm -rf %t.off && mkdir %t.off
; RUN: %opt-shard -passes='shard-split<dir=%t.off;import-size=0;no-dup-one-caller;no-share-locals>' -disable-output %s
; RUN: llvm-dis %t.off/shard.0.bc -o - | FileCheck --check-prefix=OFF --implicit-check-not=define --implicit-check-not=declare %s
; RUN: not grep promoted %t.off/manifest
; With tiny-cost at 45, @mid is tiny, and copied again.
; RUN: rm -rf %t.tiny && mkdir %t.tiny
; RUN: %opt-shard -passes='shard-split<dir=%t.tiny;import-size=0;tiny-cost=45;no-share-locals>' -disable-output %s
; RUN: llvm-dis %t.tiny/shard.0.bc -o - | FileCheck --check-prefix=TINY %s
; TINY: define internal i32 @mid(
; RUN: %opt-shard -passes='shard-split<dir=%t;no-dup-one-caller>' -print-pipeline-passes -disable-output %s | FileCheck --check-prefix=PIPE %s
; PIPE: shard-split<dir={{.*}};no-dup-one-caller>

; S0: define i32 @a(
; S0: define available_externally hidden i32 @mid.shard.{{[0-9a-f]+}}(
; S0: define internal i32 @one(
; S0: define internal i32 @tiny(
; S0: define i32 @top(
; S0: define available_externally i32 @g1(
; S0: define available_externally i32 @g2(
; S0: declare hidden i32 @r.shard.{{[0-9a-f]+}}(
; S0: define internal i32 @s(

; S1: define i32 @b(
; S1: define hidden i32 @mid.shard.{{[0-9a-f]+}}(
; S1: define internal i32 @tiny(
; S1: define i32 @g1(
; S1: define i32 @g2(
; S1: define hidden i32 @r.shard.{{[0-9a-f]+}}(
; S1: define internal i32 @s(

; MAN-DAG: promoted mid.shard.{{[0-9a-f]+}} mid
; MAN-DAG: promoted r.shard.{{[0-9a-f]+}} r

; OFF: define i32 @a(
; OFF: define internal i32 @mid(
; OFF: define internal i32 @one(
; OFF: define internal i32 @tiny(
; OFF: define i32 @top(
; OFF: define available_externally i32 @g1(
; OFF: define available_externally i32 @g2(
; OFF: define internal i32 @r(
; OFF: define internal i32 @s(

define i32 @a(i32 %x) !shard.cost !{i64 100} !shard.partition !{i32 0} {
  %y = call i32 @mid(i32 %x)
  %z = call i32 @one(i32 %y)
  %w = call i32 @tiny(i32 %z)
  ret i32 %w
}
define i32 @b(i32 %x) !shard.cost !{i64 100} !shard.partition !{i32 1} {
  %y = call i32 @mid(i32 %x)
  %z = call i32 @tiny(i32 %y)
  ret i32 %z
}
define internal i32 @mid(i32 %x) !shard.cost !{i64 45} !shard.partition !{i32 1} {
  %y = mul i32 %x, 3
  ret i32 %y
}
define internal i32 @one(i32 %x) !shard.cost !{i64 45} !shard.partition !{i32 0} {
  %y = add i32 %x, 7
  ret i32 %y
}
define internal i32 @tiny(i32 %x) !shard.cost !{i64 20} !shard.partition !{i32 0} {
  %y = sub i32 %x, 1
  ret i32 %y
}
define i32 @top(i32 %x) !shard.cost !{i64 100} !shard.partition !{i32 0} {
  %y = call i32 @g1(i32 %x)
  %z = call i32 @g2(i32 %y)
  ret i32 %z
}
define i32 @g1(i32 %x) !shard.cost !{i64 20} !shard.partition !{i32 1} {
  %y = call i32 @r(i32 %x)
  %z = call i32 @s(i32 %y)
  ret i32 %z
}
define i32 @g2(i32 %x) !shard.cost !{i64 20} !shard.partition !{i32 1} {
  %y = call i32 @r(i32 %x)
  ret i32 %y
}
define internal i32 @r(i32 %x) !shard.cost !{i64 200} !shard.partition !{i32 1} {
  %y = mul i32 %x, 5
  ret i32 %y
}
define internal i32 @s(i32 %x) !shard.cost !{i64 200} !shard.partition !{i32 1} {
  %y = mul i32 %x, 9
  ret i32 %y
}

!shard.plan = !{!0, !1, !2, !3}
!0 = !{!"version", i32 1}
!1 = !{!"shards", i32 2}
!2 = !{!"asm-shard", i32 0}
!3 = !{!"costs", i64 265, i64 585}
