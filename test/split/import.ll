; shard-split copies what another shard's code needs to optimise as in a serial build:
; small locals called only directly (and unnamed_addr constants) are copied privately,
; small functions and constants of other shards are imported available_externally, a
; local that is imported is promoted (one symbol, hidden) and, where every shard that names
; it imports it, shared (share-locals): a hidden linkonce_odr copy in a comdat of its name in
; each, owner included, which the manifest lists as grouped; what exceeds the limits is only
; declared. import-cost=0;dup-cost=0;const-bytes=0 turns all of it off.
; RUN: rm -rf %t && mkdir %t
; RUN: %opt-shard -passes='shard-partition<shards=2;place=graph>,shard-split<dir=%t;chain-cost=0>' -disable-output %s
; RUN: llvm-dis %t/shard.1.bc -o - | FileCheck --check-prefix=S1 %s
; RUN: llvm-dis %t/shard.0.bc -o - | FileCheck --check-prefix=S0 %s
; RUN: opt -passes=verify -disable-output %t/shard.0.bc
; RUN: opt -passes=verify -disable-output %t/shard.1.bc
; RUN: FileCheck --check-prefix=MAN %s < %t/manifest
; RUN: rm -rf %t.off && mkdir %t.off
; RUN: %opt-shard -passes='shard-partition<shards=2;place=graph>,shard-split<dir=%t.off;chain-cost=0;import-cost=0;dup-cost=0;const-bytes=0>' -disable-output %s
; RUN: llvm-dis %t.off/shard.1.bc -o - | FileCheck --check-prefix=OFF %s
; RUN: %opt-shard -passes='shard-split<dir=%t;import-cost=7;dup-cost=3;import-depth=2;const-bytes=9>' -print-pipeline-passes -disable-output %s | FileCheck --check-prefix=PIPE %s
; PIPE: shard-split<dir={{.*}};import-cost=7;dup-cost=3;import-depth=2;const-bytes=9>

; The plan (pinned below) puts @user, @tiny and the constants in shard 0, and @big with
; the functions it calls in shard 1. Each shard calls into and reads from the other.
; RUN: %opt-shard -passes='shard-partition<shards=2;place=graph>,print<shard-plan>' -disable-output %s 2>&1 | FileCheck --check-prefix=PLAN %s
; PLAN: shard 0:
; PLAN-NEXT: @tiny function
; PLAN-NEXT: @user function
; PLAN-NEXT: @table variable
; PLAN-NEXT: @named variable
; PLAN-NEXT: @huge variable
; PLAN-NEXT: shard 1:
; PLAN-NEXT: @small function
; PLAN-NEXT: @leaf function
; PLAN-NEXT: @mid function
; PLAN-NEXT: @large function
; PLAN-NEXT: @big function

@table = internal unnamed_addr constant [4 x i32] [i32 1, i32 2, i32 3, i32 4]
@named = internal constant [2 x i32] [i32 5, i32 6]
@huge = internal constant [2000 x i32] zeroinitializer

define internal i32 @tiny(i32 %x) !shard.cost !{i64 10} {
  %p = getelementptr [4 x i32], ptr @table, i32 0, i32 %x
  %v = load i32, ptr %p
  ret i32 %v
}
define i32 @small(i32 %x) !shard.cost !{i64 100} {
  %v = call i32 @leaf(i32 %x)
  ret i32 %v
}
define i32 @leaf(i32 %x) !shard.cost !{i64 50} {
  ret i32 %x
}
define internal i32 @mid(i32 %x) !shard.cost !{i64 120} {
  ret i32 %x
}
define i32 @large(i32 %x) !shard.cost !{i64 400} {
  ret i32 %x
}
define i32 @big(i32 %x) !shard.cost !{i64 1000} {
  %a = call i32 @tiny(i32 %x)
  %b = call i32 @small(i32 %a)
  %c = call i32 @mid(i32 %b)
  %d = call i32 @large(i32 %c)
  %p = getelementptr [2 x i32], ptr @named, i32 0, i32 %d
  %v = load i32, ptr %p
  %q = getelementptr [2000 x i32], ptr @huge, i32 0, i32 %v
  %w = load i32, ptr %q
  ret i32 %w
}
define i32 @user(i32 %x) !shard.cost !{i64 1600} {
  %a = call i32 @tiny(i32 %x)
  %b = call i32 @small(i32 %a)
  %c = call i32 @mid(i32 %b)
  %d = call i32 @large(i32 %c)
  %p = getelementptr [2 x i32], ptr @named, i32 0, i32 %d
  %v = load i32, ptr %p
  %q = getelementptr [2000 x i32], ptr @huge, i32 0, i32 %v
  %w = load i32, ptr %q
  ret i32 %w
}

; Shard 0: owns @tiny and the constants (promoted where another shard needs them); imports small functions of shard 1 (a promoted local among them);
; only declares what is too large (@large) or past import-depth=1 (@leaf, called by @small).
; S0-DAG: @table = internal unnamed_addr constant [4 x i32] [i32 1, i32 2, i32 3, i32 4]
; S0-DAG: @named.shard.[[H:[0-9a-f]{16}]] = hidden constant [2 x i32] [i32 5, i32 6]
; S0-DAG: @huge.shard.[[H]] = hidden constant [2000 x i32]
; S0-DAG: define internal i32 @tiny(
; S0-DAG: define available_externally i32 @small(
; S0-DAG: define linkonce_odr hidden i32 @mid.shard.[[H]](i32 %x){{( #[0-9]+)?}} comdat {
; S0-DAG: declare i32 @leaf(
; S0-DAG: declare i32 @large(
; S0-DAG: define i32 @user(

; Shard 1: a private copy of @tiny and of the unnamed_addr @table it reads (locals,
; never promoted); an import of the small constant @named; a declaration of @huge.
; S1-DAG: @table = internal unnamed_addr constant [4 x i32] [i32 1, i32 2, i32 3, i32 4]
; S1-DAG: @named.shard.[[H:[0-9a-f]{16}]] = available_externally hidden constant [2 x i32] [i32 5, i32 6]
; S1-DAG: @huge.shard.[[H]] = external hidden constant [2000 x i32]
; S1-DAG: define internal i32 @tiny(
; S1-DAG: define i32 @small(
; S1-DAG: define i32 @leaf(
; S1-DAG: define linkonce_odr hidden i32 @mid.shard.[[H]](i32 %x){{( #[0-9]+)?}} comdat {
; S1-DAG: define i32 @big(

; MAN-DAG: promoted [[MID:mid.shard.[0-9a-f]+]] mid
; MAN-DAG: grouped [[MID]]
; MAN-DAG: promoted named.shard.{{[0-9a-f]+}} named
; MAN-DAG: promoted huge.shard.{{[0-9a-f]+}} huge
; MAN-NOT: promoted tiny
; MAN-NOT: promoted table

; Without copies and imports, shard 1 only declares, and the locals it uses are promoted.
; OFF-DAG: declare hidden i32 @tiny.shard.{{[0-9a-f]+}}(
; OFF-DAG: @named.shard.{{[0-9a-f]+}} = external hidden constant
; OFF-NOT: available_externally
; OFF-NOT: internal
