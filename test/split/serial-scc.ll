; shard-split<serial-scc> (the default; no-serial-scc turns it off): the serial inliner works
; through the calls of one call graph SCC together, so a function called from within its own
; SCC, by a function that comes before it, is inlined as it was before its own callees went
; into it. A shard that imports such a callee cuts the cycle with its declarations, and would
; simplify the import first. The split marks that caller's calls to it !shard.serial.view, for
; the shard compile to give them a copy of the import left as it was while the inliner walks
; the call graph (test/presimplify/serial-view-import.ll); the shard's other calls to the
; import see it simplified, as the serial inliner's later callers do.
;
; @loop (shard 0) calls @ret and @plain (shard 1); @ret calls @grow, which calls @loop back:
; @loop, @ret and @grow form one SCC, @plain none. Shard 0 imports @ret and @plain and marks
; @loop's call to @ret only; @outside's call to @ret (outside the SCC) is not marked; @grow
; (cost 500) it declares. Shard 1 imports nothing (@loop costs 1000).
; The inliner takes an SCC's calls function by function, in the SCC's order (opt
; -passes=print-lcg): @loop before @ret, whose calls are still its own when @loop's call to it
; comes. @second (shard 0) and @first (shard 1) call each other, but @first comes first: its
; own calls go first, so @second's call to @first is not marked.
; With presimplify, the split gives every holder the import's simplified body: no mark. With
; closure-views (off by default) the closure leaves @ret out: shard 0 still simplifies its
; import and marks the call, while @plain, outside the SCC, is presimplified.
;
; RUN: rm -rf %t && mkdir %t %t.off %t.pre
; RUN: %opt-shard -passes='shard-split<dir=%t>' -disable-output %s
; RUN: llvm-dis %t/shard.0.bc -o - | FileCheck --check-prefix=S0 %s
; RUN: llvm-dis %t/shard.1.bc -o - | FileCheck --check-prefix=S1 %s
; RUN: opt -passes=verify -disable-output %t/shard.0.bc
; Two writers (parts) write the same bytes as one, also the shard without a mark.
; RUN: rm -rf %t.parts && mkdir %t.parts
; RUN: %opt-shard -passes='shard-split<dir=%t.parts;parts=2;part=0>' -disable-output %s
; RUN: %opt-shard -passes='shard-split<dir=%t.parts;parts=2;part=1>' -disable-output %s
; RUN: cmp %t/shard.0.bc %t.parts/shard.0.bc
; RUN: cmp %t/shard.1.bc %t.parts/shard.1.bc
; RUN: %opt-shard -passes='shard-split<dir=%t.off;no-serial-scc>' -disable-output %s
; RUN: llvm-dis %t.off/shard.0.bc -o - | FileCheck --check-prefix=OFF %s
; RUN: %opt-shard -passes='shard-split<dir=%t.pre;presimplify=2>' -disable-output %s
; RUN: llvm-dis %t.pre/shard.0.bc -o - | FileCheck --check-prefix=PRE %s
; RUN: rm -rf %t.views && mkdir %t.views
; RUN: %opt-shard -passes='shard-split<dir=%t.views;presimplify=2;closure-views>' -disable-output %s
; RUN: llvm-dis %t.views/shard.0.bc -o - | FileCheck --check-prefix=VIEWS %s
; RUN: %opt-shard -passes='shard-split<dir=%t;closure-views>' -print-pipeline-passes -disable-output %s | FileCheck --check-prefix=PIPE2 %s
; PIPE2: shard-split<dir={{.*}};closure-views>
; RUN: %opt-shard -passes='shard-split<dir=%t;no-serial-scc>' -print-pipeline-passes -disable-output %s | FileCheck --check-prefix=PIPE %s
; PIPE: shard-split<dir={{.*}};no-serial-scc>

; S0-LABEL: define void @loop() {
; S0-NEXT:    call void @ret(), !shard.serial.view ![[VIEW:[0-9]+]]
; S0-NEXT:    call void @plain(){{$}}
; S0-LABEL: define void @outside() {
; S0-NEXT:    call void @ret(){{$}}
; S0: define available_externally void @ret(){{( #[0-9]+)?}} {
; S0: declare void @grow()
; S0: define available_externally void @plain(){{( #[0-9]+)?}} {
; S0: define available_externally void @first(){{( #[0-9]+)?}} {
; S0-LABEL: define void @second() {
; S0-NEXT:    call void @first(){{$}}
; S0-NOT: shard-serial-scc
; S0: ![[VIEW]] = !{}

; S1-NOT: shard.serial.view

; OFF-NOT: shard.serial.view

; VIEWS-LABEL: define void @loop() {
; VIEWS-NEXT:    call void @ret(), !shard.serial.view
; VIEWS-NEXT:    call void @plain(){{$}}
; VIEWS: define available_externally void @ret() #[[RET:[0-9]+]] {
; VIEWS: define available_externally void @plain() #[[PLAIN:[0-9]+]] {
; VIEWS-NOT: attributes #[[RET]] = { {{.*}}"shard-presimplified"
; VIEWS: attributes #[[PLAIN]] = { "shard-presimplified" }

; PRE-NOT: shard.serial.view
; PRE: define available_externally void @ret() #[[PRE:[0-9]+]] {
; PRE-NOT: shard.serial.view
; PRE: attributes #[[PRE]] = { {{.*}}"shard-presimplified"
; PRE-NOT: shard.serial.view

define void @loop() !shard.cost !{i64 1000} !shard.partition !{i32 0} {
  call void @ret()
  call void @plain()
  ret void
}
define void @outside() !shard.cost !{i64 100} !shard.partition !{i32 0} {
  call void @ret()
  ret void
}
define void @ret() !shard.cost !{i64 80} !shard.partition !{i32 1} {
  call void @grow()
  ret void
}
define void @grow() !shard.cost !{i64 500} !shard.partition !{i32 1} {
  call void @loop()
  ret void
}
define void @plain() !shard.cost !{i64 80} !shard.partition !{i32 1} {
  call void @ext()
  ret void
}
define void @first() !shard.cost !{i64 80} !shard.partition !{i32 1} {
  call void @second()
  ret void
}
define void @second() !shard.cost !{i64 1000} !shard.partition !{i32 0} {
  call void @first()
  ret void
}
declare void @ext()

!shard.plan = !{!0, !1, !2, !3}
!0 = !{!"version", i32 1}
!1 = !{!"shards", i32 2}
!2 = !{!"asm-shard", i32 0}
!3 = !{!"costs", i64 2100, i64 740}
