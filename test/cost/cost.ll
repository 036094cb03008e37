; shard-cost attaches a predicted cost to every definition and the module total.
; RUN: %opt-shard -passes=shard-cost -S %s | FileCheck %s
; RUN: %opt-shard -passes=shard-cost -print-pipeline-passes -disable-output %s | FileCheck --check-prefix=PIPE %s

; PIPE: shard-cost

; CHECK: declare i32 @ext(i32){{$}}
declare i32 @ext(i32)

; 1 + 2 blocks * 2 + (call 4 + add 1 + br 1) + (ret 1) = 12
; CHECK: define i32 @f(i32 %x) !shard.cost ![[F:[0-9]+]]
define i32 @f(i32 %x) {
entry:
  %c = call i32 @ext(i32 %x)
  %a = add i32 %c, 1
  br label %exit
exit:
  ret i32 %a
}

; Switches weigh 2 + cases/2; debug and assume-like intrinsics weigh nothing.
; 1 + 3 blocks * 2 + add + switch (2 + 2/2) + ret + ret = 13
; CHECK: define i32 @g(i32 %x) !shard.cost ![[G:[0-9]+]]
define i32 @g(i32 %x) {
entry:
  call void @llvm.assume(i1 true)
  %y = add i32 %x, 1
  switch i32 %y, label %a [ i32 1, label %b
                            i32 2, label %b ]
a:
  ret i32 0
b:
  ret i32 1
}
declare void @llvm.assume(i1)

; A block that only branches on (`do {} while (0)`, an empty else) weighs nothing: the
; first simplification folds it away, and C code full of compiled-out assertions would
; otherwise look several times its size (Duktape's duk_require_tval: 214 against 73).
; 1 + 1 block * 2 + add + ret = 5
; CHECK: define i32 @h(i32 %x) !shard.cost ![[H:[0-9]+]]
define i32 @h(i32 %x) {
entry:
  br label %do.body
do.body:
  br label %do.end
do.end:
  %y = add i32 %x, 1
  ret i32 %y
}

; Declarations get no cost.
; CHECK-NOT: declare{{.*}}!shard.cost

; The total adds one per variable (plus one per 256 bytes): 12 + 13 + 5 + 1 + 2.
@small = global i32 0
@big = global [300 x i8] zeroinitializer
; CHECK: !shard.total_cost = !{![[T:[0-9]+]]}
; CHECK-DAG: ![[F]] = !{i64 12}
; CHECK-DAG: ![[G]] = !{i64 13}
; CHECK-DAG: ![[H]] = !{i64 5}
; CHECK-DAG: ![[T]] = !{i64 33}
