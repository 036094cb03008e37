; Test-only settings of shard-mv. force=T: every resolver returns the clone that a
; CPU with exactly T's features would get (T's own clone, else the most capable
; clone T implies, else the default); force=default: the default. trace: every
; clone and default stores a pointer to its own name into @__shard_mv_trace
; (weak, hidden) on entry, so that a program can tell which one ran.
;
; RUN: %opt-shard -passes='shard-mv<force=default>' -S %s | FileCheck --check-prefix=DEF %s
; RUN: %opt-shard -passes='shard-mv<force=x86-64-v3>' -S %s | FileCheck --check-prefix=V3 %s
; RUN: %opt-shard -passes='shard-mv<force=haswell>' -S %s | FileCheck --check-prefix=V3 %s
; RUN: %opt-shard -passes='shard-mv<trace>' -S %s | FileCheck --check-prefix=TRACE %s
; The same from the command line (what clang -mllvm passes), and back as pipeline text.
; RUN: %opt-shard -shard-mv-force=x86-64-v3 -shard-mv-trace -passes=shard-mv -S %s -o %t.ll
; RUN: FileCheck --check-prefix=V3 %s < %t.ll
; RUN: FileCheck --check-prefix=TRACE %s < %t.ll
; RUN: %opt-shard -passes='shard-mv<dispatch=table;force=x86-64-v3;trace>' -print-pipeline-passes \
; RUN:   -disable-output %s | FileCheck --check-prefix=PIPE %s
; PIPE: shard-mv<dispatch=table;force=x86-64-v3;trace>

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

; DEF-LABEL: define internal ptr @f.resolver()
; DEF-NEXT:  entry:
; DEF-NEXT:    call void @__cpu_indicator_init()
; DEF-NEXT:    ret ptr @f.default
; DEF-NEXT:  }
; DEF-LABEL: define internal ptr @g.resolver()
; DEF:         ret ptr @g.default
; DEF-LABEL: define internal ptr @h.resolver()
; DEF:         ret ptr @h.default

; V3-LABEL: define internal ptr @f.resolver()
; V3-NEXT:  entry:
; V3-NEXT:    call void @__cpu_indicator_init()
; V3-NEXT:    ret ptr @f.x86-64-v3
; V3-NEXT:  }
; V3-LABEL: define internal ptr @g.resolver()
; V3:         ret ptr @g.x86-64-v2
; V3-LABEL: define internal ptr @h.resolver()
; V3:         ret ptr @h.default

; TRACE: @__shard_mv_trace = weak hidden global ptr null
; TRACE: @f.default.trace = private unnamed_addr constant [10 x i8] c"f.default\00"
; TRACE: @f.x86-64-v3.trace = private unnamed_addr constant [12 x i8] c"f.x86-64-v3\00"
; TRACE: @f.x86-64-v2.trace = private unnamed_addr constant [12 x i8] c"f.x86-64-v2\00"
; TRACE-LABEL: define internal i32 @f.default(i32 %x)
; TRACE-NEXT:    store volatile ptr @f.default.trace, ptr @__shard_mv_trace, align 8
; TRACE-NEXT:    add i32 %x, 1
; TRACE-LABEL: define internal i32 @f.x86-64-v3(i32 %x)
; TRACE-NEXT:    store volatile ptr @f.x86-64-v3.trace, ptr @__shard_mv_trace, align 8
; TRACE-LABEL: define internal i32 @f.x86-64-v2(i32 %x)
; TRACE-NEXT:    store volatile ptr @f.x86-64-v2.trace, ptr @__shard_mv_trace, align 8
; The resolver stores nothing.
; TRACE-LABEL: define internal ptr @f.resolver()
; TRACE-NOT:     @__shard_mv_trace
; TRACE:       }
define i32 @f(i32 %x) #0 !shard.mv !0 {
  %r = add i32 %x, 1
  ret i32 %r
}

define i32 @g(i32 %x) #0 !shard.mv !1 {
  %r = add i32 %x, 2
  ret i32 %r
}

define i32 @h(i32 %x) #0 !shard.mv !2 {
  %r = add i32 %x, 3
  ret i32 %r
}

attributes #0 = { nounwind "target-cpu"="x86-64" "target-features"="+cmov,+cx8,+fxsr,+mmx,+sse,+sse2,+x87" }

!0 = !{!"x86-64-v2", !"x86-64-v3"}
!1 = !{!"x86-64-v2"}
!2 = !{!"x86-64-v4"}
