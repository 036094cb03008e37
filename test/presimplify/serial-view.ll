; With the plugin loaded (every shard compile at -O1 and up), a call the split marked
; !shard.serial.view (shard-split<serial-view>, split/Scc.cpp: caller and callee held by one
; shard, the caller first in their serial call graph SCC) is pointed, while the inliner walks
; the call graph, at a copy of the callee as it was before the walk, and back at the callee
; after it. Here @loop's call sees @ret as a call to @grow: cheap, inlined (@loop then calls
; @grow). Without the plugin @ret is simplified first: it takes its one-call static @grow with
; the last-call bonus, is then too large for @loop and stays a call. @ret itself is simplified
; as usual. A call the inliner leaves (@cold's) goes back to the callee, and no copy nor mark is
; left.
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

define void @ret(i32 %x) {
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

define void @big(i32 %x) {
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
; CHECK-LABEL: define void @ret(
; CHECK-NEXT:    tail call {{.*}}void @grow(
; CHECK-LABEL: define void @cold(
; CHECK-NEXT:    tail call void @big(
; CHECK-NOT: shard.view
; CHECK-NOT: !shard.serial.view

; PLAIN-LABEL: define void @loop(
; PLAIN-NEXT:    tail call {{.*}}void @ret(
; PLAIN-NEXT:    ret void
