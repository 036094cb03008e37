; shard-partition clusters in two rounds. First, within a shard's share (2525), helpers join
; their only callers bottom-up: @leaf joins @mid. Then @big (5000, twice a share) may take
; whole clusters up to its bound (5000 + 2525/2 = 6262), but only those the serial inliner
; takes into it however big it is: @once, called once (the last-call bonus). @mid is called
; once too, but with its own helper @leaf it would pass the bound: it stays with @leaf, rather
; than join @big alone and leave @leaf a call to another shard. @twice, called twice, stays a
; function of its own serially, and here stays out.
; RUN: %opt-shard -passes='shard-partition<shards=4>,print<shard-plan>' -disable-output %s 2>&1 | FileCheck %s

; CHECK: shard-plan: shards=4 total-cost=10100 max-cost=5100
; CHECK: shard {{[0-9]}}: cost=5100 functions=2 globals=2
; CHECK-NEXT:   @once function cost=100 local
; CHECK-NEXT:   @big function cost=5000 global
; CHECK: shard {{[0-9]}}: cost={{[0-9]+}} functions={{[0-9]+}} globals={{[0-9]+}}
; CHECK-NEXT:   @mid function cost=1000 local
; CHECK-NEXT:   @leaf function cost=800 local

define internal i32 @mid(i32 %x) !shard.cost !{i64 1000} {
  %a = call i32 @leaf(i32 %x)
  ret i32 %a
}
define internal i32 @leaf(i32 %x) !shard.cost !{i64 800} {
  ret i32 %x
}
define internal i32 @once(i32 %x) !shard.cost !{i64 100} {
  ret i32 %x
}
define internal i32 @twice(i32 %x) !shard.cost !{i64 200} {
  ret i32 %x
}
define i32 @big(i32 %x) !shard.cost !{i64 5000} {
  %a = call i32 @mid(i32 %x)
  %b = call i32 @once(i32 %a)
  %c = call i32 @twice(i32 %b)
  %d = call i32 @twice(i32 %c)
  ret i32 %d
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
