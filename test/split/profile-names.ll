; Front-end instrumentation (-fprofile-instr-generate) names each function by a variable
; "__profn_NAME" that only llvm.instrprof.* calls use; each compile's lowering turns the
; names it sees into counters of that name's linkage. Every shard that holds a function
; naming one holds the name itself, as a translation unit does, never promoted or imported:
; a private name (named after its referrer, as every private) is a private copy (named per shard: each shard's counters stay its own,
; llvm-profdata adds up their records), any other a copy with its linkage (one set of
; counters for the program, as across translation units).
;
; The plan below: @caller in shard 1 calls @small (external, shard 0, imported), the local
; @helper (shard 0, copied) and the inline @inl (linkonce_odr, shard 0, copied); @other uses
; a "__profn_" variable that something else reads too, which is an ordinary constant.
;
; RUN: rm -rf %t && mkdir %t
; RUN: %opt-shard -passes='shard-split<dir=%t>' -disable-output %s
; RUN: llvm-dis %t/shard.0.bc -o - | FileCheck --check-prefix=S0 %s
; RUN: llvm-dis %t/shard.1.bc -o - | FileCheck --check-prefix=S1 %s
; RUN: opt -passes=verify -disable-output %t/shard.0.bc
; RUN: opt -passes=verify -disable-output %t/shard.1.bc
; RUN: FileCheck --check-prefix=MAN --implicit-check-not=promoted %s < %t/manifest
;
; S0-DAG: @__profn_small.small = private constant [5 x i8] c"small"
; S0-DAG: @"__profn_t.c;helper.helper" = private constant [8 x i8] c"t.c:help"
; S0-DAG: @__profn_inl = linkonce_odr hidden constant [3 x i8] c"inl"
; S0-DAG: @__profn_other = constant [5 x i8] c"other"
; S0-DAG: define i32 @small(
; S0-DAG: define internal i32 @helper(
; S0-DAG: define linkonce_odr i32 @inl(
;
; S1-DAG: @__profn_small.small.shard1 = private constant [5 x i8] c"small"
; S1-DAG: @"__profn_t.c;helper.helper.shard1" = private constant [8 x i8] c"t.c:help"
; S1-DAG: @__profn_inl = linkonce_odr hidden constant [3 x i8] c"inl"
; S1-DAG: @__profn_other = available_externally constant [5 x i8] c"other"
; S1-DAG: define i32 @caller(
; S1-DAG: define available_externally i32 @small(
; S1-DAG: call void @llvm.instrprof.increment(ptr @__profn_small.small.shard1,
; S1-DAG: define internal i32 @helper(
; S1-DAG: call void @llvm.instrprof.increment(ptr @"__profn_t.c;helper.helper.shard1",
; S1-DAG: define linkonce_odr i32 @inl(
; S1-DAG: call void @llvm.instrprof.increment(ptr @__profn_inl,
;
; MAN: shards 2

@__profn_small = private constant [5 x i8] c"small", !shard.partition !{i32 0}
@"__profn_t.c;helper" = private constant [8 x i8] c"t.c:help", !shard.partition !{i32 0}
@__profn_inl = linkonce_odr hidden constant [3 x i8] c"inl", !shard.partition !{i32 0}
@__profn_caller = private constant [6 x i8] c"caller", !shard.partition !{i32 1}
@__profn_other = constant [5 x i8] c"other", !shard.partition !{i32 0}

define i32 @small(i32 %x) !shard.cost !{i64 5} !shard.partition !{i32 0} {
  call void @llvm.instrprof.increment(ptr @__profn_small, i64 1, i32 1, i32 0)
  %y = add i32 %x, 1
  ret i32 %y
}

define internal i32 @helper(i32 %x) !shard.cost !{i64 5} !shard.partition !{i32 0} {
  call void @llvm.instrprof.increment(ptr @"__profn_t.c;helper", i64 2, i32 1, i32 0)
  %y = mul i32 %x, 3
  ret i32 %y
}

define linkonce_odr i32 @inl(i32 %x) !shard.cost !{i64 5} !shard.partition !{i32 0} {
  call void @llvm.instrprof.increment(ptr @__profn_inl, i64 3, i32 1, i32 0)
  %y = sub i32 %x, 2
  ret i32 %y
}

define i32 @use_all(i32 %x) !shard.cost !{i64 20} !shard.partition !{i32 0} {
  %a = call i32 @helper(i32 %x)
  %b = call i32 @inl(i32 %a)
  ret i32 %b
}

define i32 @other() !shard.cost !{i64 5} !shard.partition !{i32 0} {
  %c = load i8, ptr @__profn_other
  %r = zext i8 %c to i32
  ret i32 %r
}

define i32 @caller(i32 %x) !shard.cost !{i64 20} !shard.partition !{i32 1} {
  call void @llvm.instrprof.increment(ptr @__profn_caller, i64 4, i32 1, i32 0)
  %a = call i32 @small(i32 %x)
  %b = call i32 @helper(i32 %a)
  %c = call i32 @inl(i32 %b)
  %d = call i32 @other()
  %e = load i8, ptr @__profn_other
  %f = zext i8 %e to i32
  %r = add i32 %d, %f
  ret i32 %r
}

declare void @llvm.instrprof.increment(ptr, i64, i32, i32)

!shard.plan = !{!0, !1, !2, !3}
!0 = !{!"version", i32 1}
!1 = !{!"shards", i32 2}
!2 = !{!"asm-shard", i32 0}
!3 = !{!"costs", i64 40, i64 20}
