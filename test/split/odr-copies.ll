; shard-split (odr-copies, the default): a linkonce_odr comdat group that other shards import is no
; longer made weak_odr in its owner with available_externally imports elsewhere: every
; shard that imports a member defines the whole group linkonce_odr in its comdat, as
; separate C++ translation units do, and each shard's optimiser may drop its copy once
; every call is inlined (the linker keeps one group of those left). Only linkonce_odr:
; a linkonce (not ODR) definition may differ from the one the linker keeps, and is not
; imported at all. A group some shard only declares (@big: too large to import) is still
; kept alive, weak_odr, by its owner. @c imports @g1 and declares @g2 (its callee, one
; import level deeper): the whole group $g1 is copied. With no-odr-copies: weak_odr and
; available_externally, as before.
;
; RUN: rm -rf %t && mkdir %t
; RUN: %opt-shard -passes='shard-partition<shards=3;place=graph>,print<shard-plan>,shard-split<dir=%t>' \
; RUN:   -disable-output %s 2>&1 | FileCheck --check-prefix=PLAN %s
; RUN: llvm-dis %t/shard.0.bc -o - | FileCheck --check-prefix=S0 --implicit-check-not=define --implicit-check-not=declare %s
; RUN: llvm-dis %t/shard.1.bc -o - | FileCheck --check-prefix=S1 --implicit-check-not=define --implicit-check-not=declare %s
; RUN: llvm-dis %t/shard.2.bc -o - | FileCheck --check-prefix=S2 --implicit-check-not=define --implicit-check-not=declare %s
; RUN: opt -passes=verify -disable-output %t/shard.0.bc
; RUN: opt -passes=verify -disable-output %t/shard.1.bc
; RUN: opt -passes=verify -disable-output %t/shard.2.bc
; RUN: FileCheck --check-prefix=MAN --implicit-check-not=promoted %s < %t/manifest
; RUN: rm -rf %t.off && mkdir %t.off
; RUN: %opt-shard -passes='shard-partition<shards=3;place=graph>,shard-split<dir=%t.off;no-odr-copies>' -disable-output %s
; RUN: llvm-dis %t.off/shard.1.bc -o - | FileCheck --check-prefix=OFF1 %s
; RUN: llvm-dis %t.off/shard.2.bc -o - | FileCheck --check-prefix=OFF2 %s
; RUN: FileCheck --check-prefix=OFF-MAN %s < %t.off/manifest
; The output does not depend on the run.
; RUN: rm -rf %t.again && mkdir %t.again
; RUN: %opt-shard -passes='shard-partition<shards=3;place=graph>,shard-split<dir=%t.again;odr-copies>' -disable-output %s
; RUN: cmp %t/shard.1.bc %t.again/shard.1.bc
; RUN: cmp %t/shard.2.bc %t.again/shard.2.bc
; RUN: %opt-shard -passes='shard-split<dir=%t;no-odr-copies>' -print-pipeline-passes -disable-output %s | FileCheck --check-prefix=PIPE %s
; RUN: %opt-shard -passes='shard-split<dir=%t;odr-copies>' -print-pipeline-passes -disable-output %s | FileCheck --check-prefix=PIPE-ON %s
; PIPE: shard-split<dir={{.*}};no-odr-copies>
; PIPE-ON: shard-split<dir={{[^;]*}}>

; PLAN:      shard 0: cost=1000 functions=1 globals=1
; PLAN-NEXT:   @big function cost=1000 comdat=big global
; PLAN-NEXT: shard 1: cost=1800 functions=2 globals=2
; PLAN-NEXT:   @a function cost=900 global
; PLAN-NEXT:   @c function cost=900 global
; PLAN-NEXT: shard 2: cost=1200 functions=5 globals=5
; PLAN-NEXT:   @f function cost=100 comdat=f global
; PLAN-NEXT:   @g1 function cost=50 comdat=g1 global
; PLAN-NEXT:   @g2 function cost=50 comdat=g1 global
; PLAN-NEXT:   @any function cost=100 comdat=any global
; PLAN-NEXT:   @b function cost=900 global

; S0: define weak_odr void @big() comdat {

; S1-DAG: $f = comdat any
; S1-DAG: $g1 = comdat any
; S1: define linkonce_odr i32 @f(i32 %x) comdat {
; S1: define linkonce_odr i32 @g1(i32 %x) comdat {
; S1: define linkonce_odr i32 @g2(i32 %x) comdat($g1) {
; S1: declare void @any()
; S1: declare void @big()
; S1: define i32 @a(i32 %x) {
; S1: define i32 @c(i32 %x) {

; S2: define linkonce_odr i32 @f(i32 %x) comdat {
; S2: define linkonce_odr i32 @g1(i32 %x) comdat {
; S2: define linkonce_odr i32 @g2(i32 %x) comdat($g1) {
; S2: define weak void @any() comdat {
; S2: declare void @big()
; S2: define i32 @b(i32 %x) {

; The copies count their whole cost: shard 1 holds @a and @c (1800) and copies of @f,
; @g1 and @g2 (200); with no-odr-copies, imports of @f and @g1 at three quarters (112).
; MAN: shard 0 cost 1000 functions 1
; MAN: shard 1 cost 2000 functions 2
; MAN: shard 2 cost 1200 functions 5

; OFF1: define available_externally i32 @f(i32 %x) {
; OFF1: define available_externally i32 @g1(i32 %x) {
; OFF1: declare i32 @g2(i32)
; OFF2: define weak_odr i32 @f(i32 %x) comdat {
; OFF2: define weak_odr i32 @g1(i32 %x) comdat {
; OFF2: define weak_odr i32 @g2(i32 %x) comdat($g1) {
; OFF-MAN: shard 1 cost 1912 functions 2

$f = comdat any
$g1 = comdat any
$any = comdat any
$big = comdat any
define linkonce_odr i32 @f(i32 %x) comdat !shard.cost !{i64 100} {
  %y = add i32 %x, 1
  ret i32 %y
}
define linkonce_odr i32 @g1(i32 %x) comdat !shard.cost !{i64 50} {
  %y = call i32 @g2(i32 %x)
  ret i32 %y
}
define linkonce_odr i32 @g2(i32 %x) comdat($g1) !shard.cost !{i64 50} {
  %y = mul i32 %x, 3
  ret i32 %y
}
define linkonce void @any() comdat !shard.cost !{i64 100} { ret void }
define linkonce_odr void @big() comdat !shard.cost !{i64 1000} { ret void }
define i32 @a(i32 %x) !shard.cost !{i64 900} {
  %y = call i32 @f(i32 %x)
  call void @any()
  call void @big()
  ret i32 %y
}
define i32 @b(i32 %x) !shard.cost !{i64 900} {
  %y = call i32 @f(i32 %x)
  %z = call i32 @g1(i32 %y)
  call void @any()
  call void @big()
  ret i32 %z
}
define i32 @c(i32 %x) !shard.cost !{i64 900} {
  %y = call i32 @f(i32 %x)
  %z = call i32 @g1(i32 %y)
  ret i32 %z
}
