; With the plugin loaded, a call marked !shard.last.call (shard-split<last-call>: the call the
; serial inliner weighs last, of a local the split shares as a linkonce_odr copy) gets the
; bonus of a local's last call once it is its callee's only use in the shard, as the serial
; inliner gives it once every other call is inlined; a marked call whose callee has other
; uses left gets none, nor does an unmarked one. The copy keeps its linkage: where a call
; stays, it is the copy the linker deduplicates.
; @last's call to @big is the only use of @big: inlined (100 volatile stores, far above the
; threshold: only the bonus inlines it), and the copy is dropped. @twice's two marked calls to @big2: not inlined. @plain's
; unmarked call to @big3: not inlined. Without the plugin (or on LLVM 19, where the plugin
; installs no inline advisor), @big stays a call.
; UNSUPPORTED: llvm-19
; RUN: %opt-shard -passes='default<O2>' -S %s | FileCheck %s
; RUN: opt -passes='default<O2>' -S %s | FileCheck --check-prefix=PLAIN %s

; CHECK-LABEL: define void @last(
; CHECK-NEXT:    store volatile i32 %x, ptr @g0
; CHECK-LABEL: define void @twice(
; CHECK-NEXT:    tail call void @big2(
; CHECK-NEXT:    tail call void @big2(
; CHECK-LABEL: define void @plain(
; CHECK-NEXT:    tail call void @big3(
; CHECK-NOT:   define {{.*}} @big(
; CHECK:       define linkonce_odr hidden void @big2(
; CHECK:       define linkonce_odr hidden void @big3(

; PLAIN-LABEL: define void @last(
; PLAIN-NEXT:    tail call void @big(

$big = comdat any
$big2 = comdat any
$big3 = comdat any

@g0 = global i32 0
@g1 = global i32 0
@g2 = global i32 0
@g3 = global i32 0

define void @last(i32 %x) {
  call void @big(i32 %x), !shard.last.call !0
  ret void
}

define void @twice(i32 %x) {
  call void @big2(i32 %x), !shard.last.call !0
  call void @big2(i32 %x), !shard.last.call !0
  ret void
}

define void @plain(i32 %x) {
  call void @big3(i32 %x)
  ret void
}

define linkonce_odr hidden void @big(i32 %x) comdat {
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

define linkonce_odr hidden void @big2(i32 %x) comdat {
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

define linkonce_odr hidden void @big3(i32 %x) comdat {
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
