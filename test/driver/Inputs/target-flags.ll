; A global without dso_local (as a JIT or a host may build it) and one with, a PIC level and
; no PIE level: the relocation model and the code model of the compile decide how they are reached.
target triple = "x86_64-unknown-linux-gnu"

@counter = global i32 0
@table = dso_local global [64 x i32] zeroinitializer

define i32 @bump(i32 %n) {
  %v = load i32, ptr @counter
  %s = add i32 %v, %n
  store i32 %s, ptr @counter
  ret i32 %s
}

define i32 @lookup(i64 %i) {
  %p = getelementptr [64 x i32], ptr @table, i64 0, i64 %i
  %v = load i32, ptr %p
  ret i32 %v
}

define i32 @both(i64 %i) {
  %a = call i32 @lookup(i64 %i)
  %b = call i32 @bump(i32 %a)
  ret i32 %b
}

; A loop the vectorizer widens to the CPU's vectors (a CPU given to libshard shows here).
define void @addv(ptr noalias %a, ptr noalias %b) {
entry:
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %next, %loop ]
  %pa = getelementptr i32, ptr %a, i64 %i
  %pb = getelementptr i32, ptr %b, i64 %i
  %x = load i32, ptr %pa
  %y = load i32, ptr %pb
  %z = add i32 %x, %y
  store i32 %z, ptr %pa
  %next = add i64 %i, 1
  %done = icmp eq i64 %next, 1024
  br i1 %done, label %exit, label %loop
exit:
  ret void
}

!llvm.module.flags = !{!0}
!0 = !{i32 8, !"PIC Level", i32 2}
