; Aliases and ifuncs in shard-partition and shard-split: an alias is assigned with its
; aliasee (also an alias of an alias), an ifunc with its resolver; in every other
; shard they become plain declarations: an alias of a function a function declaration
; with the alias's visibility, an alias of a variable an external variable, and an
; ifunc a function declaration (no ifunc is left without its resolver). Every shard
; passes the verifier.
;
; Every group costs 100 and there are as many groups as shards, so shard K holds the
; K-th group in name order: impl, resolver (+ @ifn), tgt (+ @alias.fn, @alias.alias),
; tgt.var (+ @alias.var), user1, user2. Functions are noinline: nothing is imported.
; (@user1 calls @ifn twice, so only the grouping, not its references, puts @ifn with
; its resolver.)
;
; RUN: rm -rf %t && mkdir %t
; RUN: %opt-shard -passes='shard-partition<shards=6;place=graph>,print<shard-plan>,shard-split<dir=%t>' \
; RUN:   -disable-output %s 2>&1 | FileCheck --check-prefix=PLAN %s
; RUN: llvm-dis %t/shard.0.bc -o - | FileCheck --check-prefix=S0 --implicit-check-not=define --implicit-check-not=declare --implicit-check-not=' alias ' --implicit-check-not=' ifunc ' %s
; RUN: llvm-dis %t/shard.1.bc -o - | FileCheck --check-prefix=S1 --implicit-check-not=define --implicit-check-not=declare --implicit-check-not=' alias ' %s
; RUN: llvm-dis %t/shard.2.bc -o - | FileCheck --check-prefix=S2 --implicit-check-not=define --implicit-check-not=declare --implicit-check-not=' ifunc ' %s
; RUN: llvm-dis %t/shard.3.bc -o - | FileCheck --check-prefix=S3 --implicit-check-not=define --implicit-check-not=declare --implicit-check-not=' ifunc ' %s
; RUN: llvm-dis %t/shard.4.bc -o - | FileCheck --check-prefix=S4 --implicit-check-not=define --implicit-check-not=declare --implicit-check-not=' alias ' --implicit-check-not=' ifunc ' %s
; RUN: llvm-dis %t/shard.5.bc -o - | FileCheck --check-prefix=S5 --implicit-check-not=define --implicit-check-not=declare --implicit-check-not=' alias ' --implicit-check-not=' ifunc ' %s
; RUN: opt -passes=verify -disable-output %t/shard.0.bc
; RUN: opt -passes=verify -disable-output %t/shard.1.bc
; RUN: opt -passes=verify -disable-output %t/shard.2.bc
; RUN: opt -passes=verify -disable-output %t/shard.3.bc
; RUN: opt -passes=verify -disable-output %t/shard.4.bc
; RUN: opt -passes=verify -disable-output %t/shard.5.bc
; RUN: FileCheck --check-prefix=MAN %s < %t/manifest

; PLAN:      shard 0: cost=100 functions=1 globals=1
; PLAN-NEXT:   @impl function cost=100 global
; PLAN-NEXT: shard 1: cost=100 functions=1 globals=2
; PLAN-NEXT:   @resolver function cost=100 local
; PLAN-NEXT:   @ifn ifunc global
; PLAN-NEXT: shard 2: cost=100 functions=1 globals=3
; PLAN-NEXT:   @tgt function cost=100 global
; PLAN-NEXT:   @alias.fn alias global
; PLAN-NEXT:   @alias.alias alias global
; PLAN-NEXT: shard 3: cost=100 functions=0 globals=2
; PLAN-NEXT:   @tgt.var variable global
; PLAN-NEXT:   @alias.var alias global
; PLAN-NEXT: shard 4: cost=100 functions=1 globals=1
; PLAN-NEXT:   @user1 function cost=100 global
; PLAN-NEXT: shard 5: cost=100 functions=1 globals=1
; PLAN-NEXT:   @user2 function cost=100 global

; S0: define void @impl() #0 {

; The ifunc and its resolver stay together; the resolver is not promoted.
; S1:      @ifn = ifunc void (), ptr @resolver
; S1:      declare void @impl() #0
; S1:      define internal ptr @resolver() #0 {

; The alias chain stays with its aliasee.
; S2:      @alias.fn = hidden alias void (), ptr @tgt
; S2-NEXT: @alias.alias = alias void (), ptr @alias.fn
; S2:      define void @tgt() #0 {

; S3:      @tgt.var = global [25344 x i8] zeroinitializer
; S3:      @alias.var = alias [25344 x i8], ptr @tgt.var

; S4:      @alias.var = external global [25344 x i8]
; S4:      define void @user1() #0 {
; S4-NEXT:   call void @alias.fn()
; S4-NEXT:   call void @alias.alias()
; S4-NEXT:   call void @ifn()
; S4-NEXT:   call void @ifn()
; S4:      declare hidden void @alias.fn()
; S4:      declare void @alias.alias()
; S4:      declare void @ifn()

; S5:      define void @user2() #0 {
; S5:      declare void @ifn()

; Nothing local crosses a shard: nothing is promoted.
; MAN-NOT: promoted

define void @impl() #0 !shard.cost !{i64 100} { ret void }
define internal ptr @resolver() #0 !shard.cost !{i64 100} { ret ptr @impl }
define void @tgt() #0 !shard.cost !{i64 100} { ret void }

define void @user1() #0 !shard.cost !{i64 100} {
  call void @alias.fn()
  call void @alias.alias()
  call void @ifn()
  call void @ifn()
  %v = load i8, ptr @alias.var
  ret void
}
define void @user2() #0 !shard.cost !{i64 100} {
  call void @ifn()
  ret void
}

; 1 + 25344 / 256 = 100
@tgt.var = global [25344 x i8] zeroinitializer

@alias.fn = hidden alias void (), ptr @tgt
@alias.alias = alias void (), ptr @alias.fn
@alias.var = alias [25344 x i8], ptr @tgt.var
@ifn = ifunc void (), ptr @resolver

attributes #0 = { noinline }
