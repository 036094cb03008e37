; A discardable group too large to copy (cost above dup-cost) stays in its owner only.
; Other shards that call it import it when it is small enough to inline (without the
; comdat: an import is no definition for the linker) or declare it; the owner turns
; linkonce_odr into weak_odr so that its own opt -O2 does not drop it once unused there.
; A group nobody else calls keeps its linkonce_odr linkage. By default (odr-copies) a
; group that the other shards import rather than declare (@mid) is copied linkonce_odr
; into them instead and stays linkonce_odr in its owner (test/split/odr-copies.ll); with
; no-odr-copies it is imported and kept weak_odr.
; RUN: rm -rf %t && mkdir %t
; RUN: %opt-shard -passes='shard-partition<shards=3;place=graph>,print<shard-plan>,shard-split<dir=%t>' \
; RUN:   -disable-output %s 2>&1 | FileCheck --check-prefix=PLAN %s
; RUN: llvm-dis %t/shard.0.bc -o - | FileCheck --check-prefix=S0 %s
; RUN: llvm-dis %t/shard.1.bc -o - | FileCheck --check-prefix=S1 %s
; RUN: llvm-dis %t/shard.2.bc -o - | FileCheck --check-prefix=S2 %s
; RUN: opt -passes=verify -disable-output %t/shard.0.bc
; RUN: opt -passes=verify -disable-output %t/shard.1.bc
; RUN: opt -passes=verify -disable-output %t/shard.2.bc
; RUN: rm -rf %t.off && mkdir %t.off
; RUN: %opt-shard -passes='shard-partition<shards=3;place=graph>,shard-split<dir=%t.off;no-odr-copies>' -disable-output %s
; RUN: llvm-dis %t.off/shard.1.bc -o - | FileCheck --check-prefix=OFF1 %s
; RUN: llvm-dis %t.off/shard.2.bc -o - | FileCheck --check-prefix=OFF2 %s
; RUN: opt -passes=verify -disable-output %t.off/shard.1.bc
; RUN: opt -passes=verify -disable-output %t.off/shard.2.bc

; PLAN:      shard 0: cost=1000 functions=1 globals=1
; PLAN-NEXT:   @big function cost=1000 comdat=big global
; PLAN-NEXT: shard 1: cost=1000 functions=2 globals=2
; PLAN-NEXT:   @mid function cost=100 comdat=mid global
; PLAN-NEXT:   @u1 function cost=900 global
; PLAN-NEXT: shard 2: cost=1000 functions=2 globals=2
; PLAN-NEXT:   @alone function cost=100 comdat=alone global
; PLAN-NEXT:   @u2 function cost=900 global

; S0: $big = comdat any
; S0: define weak_odr void @big() comdat {

; The small group @mid is copied where @u2 calls it, linkonce_odr in its owner too.
; S1: declare void @big()
; S1: define linkonce_odr void @mid() comdat {
; S1: define void @u1() {
; S2: declare void @big()
; S2: define linkonce_odr void @mid() comdat {
; S2: define linkonce_odr void @alone() comdat {
; S2: define void @u2() {

; With no-odr-copies it is imported there, kept weak_odr in its owner.
; OFF1: declare void @big()
; OFF1: define weak_odr void @mid() comdat {
; OFF1: define void @u1() {
; OFF2: declare void @big()
; OFF2: define available_externally void @mid() {
; OFF2: define linkonce_odr void @alone() comdat {
; OFF2: define void @u2() {

$big = comdat any
$mid = comdat any
$alone = comdat any
define linkonce_odr void @big() comdat !shard.cost !{i64 1000} { ret void }
define linkonce_odr void @mid() comdat !shard.cost !{i64 100} { ret void }
define linkonce_odr void @alone() comdat !shard.cost !{i64 100} { ret void }
define void @u1() !shard.cost !{i64 900} {
  call void @big()
  call void @mid()
  ret void
}
define void @u2() !shard.cost !{i64 900} {
  call void @big()
  call void @mid()
  call void @alone()
  ret void
}
