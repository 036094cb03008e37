; Serial views of imports (test/split/serial-scc.ll), as of held functions
; (test/presimplify/serial-view.ll): a call the split marked !shard.serial.view to an
; available_externally import sees, while the inliner walks the call graph, a copy of the
; import as it was before the walk: here a call to @grow, cheap, inlined into @loop. Without
; the plugin @ret is simplified first, takes its one-call static @grow with the last-call bonus
; and stays a call. The walk cannot drop the import while the copy stands for it; a call left
; to the copy (@cold's) goes back to the import; no copy nor mark is left, and the imports are
; dropped with the other available_externally bodies.
; RUN: %opt-shard -passes='default<O2>' -S %s | FileCheck %s
; RUN: opt -passes='default<O2>' -S %s | FileCheck --check-prefix=PLAIN %s

@g0 = global i32 0
@g1 = global i32 0
@g2 = global i32 0
@g3 = global i32 0

define void @loop(i32 %x) {
  call void @ret(i32 %x), !shard.serial.view !0
  ret void
}

define available_externally void @ret(i32 %x) {
  call void @grow(i32 %x)
  ret void
}

define internal void @grow(i32 %x) {
  store volatile i32 %x, ptr @g0
  store volatile i32 %x, ptr @g1
  store volatile i32 %x, ptr @g2
  store volatile i32 %x, ptr @g3
  store volatile i32 %x, ptr @g0
  store volatile i32 %x, ptr @g1
  store volatile i32 %x, ptr @g2
  store volatile i32 %x, ptr @g3
  store volatile i32 %x, ptr @g0
  store volatile i32 %x, ptr @g1
  store volatile i32 %x, ptr @g2
  store volatile i32 %x, ptr @g3
  store volatile i32 %x, ptr @g0
  store volatile i32 %x, ptr @g1
  store volatile i32 %x, ptr @g2
  store volatile i32 %x, ptr @g3
  store volatile i32 %x, ptr @g0
  store volatile i32 %x, ptr @g1
  store volatile i32 %x, ptr @g2
  store volatile i32 %x, ptr @g3
  store volatile i32 %x, ptr @g0
  store volatile i32 %x, ptr @g1
  store volatile i32 %x, ptr @g2
  store volatile i32 %x, ptr @g3
  store volatile i32 %x, ptr @g0
  store volatile i32 %x, ptr @g1
  store volatile i32 %x, ptr @g2
  store volatile i32 %x, ptr @g3
  store volatile i32 %x, ptr @g0
  store volatile i32 %x, ptr @g1
  store volatile i32 %x, ptr @g2
  store volatile i32 %x, ptr @g3
  store volatile i32 %x, ptr @g0
  store volatile i32 %x, ptr @g1
  store volatile i32 %x, ptr @g2
  store volatile i32 %x, ptr @g3
  store volatile i32 %x, ptr @g0
  store volatile i32 %x, ptr @g1
  store volatile i32 %x, ptr @g2
  store volatile i32 %x, ptr @g3
  store volatile i32 %x, ptr @g0
  store volatile i32 %x, ptr @g1
  store volatile i32 %x, ptr @g2
  store volatile i32 %x, ptr @g3
  store volatile i32 %x, ptr @g0
  store volatile i32 %x, ptr @g1
  store volatile i32 %x, ptr @g2
  store volatile i32 %x, ptr @g3
  store volatile i32 %x, ptr @g0
  store volatile i32 %x, ptr @g1
  store volatile i32 %x, ptr @g2
  store volatile i32 %x, ptr @g3
  store volatile i32 %x, ptr @g0
  store volatile i32 %x, ptr @g1
  store volatile i32 %x, ptr @g2
  store volatile i32 %x, ptr @g3
  store volatile i32 %x, ptr @g0
  store volatile i32 %x, ptr @g1
  store volatile i32 %x, ptr @g2
  store volatile i32 %x, ptr @g3
  store volatile i32 %x, ptr @g0
  store volatile i32 %x, ptr @g1
  store volatile i32 %x, ptr @g2
  store volatile i32 %x, ptr @g3
  store volatile i32 %x, ptr @g0
  store volatile i32 %x, ptr @g1
  store volatile i32 %x, ptr @g2
  store volatile i32 %x, ptr @g3
  store volatile i32 %x, ptr @g0
  store volatile i32 %x, ptr @g1
  store volatile i32 %x, ptr @g2
  store volatile i32 %x, ptr @g3
  store volatile i32 %x, ptr @g0
  store volatile i32 %x, ptr @g1
  store volatile i32 %x, ptr @g2
  store volatile i32 %x, ptr @g3
  store volatile i32 %x, ptr @g0
  store volatile i32 %x, ptr @g1
  store volatile i32 %x, ptr @g2
  store volatile i32 %x, ptr @g3
  store volatile i32 %x, ptr @g0
  store volatile i32 %x, ptr @g1
  store volatile i32 %x, ptr @g2
  store volatile i32 %x, ptr @g3
  store volatile i32 %x, ptr @g0
  store volatile i32 %x, ptr @g1
  store volatile i32 %x, ptr @g2
  store volatile i32 %x, ptr @g3
  store volatile i32 %x, ptr @g0
  store volatile i32 %x, ptr @g1
  store volatile i32 %x, ptr @g2
  store volatile i32 %x, ptr @g3
  store volatile i32 %x, ptr @g0
  store volatile i32 %x, ptr @g1
  store volatile i32 %x, ptr @g2
  store volatile i32 %x, ptr @g3
  store volatile i32 %x, ptr @g0
  store volatile i32 %x, ptr @g1
  store volatile i32 %x, ptr @g2
  store volatile i32 %x, ptr @g3
  ret void
}

; Too large either way: the call left to the copy goes back to @big.
define void @cold(i32 %x) {
  call void @big(i32 %x), !shard.serial.view !0
  ret void
}

define available_externally void @big(i32 %x) {
  store volatile i32 %x, ptr @g0
  store volatile i32 %x, ptr @g1
  store volatile i32 %x, ptr @g2
  store volatile i32 %x, ptr @g3
  store volatile i32 %x, ptr @g0
  store volatile i32 %x, ptr @g1
  store volatile i32 %x, ptr @g2
  store volatile i32 %x, ptr @g3
  store volatile i32 %x, ptr @g0
  store volatile i32 %x, ptr @g1
  store volatile i32 %x, ptr @g2
  store volatile i32 %x, ptr @g3
  store volatile i32 %x, ptr @g0
  store volatile i32 %x, ptr @g1
  store volatile i32 %x, ptr @g2
  store volatile i32 %x, ptr @g3
  store volatile i32 %x, ptr @g0
  store volatile i32 %x, ptr @g1
  store volatile i32 %x, ptr @g2
  store volatile i32 %x, ptr @g3
  store volatile i32 %x, ptr @g0
  store volatile i32 %x, ptr @g1
  store volatile i32 %x, ptr @g2
  store volatile i32 %x, ptr @g3
  store volatile i32 %x, ptr @g0
  store volatile i32 %x, ptr @g1
  store volatile i32 %x, ptr @g2
  store volatile i32 %x, ptr @g3
  store volatile i32 %x, ptr @g0
  store volatile i32 %x, ptr @g1
  store volatile i32 %x, ptr @g2
  store volatile i32 %x, ptr @g3
  store volatile i32 %x, ptr @g0
  store volatile i32 %x, ptr @g1
  store volatile i32 %x, ptr @g2
  store volatile i32 %x, ptr @g3
  store volatile i32 %x, ptr @g0
  store volatile i32 %x, ptr @g1
  store volatile i32 %x, ptr @g2
  store volatile i32 %x, ptr @g3
  store volatile i32 %x, ptr @g0
  store volatile i32 %x, ptr @g1
  store volatile i32 %x, ptr @g2
  store volatile i32 %x, ptr @g3
  store volatile i32 %x, ptr @g0
  store volatile i32 %x, ptr @g1
  store volatile i32 %x, ptr @g2
  store volatile i32 %x, ptr @g3
  store volatile i32 %x, ptr @g0
  store volatile i32 %x, ptr @g1
  store volatile i32 %x, ptr @g2
  store volatile i32 %x, ptr @g3
  store volatile i32 %x, ptr @g0
  store volatile i32 %x, ptr @g1
  store volatile i32 %x, ptr @g2
  store volatile i32 %x, ptr @g3
  store volatile i32 %x, ptr @g0
  store volatile i32 %x, ptr @g1
  store volatile i32 %x, ptr @g2
  store volatile i32 %x, ptr @g3
  store volatile i32 %x, ptr @g0
  store volatile i32 %x, ptr @g1
  store volatile i32 %x, ptr @g2
  store volatile i32 %x, ptr @g3
  store volatile i32 %x, ptr @g0
  store volatile i32 %x, ptr @g1
  store volatile i32 %x, ptr @g2
  store volatile i32 %x, ptr @g3
  store volatile i32 %x, ptr @g0
  store volatile i32 %x, ptr @g1
  store volatile i32 %x, ptr @g2
  store volatile i32 %x, ptr @g3
  store volatile i32 %x, ptr @g0
  store volatile i32 %x, ptr @g1
  store volatile i32 %x, ptr @g2
  store volatile i32 %x, ptr @g3
  store volatile i32 %x, ptr @g0
  store volatile i32 %x, ptr @g1
  store volatile i32 %x, ptr @g2
  store volatile i32 %x, ptr @g3
  store volatile i32 %x, ptr @g0
  store volatile i32 %x, ptr @g1
  store volatile i32 %x, ptr @g2
  store volatile i32 %x, ptr @g3
  store volatile i32 %x, ptr @g0
  store volatile i32 %x, ptr @g1
  store volatile i32 %x, ptr @g2
  store volatile i32 %x, ptr @g3
  store volatile i32 %x, ptr @g0
  store volatile i32 %x, ptr @g1
  store volatile i32 %x, ptr @g2
  store volatile i32 %x, ptr @g3
  store volatile i32 %x, ptr @g0
  store volatile i32 %x, ptr @g1
  store volatile i32 %x, ptr @g2
  store volatile i32 %x, ptr @g3
  store volatile i32 %x, ptr @g0
  store volatile i32 %x, ptr @g1
  store volatile i32 %x, ptr @g2
  store volatile i32 %x, ptr @g3
  ret void
}

!0 = !{}

; CHECK-NOT: shard.view
; CHECK-LABEL: define void @loop(
; CHECK-NEXT:    tail call fastcc void @grow(
; CHECK-NEXT:    ret void
; CHECK-LABEL: define void @cold(
; CHECK-NEXT:    tail call void @big(
; CHECK:       declare void @big(
; CHECK-NOT: shard.view
; CHECK-NOT: !shard.serial.view
; CHECK-NOT: define available_externally

; PLAIN-LABEL: define void @loop(
; PLAIN-NEXT:    tail call void @ret(
; PLAIN-NEXT:    ret void
