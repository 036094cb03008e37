; Debug info in shard-split: with a DICompileUnit, DISubprograms and
; DIGlobalVariableExpressions, every shard passes the verifier (no !dbg subprogram
; left on a declaration); a global's !dbg attachment stays on its definition only (a
; declaration in another shard has none, also for a promoted local), and each shard's
; CU lists only the global variables it defines, plus, in the asm shard (0 here),
; those attached to no variable at all (here the folded constant).
;
; Groups of cost 100 (variables: 1 + 25344 / 256) take one shard each in name order:
; f, g, gv, gv2.
;
; RUN: rm -rf %t && mkdir %t
; RUN: %opt-shard -passes='shard-partition<shards=4;place=graph>,print<shard-plan>,shard-split<dir=%t>' \
; RUN:   -disable-output %s 2>&1 | FileCheck --check-prefix=PLAN %s
; RUN: llvm-dis %t/shard.0.bc -o - > %t/0.ll
; RUN: llvm-dis %t/shard.1.bc -o - > %t/1.ll
; RUN: llvm-dis %t/shard.2.bc -o - > %t/2.ll
; RUN: llvm-dis %t/shard.3.bc -o - > %t/3.ll
; RUN: FileCheck --check-prefix=S0 %s < %t/0.ll
; RUN: FileCheck --check-prefix=S1 %s < %t/1.ll
; RUN: FileCheck --check-prefix=S2 %s < %t/2.ll
; RUN: FileCheck --check-prefix=S3 %s < %t/3.ll
; The variables each shard must not describe:
; RUN: FileCheck --check-prefix=NO-GV --check-prefix=NO-GV2 %s < %t/0.ll
; RUN: FileCheck --check-prefix=NO-GV --check-prefix=NO-GV2 --check-prefix=NO-FOLDED %s < %t/1.ll
; RUN: FileCheck --check-prefix=NO-GV2 --check-prefix=NO-FOLDED %s < %t/2.ll
; RUN: FileCheck --check-prefix=NO-GV --check-prefix=NO-FOLDED %s < %t/3.ll
; RUN: opt -passes=verify -disable-output %t/shard.0.bc
; RUN: opt -passes=verify -disable-output %t/shard.1.bc
; RUN: opt -passes=verify -disable-output %t/shard.2.bc
; RUN: opt -passes=verify -disable-output %t/shard.3.bc

; PLAN:      shard 0: cost=100 functions=1 globals=1
; PLAN-NEXT:   @f function
; PLAN-NEXT: shard 1: cost=100 functions=1 globals=1
; PLAN-NEXT:   @g function
; PLAN-NEXT: shard 2: cost=100 functions=0 globals=1
; PLAN-NEXT:   @gv variable global
; PLAN-NEXT: shard 3: cost=100 functions=0 globals=1
; PLAN-NEXT:   @gv2 variable local

; S0:      @gv = external global [25344 x i8], align 4{{$}}
; S0-NEXT: @{{gv2\.shard\.[0-9a-f]+}} = external hidden global [25344 x i8], align 4{{$}}
; S0:      define i8 @f() #0 !dbg
; S0:      declare void @g() #0{{$}}
; S0:      distinct !DICompileUnit({{.*}}globals: ![[GL:[0-9]+]]
; S0:      ![[GL]] = !{![[FOLD:[0-9]+]]}
; S0-NEXT: ![[FOLD]] = !DIGlobalVariableExpression(var: ![[V:[0-9]+]], expr: !DIExpression(DW_OP_constu, 7, DW_OP_stack_value))
; S0-NEXT: ![[V]] = distinct !DIGlobalVariable(name: "folded"

; S1:      @gv = external global [25344 x i8], align 4{{$}}
; S1:      define void @g() #0 !dbg
; S1:      distinct !DICompileUnit({{.*}}globals: ![[GL:[0-9]+]]
; S1:      ![[GL]] = !{}

; S2:      @gv = global [25344 x i8] zeroinitializer, align 4, !dbg ![[E:[0-9]+]]
; S2-DAG:  ![[E]] = !DIGlobalVariableExpression(var: ![[V:[0-9]+]], expr: !DIExpression())
; S2-DAG:  ![[V]] = distinct !DIGlobalVariable(name: "gv",
; S2-DAG:  distinct !DICompileUnit({{.*}}globals: ![[GL:[0-9]+]]
; S2-DAG:  ![[GL]] = !{![[E]]}

; S3:      @{{gv2\.shard\.[0-9a-f]+}} = hidden global [25344 x i8] zeroinitializer, align 4, !dbg ![[E:[0-9]+]]
; S3-DAG:  ![[E]] = !DIGlobalVariableExpression(var: ![[V:[0-9]+]], expr: !DIExpression())
; S3-DAG:  ![[V]] = distinct !DIGlobalVariable(name: "gv2",
; S3-DAG:  distinct !DICompileUnit({{.*}}globals: ![[GL:[0-9]+]]
; S3-DAG:  ![[GL]] = !{![[E]]}

; NO-GV-NOT:     name: "gv"
; NO-GV2-NOT:    name: "gv2"
; NO-FOLDED-NOT: name: "folded"

@gv = global [25344 x i8] zeroinitializer, align 4, !dbg !0
@gv2 = internal global [25344 x i8] zeroinitializer, align 4, !dbg !15

define i8 @f() #0 !dbg !10 !shard.cost !{i64 100} {
  %v = load i8, ptr @gv, align 4, !dbg !13
  %w = load i8, ptr @gv2, align 4, !dbg !13
  call void @g(), !dbg !13
  %s = add i8 %v, %w, !dbg !13
  store i8 %s, ptr @gv2, align 4, !dbg !13
  ret i8 %s, !dbg !13
}

define void @g() #0 !dbg !14 !shard.cost !{i64 100} {
  store i8 1, ptr @gv, align 4, !dbg !16
  ret void, !dbg !16
}

attributes #0 = { noinline }

!llvm.dbg.cu = !{!2}
!llvm.module.flags = !{!7, !8}

!0 = !DIGlobalVariableExpression(var: !1, expr: !DIExpression())
!1 = distinct !DIGlobalVariable(name: "gv", scope: !2, file: !3, line: 1, type: !6, isLocal: false, isDefinition: true)
!2 = distinct !DICompileUnit(language: DW_LANG_C99, file: !3, producer: "clang", isOptimized: true, runtimeVersion: 0, emissionKind: FullDebug, globals: !5)
!3 = !DIFile(filename: "t.c", directory: "/tmp")
!5 = !{!0, !15, !18}
!6 = !DIBasicType(name: "char", size: 8, encoding: DW_ATE_signed_char)
!7 = !{i32 2, !"Debug Info Version", i32 3}
!8 = !{i32 7, !"Dwarf Version", i32 5}
!9 = !DISubroutineType(types: !{!6})
!10 = distinct !DISubprogram(name: "f", scope: !3, file: !3, line: 2, type: !9, scopeLine: 2, spFlags: DISPFlagDefinition, unit: !2)
!13 = !DILocation(line: 3, column: 1, scope: !10)
!14 = distinct !DISubprogram(name: "g", scope: !3, file: !3, line: 5, type: !9, scopeLine: 5, spFlags: DISPFlagDefinition, unit: !2)
!15 = !DIGlobalVariableExpression(var: !17, expr: !DIExpression())
!16 = !DILocation(line: 6, column: 1, scope: !14)
!17 = distinct !DIGlobalVariable(name: "gv2", scope: !2, file: !3, line: 1, type: !6, isLocal: true, isDefinition: true)
!18 = !DIGlobalVariableExpression(var: !19, expr: !DIExpression(DW_OP_constu, 7, DW_OP_stack_value))
!19 = distinct !DIGlobalVariable(name: "folded", scope: !2, file: !3, line: 9, type: !6, isLocal: true, isDefinition: true)
