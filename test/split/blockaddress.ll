; Block addresses in shard-partition and shard-split: blockaddress(@f, %bb) is only
; valid in the module that defines @f, so every global whose initialiser holds one, and
; every function using one, is assigned to @f's shard. Another shard that reads such a
; table only declares it (the internal table is promoted for it); no shard ends up
; with a blockaddress of a function it does not define, and all verify.
;
; Group {interp, other, table, tbl2} costs 49 + 49 + 1 + 1 = 100, @reader 100: two
; shards, one group each, in name order. Without the grouping, the four would scatter.
;
; RUN: rm -rf %t && mkdir %t
; RUN: %opt-shard -passes='shard-partition<shards=2>,print<shard-plan>,shard-split<dir=%t>' \
; RUN:   -disable-output %s 2>&1 | FileCheck --check-prefix=PLAN %s
; RUN: llvm-dis %t/shard.0.bc -o - | FileCheck --check-prefix=S0 --implicit-check-not=define --implicit-check-not=declare %s
; RUN: llvm-dis %t/shard.1.bc -o - | FileCheck --check-prefix=S1 --implicit-check-not=define --implicit-check-not=declare --implicit-check-not='blockaddress(' %s
; RUN: opt -passes=verify -disable-output %t/shard.0.bc
; RUN: opt -passes=verify -disable-output %t/shard.1.bc
; RUN: FileCheck --check-prefix=MAN %s < %t/manifest

; PLAN:      shard 0: cost=100 functions=2 globals=4
; PLAN-NEXT:   @interp function cost=49 global
; PLAN-NEXT:   @other function cost=49 global
; PLAN-NEXT:   @table variable local
; PLAN-NEXT:   @tbl2 variable global
; PLAN-NEXT: shard 1: cost=100 functions=1 globals=1
; PLAN-NEXT:   @reader function cost=100 global

; S0:      @[[TABLE:table\.shard\.[0-9a-f]{16}]] = hidden constant [2 x ptr] [ptr blockaddress(@interp, %op1), ptr blockaddress(@interp, %op2)]
; S0-NEXT: @tbl2 = global ptr blockaddress(@interp, %op2)
; S0:      define i32 @interp(i32 %i) #0 {
; S0:        getelementptr [2 x ptr], ptr @[[TABLE]]
; S0:      define ptr @other() #0 {
; S0-NEXT:   ret ptr blockaddress(@interp, %op1)

; S1:      @[[TABLE:table\.shard\.[0-9a-f]{16}]] = external hidden constant [2 x ptr]
; S1:      define ptr @reader() #0 {
; S1-NEXT:   %x = load ptr, ptr @[[TABLE]]

; MAN:      shard 0 cost 100 functions 2
; MAN-NEXT: shard 1 cost 100 functions 1
; MAN-NEXT: promoted [[TABLE:table\.shard\.[0-9a-f]{16}]] table{{$}}
; MAN-NOT:  promoted

@table = internal constant [2 x ptr] [ptr blockaddress(@interp, %op1), ptr blockaddress(@interp, %op2)]
@tbl2 = global ptr blockaddress(@interp, %op2)

define i32 @interp(i32 %i) #0 !shard.cost !{i64 49} {
entry:
  %p = getelementptr [2 x ptr], ptr @table, i32 0, i32 %i
  %t = load ptr, ptr %p
  indirectbr ptr %t, [label %op1, label %op2]
op1:
  ret i32 1
op2:
  ret i32 2
}

define ptr @other() #0 !shard.cost !{i64 49} {
  ret ptr blockaddress(@interp, %op1)
}

define ptr @reader() #0 !shard.cost !{i64 100} {
  %x = load ptr, ptr @table
  ret ptr %x
}

attributes #0 = { noinline }
