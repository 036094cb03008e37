; Comdat groups in shard-partition and shard-split: the members of one comdat are
; assigned to one shard together; a linkonce_odr comdat function called from two shards
; is copied, with its comdat, into both (and stays defined in its owner); a weak_odr
; comdat function is defined in its owner only and declared where it is called; a
; linkonce_odr function without a comdat is copied into its callers' shards too (its
; owner's opt -O2 may drop it, as nothing there calls it).
;
; Every group below costs 100 and there are as many groups as shards, so shard K holds
; the K-th group in name order: grp, lo, lo_nc, u1, u2, wo. Were the comdat members not
; kept together, the costs (49, 50, 1) would scatter them and the shards would differ.
; Functions are noinline so that no shard imports a body to inline. dup-cost=1000 lets
; these groups be copied (by default only groups costing at most 60 are: see
; comdat-keepalive.ll for larger ones).
;
; RUN: rm -rf %t && mkdir %t
; RUN: %opt-shard -passes='shard-partition<shards=6;place=graph>,print<shard-plan>,shard-split<dir=%t;dup-cost=1000>' \
; RUN:   -disable-output %s 2>&1 | FileCheck --check-prefix=PLAN %s
; Each shard's definitions and declarations are listed exactly (no other define or
; declare may appear).
; RUN: llvm-dis %t/shard.0.bc -o - | FileCheck --check-prefix=S0 --implicit-check-not=define --implicit-check-not=declare %s
; RUN: llvm-dis %t/shard.1.bc -o - | FileCheck --check-prefix=S1 --implicit-check-not=define --implicit-check-not=declare %s
; RUN: llvm-dis %t/shard.2.bc -o - | FileCheck --check-prefix=S2 --implicit-check-not=define --implicit-check-not=declare %s
; RUN: llvm-dis %t/shard.3.bc -o - | FileCheck --check-prefixes=USER,S3 --implicit-check-not=define --implicit-check-not=declare --implicit-check-not='$wo' %s
; RUN: llvm-dis %t/shard.4.bc -o - | FileCheck --check-prefixes=USER,S4 --implicit-check-not=define --implicit-check-not=declare --implicit-check-not='$wo' %s
; RUN: llvm-dis %t/shard.5.bc -o - | FileCheck --check-prefix=S5 --implicit-check-not=define --implicit-check-not=declare %s
; RUN: opt -passes=verify -disable-output %t/shard.0.bc
; RUN: opt -passes=verify -disable-output %t/shard.1.bc
; RUN: opt -passes=verify -disable-output %t/shard.2.bc
; RUN: opt -passes=verify -disable-output %t/shard.3.bc
; RUN: opt -passes=verify -disable-output %t/shard.4.bc
; RUN: opt -passes=verify -disable-output %t/shard.5.bc
; RUN: FileCheck --check-prefix=MAN %s < %t/manifest

; PLAN:      shard 0: cost=100 functions=2 globals=3
; PLAN-NEXT:   @grp function cost=49 comdat=grp global
; PLAN-NEXT:   @grp.m1 function cost=50 comdat=grp global
; PLAN-NEXT:   @grp.data variable comdat=grp global
; PLAN-NEXT: shard 1: cost=100 functions=1 globals=1
; PLAN-NEXT:   @lo function cost=100 comdat=lo global
; PLAN-NEXT: shard 2: cost=100 functions=1 globals=1
; PLAN-NEXT:   @lo_nc function cost=100 global
; PLAN-NEXT: shard 3: cost=100 functions=1 globals=1
; PLAN-NEXT:   @u1 function
; PLAN-NEXT: shard 4: cost=100 functions=1 globals=1
; PLAN-NEXT:   @u2 function
; PLAN-NEXT: shard 5: cost=100 functions=1 globals=1
; PLAN-NEXT:   @wo function cost=100 comdat=wo global

; The whole group in shard 0.
; S0:      $grp = comdat any
; S0-NOT:  $lo
; S0:      @grp.data = global i32 1, comdat($grp)
; S0:      define void @grp() #0 comdat {
; S0:      define void @grp.m1() #0 comdat($grp) {

; S1: $lo = comdat any
; S1: define linkonce_odr void @lo() #0 comdat {
; S2: define linkonce_odr void @lo_nc() #0 {

; Both callers hold their own copy of @lo, with its comdat, and of @lo_nc; @wo is only
; declared (a declaration has no comdat, and $wo does not appear).
; USER:      $lo = comdat any
; USER:      define linkonce_odr void @lo() #0 comdat {
; USER:      define linkonce_odr void @lo_nc() #0 {
; USER:      declare void @wo() #0{{$}}
; S3:        define void @u1() #0 {
; S4:        define void @u2() #0 {

; S5: $wo = comdat any
; S5: define weak_odr void @wo() #0 comdat {

; Copies do not count as the shard's functions (the predicted cost may count them).
; MAN:      shard 0 cost 100 functions 2
; MAN-NEXT: shard 1 cost 100 functions 1
; MAN-NEXT: shard 2 cost 100 functions 1
; MAN-NEXT: shard 3 cost {{[0-9]+}} functions 1
; MAN-NEXT: shard 4 cost {{[0-9]+}} functions 1
; MAN-NEXT: shard 5 cost 100 functions 1
; MAN-NOT: promoted

$grp = comdat any
$lo = comdat any
$wo = comdat any

define void @grp() #0 comdat !shard.cost !{i64 49} { ret void }
define void @grp.m1() #0 comdat($grp) !shard.cost !{i64 50} { ret void }
@grp.data = global i32 1, comdat($grp)

define linkonce_odr void @lo() #0 comdat !shard.cost !{i64 100} { ret void }
define linkonce_odr void @lo_nc() #0 !shard.cost !{i64 100} { ret void }
define weak_odr void @wo() #0 comdat !shard.cost !{i64 100} { ret void }

define void @u1() #0 !shard.cost !{i64 100} {
  call void @lo()
  call void @lo_nc()
  call void @wo()
  ret void
}
define void @u2() #0 !shard.cost !{i64 100} {
  call void @lo()
  call void @lo_nc()
  call void @wo()
  ret void
}

attributes #0 = { noinline }
