; The skip list of shard-mv-annotate: functions that are never multiversioned,
; whatever they would gain, each with its reason. Every one of them has the same
; popcount loop, which @ok shows is otherwise chosen.
;
; RUN: %opt-shard -passes='shard-mv-annotate<targets=x86-64-v2:x86-64-v3>' -S %s | FileCheck %s
; RUN: %opt-shard -passes='shard-mv-annotate<targets=x86-64-v2:x86-64-v3>' -pass-remarks-missed=shard-mv \
; RUN:   -disable-output %s 2>&1 | FileCheck --check-prefix=REMARK %s
; REMARK: remark: <unknown>:0:0: declined all targets: varargs
; REMARK: remark: <unknown>:0:0: declined all targets: inline asm
;
; shard-mv itself refuses what it cannot clone safely, even when the metadata asks.
; RUN: %opt-shard -passes=shard-mv -pass-remarks-missed=shard-mv -S %s 2> %t.err | FileCheck --check-prefix=MV %s
; RUN: FileCheck --check-prefix=MVREMARK %s < %t.err
; MV-NOT: @varargs = {{.*}}ifunc
; MV: define i32 @varargs(ptr %a, i32 %n, ...)
; MV-NOT: @varargs.
; MVREMARK: remark: <unknown>:0:0: not multiversioned: varargs
;
; Another target than x86-64: nothing is multiversioned.
; RUN: sed -e 's/x86_64-pc-linux-gnu/aarch64-unknown-linux-gnu/' %s \
; RUN:   | %opt-shard -passes='shard-mv-annotate<targets=x86-64-v3>' -S | FileCheck --check-prefix=ARM %s
; ARM-NOT: !shard.mv !
; ARM: define i32 @ok({{.*}} !shard.mv.reason ![[R:[0-9]+]]
; ARM: ![[R]] = !{!"not multiversioned: the module's target is not x86-64"}

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

$comdat_fn = comdat any

@ifn = ifunc i32 (ptr, i32), ptr @resolver
@target = global ptr blockaddress(@blockaddr, %body)

; CHECK: define i32 @ok({{.*}} !shard.mv ![[OK:[0-9]+]]
define i32 @ok(ptr %a, i32 %n) #0 {
entry:
  br label %body
body:
  %i = phi i32 [ 0, %entry ], [ %i.next, %body ]
  %s = phi i32 [ 0, %entry ], [ %add, %body ]
  %p = getelementptr inbounds i32, ptr %a, i32 %i
  %v = load i32, ptr %p, align 4
  %c = call i32 @llvm.ctpop.i32(i32 %v)
  %add = add i32 %s, %c
  %i.next = add i32 %i, 1
  %done = icmp eq i32 %i.next, %n
  br i1 %done, label %exit, label %body
exit:
  ret i32 %add
}

; CHECK: define i32 @varargs({{.*}} !shard.mv.reason ![[VARARGS:[0-9]+]] {
define i32 @varargs(ptr %a, i32 %n, ...) #0 !shard.mv !0 {
entry:
  br label %body
body:
  %i = phi i32 [ 0, %entry ], [ %i.next, %body ]
  %s = phi i32 [ 0, %entry ], [ %add, %body ]
  %p = getelementptr inbounds i32, ptr %a, i32 %i
  %v = load i32, ptr %p, align 4
  %c = call i32 @llvm.ctpop.i32(i32 %v)
  %add = add i32 %s, %c
  %i.next = add i32 %i, 1
  %done = icmp eq i32 %i.next, %n
  br i1 %done, label %exit, label %body
exit:
  ret i32 %add
}

; CHECK: define i32 @asm({{.*}} !shard.mv.reason ![[ASM:[0-9]+]] {
define i32 @asm(ptr %a, i32 %n) #0 {
entry:
  call void asm sideeffect "nop", ""()
  br label %body
body:
  %i = phi i32 [ 0, %entry ], [ %i.next, %body ]
  %s = phi i32 [ 0, %entry ], [ %add, %body ]
  %p = getelementptr inbounds i32, ptr %a, i32 %i
  %v = load i32, ptr %p, align 4
  %c = call i32 @llvm.ctpop.i32(i32 %v)
  %add = add i32 %s, %c
  %i.next = add i32 %i, 1
  %done = icmp eq i32 %i.next, %n
  br i1 %done, label %exit, label %body
exit:
  ret i32 %add
}

; CHECK: define i32 @blockaddr({{.*}} !shard.mv.reason ![[BA:[0-9]+]] {
define i32 @blockaddr(ptr %a, i32 %n) #0 {
entry:
  br label %body
body:
  %i = phi i32 [ 0, %entry ], [ %i.next, %body ]
  %s = phi i32 [ 0, %entry ], [ %add, %body ]
  %p = getelementptr inbounds i32, ptr %a, i32 %i
  %v = load i32, ptr %p, align 4
  %c = call i32 @llvm.ctpop.i32(i32 %v)
  %add = add i32 %s, %c
  %i.next = add i32 %i, 1
  %done = icmp eq i32 %i.next, %n
  br i1 %done, label %exit, label %body
exit:
  ret i32 %add
}

; CHECK: define ptr @resolver({{.*}} !shard.mv.reason ![[RES:[0-9]+]] {
define ptr @resolver(ptr %a, i32 %n) #0 {
entry:
  br label %body
body:
  %i = phi i32 [ 0, %entry ], [ %i.next, %body ]
  %s = phi i32 [ 0, %entry ], [ %add, %body ]
  %p = getelementptr inbounds i32, ptr %a, i32 %i
  %v = load i32, ptr %p, align 4
  %c = call i32 @llvm.ctpop.i32(i32 %v)
  %add = add i32 %s, %c
  %i.next = add i32 %i, 1
  %done = icmp eq i32 %i.next, %n
  br i1 %done, label %exit, label %body
exit:
  ret ptr @ok
}

; A member of a family that shard-mv made.
; CHECK: define internal i32 @family({{.*}} !shard.mv.reason ![[MULTI:[0-9]+]] {
define internal i32 @family(ptr %a, i32 %n) #0 !shard.mv.family !1 {
entry:
  br label %body
body:
  %i = phi i32 [ 0, %entry ], [ %i.next, %body ]
  %s = phi i32 [ 0, %entry ], [ %add, %body ]
  %p = getelementptr inbounds i32, ptr %a, i32 %i
  %v = load i32, ptr %p, align 4
  %c = call i32 @llvm.ctpop.i32(i32 %v)
  %add = add i32 %s, %c
  %i.next = add i32 %i, 1
  %done = icmp eq i32 %i.next, %n
  br i1 %done, label %exit, label %body
exit:
  ret i32 %add
}

; Already compiled for its own target (target attribute, target_clones).
; CHECK: define i32 @own_target({{.*}} !shard.mv.reason ![[OWN:[0-9]+]] {
define i32 @own_target(ptr %a, i32 %n) #1 {
entry:
  br label %body
body:
  %i = phi i32 [ 0, %entry ], [ %i.next, %body ]
  %s = phi i32 [ 0, %entry ], [ %add, %body ]
  %p = getelementptr inbounds i32, ptr %a, i32 %i
  %v = load i32, ptr %p, align 4
  %c = call i32 @llvm.ctpop.i32(i32 %v)
  %add = add i32 %s, %c
  %i.next = add i32 %i, 1
  %done = icmp eq i32 %i.next, %n
  br i1 %done, label %exit, label %body
exit:
  ret i32 %add
}

; CHECK: define weak i32 @weak_fn({{.*}} !shard.mv.reason ![[INTERP:[0-9]+]] {
define weak i32 @weak_fn(ptr %a, i32 %n) #0 {
entry:
  br label %body
body:
  %i = phi i32 [ 0, %entry ], [ %i.next, %body ]
  %s = phi i32 [ 0, %entry ], [ %add, %body ]
  %p = getelementptr inbounds i32, ptr %a, i32 %i
  %v = load i32, ptr %p, align 4
  %c = call i32 @llvm.ctpop.i32(i32 %v)
  %add = add i32 %s, %c
  %i.next = add i32 %i, 1
  %done = icmp eq i32 %i.next, %n
  br i1 %done, label %exit, label %body
exit:
  ret i32 %add
}

; CHECK: define linkonce i32 @linkonce_fn({{.*}} !shard.mv.reason ![[INTERP]] {
define linkonce i32 @linkonce_fn(ptr %a, i32 %n) #0 {
entry:
  br label %body
body:
  %i = phi i32 [ 0, %entry ], [ %i.next, %body ]
  %s = phi i32 [ 0, %entry ], [ %add, %body ]
  %p = getelementptr inbounds i32, ptr %a, i32 %i
  %v = load i32, ptr %p, align 4
  %c = call i32 @llvm.ctpop.i32(i32 %v)
  %add = add i32 %s, %c
  %i.next = add i32 %i, 1
  %done = icmp eq i32 %i.next, %n
  br i1 %done, label %exit, label %body
exit:
  ret i32 %add
}

; CHECK: define i32 @optnone_fn({{.*}} !shard.mv.reason ![[OPTNONE:[0-9]+]] {
define i32 @optnone_fn(ptr %a, i32 %n) #2 {
entry:
  br label %body
body:
  %i = phi i32 [ 0, %entry ], [ %i.next, %body ]
  %s = phi i32 [ 0, %entry ], [ %add, %body ]
  %p = getelementptr inbounds i32, ptr %a, i32 %i
  %v = load i32, ptr %p, align 4
  %c = call i32 @llvm.ctpop.i32(i32 %v)
  %add = add i32 %s, %c
  %i.next = add i32 %i, 1
  %done = icmp eq i32 %i.next, %n
  br i1 %done, label %exit, label %body
exit:
  ret i32 %add
}

; CHECK: define void @naked_fn() {{.*}}!shard.mv.reason ![[NAKED:[0-9]+]] {
define void @naked_fn() #3 {
  call void asm sideeffect "ret", ""()
  unreachable
}

; CHECK: define available_externally i32 @avail({{.*}} !shard.mv.reason ![[AVAIL:[0-9]+]] {
define available_externally i32 @avail(ptr %a, i32 %n) #0 {
entry:
  br label %body
body:
  %i = phi i32 [ 0, %entry ], [ %i.next, %body ]
  %s = phi i32 [ 0, %entry ], [ %add, %body ]
  %p = getelementptr inbounds i32, ptr %a, i32 %i
  %v = load i32, ptr %p, align 4
  %c = call i32 @llvm.ctpop.i32(i32 %v)
  %add = add i32 %s, %c
  %i.next = add i32 %i, 1
  %done = icmp eq i32 %i.next, %n
  br i1 %done, label %exit, label %body
exit:
  ret i32 %add
}

; CHECK: define linkonce_odr i32 @comdat_fn({{.*}} comdat !shard.mv.reason ![[COMDAT:[0-9]+]] {
define linkonce_odr i32 @comdat_fn(ptr %a, i32 %n) #0 comdat {
entry:
  br label %body
body:
  %i = phi i32 [ 0, %entry ], [ %i.next, %body ]
  %s = phi i32 [ 0, %entry ], [ %add, %body ]
  %p = getelementptr inbounds i32, ptr %a, i32 %i
  %v = load i32, ptr %p, align 4
  %c = call i32 @llvm.ctpop.i32(i32 %v)
  %add = add i32 %s, %c
  %i.next = add i32 %i, 1
  %done = icmp eq i32 %i.next, %n
  br i1 %done, label %exit, label %body
exit:
  ret i32 %add
}

; CHECK: define i32 @cold_fn({{.*}} !shard.mv.reason ![[COLD:[0-9]+]] {
define i32 @cold_fn(ptr %a, i32 %n) #4 {
entry:
  br label %body
body:
  %i = phi i32 [ 0, %entry ], [ %i.next, %body ]
  %s = phi i32 [ 0, %entry ], [ %add, %body ]
  %p = getelementptr inbounds i32, ptr %a, i32 %i
  %v = load i32, ptr %p, align 4
  %c = call i32 @llvm.ctpop.i32(i32 %v)
  %add = add i32 %s, %c
  %i.next = add i32 %i, 1
  %done = icmp eq i32 %i.next, %n
  br i1 %done, label %exit, label %body
exit:
  ret i32 %add
}

; CHECK: define i32 @prefix_fn({{.*}} !shard.mv.reason ![[PREFIX:[0-9]+]] {
define i32 @prefix_fn(ptr %a, i32 %n) #0 prefix i32 1 {
entry:
  br label %body
body:
  %i = phi i32 [ 0, %entry ], [ %i.next, %body ]
  %s = phi i32 [ 0, %entry ], [ %add, %body ]
  %p = getelementptr inbounds i32, ptr %a, i32 %i
  %v = load i32, ptr %p, align 4
  %c = call i32 @llvm.ctpop.i32(i32 %v)
  %add = add i32 %s, %c
  %i.next = add i32 %i, 1
  %done = icmp eq i32 %i.next, %n
  br i1 %done, label %exit, label %body
exit:
  ret i32 %add
}

; Declarations are not considered at all.
; CHECK: declare i32 @ext(i32){{$}}
declare i32 @ext(i32)
declare i32 @llvm.ctpop.i32(i32)

attributes #0 = { nounwind "target-cpu"="x86-64" "target-features"="+cmov,+cx8,+fxsr,+mmx,+sse,+sse2,+x87" }
attributes #1 = { nounwind "target-cpu"="x86-64-v3" "target-features"="+avx,+avx2,+bmi,+bmi2,+cmov,+crc32,+cx16,+cx8,+f16c,+fma,+fxsr,+lzcnt,+mmx,+movbe,+popcnt,+sahf,+sse,+sse2,+sse3,+sse4.1,+sse4.2,+ssse3,+x87,+xsave" }
attributes #2 = { noinline nounwind optnone "target-cpu"="x86-64" "target-features"="+cmov,+cx8,+fxsr,+mmx,+sse,+sse2,+x87" }
attributes #3 = { naked noinline nounwind "target-cpu"="x86-64" "target-features"="+cmov,+cx8,+fxsr,+mmx,+sse,+sse2,+x87" }
attributes #4 = { cold nounwind "target-cpu"="x86-64" "target-features"="+cmov,+cx8,+fxsr,+mmx,+sse,+sse2,+x87" }

!0 = !{!"x86-64-v3"}
!1 = !{!"family"}

; CHECK-DAG: ![[OK]] = !{!"x86-64-v2", !"x86-64-v3"}
; CHECK-DAG: ![[VARARGS]] = !{!"not multiversioned: varargs"}
; CHECK-DAG: ![[ASM]] = !{!"not multiversioned: inline asm"}
; CHECK-DAG: ![[BA]] = !{!"not multiversioned: address-taken blocks (blockaddress)"}
; CHECK-DAG: ![[RES]] = !{!"not multiversioned: ifunc resolver"}
; CHECK-DAG: ![[MULTI]] = !{!"not multiversioned: already multiversioned"}
; CHECK-DAG: ![[OWN]] = !{!"not multiversioned: already multiversioned (own target-cpu/target-features)"}
; CHECK-DAG: ![[INTERP]] = !{!"not multiversioned: interposable definition"}
; CHECK-DAG: ![[OPTNONE]] = !{!"not multiversioned: optnone"}
; CHECK-DAG: ![[NAKED]] = !{!"not multiversioned: naked"}
; CHECK-DAG: ![[AVAIL]] = !{!"not multiversioned: available_externally"}
; CHECK-DAG: ![[COMDAT]] = !{!"not multiversioned: in a comdat"}
; CHECK-DAG: ![[COLD]] = !{!"not multiversioned: cold"}
; CHECK-DAG: ![[PREFIX]] = !{!"not multiversioned: prefix or prologue data"}
