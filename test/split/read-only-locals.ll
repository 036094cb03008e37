; shard-split makes a local variable the module never stores to constant before it splits,
; as the serial build's GlobalOpt does before it inlines anything (markReadOnlyLocals). Such a
; variable (a C "static const char *msg", its pointer not const) is then imported into the
; other shards as constants are, and their loads of it fold; promoted, it would stay a load
; from another object's data, which also makes every function that reads it cost more to
; inline than serially.
;
; @msg and @table are only loaded: constant, imported into shard 1. @count is stored to,
; @passed's address escapes into a call, @atomic is read by an atomic load (GlobalOpt leaves
; such loads alone): all three stay variables, promoted and declared in shard 1. With
; no-read-only-locals, @msg and @table are declared in shard 1 too.
;
; RUN: rm -rf %t && mkdir %t %t.off
; RUN: %opt-shard -passes='shard-split<dir=%t>' -disable-output %s
; RUN: llvm-dis %t/shard.1.bc -o - | FileCheck --check-prefix=S1 %s
; RUN: llvm-dis %t/shard.0.bc -o - | FileCheck --check-prefix=S0 %s
; RUN: opt -passes=verify -disable-output %t/shard.0.bc
; RUN: opt -passes=verify -disable-output %t/shard.1.bc
; RUN: opt -passes='default<O2>' %t/shard.1.bc -S -o - | FileCheck --check-prefix=O2 %s
; RUN: %opt-shard -passes='shard-split<dir=%t.off;no-read-only-locals>' -disable-output %s
; RUN: llvm-dis %t.off/shard.1.bc -o - | FileCheck --check-prefix=OFF %s
; RUN: %opt-shard -passes='shard-split<dir=%t;no-read-only-locals>' -print-pipeline-passes -disable-output %s | FileCheck --check-prefix=PIPE %s
; PIPE: shard-split<dir={{.*}};no-read-only-locals>

; S1-DAG: @[[MSG:msg\.shard\.[0-9a-f]+]] = available_externally hidden constant ptr @.str.msg
; S1-DAG: @count.shard.{{[0-9a-f]+}} = external hidden global i32
; S1-DAG: @passed.shard.{{[0-9a-f]+}} = external hidden global i32
; S1-DAG: @atomic.shard.{{[0-9a-f]+}} = external hidden global i32
; S1-DAG: @table.shard.{{[0-9a-f]+}} = available_externally hidden constant [2 x i32] [i32 3, i32 4]
; S1-LABEL: define ptr @b(
; S1: load ptr, ptr @[[MSG]]

; S0-DAG: @msg.shard.{{[0-9a-f]+}} = hidden constant ptr @.str.msg
; S0-DAG: @count.shard.{{[0-9a-f]+}} = hidden global i32 0
; S0-DAG: @table.shard.{{[0-9a-f]+}} = hidden constant [2 x i32] [i32 3, i32 4]

; The load of @msg folds to the string; the atomic load stays.
; O2-LABEL: define {{.*}}ptr @b(
; O2-NOT:     load ptr
; O2:         load atomic i32
; O2:         ret ptr @.str.msg

; OFF-DAG: @msg.shard.{{[0-9a-f]+}} = external hidden global ptr
; OFF-DAG: @table.shard.{{[0-9a-f]+}} = external hidden global [2 x i32]

@.str = private unnamed_addr constant [4 x i8] c"msg\00", !shard.partition !{i32 0}
@msg = internal global ptr @.str, !shard.partition !{i32 0}
@count = internal global i32 0, !shard.partition !{i32 0}
@passed = internal global i32 1, !shard.partition !{i32 0}
@atomic = internal global i32 2, !shard.partition !{i32 0}
@table = internal global [2 x i32] [i32 3, i32 4], !shard.partition !{i32 0}

declare void @take(ptr)

define ptr @a() !shard.cost !{i64 10} !shard.partition !{i32 0} {
  %m = load ptr, ptr @msg
  %c = load i32, ptr @count
  %n = add i32 %c, 1
  store i32 %n, ptr @count
  call void @take(ptr @passed)
  ret ptr %m
}

define ptr @b(i64 %i) !shard.cost !{i64 10} !shard.partition !{i32 1} {
  %m = load ptr, ptr @msg
  %c = load i32, ptr @count
  %p = load i32, ptr @passed
  %t = load atomic i32, ptr @atomic seq_cst, align 4
  %e = getelementptr [2 x i32], ptr @table, i64 0, i64 %i
  %v = load i32, ptr %e
  ret ptr %m
}

!shard.plan = !{!0, !1, !2, !3}
!0 = !{!"version", i32 1}
!1 = !{!"shards", i32 2}
!2 = !{!"asm-shard", i32 0}
!3 = !{!"costs", i64 10, i64 10}
