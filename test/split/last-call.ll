; shard-split<last-call-size=N> (55 by default; 0 turns it off): the serial inliner inlines a
; static into its last caller with the bonus of a local's last call once every other call is
; inlined. A local the split shares (share-locals) is a linkonce_odr copy in every shard that
; calls it, which never gets that bonus. So the split finds, by the serial call graph's order,
; the caller the serial inliner weighs last, and the shard that owns it marks its calls to the
; copy !shard.last.call; the shard compile gives such a call the bonus once it is the copy's
; only use there (test/presimplify/last-call-advisor.ll).
;
; @top (shard 0) calls @own (shard 1), so the walk reaches @top after @own: @top is the last
; caller of @helper and @big, both shared (cost 150, above local-import-cost). Shard 0 marks
; @top's call to @helper; shard 1 marks nothing, and its import of @top (for @user) carries no
; mark: shard 0 is written first (@heavy makes it the larger), its own bodies borrowed from the
; module and returned after, without the marks. @big's inline size (60 instructions) is above
; last-call-size: not marked. @cb's address is taken (no bonus serially): it is not shared,
; and nothing marks a call to it.
;
; RUN: rm -rf %t && mkdir %t %t.off
; RUN: %opt-shard -passes='shard-split<dir=%t>' -disable-output %s
; RUN: llvm-dis %t/shard.0.bc -o - | FileCheck --check-prefix=S0 %s
; RUN: llvm-dis %t/shard.1.bc -o - | FileCheck --check-prefix=S1 %s
; RUN: opt -passes=verify -disable-output %t/shard.0.bc
; Two writers write the same bytes as one (the kind is known before any shard is written).
; RUN: rm -rf %t.parts && mkdir %t.parts
; RUN: %opt-shard -passes='shard-split<dir=%t.parts;parts=2;part=0>' -disable-output %s
; RUN: %opt-shard -passes='shard-split<dir=%t.parts;parts=2;part=1>' -disable-output %s
; RUN: cmp %t/shard.0.bc %t.parts/shard.0.bc
; RUN: cmp %t/shard.1.bc %t.parts/shard.1.bc
; RUN: %opt-shard -passes='shard-split<dir=%t.off;last-call-size=0>' -disable-output %s
; RUN: llvm-dis %t.off/shard.0.bc -o - | FileCheck --check-prefix=OFF %s
; RUN: %opt-shard -passes='shard-split<dir=%t;last-call-size=0>' -print-pipeline-passes -disable-output %s | FileCheck --check-prefix=PIPE %s
; PIPE: shard-split<dir={{.*}};last-call-size=0>

; S0-LABEL: define void @top() {
; S0-NEXT:    call void @own()
; S0-NEXT:    call void @[[H:helper.shard.[0-9a-f]+]](i32 1), !shard.last.call ![[M:[0-9]+]]
; S0-NEXT:    call void @[[B:big.shard.[0-9a-f]+]](i32 2){{$}}
; S0-NEXT:    call void @cb.shard.{{[0-9a-f]+}}(i32 3){{$}}
; S0: define linkonce_odr hidden void @[[H]](i32 %x){{( #[0-9]+)?}} comdat {
; S0: define linkonce_odr hidden void @[[B]](i32 %x){{( #[0-9]+)?}} comdat {
; S0: ![[M]] = !{}

; S1: define available_externally void @top(){{( #[0-9]+)?}} {
; S1-NOT: shard.last.call

; OFF-NOT: shard.last.call

@slot = global ptr null, !shard.partition !{i32 1}
@g = global i32 0, !shard.partition !{i32 1}

define void @heavy() !shard.cost !{i64 5000} !shard.partition !{i32 0} {
  ret void
}
define void @user() !shard.cost !{i64 1000} !shard.partition !{i32 1} {
  call void @top()
  ret void
}
define void @top() !shard.cost !{i64 100} !shard.partition !{i32 0} {
  call void @own()
  call void @helper(i32 1)
  call void @big(i32 2)
  call void @cb(i32 3)
  ret void
}
define void @own() !shard.cost !{i64 1000} !shard.partition !{i32 1} {
  call void @helper(i32 4)
  call void @big(i32 5)
  call void @cb(i32 6)
  store ptr @cb, ptr @slot
  ret void
}
define internal void @helper(i32 %x) !shard.cost !{i64 150} !shard.partition !{i32 1} {
  call void @ext(i32 %x)
  ret void
}
define internal void @cb(i32 %x) !shard.cost !{i64 150} !shard.partition !{i32 1} {
  call void @ext(i32 %x)
  ret void
}
define internal void @big(i32 %x) !shard.cost !{i64 150} !shard.partition !{i32 1} {
  store volatile i32 %x, ptr @g
  store volatile i32 %x, ptr @g
  store volatile i32 %x, ptr @g
  store volatile i32 %x, ptr @g
  store volatile i32 %x, ptr @g
  store volatile i32 %x, ptr @g
  store volatile i32 %x, ptr @g
  store volatile i32 %x, ptr @g
  store volatile i32 %x, ptr @g
  store volatile i32 %x, ptr @g
  store volatile i32 %x, ptr @g
  store volatile i32 %x, ptr @g
  store volatile i32 %x, ptr @g
  store volatile i32 %x, ptr @g
  store volatile i32 %x, ptr @g
  store volatile i32 %x, ptr @g
  store volatile i32 %x, ptr @g
  store volatile i32 %x, ptr @g
  store volatile i32 %x, ptr @g
  store volatile i32 %x, ptr @g
  store volatile i32 %x, ptr @g
  store volatile i32 %x, ptr @g
  store volatile i32 %x, ptr @g
  store volatile i32 %x, ptr @g
  store volatile i32 %x, ptr @g
  store volatile i32 %x, ptr @g
  store volatile i32 %x, ptr @g
  store volatile i32 %x, ptr @g
  store volatile i32 %x, ptr @g
  store volatile i32 %x, ptr @g
  store volatile i32 %x, ptr @g
  store volatile i32 %x, ptr @g
  store volatile i32 %x, ptr @g
  store volatile i32 %x, ptr @g
  store volatile i32 %x, ptr @g
  store volatile i32 %x, ptr @g
  store volatile i32 %x, ptr @g
  store volatile i32 %x, ptr @g
  store volatile i32 %x, ptr @g
  store volatile i32 %x, ptr @g
  store volatile i32 %x, ptr @g
  store volatile i32 %x, ptr @g
  store volatile i32 %x, ptr @g
  store volatile i32 %x, ptr @g
  store volatile i32 %x, ptr @g
  store volatile i32 %x, ptr @g
  store volatile i32 %x, ptr @g
  store volatile i32 %x, ptr @g
  store volatile i32 %x, ptr @g
  store volatile i32 %x, ptr @g
  store volatile i32 %x, ptr @g
  store volatile i32 %x, ptr @g
  store volatile i32 %x, ptr @g
  store volatile i32 %x, ptr @g
  store volatile i32 %x, ptr @g
  store volatile i32 %x, ptr @g
  store volatile i32 %x, ptr @g
  store volatile i32 %x, ptr @g
  store volatile i32 %x, ptr @g
  store volatile i32 %x, ptr @g
  ret void
}
declare void @ext(i32)

!shard.plan = !{!0, !1, !2, !3}
!0 = !{!"version", i32 1}
!1 = !{!"shards", i32 2}
!2 = !{!"asm-shard", i32 0}
!3 = !{!"costs", i64 5250, i64 2450}
