; shard-split<serial-view> (off by default) marks calls between two functions one shard holds,
; as serial-scc marks imports (test/split/serial-scc.ll): where the caller comes first in their
; serial call graph SCC, the serial inliner weighs the callee before its own callees go into
; it, but in a shard whose declarations cut the cycle the callee is in an SCC of its own,
; simplified first. The split marks such a call !shard.serial.view, and the shard compile gives
; it a copy of the callee as it was (test/presimplify/serial-view.ll).
;
; @loop and @ret (shard 0) and @grow (shard 1, cost 500: declared in shard 0) form one SCC,
; @loop first (opt -passes=print-lcg): @loop's call to @ret is marked, @ret's to @grow is not
; (@grow is not held). @first and @second (shard 0) call each other: the shard keeps their
; cycle, so its inliner takes their calls as the serial one does, and neither is marked.
; Without serial-view nothing is marked.
;
; RUN: rm -rf %t && mkdir %t %t.off
; RUN: %opt-shard -passes='shard-split<dir=%t;serial-view>' -disable-output %s
; RUN: llvm-dis %t/shard.0.bc -o - | FileCheck --check-prefix=S0 %s
; RUN: opt -passes=verify -disable-output %t/shard.0.bc
; RUN: %opt-shard -passes='shard-split<dir=%t.off>' -disable-output %s
; RUN: llvm-dis %t.off/shard.0.bc -o - | FileCheck --check-prefix=OFF %s
; RUN: %opt-shard -passes='shard-split<dir=%t;serial-view>' -print-pipeline-passes -disable-output %s | FileCheck --check-prefix=PIPE %s
; PIPE: shard-split<dir={{.*}};serial-view>

; S0-LABEL: define void @loop()
; S0-NEXT:    call void @ret(), !shard.serial.view ![[VIEW:[0-9]+]]
; S0-NEXT:    call void @ret(), !shard.serial.view ![[VIEW]]
; S0-LABEL: define void @ret()
; S0-NEXT:    call void @grow(){{$}}
; S0-LABEL: define void @first()
; S0-NEXT:    call void @second(){{$}}
; S0-LABEL: define void @second()
; S0-NEXT:    call void @first(){{$}}
; S0: ![[VIEW]] = !{}

; OFF-NOT: shard.serial.view

define void @loop() !shard.cost !{i64 1000} !shard.partition !{i32 0} {
  call void @ret()
  call void @ret()
  ret void
}
define void @ret() !shard.cost !{i64 80} !shard.partition !{i32 0} {
  call void @grow()
  ret void
}
define void @grow() !shard.cost !{i64 500} !shard.partition !{i32 1} {
  call void @loop()
  ret void
}
define void @first() !shard.cost !{i64 80} !shard.partition !{i32 0} {
  call void @second()
  ret void
}
define void @second() !shard.cost !{i64 1000} !shard.partition !{i32 0} {
  call void @first()
  ret void
}

!shard.plan = !{!0, !1, !2, !3}
!0 = !{!"version", i32 1}
!1 = !{!"shards", i32 2}
!2 = !{!"asm-shard", i32 0}
!3 = !{!"costs", i64 2160, i64 500}
