; An inline function (inlinehint: C++'s `inline`, a member defined in its class) small enough
; to import adds no import depth, like a tiny wrapper: the serial inliner takes it into its
; caller, and then sees what it calls there. LevelDB's MemTable::KeyComparator calls the inline
; GetVarint32Ptr (fast path), whose slow path GetVarint32PtrFallback, defined in another file,
; serially goes into the comparator too; past import-depth it stayed a call, and db_bench ran
; 2.4% more instructions at 7 shards. Here @a imports @inl (cost 60, inlinehint) and, at the
; same depth 1, @fb (100); @b imports @plain (60, no hint) but only declares its callee @fb2.
; RUN: rm -rf %t && mkdir %t
; RUN: %opt-shard -passes='shard-partition<shards=3;place=graph>,print<shard-plan>,shard-split<dir=%t;chain-cost=0>' \
; RUN:   -disable-output %s 2>&1 | FileCheck --check-prefix=PLAN %s
; RUN: llvm-dis %t/shard.0.bc -o - | FileCheck --check-prefix=S0 --implicit-check-not=define --implicit-check-not=declare %s
; RUN: llvm-dis %t/shard.1.bc -o - | FileCheck --check-prefix=S1 --implicit-check-not=define --implicit-check-not=declare %s
; RUN: opt -passes=verify -disable-output %t/shard.0.bc
; RUN: opt -passes=verify -disable-output %t/shard.1.bc

; PLAN:      shard 0: cost=500 functions=1 globals=1
; PLAN-NEXT:   @a function cost=500 global
; PLAN-NEXT: shard 1: cost=500 functions=1 globals=1
; PLAN-NEXT:   @b function cost=500 global

; S0: define i32 @a(
; S0: define available_externally i32 @inl(
; S0: define available_externally i32 @fb(
; S1: define i32 @b(
; S1: define available_externally i32 @plain(
; S1: declare i32 @fb2(

define i32 @a(i32 %x) !shard.cost !{i64 500} {
  %y = call i32 @inl(i32 %x)
  ret i32 %y
}
define i32 @b(i32 %x) !shard.cost !{i64 500} {
  %y = call i32 @plain(i32 %x)
  ret i32 %y
}
define linkonce_odr i32 @inl(i32 %x) #0 !shard.cost !{i64 60} {
  %y = call i32 @fb(i32 %x)
  ret i32 %y
}
define i32 @plain(i32 %x) !shard.cost !{i64 60} {
  %y = call i32 @fb2(i32 %x)
  ret i32 %y
}
define i32 @fb(i32 %x) !shard.cost !{i64 100} {
  %y = add i32 %x, 1
  ret i32 %y
}
define i32 @fb2(i32 %x) !shard.cost !{i64 100} {
  %y = add i32 %x, 2
  ret i32 %y
}
attributes #0 = { inlinehint }
