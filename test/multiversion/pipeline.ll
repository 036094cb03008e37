; With -shard-mv-targets, the plugin adds shard-mv-annotate and shard-mv to the
; default pipelines at the start of the optimisation pipeline (after inlining and
; simplification, before the loop vectoriser): each clone is then vectorised for
; its own target, 8 floats wide at x86-64-v3 where the default gets 4. This is
; what clang -O2 -fpass-plugin=... -mllvm -shard-mv-targets=... does. At -O0
; nothing is added.
;
; RUN: %opt-shard -shard-mv-targets=x86-64-v2,x86-64-v3 -passes='default<O2>' -S %s | FileCheck %s
; RUN: %opt-shard -shard-mv-targets=x86-64-v3 -passes='default<O2>' -print-pipeline-passes \
; RUN:   -disable-output %s | FileCheck --check-prefix=PIPE %s
; RUN: %opt-shard -shard-mv-targets=x86-64-v3 -passes='default<O0>' -print-pipeline-passes \
; RUN:   -disable-output %s | FileCheck --check-prefix=O0 %s
; RUN: %opt-shard -passes='default<O2>' -print-pipeline-passes -disable-output %s \
; RUN:   | FileCheck --check-prefix=O0 %s
; PIPE: shard-mv-annotate,shard-mv,{{.*}}loop-vectorize
; O0-NOT: shard-mv

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

; CHECK: @saxpy = ifunc void (ptr, ptr, float, i32), ptr @saxpy.resolver
; CHECK-LABEL: define internal void @saxpy.default(
; CHECK:         call <4 x float> @llvm.fmuladd.v4f32(
; CHECK-NOT:     <8 x float>
; CHECK-LABEL: define internal void @saxpy.x86-64-v3(
; CHECK:         call <8 x float> @llvm.fmuladd.v8f32(
; CHECK-LABEL: define internal {{.*}}ptr @saxpy.resolver()
define void @saxpy(ptr noalias %y, ptr noalias %x, float %a, i32 %n) #0 {
entry:
  br label %cond
cond:
  %i = phi i32 [ 0, %entry ], [ %i.next, %body ]
  %more = icmp slt i32 %i, %n
  br i1 %more, label %body, label %exit
body:
  %idx = sext i32 %i to i64
  %px = getelementptr inbounds float, ptr %x, i64 %idx
  %vx = load float, ptr %px, align 4
  %py = getelementptr inbounds float, ptr %y, i64 %idx
  %vy = load float, ptr %py, align 4
  %r = call float @llvm.fmuladd.f32(float %a, float %vx, float %vy)
  store float %r, ptr %py, align 4
  %i.next = add nsw i32 %i, 1
  br label %cond
exit:
  ret void
}

declare float @llvm.fmuladd.f32(float, float, float)

attributes #0 = { nounwind uwtable "target-cpu"="x86-64" "target-features"="+cmov,+cx8,+fxsr,+mmx,+sse,+sse2,+x87" "tune-cpu"="generic" }
