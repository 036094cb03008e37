; With the plugin loaded (every shard compile at -O1 and up), a function marked "shard-serial-scc"
; (a serial view, presimplify/Presimplify.cpp) goes through none of the optional passes while the
; inliner walks the call graph: its caller sees it as the serial inliner sees a callee in the
; caller's own SCC, before its callees are inlined into it. Here @ret, unsimplified, is a call to @grow: cheap, inlined
; into @loop, and @grow after it. Simplified first, as without the plugin, it takes its
; one-call static @grow with the last-call bonus and is then too large for @loop, which keeps
; calling it.
; RUN: %opt-shard -passes='default<O2>' -S %s | FileCheck %s
; RUN: opt -passes='default<O2>' -S %s | FileCheck --check-prefix=PLAIN %s

@g0 = global i32 0
@g1 = global i32 0
@g2 = global i32 0
@g3 = global i32 0

define void @loop(i32 %x) {
  call void @ret(i32 %x)
  ret void
}

define available_externally void @ret(i32 %x) #0 {
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
  store volatile i32 %x, ptr @g1
  store volatile i32 %x, ptr @g1
  store volatile i32 %x, ptr @g1
  store volatile i32 %x, ptr @g1
  store volatile i32 %x, ptr @g1
  store volatile i32 %x, ptr @g1
  store volatile i32 %x, ptr @g1
  store volatile i32 %x, ptr @g1
  store volatile i32 %x, ptr @g1
  store volatile i32 %x, ptr @g1
  store volatile i32 %x, ptr @g1
  store volatile i32 %x, ptr @g1
  store volatile i32 %x, ptr @g1
  store volatile i32 %x, ptr @g1
  store volatile i32 %x, ptr @g1
  store volatile i32 %x, ptr @g1
  store volatile i32 %x, ptr @g1
  store volatile i32 %x, ptr @g1
  store volatile i32 %x, ptr @g1
  store volatile i32 %x, ptr @g1
  store volatile i32 %x, ptr @g1
  store volatile i32 %x, ptr @g1
  store volatile i32 %x, ptr @g1
  store volatile i32 %x, ptr @g1
  store volatile i32 %x, ptr @g1
  store volatile i32 %x, ptr @g1
  store volatile i32 %x, ptr @g1
  store volatile i32 %x, ptr @g1
  store volatile i32 %x, ptr @g1
  store volatile i32 %x, ptr @g1
  store volatile i32 %x, ptr @g1
  store volatile i32 %x, ptr @g1
  store volatile i32 %x, ptr @g1
  store volatile i32 %x, ptr @g1
  store volatile i32 %x, ptr @g1
  store volatile i32 %x, ptr @g1
  store volatile i32 %x, ptr @g1
  store volatile i32 %x, ptr @g1
  store volatile i32 %x, ptr @g1
  store volatile i32 %x, ptr @g1
  store volatile i32 %x, ptr @g1
  store volatile i32 %x, ptr @g1
  store volatile i32 %x, ptr @g1
  store volatile i32 %x, ptr @g1
  store volatile i32 %x, ptr @g1
  store volatile i32 %x, ptr @g1
  store volatile i32 %x, ptr @g1
  store volatile i32 %x, ptr @g1
  store volatile i32 %x, ptr @g1
  store volatile i32 %x, ptr @g1
  ret void
}

attributes #0 = { "shard-serial-scc" }

; CHECK-LABEL: define void @loop(
; CHECK-NEXT:    store volatile i32 %x, ptr @g0
; CHECK-NOT:     call
; CHECK:         ret void

; PLAIN-LABEL: define void @loop(
; PLAIN-NEXT:    call void @ret(
; PLAIN-NEXT:    ret void
