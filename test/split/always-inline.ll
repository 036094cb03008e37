; shard-split copies or imports always_inline functions whatever their cost and depth: the
; serial build's first inliner takes each into every caller, so a shard whose code calls one
; must have its body. @loc (internal, cost 400, above dup-cost) is called from @a and @b in
; two shards: each gets a private copy, nothing is promoted, as @plain (the same without
; always_inline) is. @glob (cost 500, above twice import-cost) is imported into @c's shard,
; and so is what it calls, @deep: like a tiny wrapper, an always_inline function adds no
; import depth. import-cost=0 (no imports) and dup-cost=0 (no copies) still turn both off.
; RUN: rm -rf %t && mkdir -p %t/d %t/off
; RUN: %opt-shard -passes='shard-partition<shards=5;place=graph>,print<shard-plan>,shard-split<dir=%t/d>' \
; RUN:   -disable-output %s 2>&1 | FileCheck --check-prefix=PLAN %s
; RUN: llvm-dis %t/d/shard.0.bc -o - | FileCheck --check-prefix=S0 --implicit-check-not=define --implicit-check-not=declare %s
; RUN: llvm-dis %t/d/shard.1.bc -o - | FileCheck --check-prefix=S1 --implicit-check-not=define --implicit-check-not=declare %s
; RUN: llvm-dis %t/d/shard.2.bc -o - | FileCheck --check-prefix=S2 --implicit-check-not=define --implicit-check-not=declare %s
; RUN: opt -passes=verify -disable-output %t/d/shard.0.bc
; RUN: opt -passes=verify -disable-output %t/d/shard.2.bc
; RUN: FileCheck --check-prefix=MAN --implicit-check-not=promoted %s < %t/d/manifest
; RUN: %opt-shard -passes='shard-partition<shards=5;place=graph>,shard-split<dir=%t/off;import-cost=0;dup-cost=0>' -disable-output %s
; RUN: llvm-dis %t/off/shard.0.bc -o - | FileCheck --check-prefix=OFF0 %s
; RUN: llvm-dis %t/off/shard.2.bc -o - | FileCheck --check-prefix=OFF2 %s

; PLAN:      shard 0: cost=1000 functions=1 globals=1
; PLAN-NEXT:   @a function cost=1000 global
; PLAN-NEXT: shard 1: cost=1000 functions=1 globals=1
; PLAN-NEXT:   @b function cost=1000 global
; PLAN-NEXT: shard 2: cost=1000 functions=1 globals=1
; PLAN-NEXT:   @c function cost=1000 global
; PLAN-NEXT: shard 3: cost=800 functions=2 globals=2
; PLAN-NEXT:   @glob function cost=500 global
; PLAN-NEXT:   @deep function cost=300 global
; PLAN-NEXT: shard 4: cost=800 functions=2 globals=2
; PLAN-NEXT:   @loc function cost=400 local
; PLAN-NEXT:   @plain function cost=400 local

; S0: define i32 @a(
; S0: define internal i32 @loc(
; S0: declare hidden i32 @plain.shard.{{[0-9a-f]+}}(
; S1: define i32 @b(
; S1: define internal i32 @loc(
; S1: declare hidden i32 @plain.shard.{{[0-9a-f]+}}(
; S2: define i32 @c(
; S2: define available_externally i32 @glob(
; S2: define available_externally i32 @deep(
; MAN: promoted plain.shard.{{[0-9a-f]+}} plain

; OFF0: declare hidden i32 @loc.shard.{{[0-9a-f]+}}(
; OFF2: declare i32 @glob(

define i32 @a(i32 %x) !shard.cost !{i64 1000} {
  %y = call i32 @loc(i32 %x)
  %z = call i32 @plain(i32 %y)
  ret i32 %z
}
define i32 @b(i32 %x) !shard.cost !{i64 1000} {
  %y = call i32 @loc(i32 %x)
  %z = call i32 @plain(i32 %y)
  ret i32 %z
}
define i32 @c(i32 %x) !shard.cost !{i64 1000} {
  %y = call i32 @glob(i32 %x)
  ret i32 %y
}
define internal i32 @loc(i32 %x) #0 !shard.cost !{i64 400} {
  %y = mul i32 %x, 3
  ret i32 %y
}
define internal i32 @plain(i32 %x) !shard.cost !{i64 400} {
  %y = mul i32 %x, 5
  ret i32 %y
}
define i32 @glob(i32 %x) #0 !shard.cost !{i64 500} {
  %y = call i32 @deep(i32 %x)
  ret i32 %y
}
define i32 @deep(i32 %x) #0 !shard.cost !{i64 300} {
  %y = add i32 %x, 7
  ret i32 %y
}
attributes #0 = { alwaysinline }
