; shard-mv-annotate chooses per function the targets a clone is expected to pay
; for, from the target's own cost model, and records every decision with its
; reason: !shard.mv on chosen functions, !shard.mv.reason on every function
; considered, and optimisation remarks (Passed / Missed, pass shard-mv-annotate).
; The input is what the optimisation pipeline has before the loop vectoriser.
;
; RUN: %opt-shard -passes='shard-mv-annotate<targets=x86-64-v2:x86-64-v3:x86-64-v4>' -S %s \
; RUN:   | FileCheck %s
; The targets also come from -shard-mv-targets (comma-separated) when the pipeline gives none.
; RUN: %opt-shard -shard-mv-targets=x86-64-v2,x86-64-v3,x86-64-v4 -passes=shard-mv-annotate -S %s \
; RUN:   | FileCheck %s
; RUN: %opt-shard -passes='shard-mv-annotate<targets=x86-64-v2:x86-64-v3:x86-64-v4>' \
; RUN:   -pass-remarks=shard-mv -pass-remarks-missed=shard-mv -disable-output %s 2>&1 \
; RUN:   | FileCheck --check-prefix=REMARK %s
; RUN: %opt-shard -passes='shard-mv-annotate<targets=x86-64-v2:x86-64-v3:x86-64-v4>' \
; RUN:   -pass-remarks-output=%t.yaml -disable-output %s
; RUN: FileCheck --check-prefix=YAML %s < %t.yaml
; RUN: %opt-shard -passes='shard-mv-annotate<targets=x86-64-v2:x86-64-v3>' \
; RUN:   -print-pipeline-passes -disable-output %s | FileCheck --check-prefix=PIPE %s
; PIPE: shard-mv-annotate<targets=x86-64-v2:x86-64-v3>

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

; A popcount loop: POPCNT pays at x86-64-v2, 256-bit vectors pay more at v3;
; v4 adds nothing over v3 (LLVM keeps 256-bit vectors there).
; CHECK: define i32 @popcount({{.*}} !shard.mv.reason ![[POPR:[0-9]+]] !shard.mv ![[POP:[0-9]+]] {
define i32 @popcount(ptr %a, i32 %n) #0 {
entry:
  %cmp4 = icmp sgt i32 %n, 0
  br i1 %cmp4, label %for.body.preheader, label %exit
for.body.preheader:
  %wide.trip.count = zext i32 %n to i64
  br label %for.body
for.body:
  %iv = phi i64 [ 0, %for.body.preheader ], [ %iv.next, %for.body ]
  %s = phi i32 [ 0, %for.body.preheader ], [ %add, %for.body ]
  %arrayidx = getelementptr inbounds i32, ptr %a, i64 %iv
  %0 = load i32, ptr %arrayidx, align 4
  %1 = tail call i32 @llvm.ctpop.i32(i32 %0)
  %add = add nuw nsw i32 %1, %s
  %iv.next = add nuw nsw i64 %iv, 1
  %exitcond.not = icmp eq i64 %iv.next, %wide.trip.count
  br i1 %exitcond.not, label %exit, label %for.body
exit:
  %r = phi i32 [ 0, %entry ], [ %add, %for.body ]
  ret i32 %r
}

; saxpy: 256-bit vectors and FMA pay at v3; SSE4.2 adds nothing for it.
; CHECK: define void @saxpy({{.*}} !shard.mv.reason ![[SAXR:[0-9]+]] !shard.mv ![[V3:[0-9]+]] {
define void @saxpy(ptr noalias %y, ptr noalias %x, float %a, i32 %n) #0 {
entry:
  %cmp6 = icmp sgt i32 %n, 0
  br i1 %cmp6, label %for.body.preheader, label %exit
for.body.preheader:
  %wide.trip.count = zext i32 %n to i64
  br label %for.body
for.body:
  %iv = phi i64 [ 0, %for.body.preheader ], [ %iv.next, %for.body ]
  %arrayidx = getelementptr inbounds float, ptr %x, i64 %iv
  %0 = load float, ptr %arrayidx, align 4
  %arrayidx2 = getelementptr inbounds float, ptr %y, i64 %iv
  %1 = load float, ptr %arrayidx2, align 4
  %2 = tail call float @llvm.fmuladd.f32(float %a, float %0, float %1)
  store float %2, ptr %arrayidx2, align 4
  %iv.next = add nuw nsw i64 %iv, 1
  %exitcond.not = icmp eq i64 %iv.next, %wide.trip.count
  br i1 %exitcond.not, label %exit, label %for.body
exit:
  ret void
}

; A strict float dot product: the loop-carried chain goes through the addend of
; llvm.fmuladd without reassoc; FMA would lengthen it, so v3 and v4 are declined,
; and without FMA nothing else gains.
; CHECK: define float @dot({{.*}} !shard.mv.reason ![[DOTR:[0-9]+]] {
define float @dot(ptr %a, ptr %b, i32 %n) #0 {
entry:
  %cmp5 = icmp sgt i32 %n, 0
  br i1 %cmp5, label %for.body.preheader, label %exit
for.body.preheader:
  %wide.trip.count = zext i32 %n to i64
  br label %for.body
for.body:
  %iv = phi i64 [ 0, %for.body.preheader ], [ %iv.next, %for.body ]
  %s = phi float [ 0.000000e+00, %for.body.preheader ], [ %2, %for.body ]
  %arrayidx = getelementptr inbounds float, ptr %a, i64 %iv
  %0 = load float, ptr %arrayidx, align 4
  %arrayidx2 = getelementptr inbounds float, ptr %b, i64 %iv
  %1 = load float, ptr %arrayidx2, align 4
  %2 = tail call float @llvm.fmuladd.f32(float %0, float %1, float %s)
  %iv.next = add nuw nsw i64 %iv, 1
  %exitcond.not = icmp eq i64 %iv.next, %wide.trip.count
  br i1 %exitcond.not, label %exit, label %for.body
exit:
  %r = phi float [ 0.000000e+00, %entry ], [ %2, %for.body ]
  ret float %r
}

; The same dot product with reassoc (fast math): a vectorisable reduction, and
; FMA then pays.
; CHECK: define float @dot_fast({{.*}} !shard.mv.reason ![[FASTR:[0-9]+]] !shard.mv ![[V3]] {
define float @dot_fast(ptr %a, ptr %b, i32 %n) #0 {
entry:
  %cmp5 = icmp sgt i32 %n, 0
  br i1 %cmp5, label %for.body.preheader, label %exit
for.body.preheader:
  %wide.trip.count = zext i32 %n to i64
  br label %for.body
for.body:
  %iv = phi i64 [ 0, %for.body.preheader ], [ %iv.next, %for.body ]
  %s = phi float [ 0.000000e+00, %for.body.preheader ], [ %2, %for.body ]
  %arrayidx = getelementptr inbounds float, ptr %a, i64 %iv
  %0 = load float, ptr %arrayidx, align 4
  %arrayidx2 = getelementptr inbounds float, ptr %b, i64 %iv
  %1 = load float, ptr %arrayidx2, align 4
  %2 = tail call reassoc contract float @llvm.fmuladd.f32(float %0, float %1, float %s)
  %iv.next = add nuw nsw i64 %iv, 1
  %exitcond.not = icmp eq i64 %iv.next, %wide.trip.count
  br i1 %exitcond.not, label %exit, label %for.body
exit:
  %r = phi float [ 0.000000e+00, %entry ], [ %2, %for.body ]
  ret float %r
}

; Leading zeros of 64-bit words: AVX-512's vplzcntq pays at v4 only.
; CHECK: define i32 @lz({{.*}} !shard.mv.reason ![[LZR:[0-9]+]] !shard.mv ![[V4:[0-9]+]] {
define i32 @lz(ptr %a, i32 %n) #0 {
entry:
  %cmp4 = icmp sgt i32 %n, 0
  br i1 %cmp4, label %for.body.preheader, label %exit
for.body.preheader:
  %wide.trip.count = zext i32 %n to i64
  br label %for.body
for.body:
  %iv = phi i64 [ 0, %for.body.preheader ], [ %iv.next, %for.body ]
  %s = phi i32 [ 0, %for.body.preheader ], [ %add, %for.body ]
  %arrayidx = getelementptr inbounds i64, ptr %a, i64 %iv
  %0 = load i64, ptr %arrayidx, align 8
  %or = or i64 %0, 1
  %1 = tail call i64 @llvm.ctlz.i64(i64 %or, i1 true)
  %cast = trunc i64 %1 to i32
  %add = add nuw nsw i32 %s, %cast
  %iv.next = add nuw nsw i64 %iv, 1
  %exitcond.not = icmp eq i64 %iv.next, %wide.trip.count
  br i1 %exitcond.not, label %exit, label %for.body
exit:
  %r = phi i32 [ 0, %entry ], [ %add, %for.body ]
  ret i32 %r
}

; Pointer chasing: nothing a newer target does better.
; CHECK: define i32 @walk({{.*}} !shard.mv.reason ![[WALKR:[0-9]+]] {
define i32 @walk(ptr %p) #0 {
entry:
  %null = icmp eq ptr %p, null
  br i1 %null, label %exit, label %for.body
for.body:
  %s = phi i32 [ %add, %for.body ], [ 0, %entry ]
  %q = phi ptr [ %next, %for.body ], [ %p, %entry ]
  %v = getelementptr inbounds i8, ptr %q, i64 8
  %0 = load i32, ptr %v, align 8
  %add = add nsw i32 %0, %s
  %next = load ptr, ptr %q, align 8
  %done = icmp eq ptr %next, null
  br i1 %done, label %exit, label %for.body
exit:
  %r = phi i32 [ 0, %entry ], [ %add, %for.body ]
  ret i32 %r
}

; The same loop in a hot function: the bar is lower (and still not reached).
; CHECK: define i32 @walk_hot({{.*}} !shard.mv.reason ![[HOTR:[0-9]+]] {
define i32 @walk_hot(ptr %p) #1 {
entry:
  %null = icmp eq ptr %p, null
  br i1 %null, label %exit, label %for.body
for.body:
  %s = phi i32 [ %add, %for.body ], [ 0, %entry ]
  %q = phi ptr [ %next, %for.body ], [ %p, %entry ]
  %v = getelementptr inbounds i8, ptr %q, i64 8
  %0 = load i32, ptr %v, align 8
  %add = add nsw i32 %0, %s
  %next = load ptr, ptr %q, align 8
  %done = icmp eq ptr %next, null
  br i1 %done, label %exit, label %for.body
exit:
  %r = phi i32 [ 0, %entry ], [ %add, %for.body ]
  ret i32 %r
}

; No loops, no bit operations: nothing to gain.
; CHECK: define i32 @plain({{.*}} !shard.mv.reason ![[PLAINR:[0-9]+]] {
define i32 @plain(i32 %a, i32 %b) #0 {
  %mul = mul nsw i32 %b, %a
  %add = add nsw i32 %mul, 1
  ret i32 %add
}

; A small helper with a bit operation is left to be inlined into its caller
; (cloning it would turn its calls into indirect ones); the caller's loop counts
; the helper's gain and is cloned instead.
; CHECK: define internal i32 @helper({{.*}} !shard.mv.reason ![[HELPR:[0-9]+]] {
define internal i32 @helper(i32 %x) #0 {
  %p = tail call i32 @llvm.ctpop.i32(i32 %x)
  %r = add i32 %p, 1
  ret i32 %r
}

; CHECK: define i32 @caller({{.*}} !shard.mv.reason ![[CALLR:[0-9]+]] !shard.mv ![[CALLV:[0-9]+]] {
define i32 @caller(ptr %a, i32 %n) #0 {
entry:
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %i.next, %loop ]
  %s = phi i32 [ 0, %entry ], [ %add, %loop ]
  %pv = getelementptr inbounds i32, ptr %a, i32 %i
  %v = load volatile i32, ptr %pv, align 4
  %h = call i32 @helper(i32 %v)
  %add = add i32 %s, %h
  %i.next = add i32 %i, 1
  %done = icmp eq i32 %i.next, %n
  br i1 %done, label %exit, label %loop
exit:
  ret i32 %add
}

declare i32 @llvm.ctpop.i32(i32)
declare i64 @llvm.ctlz.i64(i64, i1 immarg)
declare float @llvm.fmuladd.f32(float, float, float)

attributes #0 = { nounwind "target-cpu"="x86-64" "target-features"="+cmov,+cx8,+fxsr,+mmx,+sse,+sse2,+x87" "tune-cpu"="generic" }
attributes #1 = { hot nounwind "target-cpu"="x86-64" "target-features"="+cmov,+cx8,+fxsr,+mmx,+sse,+sse2,+x87" "tune-cpu"="generic" }

; CHECK-DAG: ![[POP]] = !{!"x86-64-v2", !"x86-64-v3"}
; CHECK-DAG: ![[POPR]] = !{!"x86-64-v2: chosen: predicted {{[0-9.]+}}x (bit operations)", !"x86-64-v3: chosen: predicted {{[0-9.]+}}x (bit operations, vectorisable loops)", !"x86-64-v4: declined: predicted 1.00x over x86-64-v3, below 1.20x"}
; CHECK-DAG: ![[V3]] = !{!"x86-64-v3"}
; CHECK-DAG: ![[SAXR]] = !{!"x86-64-v2: declined: predicted 1.00x, below 1.20x", !"x86-64-v3: chosen: predicted {{[0-9.]+}}x (vectorisable loops, FMA)", !"x86-64-v4: declined: predicted 1.00x over x86-64-v3, below 1.20x"}
; CHECK-DAG: ![[DOTR]] = !{!"x86-64-v2: declined: predicted 1.00x, below 1.20x", !"x86-64-v3: declined: FMA lengthens a loop-carried strict FP reduction (fmuladd without reassoc)", !"x86-64-v4: declined: FMA lengthens a loop-carried strict FP reduction (fmuladd without reassoc)"}
; CHECK-DAG: ![[FASTR]] = !{!"x86-64-v2: declined: {{.*}}", !"x86-64-v3: chosen: predicted {{[0-9.]+}}x ({{.*}}vectorisable loops{{.*}})", !"x86-64-v4: declined: predicted 1.00x over x86-64-v3, below 1.20x"}
; CHECK-DAG: ![[V4]] = !{!"x86-64-v4"}
; CHECK-DAG: ![[LZR]] = !{!"x86-64-v2: declined: predicted 1.00x, below 1.20x", !"x86-64-v3: declined: predicted {{[0-9.]+}}x, below 1.20x", !"x86-64-v4: chosen: predicted {{[0-9.]+}}x (vectorisable loops, bit operations)"}
; CHECK-DAG: ![[WALKR]] = !{!"x86-64-v2: declined: predicted 1.00x, below 1.20x", !"x86-64-v3: declined: predicted 1.00x, below 1.20x", !"x86-64-v4: declined: predicted 1.00x, below 1.20x"}
; CHECK-DAG: ![[HOTR]] = !{!"x86-64-v2: declined: predicted 1.00x, below 1.10x", !"x86-64-v3: declined: predicted 1.00x, below 1.10x", !"x86-64-v4: declined: predicted 1.00x, below 1.10x"}
; CHECK-DAG: ![[PLAINR]] = !{!"not multiversioned: no loops or bit operations"}
; CHECK-DAG: ![[HELPR]] = !{!"not multiversioned: likely inlined into its callers"}
; CHECK-DAG: ![[CALLV]] = !{!"x86-64-v2"}
; CHECK-DAG: ![[CALLR]] = !{!"x86-64-v2: chosen: predicted {{[0-9.]+}}x (bit operations)", !"x86-64-v3: declined: predicted {{[0-9.]+}}x over x86-64-v2, below 1.20x", !"x86-64-v4: declined: predicted {{[0-9.]+}}x over x86-64-v2, below 1.20x"}

; REMARK-DAG: remark: <unknown>:0:0: multiversioned for x86-64-v2: predicted {{[0-9.]+}}x (bit operations)
; REMARK-DAG: remark: <unknown>:0:0: multiversioned for x86-64-v3: predicted {{[0-9.]+}}x (vectorisable loops, FMA)
; REMARK-DAG: remark: <unknown>:0:0: declined x86-64-v3: FMA lengthens a loop-carried strict FP reduction (fmuladd without reassoc)
; REMARK-DAG: remark: <unknown>:0:0: declined x86-64-v4: predicted 1.00x over x86-64-v3, below 1.20x
; REMARK-DAG: remark: <unknown>:0:0: declined all targets: no loops or bit operations
; REMARK-DAG: remark: <unknown>:0:0: declined all targets: likely inlined into its callers

; YAML:      --- !Passed
; YAML-NEXT: Pass: shard-mv-annotate
; YAML-NEXT: Name: Multiversioned
; YAML-NEXT: Function: popcount
; YAML-NEXT: Args:
; YAML-NEXT:   - String: 'multiversioned for '
; YAML-NEXT:   - String: x86-64-v2
; YAML:      Function: dot
; YAML-NEXT: Args:
; YAML-NEXT:   - String: 'declined '
; YAML-NEXT:   - String: x86-64-v2
; YAML:        - String: x86-64-v3
; YAML-NEXT:   - String: ': '
; YAML-NEXT:   - String: {{'?}}FMA lengthens a loop-carried strict FP reduction (fmuladd without reassoc){{'?}}
; YAML:      Name: NotMultiversioned
; YAML-NEXT: Function: plain
