; A module compiled for a newer baseline (here -march=x86-64-v3): targets it
; already has are declined, and a more capable one is still weighed.
;
; RUN: %opt-shard -passes='shard-mv-annotate<targets=x86-64-v2:x86-64-v3:x86-64-v4>' -S %s | FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

; CHECK: define i32 @lz({{.*}} !shard.mv.reason ![[R:[0-9]+]] !shard.mv ![[V4:[0-9]+]] {
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

declare i64 @llvm.ctlz.i64(i64, i1 immarg)

attributes #0 = { nounwind "target-cpu"="x86-64-v3" "target-features"="+avx,+avx2,+bmi,+bmi2,+cmov,+crc32,+cx16,+cx8,+f16c,+fma,+fxsr,+lzcnt,+mmx,+movbe,+popcnt,+sahf,+sse,+sse2,+sse3,+sse4.1,+sse4.2,+ssse3,+x87,+xsave" }

; CHECK-DAG: ![[V4]] = !{!"x86-64-v4"}
; CHECK-DAG: ![[R]] = !{!"x86-64-v2: declined: the baseline already has every feature of x86-64-v2", !"x86-64-v3: declined: the baseline already has every feature of x86-64-v3", !"x86-64-v4: chosen: predicted {{[0-9.]+}}x (vectorisable loops, bit operations)"}
