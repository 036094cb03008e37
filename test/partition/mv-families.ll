; shard-partition keeps a multiversioned family in one shard: the default, the
; clones, the resolver and the ifunc (dispatch=ifunc), or the function, its
; pointer, stub and resolver (dispatch=table). They are internal and refer to
; one another, and the resolver must see every clone. With as many shards as
; functions, everything else is spread out.
;
; RUN: %opt-shard -passes='shard-mv,shard-cost,shard-partition<shards=16>,print<shard-plan>' \
; RUN:   -disable-output %s 2>&1 | FileCheck %s
; RUN: %opt-shard -passes='shard-mv<dispatch=table>,shard-cost,shard-partition<shards=16>,print<shard-plan>' \
; RUN:   -disable-output %s 2>&1 | FileCheck --check-prefix=TABLE %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

; CHECK:      shard {{[0-9]+}}: cost={{[0-9]+}} functions=5 globals=6
; CHECK-NEXT:   @f.default function
; CHECK-NEXT:   @f.x86-64-v4 function
; CHECK-NEXT:   @f.x86-64-v3 function
; CHECK-NEXT:   @f.x86-64-v2 function
; CHECK-NEXT:   @f.resolver function
; CHECK-NEXT:   @f ifunc global
; CHECK-DAG:  @other1 function
; CHECK-DAG:  @other2 function

; TABLE:      shard {{[0-9]+}}: cost={{[0-9]+}} functions=7 globals=8
; TABLE-NEXT:   @f function
; TABLE-NEXT:   @f.default function
; TABLE-NEXT:   @f.x86-64-v4 function
; TABLE-NEXT:   @f.x86-64-v3 function
; TABLE-NEXT:   @f.x86-64-v2 function
; TABLE-NEXT:   @f.resolver function
; TABLE-NEXT:   @f.init function
; TABLE-NEXT:   @f.ptr variable local

define i32 @f(i32 %x) #0 !shard.mv !0 {
  %a = mul i32 %x, %x
  %b = add i32 %a, 7
  ret i32 %b
}

define i32 @other1(i32 %x) #0 {
  %r = call i32 @f(i32 %x)
  ret i32 %r
}

define i32 @other2(i32 %x) #0 {
  %r = call i32 @f(i32 %x)
  %s = add i32 %r, 1
  ret i32 %s
}

attributes #0 = { noinline nounwind "target-cpu"="x86-64" "target-features"="+cmov,+cx8,+fxsr,+mmx,+sse,+sse2,+x87" }

!0 = !{!"x86-64-v2", !"x86-64-v3", !"x86-64-v4"}
