; Key Instructions atom groups survive the split unchanged (found by test/fuzz/fuzz.py).
; CloneFunctionInto gave every cloned function new atom group numbers from a counter
; shared by the whole opt process, so a shard's bytes depended on how many functions
; had been cloned before it: the shards written by parts=2 differed from those of one
; process, and an edit anywhere renumbered the shards after it. Each function's groups
; are its own (clang numbers them from 1 in every function); shards keep them.
;
; REQUIRES: llvm-22
; RUN: rm -rf %t.one %t.two && mkdir %t.one %t.two
; RUN: %opt-shard -passes='shard-partition<shards=3;place=graph>,shard-split<dir=%t.one>' -disable-output %s
; RUN: llvm-dis %t.one/shard.0.bc -o - | FileCheck %s
; RUN: llvm-dis %t.one/shard.1.bc -o - | FileCheck %s
; RUN: llvm-dis %t.one/shard.2.bc -o - | FileCheck %s
; RUN: %opt-shard -passes='shard-partition<shards=3;place=graph>,shard-split<dir=%t.two;parts=2;part=0>' -disable-output %s
; RUN: %opt-shard -passes='shard-partition<shards=3;place=graph>,shard-split<dir=%t.two;parts=2;part=1>' -disable-output %s
; RUN: cmp %t.one/shard.0.bc %t.two/shard.0.bc
; RUN: cmp %t.one/shard.1.bc %t.two/shard.1.bc
; RUN: cmp %t.one/shard.2.bc %t.two/shard.2.bc

; CHECK:     define
; CHECK-SAME:  !dbg
; CHECK-DAG: !DILocation(line: [[L:[0-9]+]], column: 25, scope: !{{[0-9]+}}, atomGroup: 1, atomRank: 2)
; CHECK-DAG: !DILocation(line: [[L]], column: 16, scope: !{{[0-9]+}}, atomGroup: 1, atomRank: 1)
; CHECK-DAG: !DILocation(line: [[L]], column: 30, scope: !{{[0-9]+}}, atomGroup: 2, atomRank: 1)
; CHECK-NOT: atomGroup: {{[03-9]|[1-9][0-9]}}

define i32 @a(i32 %x) noinline !dbg !13 !shard.cost !{i64 100} {
  %r = add i32 %x, 1, !dbg !21
  store i32 %r, ptr @g, !dbg !23
  ret i32 %r, !dbg !22
}

define i32 @b(i32 %x) noinline !dbg !33 !shard.cost !{i64 100} {
  %r = mul i32 %x, 2, !dbg !41
  store i32 %r, ptr @g, !dbg !43
  ret i32 %r, !dbg !42
}

define i32 @c(i32 %x) noinline !dbg !53 !shard.cost !{i64 100} {
  %r = sub i32 %x, 3, !dbg !61
  store i32 %r, ptr @g, !dbg !63
  ret i32 %r, !dbg !62
}

@g = external global i32

!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!2, !3}
!0 = distinct !DICompileUnit(language: DW_LANG_C11, file: !1, producer: "clang", isOptimized: true, runtimeVersion: 0, emissionKind: FullDebug)
!1 = !DIFile(filename: "k.c", directory: "/")
!2 = !{i32 7, !"Dwarf Version", i32 5}
!3 = !{i32 2, !"Debug Info Version", i32 3}
!4 = !DISubroutineType(types: !5)
!5 = !{}
!13 = distinct !DISubprogram(name: "a", scope: !1, file: !1, line: 1, type: !4, scopeLine: 1, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !0, keyInstructions: true)
!21 = !DILocation(line: 1, column: 25, scope: !13, atomGroup: 1, atomRank: 2)
!22 = !DILocation(line: 1, column: 16, scope: !13, atomGroup: 1, atomRank: 1)
!23 = !DILocation(line: 1, column: 30, scope: !13, atomGroup: 2, atomRank: 1)
!33 = distinct !DISubprogram(name: "b", scope: !1, file: !1, line: 2, type: !4, scopeLine: 2, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !0, keyInstructions: true)
!41 = !DILocation(line: 2, column: 25, scope: !33, atomGroup: 1, atomRank: 2)
!42 = !DILocation(line: 2, column: 16, scope: !33, atomGroup: 1, atomRank: 1)
!43 = !DILocation(line: 2, column: 30, scope: !33, atomGroup: 2, atomRank: 1)
!53 = distinct !DISubprogram(name: "c", scope: !1, file: !1, line: 3, type: !4, scopeLine: 3, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !0, keyInstructions: true)
!61 = !DILocation(line: 3, column: 25, scope: !53, atomGroup: 1, atomRank: 2)
!62 = !DILocation(line: 3, column: 16, scope: !53, atomGroup: 1, atomRank: 1)
!63 = !DILocation(line: 3, column: 30, scope: !53, atomGroup: 2, atomRank: 1)
