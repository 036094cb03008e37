; dispatch=table, for platforms without ifunc (and the default where the object
; format is not ELF): F stays a function, so its address is stable, and jumps
; through the internal pointer F.ptr, which starts at the stub F.init; the stub
; asks the resolver once, stores the answer atomically and goes on to it. Both
; forward the arguments with musttail (ABI attributes such as sret and byval
; included), so the verifier accepts them.
;
; RUN: %opt-shard -passes='shard-mv<dispatch=table>' -S %s | FileCheck %s
; RUN: sed -e 's/x86_64-pc-linux-gnu/x86_64-apple-macosx13.0.0/' %s | %opt-shard -passes=shard-mv -S \
; RUN:   | FileCheck %s
; The setting also comes from -shard-mv-dispatch when the pipeline gives none.
; RUN: %opt-shard -shard-mv-dispatch=table -passes=shard-mv -S %s | FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

%pair = type { i64, i64 }

; CHECK-NOT: ifunc
; CHECK: @f.ptr = internal global ptr @f.init, align 8, !shard.mv.family ![[FFAM:[0-9]+]]
; CHECK: @s.ptr = internal global ptr @s.init, align 8, !shard.mv.family ![[SFAM:[0-9]+]]

; CHECK:      define i32 @f(i32 %x) #[[THUNK:[0-9]+]] !shard.mv.family ![[FFAM]] {
; CHECK-NEXT: entry:
; CHECK-NEXT:   [[P:%.*]] = load atomic ptr, ptr @f.ptr monotonic, align 8
; CHECK-NEXT:   [[R:%.*]] = musttail call i32 [[P]](i32 %x)
; CHECK-NEXT:   ret i32 [[R]]
; CHECK-NEXT: }
; CHECK:      define internal i32 @f.default(i32 %x) unnamed_addr #[[BASE:[0-9]+]]
; CHECK:      define internal i32 @f.x86-64-v3(i32 %x) unnamed_addr #[[V3:[0-9]+]]
; Calls inside a clone to another table-dispatched function go to its clone.
; CHECK-NEXT:   call i32 @g.x86-64-v3(i32 %x)
; CHECK:      define internal ptr @f.resolver()
; CHECK:        call void @__cpu_indicator_init()
; CHECK:        ret ptr @f.x86-64-v3
; CHECK:        ret ptr @f.default
; CHECK:      define internal i32 @f.init(i32 %x) #[[INIT:[0-9]+]] !shard.mv.family ![[FFAM]] {
; CHECK-NEXT: entry:
; CHECK-NEXT:   [[C:%.*]] = call ptr @f.resolver()
; CHECK-NEXT:   store atomic ptr [[C]], ptr @f.ptr monotonic, align 8
; CHECK-NEXT:   [[R2:%.*]] = musttail call i32 [[C]](i32 %x)
; CHECK-NEXT:   ret i32 [[R2]]
; CHECK-NEXT: }
define i32 @f(i32 %x) #0 !shard.mv !0 {
  %r = call i32 @g(i32 %x)
  ret i32 %r
}

; CHECK:      define i32 @g(i32 %x) #[[THUNK]] !shard.mv.family
define i32 @g(i32 %x) #0 !shard.mv !0 {
  %r = add i32 %x, 1
  ret i32 %r
}

; CHECK:      define void @s(ptr sret(%pair) %out, ptr byval(%pair) %in) #{{[0-9]+}} !shard.mv.family ![[SFAM]] {
; CHECK-NEXT: entry:
; CHECK-NEXT:   [[SP:%.*]] = load atomic ptr, ptr @s.ptr monotonic, align 8
; CHECK-NEXT:   musttail call void [[SP]](ptr sret(%pair) %out, ptr byval(%pair) %in)
; CHECK-NEXT:   ret void
; CHECK:      define internal void @s.init(ptr sret(%pair) %out, ptr byval(%pair) %in)
; CHECK:        musttail call void {{%.*}}(ptr sret(%pair) %out, ptr byval(%pair) %in)
; CHECK-NEXT:   ret void
define void @s(ptr sret(%pair) %out, ptr byval(%pair) %in) #0 !shard.mv !0 {
  %v = load %pair, ptr %in
  store %pair %v, ptr %out
  ret void
}

; The stub and F keep F's attributes but not its memory effects (they read
; F.ptr); the stub is cold and never inlined.
; CHECK-DAG: attributes #[[THUNK]] = { nounwind "target-cpu"="x86-64" "target-features"="+cmov,+cx8,+fxsr,+mmx,+sse,+sse2,+x87" }
; CHECK-DAG: attributes #[[INIT]] = { cold noinline nounwind "target-cpu"="x86-64" "target-features"="+cmov,+cx8,+fxsr,+mmx,+sse,+sse2,+x87" }
; CHECK-DAG: attributes #[[BASE]] = { nounwind memory(argmem: readwrite) "target-cpu"="x86-64" "target-features"="+cmov,+cx8,+fxsr,+mmx,+sse,+sse2,+x87" }
; CHECK-DAG: attributes #[[V3]] = { nounwind memory(argmem: readwrite) "target-cpu"="x86-64-v3" "target-features"="{{.*}}" "tune-cpu"="x86-64-v3" }

attributes #0 = { nounwind memory(argmem: readwrite) "target-cpu"="x86-64" "target-features"="+cmov,+cx8,+fxsr,+mmx,+sse,+sse2,+x87" }

!0 = !{!"x86-64-v3"}
