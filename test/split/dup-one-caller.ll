; shard-split<dup-one-caller> (the default; no-dup-one-caller turns it off): a local
; function above tiny-cost is copied privately into the shards that call it only when
; one function calls it. A private copy of a static with several callers has fewer
; calls in a shard than in the module, so a shard's inliner would take its last call
; with the last-call bonus where the serial build's inliner sees several calls and
; does not; and where the copies stay called, every such shard emits one. So @mid
; (cost 45, called by @a and @b) is imported and promoted like a global: one body, the
; serial inliner's view. @one (45, called by @a only) and @tiny (20, below tiny-cost)
; are still copied privately.
;
; RUN: rm -rf %t && mkdir %t
; RUN: %opt-shard -passes='shard-partition<shards=2;place=graph>,print<shard-plan>,shard-split<dir=%t>' \
; RUN:   -disable-output %s 2>&1 | FileCheck --check-prefix=PLAN %s
; RUN: llvm-dis %t/shard.0.bc -o - | FileCheck --check-prefix=S0 --implicit-check-not=define --implicit-check-not=declare %s
; RUN: llvm-dis %t/shard.1.bc -o - | FileCheck --check-prefix=S1 --implicit-check-not=define --implicit-check-not=declare %s
; RUN: opt -passes=verify -disable-output %t/shard.0.bc
; RUN: opt -passes=verify -disable-output %t/shard.1.bc
; RUN: FileCheck --check-prefix=MAN --implicit-check-not=promoted %s < %t/manifest
; Off: @mid is copied into shard 0 as well, and nothing is promoted.
; RUN: rm -rf %t.off && mkdir %t.off
; RUN: %opt-shard -passes='shard-partition<shards=2;place=graph>,shard-split<dir=%t.off;no-dup-one-caller>' -disable-output %s
; RUN: llvm-dis %t.off/shard.0.bc -o - | FileCheck --check-prefix=OFF --implicit-check-not=define --implicit-check-not=declare %s
; RUN: not grep promoted %t.off/manifest
; With tiny-cost at 45, @mid is tiny, and copied again.
; RUN: rm -rf %t.tiny && mkdir %t.tiny
; RUN: %opt-shard -passes='shard-partition<shards=2;place=graph>,shard-split<dir=%t.tiny;tiny-cost=45>' -disable-output %s
; RUN: llvm-dis %t.tiny/shard.0.bc -o - | FileCheck --check-prefix=OFF --implicit-check-not=define --implicit-check-not=declare %s
; RUN: %opt-shard -passes='shard-split<dir=%t;no-dup-one-caller>' -print-pipeline-passes -disable-output %s | FileCheck --check-prefix=PIPE %s
; PIPE: shard-split<dir={{.*}};no-dup-one-caller>

; PLAN:      shard 0: cost=165 functions=3 globals=3
; PLAN-NEXT:   @a function cost=100 global
; PLAN-NEXT:   @one function cost=45 local
; PLAN-NEXT:   @tiny function cost=20 local
; PLAN-NEXT: shard 1: cost=145 functions=2 globals=2
; PLAN-NEXT:   @b function cost=100 global
; PLAN-NEXT:   @mid function cost=45 local

; S0: define i32 @a(
; S0: define available_externally hidden i32 @mid.shard.{{[0-9a-f]+}}(
; S0: define internal i32 @one(
; S0: define internal i32 @tiny(

; S1: define i32 @b(
; S1: define hidden i32 @mid.shard.{{[0-9a-f]+}}(
; S1: define internal i32 @tiny(

; MAN: promoted mid.shard.{{[0-9a-f]+}} mid

; OFF: define i32 @a(
; OFF: define internal i32 @mid(
; OFF: define internal i32 @one(
; OFF: define internal i32 @tiny(

define i32 @a(i32 %x) !shard.cost !{i64 100} {
  %y = call i32 @mid(i32 %x)
  %z = call i32 @one(i32 %y)
  %w = call i32 @tiny(i32 %z)
  ret i32 %w
}
define i32 @b(i32 %x) !shard.cost !{i64 100} {
  %y = call i32 @mid(i32 %x)
  %z = call i32 @tiny(i32 %y)
  ret i32 %z
}
define internal i32 @mid(i32 %x) !shard.cost !{i64 45} {
  %y = mul i32 %x, 3
  ret i32 %y
}
define internal i32 @one(i32 %x) !shard.cost !{i64 45} {
  %y = add i32 %x, 7
  ret i32 %y
}
define internal i32 @tiny(i32 %x) !shard.cost !{i64 20} {
  %y = sub i32 %x, 1
  ret i32 %y
}
