; presimplify-depth=N (default 0): the closure also holds what the functions it simplifies
; call, to N levels, if importable, though no shard holds it, so that the pipeline inlines it
; into them as the serial one does. Shard 0 imports @imp (shard 1's); @imp calls @deep,
; which calls @deeper: a shard imports only to import-depth (1), so shard 0 holds neither.
; With presimplify-depth=2, @deep (depth 1) and @deeper (depth 2) are in the closure, to be
; inlined into @imp's simplified body; with 1 only @deep, with 0 neither. They stay shard 1's
; own, unsimplified there (they are not imported or copied anywhere).
; RUN: rm -rf %t && mkdir %t %t.1 %t.0
; RUN: %opt-shard -passes='shard-split<dir=%t;chain-cost=0;presimplify=2;presimplify-depth=2>' -disable-output %s
; RUN: %opt-shard -passes='shard-split<dir=%t.1;chain-cost=0;presimplify=2;presimplify-depth=1>' -disable-output %s
; RUN: %opt-shard -passes='shard-split<dir=%t.0;chain-cost=0;presimplify=2>' -disable-output %s
; RUN: opt -passes=verify -disable-output %t/shard.0.bc
; RUN: llvm-dis %t/shard.0.bc -o - | FileCheck --check-prefix=D2 %s
; RUN: llvm-dis %t.1/shard.0.bc -o - | FileCheck --check-prefix=D1 %s
; RUN: llvm-dis %t.0/shard.0.bc -o - | FileCheck --check-prefix=D0 %s
; RUN: llvm-dis %t/shard.1.bc -o - | FileCheck --check-prefix=OWNER %s
; RUN: %opt-shard -passes='shard-split<dir=%t;presimplify=2;presimplify-depth=1>' -print-pipeline-passes -disable-output %s | FileCheck --check-prefix=PIPE %s
; RUN: not %opt-shard -passes='shard-split<dir=%t;chain-cost=0;presimplify-depth=17>' -disable-output %s 2>&1 | FileCheck --check-prefix=BAD %s

; D2: define available_externally i32 @imp(i32 %x) #[[PRE:[0-9]+]] {
; D2-NOT: call
; D2: ret i32
; D2-NOT: @deep
; D2: attributes #[[PRE]] = { {{.*}}"shard-presimplified"

; D1: define available_externally i32 @imp(i32 %x)
; D1-NOT: @deep(
; D1: call i32 @deeper(
; D1: declare i32 @deeper(i32)

; D0: define available_externally i32 @imp(i32 %x)
; D0: call i32 @deep(
; D0: declare i32 @deep(i32)

; OWNER: define i32 @imp(i32 %x) #[[PRE:[0-9]+]] {
; OWNER: define i32 @deep(i32 %x) {
; OWNER-NEXT: %a = call i32 @deeper(i32 %x)
; OWNER: define i32 @deeper(i32 %x) {
; OWNER: attributes #[[PRE]] = { {{.*}}"shard-presimplified"

; PIPE: shard-split<dir={{.*}};presimplify=2;presimplify-depth=1>
; BAD: shard-split: invalid parameter 'presimplify-depth=17': expected an integer from 0 to 16

define i32 @main(i32 %x) !shard.cost !{i64 1000} !shard.partition !{i32 0} {
  %a = call i32 @imp(i32 %x)
  ret i32 %a
}
define i32 @imp(i32 %x) !shard.cost !{i64 80} !shard.partition !{i32 1} {
  %a = call i32 @deep(i32 %x)
  %b = add i32 %a, 1
  ret i32 %b
}
define i32 @deep(i32 %x) !shard.cost !{i64 80} !shard.partition !{i32 1} {
  %a = call i32 @deeper(i32 %x)
  %b = mul i32 %a, 3
  ret i32 %b
}
define i32 @deeper(i32 %x) !shard.cost !{i64 80} !shard.partition !{i32 1} {
  %a = xor i32 %x, 5
  ret i32 %a
}

!shard.plan = !{!0, !1, !2, !3}
!0 = !{!"version", i32 1}
!1 = !{!"shards", i32 2}
!2 = !{!"asm-shard", i32 0}
!3 = !{!"costs", i64 1000, i64 240}
