; With the plugin loaded, the inliner's walk inlines nothing into a function marked
; "shard-serial-scc" (an import the serial inliner weighs before its own calls are inlined
; into it, or a serial view of a callee): the skip of the optional passes is not enough where
; the marked function shares its shard's SCC with unmarked ones, so the inliner runs on that
; SCC. Here @ret (marked) and @other call each other; @ret's static @grow would take the
; last-call bonus into @ret, which would then be too large for @loop. With the plugin, @ret
; stays a call to @grow, cheap enough for @loop, which inlines it (and then @grow). Without
; the plugin, or with only the skip (LLVM 19's plugin: a plugin's inline advisor is
; process-wide state there, so it installs none), @loop keeps calling @ret.
; UNSUPPORTED: llvm-19
; RUN: %opt-shard -passes='default<O2>' -S %s | FileCheck %s
; RUN: opt -passes='default<O2>' -S %s | FileCheck --check-prefix=PLAIN %s

; CHECK-LABEL: define void @loop(
; CHECK-NOT:     call void @ret(
; CHECK-NOT:     call void @grow(
; CHECK:         store volatile i32 %x, ptr @g0
; CHECK:         call void @other(
; CHECK-LABEL: define void @other(

; PLAIN-LABEL: define void @loop(
; PLAIN-NEXT:    tail call void @ret(

@g0 = global i32 0
@g1 = global i32 0
@g2 = global i32 0
@g3 = global i32 0
@stop = global i1 false

define void @loop(i32 %x) {
  call void @ret(i32 %x)
  ret void
}

define available_externally void @ret(i32 %x) #0 {
  call void @grow(i32 %x)
  %s = load volatile i1, ptr @stop
  br i1 %s, label %done, label %more
more:
  call void @other(i32 %x)
  br label %done
done:
  ret void
}

define void @other(i32 %x) noinline {
  call void @ret(i32 %x)
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
  ret void
}

attributes #0 = { "shard-serial-scc" }
