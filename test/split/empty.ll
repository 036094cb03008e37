; Degenerate inputs to shard-partition and shard-split: an empty module, a module of
; declarations only, and 8 shards for 2 functions. Every shard file is written and is a
; valid (possibly empty) module, the manifest lists all shards, empty ones with cost 0
; and 0 functions, and nothing is promoted; shards=0 gives one shard for no code.
;
; RUN: rm -rf %t && split-file %s %t && mkdir %t/e %t/d %t/t %t/a
;
; RUN: %opt-shard -passes='shard-partition<shards=2;place=graph>,print<shard-plan>,shard-split<dir=%t/e>' \
; RUN:   -disable-output %t/empty.ll 2>&1 | FileCheck --check-prefix=PLAN2 %s
; RUN: FileCheck --check-prefix=MAN2 %s < %t/e/manifest
; RUN: llvm-dis %t/e/shard.0.bc -o - | FileCheck --check-prefix=NOTHING %s
; RUN: llvm-dis %t/e/shard.1.bc -o - | FileCheck --check-prefix=NOTHING %s
; RUN: opt -passes=verify -disable-output %t/e/shard.0.bc
; RUN: opt -passes=verify -disable-output %t/e/shard.1.bc
; RUN: not ls %t/e/shard.2.bc
;
; RUN: %opt-shard -passes='shard-partition<shards=2;place=graph>,print<shard-plan>,shard-split<dir=%t/d>' \
; RUN:   -disable-output %t/decls.ll 2>&1 | FileCheck --check-prefix=PLAN2 %s
; RUN: FileCheck --check-prefix=MAN2 %s < %t/d/manifest
; RUN: llvm-dis %t/d/shard.0.bc -o - | FileCheck --check-prefix=NOTHING %s
; RUN: llvm-dis %t/d/shard.1.bc -o - | FileCheck --check-prefix=NOTHING %s
; RUN: opt -passes=verify -disable-output %t/d/shard.0.bc
; RUN: opt -passes=verify -disable-output %t/d/shard.1.bc
;
; RUN: %opt-shard -passes='shard-partition<shards=0;place=graph>,print<shard-plan>,shard-split<dir=%t/a>' \
; RUN:   -disable-output %t/empty.ll 2>&1 | FileCheck --check-prefix=AUTO %s
; RUN: FileCheck --check-prefix=MANAUTO %s < %t/a/manifest
; RUN: opt -passes=verify -disable-output %t/a/shard.0.bc
; RUN: not ls %t/a/shard.1.bc
;
; RUN: %opt-shard -passes='shard-partition<shards=8;place=graph>,print<shard-plan>,shard-split<dir=%t/t>' \
; RUN:   -disable-output %t/two.ll 2>&1 | FileCheck --check-prefix=PLAN8 %s
; RUN: FileCheck --check-prefix=MAN8 %s < %t/t/manifest
; RUN: llvm-dis %t/t/shard.0.bc -o - | FileCheck --check-prefix=T0 %s
; RUN: llvm-dis %t/t/shard.1.bc -o - | FileCheck --check-prefix=T1 %s
; RUN: llvm-dis %t/t/shard.2.bc -o - | FileCheck --check-prefix=NOTHING %s
; RUN: llvm-dis %t/t/shard.7.bc -o - | FileCheck --check-prefix=NOTHING %s
; RUN: opt -passes=verify -disable-output %t/t/shard.0.bc
; RUN: opt -passes=verify -disable-output %t/t/shard.1.bc
; RUN: opt -passes=verify -disable-output %t/t/shard.2.bc
; RUN: opt -passes=verify -disable-output %t/t/shard.3.bc
; RUN: opt -passes=verify -disable-output %t/t/shard.4.bc
; RUN: opt -passes=verify -disable-output %t/t/shard.5.bc
; RUN: opt -passes=verify -disable-output %t/t/shard.6.bc
; RUN: opt -passes=verify -disable-output %t/t/shard.7.bc
; RUN: not ls %t/t/shard.8.bc

; PLAN2:      shard-plan: shards=2 total-cost=0 max-cost=0 imbalance=1.00
; PLAN2-NEXT: shard 0: cost=0 functions=0 globals=0
; PLAN2-NEXT: shard 1: cost=0 functions=0 globals=0
; PLAN2-NOT:  {{.}}

; MAN2:      shard-manifest 1
; MAN2-NEXT: shards 2
; MAN2-NEXT: reloc static
; MAN2-NEXT: shard 0 cost 0 functions 0
; MAN2-NEXT: shard 1 cost 0 functions 0
; MAN2-NOT:  {{.}}

; AUTO:      shard-plan: shards=1 total-cost=0
; MANAUTO:   shards 1
; MANAUTO:   shard 0 cost 0 functions 0
; MANAUTO-NOT: shard 1

; No definitions, declarations or globals at all.
; NOTHING:     source_filename =
; NOTHING-NOT: {{define|declare|@}}

; PLAN8:      shard-plan: shards=8 total-cost=150 max-cost=100
; PLAN8-NEXT: shard 0: cost=100 functions=1 globals=1
; PLAN8-NEXT:   @a function cost=100 global
; PLAN8-NEXT: shard 1: cost=50 functions=1 globals=1
; PLAN8-NEXT:   @b function cost=50 global
; PLAN8-NEXT: shard 2: cost=0 functions=0 globals=0
; PLAN8-NEXT: shard 3: cost=0 functions=0 globals=0
; PLAN8-NEXT: shard 4: cost=0 functions=0 globals=0
; PLAN8-NEXT: shard 5: cost=0 functions=0 globals=0
; PLAN8-NEXT: shard 6: cost=0 functions=0 globals=0
; PLAN8-NEXT: shard 7: cost=0 functions=0 globals=0
; PLAN8-NOT:  {{.}}

; MAN8:      shards 8
; MAN8:      shard 0 cost 100 functions 1
; MAN8-NEXT: shard 1 cost 50 functions 1
; MAN8-NEXT: shard 2 cost 0 functions 0
; MAN8-NEXT: shard 3 cost 0 functions 0
; MAN8-NEXT: shard 4 cost 0 functions 0
; MAN8-NEXT: shard 5 cost 0 functions 0
; MAN8-NEXT: shard 6 cost 0 functions 0
; MAN8-NEXT: shard 7 cost 0 functions 0
; MAN8-NOT:  {{.}}

; T0: define void @a() #0 {
; T1: declare void @a() #0
; T1: define void @b() #0 {

;--- empty.ll
;--- decls.ll
@g = external global i32
declare void @x()
;--- two.ll
define void @a() #0 !shard.cost !{i64 100} { ret void }
define void @b() #0 !shard.cost !{i64 50} {
  call void @a()
  ret void
}
attributes #0 = { noinline }
