; place=stable (the default): groups stay in module order and are cut into contiguous
; ranges at content-defined points, so that an edit touches few shards' modules and a
; cached rebuild recompiles only those. Below: the plan of a 12-function module, then
; three edits, each split into the same file name (source_filename is part of a shard):
; - a changed function body changes its own shard and the shards that import it: f6 calls
;   f5, small enough to import as available_externally, and f9 reaches it through a chain
;   of small imports in a row (f8, f7, f6: chain-cost, which the serial inliner would fold
;   into f9): 3 shards, shard 0 untouched;
; - an added function changes only its shard;
; - a string literal added before another renumbers the front end's names (.str.1 becomes
;   .str.2), but private globals are named after their referrer (.str.f9), so only the
;   shard of the edited function (f3) and the shard importing it (f6 through f5, f4) change.
; RUN: rm -rf %t && mkdir -p %t/base/out %t/body/out %t/added/out %t/str/out
; RUN: cp %s %t/base/in.ll
; RUN: sed 's/xor i32 %x, 0 ; BODY/xor i32 %x, 7/' %s > %t/body/in.ll
; RUN: sed 's/^; ADDED //' %s > %t/added/in.ll
; RUN: sed -e 's/@\.str\.1\b/@.str.2/g' -e 's/^; STR //' -e 's/@\.str\.NEW/@.str.1/' %s > %t/str/in.ll
; RUN: cd %t/base && %opt-shard -passes='shard-cost,shard-partition<shards=4>,print<shard-plan>,shard-split<dir=out>' -disable-output in.ll 2>&1 | FileCheck %s --check-prefix=PLAN
; RUN: cd %t/body && %opt-shard -passes='shard-cost,shard-partition<shards=4>,shard-split<dir=out>' -disable-output in.ll
; RUN: cd %t/added && %opt-shard -passes='shard-cost,shard-partition<shards=4>,print<shard-plan>,shard-split<dir=out>' -disable-output in.ll 2>&1 | FileCheck %s --check-prefix=ADDED
; RUN: cd %t/str && %opt-shard -passes='shard-cost,shard-partition<shards=4>,shard-split<dir=out>' -disable-output in.ll
; RUN: cmp %t/base/out/shard.0.bc %t/body/out/shard.0.bc
; RUN: not cmp -s %t/base/out/shard.1.bc %t/body/out/shard.1.bc
; RUN: not cmp -s %t/base/out/shard.2.bc %t/body/out/shard.2.bc
; RUN: not cmp -s %t/base/out/shard.3.bc %t/body/out/shard.3.bc
; RUN: cmp %t/base/out/shard.0.bc %t/added/out/shard.0.bc
; RUN: not cmp -s %t/base/out/shard.1.bc %t/added/out/shard.1.bc
; RUN: cmp %t/base/out/shard.2.bc %t/added/out/shard.2.bc
; RUN: cmp %t/base/out/shard.3.bc %t/added/out/shard.3.bc
; RUN: cmp %t/base/out/shard.0.bc %t/str/out/shard.0.bc
; RUN: not cmp -s %t/base/out/shard.1.bc %t/str/out/shard.1.bc
; RUN: not cmp -s %t/base/out/shard.2.bc %t/str/out/shard.2.bc
; RUN: cmp %t/base/out/shard.3.bc %t/str/out/shard.3.bc
; RUN: llvm-dis %t/str/out/shard.3.bc -o - | FileCheck %s --check-prefix=NAMES
; RUN: llvm-dis %t/str/out/shard.1.bc -o - | FileCheck %s --check-prefix=NAMES1

; PLAN:      shard-plan: shards=4 total-cost=462 max-cost=118 imbalance=1.02
; PLAN-NEXT: shard 0: cost=113 functions=3 globals=4
; PLAN-NEXT:   @f0 function
; PLAN-NEXT:   @f1 function
; PLAN-NEXT:   @f2 function
; PLAN-NEXT:   @.str variable local
; PLAN-NEXT: shard 1: cost=115 functions=3 globals=3
; PLAN-NEXT:   @f3 function
; PLAN-NEXT:   @f4 function
; PLAN-NEXT:   @f5 function
; PLAN-NEXT: shard 2: cost=116 functions=3 globals=3
; PLAN-NEXT:   @f6 function
; PLAN-NEXT:   @f7 function
; PLAN-NEXT:   @f8 function
; PLAN-NEXT: shard 3: cost=118 functions=3 globals=4
; PLAN-NEXT:   @f9 function
; PLAN-NEXT:   @f10 function
; PLAN-NEXT:   @f11 function
; PLAN-NEXT:   @.str.1 variable local

; ADDED:      shard 1: cost=121 functions=4 globals=4
; ADDED-NEXT:   @f3 function
; ADDED-NEXT:   @f4 function
; ADDED-NEXT:   @f5 function
; ADDED-NEXT:   @g function
; ADDED-NEXT: shard 2:

; NAMES: @.str.f9 = private unnamed_addr constant [3 x i8] c"f9\00"
; NAMES1: @.str.f3 = private unnamed_addr constant [3 x i8] c"f3\00"

; place=graph keeps the connectivity-driven placement; other values are refused.
; RUN: %opt-shard -passes='shard-partition<place=graph>' -print-pipeline-passes -disable-output %s | FileCheck %s --check-prefix=PIPE
; PIPE: shard-partition<shards=0;place=graph>
; RUN: not %opt-shard -passes='shard-partition<place=random>' -disable-output %s 2>&1 | FileCheck %s --check-prefix=BAD
; BAD: place must be stable or graph

@.str = private unnamed_addr constant [3 x i8] c"f2\00"
; STR @.str.NEW = private unnamed_addr constant [3 x i8] c"f3\00"
@.str.1 = private unnamed_addr constant [3 x i8] c"f9\00"
declare void @use(ptr)
define i32 @f0(i32 %x) {
  %v0 = mul i32 %x, 3
  %v1 = mul i32 %v0, 4
  %v2 = mul i32 %v1, 5
  %v3 = mul i32 %v2, 6
  call void @use(ptr null)
  call void @use(ptr null)
  call void @use(ptr null)
  call void @use(ptr null)
  call void @use(ptr null)
  call void @use(ptr null)
  ret i32 %v3
}
define i32 @f1(i32 %x) {
  %v0 = mul i32 %x, 3
  %v1 = mul i32 %v0, 4
  %v2 = mul i32 %v1, 5
  %v3 = mul i32 %v2, 6
  %v4 = mul i32 %v3, 7
  %v5 = mul i32 %v4, 8
  %v6 = mul i32 %v5, 9
  call void @use(ptr null)
  call void @use(ptr null)
  call void @use(ptr null)
  call void @use(ptr null)
  call void @use(ptr null)
  call void @use(ptr null)
  %c = call i32 @f0(i32 %v6)
  ret i32 %c
}
define i32 @f2(i32 %x) {
  %v0 = mul i32 %x, 3
  %v1 = mul i32 %v0, 4
  %v2 = mul i32 %v1, 5
  %v3 = mul i32 %v2, 6
  %v4 = mul i32 %v3, 7
  call void @use(ptr null)
  call void @use(ptr null)
  call void @use(ptr null)
  call void @use(ptr null)
  call void @use(ptr null)
  call void @use(ptr null)
  call void @use(ptr @.str)
  %c = call i32 @f1(i32 %v4)
  ret i32 %c
}
define i32 @f3(i32 %x) {
  %v0 = mul i32 %x, 3
  %v1 = mul i32 %v0, 4
  %v2 = mul i32 %v1, 5
  %v3 = mul i32 %v2, 6
  %v4 = mul i32 %v3, 7
  %v5 = mul i32 %v4, 8
  %v6 = mul i32 %v5, 9
  %v7 = mul i32 %v6, 10
  call void @use(ptr null)
  call void @use(ptr null)
  call void @use(ptr null)
  call void @use(ptr null)
  call void @use(ptr null)
  call void @use(ptr null)
; STR call void @use(ptr @.str.NEW)
  %c = call i32 @f2(i32 %v7)
  ret i32 %c
}
define i32 @f4(i32 %x) {
  %v0 = mul i32 %x, 3
  %v1 = mul i32 %v0, 4
  %v2 = mul i32 %v1, 5
  %v3 = mul i32 %v2, 6
  %v4 = mul i32 %v3, 7
  %v5 = mul i32 %v4, 8
  call void @use(ptr null)
  call void @use(ptr null)
  call void @use(ptr null)
  call void @use(ptr null)
  call void @use(ptr null)
  call void @use(ptr null)
  %c = call i32 @f3(i32 %v5)
  ret i32 %c
}
define i32 @f5(i32 %x) {
  %v0 = mul i32 %x, 3
  %v1 = mul i32 %v0, 4
  %v2 = mul i32 %v1, 5
  %v3 = mul i32 %v2, 6
  call void @use(ptr null)
  call void @use(ptr null)
  call void @use(ptr null)
  call void @use(ptr null)
  call void @use(ptr null)
  call void @use(ptr null)
  %e = xor i32 %x, 0 ; BODY
  %c = call i32 @f4(i32 %v3)
  ret i32 %c
}
; ADDED define i32 @g(i32 %x) { %a = mul i32 %x, 3
; ADDED %b = mul i32 %a, 5
; ADDED ret i32 %b }
define i32 @f6(i32 %x) {
  %v0 = mul i32 %x, 3
  %v1 = mul i32 %v0, 4
  %v2 = mul i32 %v1, 5
  %v3 = mul i32 %v2, 6
  %v4 = mul i32 %v3, 7
  %v5 = mul i32 %v4, 8
  %v6 = mul i32 %v5, 9
  call void @use(ptr null)
  call void @use(ptr null)
  call void @use(ptr null)
  call void @use(ptr null)
  call void @use(ptr null)
  call void @use(ptr null)
  %c = call i32 @f5(i32 %v6)
  ret i32 %c
}
define i32 @f7(i32 %x) {
  %v0 = mul i32 %x, 3
  %v1 = mul i32 %v0, 4
  %v2 = mul i32 %v1, 5
  %v3 = mul i32 %v2, 6
  %v4 = mul i32 %v3, 7
  call void @use(ptr null)
  call void @use(ptr null)
  call void @use(ptr null)
  call void @use(ptr null)
  call void @use(ptr null)
  call void @use(ptr null)
  %c = call i32 @f6(i32 %v4)
  ret i32 %c
}
define i32 @f8(i32 %x) {
  %v0 = mul i32 %x, 3
  %v1 = mul i32 %v0, 4
  %v2 = mul i32 %v1, 5
  %v3 = mul i32 %v2, 6
  %v4 = mul i32 %v3, 7
  %v5 = mul i32 %v4, 8
  %v6 = mul i32 %v5, 9
  %v7 = mul i32 %v6, 10
  call void @use(ptr null)
  call void @use(ptr null)
  call void @use(ptr null)
  call void @use(ptr null)
  call void @use(ptr null)
  call void @use(ptr null)
  %c = call i32 @f7(i32 %v7)
  ret i32 %c
}
define i32 @f9(i32 %x) {
  %v0 = mul i32 %x, 3
  %v1 = mul i32 %v0, 4
  %v2 = mul i32 %v1, 5
  %v3 = mul i32 %v2, 6
  %v4 = mul i32 %v3, 7
  %v5 = mul i32 %v4, 8
  call void @use(ptr null)
  call void @use(ptr null)
  call void @use(ptr null)
  call void @use(ptr null)
  call void @use(ptr null)
  call void @use(ptr null)
  call void @use(ptr @.str.1)
  %c = call i32 @f8(i32 %v5)
  ret i32 %c
}
define i32 @f10(i32 %x) {
  %v0 = mul i32 %x, 3
  %v1 = mul i32 %v0, 4
  %v2 = mul i32 %v1, 5
  %v3 = mul i32 %v2, 6
  call void @use(ptr null)
  call void @use(ptr null)
  call void @use(ptr null)
  call void @use(ptr null)
  call void @use(ptr null)
  call void @use(ptr null)
  %c = call i32 @f9(i32 %v3)
  ret i32 %c
}
define i32 @f11(i32 %x) {
  %v0 = mul i32 %x, 3
  %v1 = mul i32 %v0, 4
  %v2 = mul i32 %v1, 5
  %v3 = mul i32 %v2, 6
  %v4 = mul i32 %v3, 7
  %v5 = mul i32 %v4, 8
  %v6 = mul i32 %v5, 9
  call void @use(ptr null)
  call void @use(ptr null)
  call void @use(ptr null)
  call void @use(ptr null)
  call void @use(ptr null)
  call void @use(ptr null)
  %c = call i32 @f10(i32 %v6)
  ret i32 %c
}
