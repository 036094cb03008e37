; shard-mv clones every function with !shard.mv per target and dispatches through
; an ifunc and a resolver (dispatch=auto is ifunc on ELF): F.default keeps the
; body, F.<target> gets target-cpu, tune-cpu and the target's features, F becomes
; an ifunc with F's linkage and visibility. Calls inside a clone to another
; multiversioned function go straight to the clone for the same target, else to
; the most capable clone the target implies, else to the default; calls in the
; default and elsewhere keep going through the ifunc. The output passes the
; verifier (opt checks it).
;
; RUN: %opt-shard -passes=shard-mv -S %s | FileCheck %s
; RUN: %opt-shard -passes='shard-mv<dispatch=ifunc>' -S %s | FileCheck %s
; RUN: %opt-shard -passes='shard-mv<dispatch=ifunc>' -print-pipeline-passes -disable-output %s \
; RUN:   | FileCheck --check-prefix=PIPE %s
; PIPE: shard-mv<dispatch=ifunc>

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

; Uses of F outside calls (aliases, initialisers) now name the ifunc: F's
; address stays one address.
; CHECK: @gptr = global ptr @g
; CHECK: @__cpu_model = external dso_local global { i32, i32, i32, [1 x i32] }
; CHECK: @__cpu_features2 = external dso_local global [3 x i32]
; CHECK: @g_alias = alias i32 (i32), ptr @g
; CHECK: @f = ifunc i32 (i32), ptr @f.resolver
; CHECK: @g = hidden ifunc i32 (i32), ptr @g.resolver
; CHECK: @h = internal ifunc i32 (i32), ptr @h.resolver
; CHECK: @cpu = ifunc i32 (i32), ptr @cpu.resolver
@gptr = global ptr @g
@g_alias = alias i32 (i32), ptr @g

; CHECK:       define internal i32 @f.default(i32 %x) unnamed_addr #[[BASE:[0-9]+]] !shard.mv.reason ![[FREASON:[0-9]+]] !shard.mv.family ![[FFAM:[0-9]+]] !shard.mv.clone ![[DEFAULT:[0-9]+]] {
; CHECK:         call i32 @g(i32 %x)
; CHECK-NEXT:    call i32 @h(i32
; CHECK-NEXT:    call i32 @f(i32
; CHECK-NEXT:    call i32 @plain(i32

; CHECK:       define internal i32 @f.x86-64-v3(i32 %x) unnamed_addr #[[V3:[0-9]+]] !shard.mv.family ![[FFAM]] !shard.mv.clone ![[CV3:[0-9]+]] {
; CHECK:         call i32 @g.x86-64-v3(i32 %x)
; CHECK-NEXT:    call i32 @h.x86-64-v2(i32
; CHECK-NEXT:    call i32 @f.x86-64-v3(i32
; CHECK-NEXT:    call i32 @plain(i32

; CHECK:       define internal i32 @f.x86-64-v2(i32 %x) unnamed_addr #[[V2:[0-9]+]] !shard.mv.family ![[FFAM]] !shard.mv.clone ![[CV2:[0-9]+]] {
; CHECK:         call i32 @g.default(i32 %x)
; CHECK-NEXT:    call i32 @h.x86-64-v2(i32
; CHECK-NEXT:    call i32 @f.x86-64-v2(i32
; CHECK-NEXT:    call i32 @plain(i32

; The resolver: __cpu_indicator_init, then the bits __builtin_cpu_supports tests,
; most capable target first (x86-64-v3 is bit 1 and x86-64-v2 bit 0 of
; __cpu_features2[2]), the default last.
; CHECK:       define internal ptr @f.resolver() #[[RES:[0-9]+]] !shard.mv.family ![[FFAM]] {
; CHECK-NEXT:  entry:
; CHECK-NEXT:    call void @__cpu_indicator_init()
; CHECK-NEXT:    [[W:%.*]] = load i32, ptr getelementptr inbounds ([3 x i32], ptr @__cpu_features2, i32 0, i32 2), align 4
; CHECK-NEXT:    [[B:%.*]] = and i32 [[W]], 2
; CHECK-NEXT:    [[C:%.*]] = icmp eq i32 [[B]], 2
; CHECK-NEXT:    br i1 [[C]], label %use.x86-64-v3, label %not.x86-64-v3
; CHECK:       use.x86-64-v3:
; CHECK-NEXT:    ret ptr @f.x86-64-v3
; CHECK:       not.x86-64-v3:
; CHECK-NEXT:    [[W2:%.*]] = load i32, ptr getelementptr inbounds ([3 x i32], ptr @__cpu_features2, i32 0, i32 2), align 4
; CHECK-NEXT:    [[B2:%.*]] = and i32 [[W2]], 1
; CHECK-NEXT:    [[C2:%.*]] = icmp eq i32 [[B2]], 1
; CHECK-NEXT:    br i1 [[C2]], label %use.x86-64-v2, label %not.x86-64-v2
; CHECK:       use.x86-64-v2:
; CHECK-NEXT:    ret ptr @f.x86-64-v2
; CHECK:       not.x86-64-v2:
; CHECK-NEXT:    ret ptr @f.default
; CHECK-NEXT:  }
define i32 @f(i32 %x) #0 !shard.mv !0 !shard.mv.reason !4 {
  %a = call i32 @g(i32 %x)
  %b = call i32 @h(i32 %a)
  %c = call i32 @f(i32 %b)
  %d = call i32 @plain(i32 %c)
  ret i32 %d
}

; CHECK:       define internal i32 @g.default(i32 %x) unnamed_addr #[[BASE]] !shard.mv.family ![[GFAM:[0-9]+]] !shard.mv.clone ![[DEFAULT]] {
; CHECK:       define internal i32 @g.x86-64-v3(i32 %x) unnamed_addr #[[V3]] !shard.mv.family ![[GFAM]] !shard.mv.clone ![[CV3]] {
; CHECK-LABEL: define internal ptr @g.resolver()
define hidden i32 @g(i32 %x) #0 !shard.mv !1 {
  %r = add i32 %x, 1
  ret i32 %r
}

; CHECK:       define internal i32 @h.default(i32 %x) unnamed_addr #[[BASE]]
; CHECK:       define internal i32 @h.x86-64-v2(i32 %x) unnamed_addr #[[V2]]
; CHECK-LABEL: define internal ptr @h.resolver()
define internal i32 @h(i32 %x) #0 !shard.mv !2 {
  %r = mul i32 %x, 3
  ret i32 %r
}

; A CPU name: the clone gets that CPU's features, and the resolver tests every
; one of them that __builtin_cpu_supports knows (in __cpu_model.__cpu_features[0]
; and in __cpu_features2).
; CHECK:       define internal i32 @cpu.haswell(i32 %x) unnamed_addr #[[HSW:[0-9]+]]
; CHECK-LABEL: define internal ptr @cpu.resolver()
; CHECK-NEXT:  entry:
; CHECK-NEXT:    call void @__cpu_indicator_init()
; CHECK-NEXT:    [[M:%.*]] = load i32, ptr getelementptr inbounds ({ i32, i32, i32, [1 x i32] }, ptr @__cpu_model, i32 0, i32 3, i32 0), align 4
; CHECK-NEXT:    [[MB:%.*]] = and i32 [[M]], 739327
; CHECK-NEXT:    [[MC:%.*]] = icmp eq i32 [[MB]], 739327
; CHECK:         load i32, ptr @__cpu_features2, align 4
; CHECK:         br i1 {{%.*}}, label %use.haswell, label %not.haswell
; CHECK:       use.haswell:
; CHECK-NEXT:    ret ptr @cpu.haswell
; CHECK:       not.haswell:
; CHECK-NEXT:    ret ptr @cpu.default
define i32 @cpu(i32 %x) #0 !shard.mv !3 {
  %r = sub i32 %x, 1
  ret i32 %r
}

; Callers outside the families keep calling the ifunc.
; CHECK-LABEL: define i32 @user(i32 %x)
; CHECK-NEXT:    call i32 @f(i32 %x)
; CHECK-NEXT:    call i32 @g_alias(i32
define i32 @user(i32 %x) #0 {
  %a = call i32 @f(i32 %x)
  %b = call i32 @g_alias(i32 %a)
  ret i32 %b
}

declare i32 @plain(i32)

; CHECK: declare dso_local void @__cpu_indicator_init()

; CHECK-DAG: attributes #[[BASE]] = { nounwind "target-cpu"="x86-64" "target-features"="+cmov,+cx8,+fxsr,+mmx,+sse,+sse2,+x87" "tune-cpu"="generic" }
; CHECK-DAG: attributes #[[V3]] = { nounwind "target-cpu"="x86-64-v3" "target-features"="+avx,+avx2,+bmi,+bmi2,+cmov,+crc32,+cx16,+cx8,+f16c,+fma,+fxsr,+lzcnt,+mmx,+movbe,+popcnt,+sahf,+sse,+sse2,+sse3,+sse4.1,+sse4.2,+ssse3,+x87,+xsave" "tune-cpu"="x86-64-v3" }
; CHECK-DAG: attributes #[[V2]] = { nounwind "target-cpu"="x86-64-v2" "target-features"="+cmov,+crc32,+cx16,+cx8,+fxsr,+mmx,+popcnt,+sahf,+sse,+sse2,+sse3,+sse4.1,+sse4.2,+ssse3,+x87" "tune-cpu"="x86-64-v2" }
; CHECK-DAG: attributes #[[HSW]] = { nounwind "target-cpu"="haswell" "target-features"="+avx,+avx2,+bmi,+bmi2,+cmov,+crc32,+cx16,+cx8,+f16c,+fma,+fsgsbase,+fxsr,+invpcid,+lzcnt,+mmx,+movbe,+pclmul,+popcnt,+rdrnd,+sahf,+sse,+sse2,+sse3,+sse4.1,+sse4.2,+ssse3,+x87,+xsave,+xsaveopt" "tune-cpu"="haswell" }
; CHECK-DAG: attributes #[[RES]] = { disable_sanitizer_instrumentation nounwind }

; The reason stays with the default; every member names its family.
; CHECK-DAG: ![[FREASON]] = !{!"x86-64-v2: chosen: test"}
; CHECK-DAG: ![[FFAM]] = !{!"f"}
; CHECK-DAG: ![[GFAM]] = !{!"g"}
; CHECK-DAG: ![[DEFAULT]] = !{!"default"}
; CHECK-DAG: ![[CV3]] = !{!"x86-64-v3"}
; CHECK-DAG: ![[CV2]] = !{!"x86-64-v2"}

attributes #0 = { nounwind "target-cpu"="x86-64" "target-features"="+cmov,+cx8,+fxsr,+mmx,+sse,+sse2,+x87" "tune-cpu"="generic" }

!0 = !{!"x86-64-v2", !"x86-64-v3"}
!1 = !{!"x86-64-v3"}
!2 = !{!"x86-64-v2"}
!3 = !{!"haswell"}
!4 = !{!"x86-64-v2: chosen: test"}
