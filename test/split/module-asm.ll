; Module-level asm in shard-partition and shard-split: exactly one shard (the plan's
; asm shard) keeps the module asm, the others have none; the globals the asm names
; (@helper_in_asm, the internal @counter) and the users of a local it names (@f3) are
; assigned to that shard, and the local keeps its name (the asm refers to it by name).
;
; Costs: @big 300, the asm group 100 + 100 + 1 = 201, @f1 100 and @f2 101. The largest
; single cost bounds every shard (300), so @big fills shard 0, the asm group takes
; shard 1 (not the default 0), and @f1 and @f2 share shard 2. Were @helper_in_asm not
; kept with the asm, it would fill a different shard than @f3.
;
; RUN: rm -rf %t && mkdir %t
; RUN: %opt-shard -passes='shard-partition<shards=3;place=graph>,print<shard-plan>,shard-split<dir=%t>' \
; RUN:   -disable-output %s 2>&1 | FileCheck --check-prefix=PLAN %s
; RUN: llvm-dis %t/shard.0.bc -o - | FileCheck --check-prefixes=OTHER,S0 --implicit-check-not=define --implicit-check-not=declare %s
; RUN: llvm-dis %t/shard.1.bc -o - | FileCheck --check-prefix=S1 --implicit-check-not=define --implicit-check-not=declare --implicit-check-not='module asm' %s
; RUN: llvm-dis %t/shard.2.bc -o - | FileCheck --check-prefixes=OTHER,S2 --implicit-check-not=define --implicit-check-not=declare %s
; RUN: opt -passes=verify -disable-output %t/shard.0.bc
; RUN: opt -passes=verify -disable-output %t/shard.1.bc
; RUN: opt -passes=verify -disable-output %t/shard.2.bc
; RUN: FileCheck --check-prefix=MAN %s < %t/manifest

; PLAN:      module-asm: shard 1
; PLAN-NEXT: shard 0: cost=300 functions=1 globals=1
; PLAN-NEXT:   @big function cost=300 global
; PLAN-NEXT: shard 1: cost=201 functions=2 globals=3
; PLAN-NEXT:   @f3 function cost=100 global
; PLAN-NEXT:   @helper_in_asm function cost=100 global
; PLAN-NEXT:   @counter variable local
; PLAN-NEXT: shard 2: cost=201 functions=2 globals=2
; PLAN-NEXT:   @f1 function cost=100 global
; PLAN-NEXT:   @f2 function cost=101 global

; OTHER-NOT: module asm
; OTHER-NOT: @counter
; OTHER-NOT: helper_in_asm
; S0: define void @big() #0 {
; S2: define void @f1() #0 {
; S2: define void @f2() #0 {
; OTHER-NOT: module asm

; The three asm lines, once each, in order.
; S1:      module asm ".globl asm_entry"
; S1-NEXT: module asm "asm_entry: jmp helper_in_asm"
; S1-NEXT: module asm ".set counter_alias, counter"
; S1:      @counter = internal global i32 0
; S1:      define void @f3() #0 {
; S1:      define void @helper_in_asm() #0 {

; MAN-NOT: promoted

module asm ".globl asm_entry"
module asm "asm_entry: jmp helper_in_asm"
module asm ".set counter_alias, counter"

@counter = internal global i32 0

define void @big() #0 !shard.cost !{i64 300} { ret void }
define void @f1() #0 !shard.cost !{i64 100} { ret void }
define void @f2() #0 !shard.cost !{i64 101} { ret void }
define void @f3() #0 !shard.cost !{i64 100} {
  %v = load i32, ptr @counter
  ret void
}
define void @helper_in_asm() #0 !shard.cost !{i64 100} { ret void }

attributes #0 = { noinline }
