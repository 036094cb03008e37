; shard-split<revisit=N> marks "shard-revisit"="N" on a function whose serial call graph SCC its
; shard cuts (test/split/revisit.ll). The serial inliner visits such a function again as
; inlining splits the SCC, and a later visit takes calls an earlier one refused; with the
; plugin loaded, the inliner's walk gives the marked function N more visits (the function
; simplification pipeline, then the inliner) and drops the mark.
; @f's first visit inlines @h but refuses @big: its argument is a load of what @h stored.
; SROA then makes it the constant 3, with which @big is one case of its switch: the second
; visit inlines it. Unmarked, or without the plugin, @big stays a call.
; RUN: %opt-shard -passes='default<O2>' -S %s | FileCheck %s
; RUN: sed 's/"shard-revisit"="1"/"other"/' %s | %opt-shard -passes='default<O2>' -S | FileCheck --check-prefix=ONCE %s
; RUN: opt -passes='default<O2>' -S %s | FileCheck --check-prefix=ONCE %s
; The pass prints as shard-revisit<O2> (its simplification pipeline's level), after the inliner,
; and runs from pipeline text: alone, its one visit inlines @h and drops the mark.
; RUN: %opt-shard -passes='default<O2>' -print-pipeline-passes -disable-output %s | FileCheck --check-prefix=PIPE %s
; RUN: %opt-shard -passes='cgscc(shard-revisit<O2>)' -S %s | FileCheck --check-prefix=ALONE %s
; PIPE: inline,{{.*}}shard-revisit<O2>,
; ALONE-LABEL: define void @f(
; ALONE-NOT:     call void @h(
; ALONE:         call void @big(
; ALONE-NOT:   shard-revisit

; CHECK-LABEL: define void @f(
; CHECK-NEXT:    tail call void @e3(i32 0)
; CHECK-NOT:     @big
; CHECK:         ret void
; CHECK-NOT:   shard-revisit

; ONCE-LABEL: define void @f(
; ONCE-NEXT:    tail call void @big(i32 3)

define void @f() #0 {
  %p = alloca i32
  call void @h(ptr %p)
  %v = load i32, ptr %p
  call void @big(i32 %v)
  ret void
}

define internal void @h(ptr %p) {
  store i32 3, ptr %p
  ret void
}

define void @big(i32 %x) {
  switch i32 %x, label %d [
    i32 0, label %c0
    i32 1, label %c1
    i32 2, label %c2
    i32 3, label %c3
    i32 4, label %c4
    i32 5, label %c5
    i32 6, label %c6
    i32 7, label %c7
  ]
d:
  ret void
c0:
  call void @e0(i32 0)
  call void @e0(i32 1)
  call void @e0(i32 2)
  call void @e0(i32 3)
  call void @e0(i32 4)
  ret void
c1:
  call void @e1(i32 0)
  call void @e1(i32 1)
  call void @e1(i32 2)
  call void @e1(i32 3)
  call void @e1(i32 4)
  ret void
c2:
  call void @e2(i32 0)
  call void @e2(i32 1)
  call void @e2(i32 2)
  call void @e2(i32 3)
  call void @e2(i32 4)
  ret void
c3:
  call void @e3(i32 0)
  call void @e3(i32 1)
  call void @e3(i32 2)
  call void @e3(i32 3)
  call void @e3(i32 4)
  ret void
c4:
  call void @e4(i32 0)
  call void @e4(i32 1)
  call void @e4(i32 2)
  call void @e4(i32 3)
  call void @e4(i32 4)
  ret void
c5:
  call void @e5(i32 0)
  call void @e5(i32 1)
  call void @e5(i32 2)
  call void @e5(i32 3)
  call void @e5(i32 4)
  ret void
c6:
  call void @e6(i32 0)
  call void @e6(i32 1)
  call void @e6(i32 2)
  call void @e6(i32 3)
  call void @e6(i32 4)
  ret void
c7:
  call void @e7(i32 0)
  call void @e7(i32 1)
  call void @e7(i32 2)
  call void @e7(i32 3)
  call void @e7(i32 4)
  ret void
}

declare void @e0(i32)
declare void @e1(i32)
declare void @e2(i32)
declare void @e3(i32)
declare void @e4(i32)
declare void @e5(i32)
declare void @e6(i32)
declare void @e7(i32)

attributes #0 = { "shard-revisit"="1" }
