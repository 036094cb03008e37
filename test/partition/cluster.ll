; shard-partition clusters: a local whose referrers all sit in one group joins that group
; (a static helper goes with its only caller, transitively, and an internal variable with
; the only code that uses it), within a bound (cluster-cap.ll). A local
; with referrers in two groups (@shared) stays on its own and goes where it shares the most
; references (a tie here: the lighter shard). The plan reports the weight of cut references.
; RUN: %opt-shard -passes='shard-partition<shards=2;place=graph>,print<shard-plan>' -disable-output %s 2>&1 | FileCheck %s

; CHECK: shard-plan: shards=2 total-cost=7853 max-cost=3950 imbalance=1.01 cut=1
; CHECK-NEXT: shard 0: cost=3950 functions=3 globals=3
; CHECK-NEXT:   @b.helper function cost=50 local
; CHECK-NEXT:   @b function cost=900 global
; CHECK-NEXT:   @f1 function cost=3000 global
; CHECK-NEXT: shard 1: cost=3903 functions=5 globals=6
; CHECK-NEXT:   @shared function cost=2 local
; CHECK-NEXT:   @a.leaf function cost=100 local
; CHECK-NEXT:   @a.helper function cost=200 local
; CHECK-NEXT:   @a function cost=600 global
; CHECK-NEXT:   @f2 function cost=3000 global
; CHECK-NEXT:   @a.state variable local

@a.state = internal global i32 0

define internal i32 @shared(i32 %x) !shard.cost !{i64 2} {
  ret i32 %x
}
define internal i32 @a.leaf(i32 %x) !shard.cost !{i64 100} {
  %s = load i32, ptr @a.state
  %r = add i32 %s, %x
  ret i32 %r
}
define internal i32 @a.helper(i32 %x) !shard.cost !{i64 200} {
  %r = call i32 @a.leaf(i32 %x)
  ret i32 %r
}
define i32 @a(i32 %x) !shard.cost !{i64 600} {
  %r = call i32 @a.helper(i32 %x)
  %s = call i32 @shared(i32 %r)
  ret i32 %s
}
define internal i32 @b.helper(i32 %x) !shard.cost !{i64 50} {
  ret i32 %x
}
define i32 @b(i32 %x) !shard.cost !{i64 900} {
  %r = call i32 @b.helper(i32 %x)
  %s = call i32 @shared(i32 %r)
  ret i32 %s
}
define i32 @f1() !shard.cost !{i64 3000} {
  ret i32 0
}
define i32 @f2() !shard.cost !{i64 3000} {
  ret i32 0
}
