; shard-partition's cluster bound: a shard's share, or the largest inseparable group with
; half a share of helpers. @big (5000) is twice a share (2575): its helper @big.h1 still
; joins it (5300, under 5000 + 2575/2), as the serial inliner takes a static helper into
; its only caller however big the caller; @big.h2 would take the cluster past the bound
; and stays on its own.
; RUN: %opt-shard -passes='shard-partition<shards=4>,print<shard-plan>' -disable-output %s 2>&1 | FileCheck %s

; CHECK: shard-plan: shards=4 total-cost=10300 max-cost=5300
; CHECK: shard 1: cost=5300 functions=2 globals=2
; CHECK-NEXT:   @big.h1 function cost=300 local
; CHECK-NEXT:   @big function cost=5000 global
; CHECK-NEXT: shard 2: cost=2000 functions=2 globals=2
; CHECK-NEXT:   @big.h2 function cost=1000 local

define internal i32 @big.h1(i32 %x) !shard.cost !{i64 300} {
  ret i32 %x
}
define internal i32 @big.h2(i32 %x) !shard.cost !{i64 1000} {
  ret i32 %x
}
define i32 @big(i32 %x) !shard.cost !{i64 5000} {
  %a = call i32 @big.h1(i32 %x)
  %b = call i32 @big.h2(i32 %a)
  ret i32 %b
}
define i32 @f1() !shard.cost !{i64 1000} {
  ret i32 0
}
define i32 @f2() !shard.cost !{i64 1000} {
  ret i32 0
}
define i32 @f3() !shard.cost !{i64 1000} {
  ret i32 0
}
define i32 @f4() !shard.cost !{i64 1000} {
  ret i32 0
}
