; shard-split<sink-locals> (off by default: docs/measurements.md, Code quality): a local function that one shard imports and no other shard refers to (its owner
; included) becomes a private copy in that shard instead of a promoted symbol: its
; inliner sees a static with its every caller, as the serial build's does, and the
; owner's copy is left unused (dropped there). A local referred to from two shards is
; imported and promoted as before.
;
; Groups of cost 100 take one shard each (place=graph); @helper and @shared (90 each,
; above dup-cost, within import-cost) are too large to join their callers' groups and
; share shard 5. @helper is called from @b only, @shared from @b and @c.
;
; RUN: rm -rf %t && mkdir %t
; RUN: %opt-shard -passes='shard-partition<shards=6;place=graph>,print<shard-plan>,shard-split<dir=%t;sink-locals;no-share-locals>' \
; RUN:   -disable-output %s 2>&1 | FileCheck --check-prefix=PLAN %s
; RUN: llvm-dis %t/shard.3.bc -o - | FileCheck --check-prefix=S3 --implicit-check-not=define %s
; RUN: llvm-dis %t/shard.4.bc -o - | FileCheck --check-prefix=S4 --implicit-check-not=define %s
; RUN: llvm-dis %t/shard.5.bc -o - | FileCheck --check-prefix=S5 --implicit-check-not=define %s
; RUN: opt -passes=verify -disable-output %t/shard.3.bc
; RUN: opt -passes=verify -disable-output %t/shard.5.bc
; RUN: FileCheck --check-prefix=MAN --implicit-check-not=promoted %s < %t/manifest
; Without sink-locals, @helper is imported into shard 3 and promoted in its owner.
; RUN: rm -rf %t.off && mkdir %t.off
; RUN: %opt-shard -passes='shard-partition<shards=6;place=graph>,shard-split<dir=%t.off;no-share-locals>' -disable-output %s
; RUN: llvm-dis %t.off/shard.3.bc -o - | FileCheck --check-prefix=OFF %s
; RUN: %opt-shard -passes='shard-split<dir=%t;sink-locals>' -print-pipeline-passes -disable-output %s | FileCheck --check-prefix=PIPE %s
; PIPE: shard-split<dir={{.*}};sink-locals>
; OFF: define available_externally hidden i32 @helper.shard.{{[0-9a-f]+}}(

; PLAN:      shard 3: cost=100 functions=1 globals=1
; PLAN-NEXT:   @b function cost=100 global
; PLAN:      shard 5: cost=180 functions=2 globals=2
; PLAN-NEXT:   @helper function cost=90 local
; PLAN-NEXT:   @shared function cost=90 local

; S3: define i32 @b(
; S3: define internal i32 @helper(
; S3: define available_externally hidden i32 @[[SHARED:shared\.shard\.[0-9a-f]{16}]](

; S4: define i32 @c(
; S4: define available_externally hidden i32 @shared.shard.{{[0-9a-f]+}}(

; S5: define internal i32 @helper(
; S5: define hidden i32 @shared.shard.{{[0-9a-f]+}}(

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
  ret i32 %s
}
define internal i32 @helper(i32 %x) !shard.cost !{i64 90} {
  %y = mul i32 %x, 3
  ret i32 %y
}
define internal i32 @shared(i32 %x) !shard.cost !{i64 90} {
  %y = add i32 %x, 7
  ret i32 %y
}
