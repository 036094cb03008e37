; shard-split<single-caller> (off by default: docs/measurements.md, Code quality): a
; local function that only one function refers to is copied privately into every
; shard that holds that function, other than its owner, and is not promoted: each
; shard's inliner sees, as the serial build's does, a static with one call (the
; last-call bonus applies), where it would otherwise see a promoted symbol, which it
; takes with the ordinary threshold or calls (docs/measurements.md, Code quality).
; It applies again through the copies: @deeper is referred to only by @deep.
;
; Groups of cost 100 or more take one shard each (place=graph). @c imports @mid (cost
; 20), whose single callee @deep (150, above import-cost) calls @deeper (150), and
; @deeper was placed apart from @deep. @shared is called from @b and @c: imported and
; promoted as before.
;
; The costs are pinned (!shard.cost), the bodies stand-ins: import-size=0 leaves the imports
; to the costs.
; RUN: rm -rf %t && mkdir %t
; RUN: %opt-shard -passes='shard-partition<shards=6;place=graph>,print<shard-plan>,shard-split<dir=%t;import-size=0;single-caller;no-share-locals>' \
; RUN:   -disable-output %s 2>&1 | FileCheck --check-prefix=PLAN %s
; RUN: llvm-dis %t/shard.1.bc -o - | FileCheck --check-prefix=S1 --implicit-check-not=define --implicit-check-not=declare %s
; RUN: llvm-dis %t/shard.2.bc -o - | FileCheck --check-prefix=S2 --implicit-check-not=define --implicit-check-not=declare %s
; RUN: llvm-dis %t/shard.3.bc -o - | FileCheck --check-prefix=S3 --implicit-check-not=define --implicit-check-not=declare %s
; RUN: opt -passes=verify -disable-output %t/shard.1.bc
; RUN: opt -passes=verify -disable-output %t/shard.2.bc
; RUN: opt -passes=verify -disable-output %t/shard.3.bc
; RUN: FileCheck --check-prefix=MAN --implicit-check-not=promoted %s < %t/manifest
; Without single-caller (and without import-callees and import-reached, which copy @deep and
; @deeper into shard 3 too, since only its import of @mid reaches them), @deep and @deeper are
; promoted, and shard 3 declares @deep.
; RUN: rm -rf %t.off && mkdir %t.off
; RUN: %opt-shard -passes='shard-partition<shards=6;place=graph>,shard-split<dir=%t.off;import-size=0;no-import-reached;no-share-locals;no-import-callees>' -disable-output %s
; RUN: llvm-dis %t.off/shard.3.bc -o - | FileCheck --check-prefix=OFF %s
; RUN: FileCheck --check-prefix=OFF-MAN %s < %t.off/manifest
; RUN: %opt-shard -passes='shard-split<dir=%t;single-caller>' -print-pipeline-passes -disable-output %s | FileCheck --check-prefix=PIPE %s
; PIPE: shard-split<dir={{.*}};single-caller>
; OFF: declare hidden i32 @deep.shard.{{[0-9a-f]+}}(
; OFF-MAN: promoted deep.shard.{{[0-9a-f]+}} deep
; OFF-MAN: promoted deeper.shard.{{[0-9a-f]+}} deeper

; PLAN:      shard 1: cost=170 functions=2 globals=2
; PLAN-NEXT:   @mid function cost=20 global
; PLAN-NEXT:   @deep function cost=150 local
; PLAN-NEXT: shard 2: cost=150 functions=1 globals=1
; PLAN-NEXT:   @deeper function cost=150 local
; PLAN-NEXT: shard 3: cost=200 functions=2 globals=2
; PLAN-NEXT:   @a1 function cost=100 global
; PLAN-NEXT:   @c function cost=100 global

; S1: define i32 @mid(
; S1: define internal i32 @deep(
; S1: define internal i32 @deeper(

; Its owner keeps @deeper, unused, for its optimiser to drop.
; S2: define internal i32 @deeper(

; S3: define void @a1(
; S3: define i32 @c(
; S3: define available_externally i32 @mid(
; S3: define internal i32 @deep(
; S3: define internal i32 @deeper(
; S3: define available_externally hidden i32 @shared.shard.{{[0-9a-f]+}}(

; MAN: promoted shared.shard.{{[0-9a-f]+}} shared

define void @a1() !shard.cost !{i64 100} {
  ret void
}
define void @a2() !shard.cost !{i64 100} {
  ret void
}
define void @a3() !shard.cost !{i64 100} {
  ret void
}
define i32 @b(i32 %x) !shard.cost !{i64 100} {
  %r = call i32 @helper(i32 %x)
  %s = call i32 @shared(i32 %r)
  ret i32 %s
}
define i32 @c(i32 %x) !shard.cost !{i64 100} {
  %s = call i32 @shared(i32 %x)
  %t = call i32 @mid(i32 %s)
  ret i32 %t
}
define i32 @mid(i32 %x) !shard.cost !{i64 20} {
  %y = call i32 @deep(i32 %x)
  ret i32 %y
}
define internal i32 @deep(i32 %x) !shard.cost !{i64 150} {
  %y = call i32 @deeper(i32 %x)
  ret i32 %y
}
define internal i32 @deeper(i32 %x) !shard.cost !{i64 150} {
  %y = sub i32 %x, 5
  ret i32 %y
}
define internal i32 @helper(i32 %x) !shard.cost !{i64 90} {
  %y = mul i32 %x, 3
  ret i32 %y
}
define internal i32 @shared(i32 %x) !shard.cost !{i64 90} {
  %y = add i32 %x, 7
  ret i32 %y
}
