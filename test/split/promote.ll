; Promotion of locals by shard-split: an internal function, an internal constant, a
; private constant and an unnamed internal variable used from another shard become
; `hidden` external definitions named NAME.shard.<16 hex digits> (the same suffix for
; all; "__shard.anon.0" for the unnamed one) in the owning shard, and `hidden`
; declarations under that name in the users' shards. The manifest lists each one as
; `promoted NEW OLD`, OLD "-" for private and unnamed ones (their names never reach the
; symbol table). A local named in llvm.used keeps its name when promoted (OLD "-"). A
; local used only inside its own shard is not promoted and keeps its name and linkage.
;
; Groups of cost 100 (variables: 1 + 25344 / 256) take one shard each in name order:
; @0 (unnamed sorts first), a, const, helper, kept, priv; @solo and @solo_user (50 each)
; share shard 6. Functions are noinline and constants larger than 4 KiB, so no shard
; copies or imports any of them.
;
; RUN: rm -rf %t && mkdir %t
; RUN: %opt-shard -passes='shard-partition<shards=7;place=graph>,print<shard-plan>,shard-split<dir=%t>' \
; RUN:   -disable-output %s 2>&1 | FileCheck --check-prefix=PLAN %s
; RUN: llvm-dis %t/shard.0.bc -o - | FileCheck --check-prefix=S0 --implicit-check-not=define --implicit-check-not=declare %s
; RUN: llvm-dis %t/shard.1.bc -o - | FileCheck --check-prefix=S1 --implicit-check-not=define --implicit-check-not=declare %s
; RUN: llvm-dis %t/shard.2.bc -o - | FileCheck --check-prefix=S2 --implicit-check-not=define --implicit-check-not=declare %s
; RUN: llvm-dis %t/shard.3.bc -o - | FileCheck --check-prefix=S3 --implicit-check-not=define --implicit-check-not=declare %s
; RUN: llvm-dis %t/shard.4.bc -o - | FileCheck --check-prefix=S4 --implicit-check-not=define --implicit-check-not=declare %s
; RUN: llvm-dis %t/shard.5.bc -o - | FileCheck --check-prefix=S5 --implicit-check-not=define --implicit-check-not=declare %s
; RUN: llvm-dis %t/shard.6.bc -o - | FileCheck --check-prefix=S6 --implicit-check-not=define --implicit-check-not=declare --implicit-check-not=.shard. %s
; RUN: opt -passes=verify -disable-output %t/shard.0.bc
; RUN: opt -passes=verify -disable-output %t/shard.1.bc
; RUN: opt -passes=verify -disable-output %t/shard.2.bc
; RUN: opt -passes=verify -disable-output %t/shard.3.bc
; RUN: opt -passes=verify -disable-output %t/shard.4.bc
; RUN: opt -passes=verify -disable-output %t/shard.5.bc
; RUN: opt -passes=verify -disable-output %t/shard.6.bc
; RUN: FileCheck --check-prefix=MAN %s < %t/manifest

; PLAN:      shard 0: cost=100 functions=0 globals=1
; PLAN-NEXT:   @<4> variable local
; PLAN-NEXT: shard 1: cost=100 functions=1 globals=1
; PLAN-NEXT:   @a function cost=100 global
; PLAN-NEXT: shard 2: cost=100 functions=0 globals=1
; PLAN-NEXT:   @const variable local
; PLAN-NEXT: shard 3: cost=100 functions=1 globals=1
; PLAN-NEXT:   @helper function cost=100 local
; PLAN-NEXT: shard 4: cost=100 functions=0 globals=1
; PLAN-NEXT:   @kept variable local
; PLAN-NEXT: shard 5: cost=100 functions=0 globals=1
; PLAN-NEXT:   @priv variable local
; PLAN-NEXT: shard 6: cost=100 functions=2 globals=2
; PLAN-NEXT:   @solo function cost=50 local
; PLAN-NEXT:   @solo_user function cost=50 global

; S0:     @[[ANON:__shard\.anon\.0\.shard\.[0-9a-f]{16}]] = hidden global [25344 x i8] zeroinitializer
; S0-NOT: llvm.used

; The user declares them all, hidden, under the new names; @kept keeps its own.
; S1-DAG: @[[CONST:const\.shard\.[0-9a-f]{16}]] = external hidden constant [25344 x i8]
; S1-DAG: @[[PRIV:priv\.a\.shard\.[0-9a-f]{16}]] = external hidden constant [25344 x i8]
; S1-DAG: @kept = external hidden global [25344 x i8]
; S1-DAG: @[[ANON:__shard\.anon\.0\.shard\.[0-9a-f]{16}]] = external hidden global [25344 x i8]
; S1:     define ptr @a() #0 {
; S1-NEXT:  %c = load i8, ptr @[[CONST]]
; S1-NEXT:  %r = call i8 @[[HELPER:helper\.shard\.[0-9a-f]{16}]](i8 %c)
; S1-NEXT:  store i8 %r, ptr @kept
; S1-NEXT:  store i8 %r, ptr @[[ANON]]
; S1-NEXT:  ret ptr @[[PRIV]]
; S1:     declare hidden i8 @[[HELPER]](i8) #0
; S1-NOT: llvm.used

; S2:     @[[CONST:const\.shard\.[0-9a-f]{16}]] = hidden constant [25344 x i8] zeroinitializer
; S3:     define hidden i8 @[[HELPER:helper\.shard\.[0-9a-f]{16}]](i8 %x) #0 {

; llvm.used goes with @kept, under its kept name.
; S4:     @kept = hidden global [25344 x i8] zeroinitializer
; S4:     @llvm.used = appending global [1 x ptr] [ptr @kept], section "llvm.metadata"

; S5:     @[[PRIV:priv\.a\.shard\.[0-9a-f]{16}]] = hidden constant [25344 x i8] zeroinitializer

; Used only in its own shard: still internal, same name.
; S6:     define internal void @solo() #0 {
; S6:     define void @solo_user() #0 {
; S6-NEXT:  call void @solo()

; One suffix for the translation unit; nothing else is promoted.
; MAN:      promoted helper[[SUF:\.shard\.[0-9a-f]{16}]] helper{{$}}
; MAN-NEXT: promoted __shard.anon.0[[SUF]] -{{$}}
; MAN-NEXT: promoted const[[SUF]] const{{$}}
; MAN-NEXT: promoted kept -{{$}}
; MAN-NEXT: promoted priv.a[[SUF]] -{{$}}
; MAN-NOT:  promoted

@0 = internal global [25344 x i8] zeroinitializer
@const = internal constant [25344 x i8] zeroinitializer
@kept = internal global [25344 x i8] zeroinitializer
@priv = private constant [25344 x i8] zeroinitializer
@llvm.used = appending global [1 x ptr] [ptr @kept], section "llvm.metadata"

define ptr @a() #0 !shard.cost !{i64 100} {
  %c = load i8, ptr @const
  %r = call i8 @helper(i8 %c)
  store i8 %r, ptr @kept
  store i8 %r, ptr @0
  ret ptr @priv
}

define internal i8 @helper(i8 %x) #0 !shard.cost !{i64 100} {
  ret i8 %x
}

define internal void @solo() #0 !shard.cost !{i64 50} { ret void }
define void @solo_user() #0 !shard.cost !{i64 50} {
  call void @solo()
  ret void
}

attributes #0 = { noinline }
