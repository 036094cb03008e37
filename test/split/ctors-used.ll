; The per-shard arrays in shard-split: every llvm.global_ctors / llvm.global_dtors
; entry is kept exactly once, in the shard that owns its function (also for an unnamed
; function), and an entry whose function is only declared is kept in the asm shard;
; an entry keyed to a comdat is kept with every copy of that group (the linker keeps
; one group, and the entry with it). llvm.used and llvm.compiler.used keep in each
; shard only the entries it defines. Shards without entries have no such arrays, and
; no shard keeps a declaration that only a dropped entry named.
;
; Groups of cost 100 take one shard each in name order: cused, fini, init_a, init_b,
; the $guard group (sorts as its function init_c), r1, r2, used_a; the unnamed ctor @0
; and @zfill (50 each) share the last shard. With no module asm, the asm shard is 0.
; (The unnamed ctor's entry must follow it to shard 8, not stay in the asm shard.)
;
; RUN: rm -rf %t && mkdir %t
; RUN: %opt-shard -passes='shard-partition<shards=9;place=graph>,print<shard-plan>,shard-split<dir=%t;dup-cost=1000>' \
; RUN:   -disable-output %s 2>&1 | FileCheck --check-prefix=PLAN %s
; RUN: llvm-dis %t/shard.0.bc -o - | FileCheck --check-prefix=S0 --implicit-check-not=llvm. --implicit-check-not=external %s
; RUN: llvm-dis %t/shard.1.bc -o - | FileCheck --check-prefix=S1 --implicit-check-not=llvm. --implicit-check-not=declare --implicit-check-not=external %s
; RUN: llvm-dis %t/shard.2.bc -o - | FileCheck --check-prefix=S2 --implicit-check-not=llvm. --implicit-check-not=declare --implicit-check-not=external %s
; RUN: llvm-dis %t/shard.3.bc -o - | FileCheck --check-prefix=S3 --implicit-check-not=llvm. --implicit-check-not=declare --implicit-check-not=external %s
; RUN: llvm-dis %t/shard.4.bc -o - | FileCheck --check-prefix=KEYED --implicit-check-not=llvm. --implicit-check-not=declare --implicit-check-not=external %s
; RUN: llvm-dis %t/shard.5.bc -o - | FileCheck --check-prefix=KEYED --implicit-check-not=llvm. --implicit-check-not=declare --implicit-check-not=external %s
; RUN: llvm-dis %t/shard.6.bc -o - | FileCheck --check-prefix=KEYED --implicit-check-not=llvm. --implicit-check-not=declare --implicit-check-not=external %s
; RUN: llvm-dis %t/shard.7.bc -o - | FileCheck --check-prefix=S7 --implicit-check-not=llvm. --implicit-check-not=declare --implicit-check-not=external %s
; RUN: llvm-dis %t/shard.8.bc -o - | FileCheck --check-prefix=S8 --implicit-check-not=llvm. --implicit-check-not=declare --implicit-check-not=external %s
; RUN: opt -passes=verify -disable-output %t/shard.0.bc
; RUN: opt -passes=verify -disable-output %t/shard.1.bc
; RUN: opt -passes=verify -disable-output %t/shard.2.bc
; RUN: opt -passes=verify -disable-output %t/shard.3.bc
; RUN: opt -passes=verify -disable-output %t/shard.4.bc
; RUN: opt -passes=verify -disable-output %t/shard.5.bc
; RUN: opt -passes=verify -disable-output %t/shard.6.bc
; RUN: opt -passes=verify -disable-output %t/shard.7.bc
; RUN: opt -passes=verify -disable-output %t/shard.8.bc

; PLAN:      shard 0: cost=100 functions=0 globals=1
; PLAN-NEXT:   @cused variable local
; PLAN-NEXT: shard 1: cost=100 functions=1 globals=1
; PLAN-NEXT:   @fini function cost=100 local
; PLAN-NEXT: shard 2: cost=100 functions=1 globals=1
; PLAN-NEXT:   @init_a function cost=100 local
; PLAN-NEXT: shard 3: cost=100 functions=1 globals=1
; PLAN-NEXT:   @init_b function cost=100 local
; PLAN-NEXT: shard 4: cost=100 functions=1 globals=2
; PLAN-NEXT:   @init_c function cost=99 comdat=guard local
; PLAN-NEXT:   @guard variable comdat=guard global
; PLAN-NEXT: shard 5: cost=100 functions=1 globals=1
; PLAN-NEXT:   @r1 function cost=100 global
; PLAN-NEXT: shard 6: cost=100 functions=1 globals=1
; PLAN-NEXT:   @r2 function cost=100 global
; PLAN-NEXT: shard 7: cost=100 functions=0 globals=1
; PLAN-NEXT:   @used_a variable global
; PLAN-NEXT: shard 8: cost=100 functions=2 globals=2
; PLAN-NEXT:   @<4> function cost=50 local
; PLAN-NEXT:   @zfill function cost=50 global

; The entry of the declared ctor stays in the asm shard.
; S0: @llvm.global_ctors = appending global [1 x { i32, ptr, ptr }] [{ i32, ptr, ptr } { i32 65535, ptr @ext_init, ptr null }]
; S0: @llvm.compiler.used = appending global [1 x ptr] [ptr @cused], section "llvm.metadata"
; S0: @cused = internal global
; S0: declare void @ext_init()

; S1: @llvm.global_dtors = appending global [1 x { i32, ptr, ptr }] [{ i32, ptr, ptr } { i32 65535, ptr @fini, ptr null }]

; S2: @llvm.global_ctors = appending global [1 x { i32, ptr, ptr }] [{ i32, ptr, ptr } { i32 65535, ptr @init_a, ptr null }]

; S3: @llvm.global_ctors = appending global [1 x { i32, ptr, ptr }] [{ i32, ptr, ptr } { i32 101, ptr @init_b, ptr null }]
; S3: @llvm.compiler.used = appending global [1 x ptr] [ptr @init_b], section "llvm.metadata"

; The owner of the $guard group and the two shards that copy it for @r1 and @r2.
; KEYED: @llvm.global_ctors = appending global [1 x { i32, ptr, ptr }] [{ i32, ptr, ptr } { i32 65535, ptr @init_c, ptr @guard }]
; KEYED: @guard = linkonce_odr global i32 0, comdat
; KEYED: define internal void @init_c() #0 comdat($guard) {

; S7: @llvm.used = appending global [1 x ptr] [ptr @used_a], section "llvm.metadata"
; S7: @used_a = global

; The unnamed ctor's entry goes with its function.
; S8: @llvm.global_ctors = appending global [1 x { i32, ptr, ptr }] [{ i32, ptr, ptr } { i32 65535, ptr @0, ptr null }]
; S8: define internal void @0() #0 {

$guard = comdat any

@llvm.global_ctors = appending global [5 x { i32, ptr, ptr }] [
  { i32, ptr, ptr } { i32 65535, ptr @init_a, ptr null },
  { i32, ptr, ptr } { i32 101, ptr @init_b, ptr null },
  { i32, ptr, ptr } { i32 65535, ptr @0, ptr null },
  { i32, ptr, ptr } { i32 65535, ptr @init_c, ptr @guard },
  { i32, ptr, ptr } { i32 65535, ptr @ext_init, ptr null }]
@llvm.global_dtors = appending global [1 x { i32, ptr, ptr }] [
  { i32, ptr, ptr } { i32 65535, ptr @fini, ptr null }]
@llvm.used = appending global [1 x ptr] [ptr @used_a], section "llvm.metadata"
@llvm.compiler.used = appending global [2 x ptr] [ptr @cused, ptr @init_b], section "llvm.metadata"

@used_a = global [25344 x i8] zeroinitializer
@cused = internal global [25344 x i8] zeroinitializer
@guard = linkonce_odr global i32 0, comdat

declare void @ext_init()

define internal void @init_a() #0 !shard.cost !{i64 100} { ret void }
define internal void @init_b() #0 !shard.cost !{i64 100} { ret void }
define internal void @fini() #0 !shard.cost !{i64 100} { ret void }
define internal void @0() #0 !shard.cost !{i64 50} { ret void }
define void @zfill() #0 !shard.cost !{i64 50} { ret void }
define internal void @init_c() #0 comdat($guard) !shard.cost !{i64 99} {
  store i32 1, ptr @guard
  ret void
}
define i32 @r1() #0 !shard.cost !{i64 100} {
  %v = load i32, ptr @guard
  ret i32 %v
}
define i32 @r2() #0 !shard.cost !{i64 100} {
  %v = load i32, ptr @guard
  ret i32 %v
}

attributes #0 = { noinline }
