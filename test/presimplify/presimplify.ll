; shard-split<presimplify=2> simplifies once, with the module simplification pipeline of
; -O2, the functions that shards share: here @get, which shard 1 owns and shard 0 imports,
; and the tiny @twice it calls (a copy in both shards). Both shards receive the simplified
; bodies (no alloca left, @twice inlined), marked "shard-presimplified", with the attributes
; the pipeline inferred; what no other shard holds (@user, @main_loop) keeps its body as it was.
; RUN: rm -rf %t && mkdir %t
; RUN: %opt-shard -passes='shard-partition<shards=2;place=graph>,shard-split<dir=%t;presimplify=2>' -disable-output %s
; RUN: llvm-dis %t/shard.1.bc -o - | FileCheck --check-prefix=OWNER %s
; RUN: llvm-dis %t/shard.0.bc -o - | FileCheck --check-prefix=IMPORTER %s
; RUN: opt -passes=verify -disable-output %t/shard.0.bc
; RUN: opt -passes=verify -disable-output %t/shard.1.bc
; Without presimplify, the bodies travel as they are.
; RUN: rm -rf %t.raw && mkdir %t.raw
; RUN: %opt-shard -passes='shard-partition<shards=2;place=graph>,shard-split<dir=%t.raw>' -disable-output %s
; RUN: llvm-dis %t.raw/shard.0.bc -o - | FileCheck --check-prefix=RAW %s
; RUN: %opt-shard -passes='shard-split<dir=%t;presimplify=3>' -print-pipeline-passes -disable-output %s | FileCheck --check-prefix=PIPE %s
; PIPE: shard-split<dir={{.*}};presimplify=3>

define linkonce_odr i32 @twice(i32 %x) comdat !shard.cost !{i64 5} {
  %y = add i32 %x, %x
  ret i32 %y
}
$twice = comdat any

define i32 @get(i32 %x) !shard.cost !{i64 40} {
  %p = alloca i32
  store i32 %x, ptr %p
  %v = load i32, ptr %p
  %w = call i32 @twice(i32 %v)
  ret i32 %w
}

define i32 @main_loop(i32 %x) !shard.cost !{i64 900} {
  %p = alloca i32
  store i32 %x, ptr %p
  %v = load i32, ptr %p
  %a = call i32 @get(i32 %v)
  %b = call i32 @twice(i32 %a)
  ret i32 %b
}

define i32 @user(i32 %x) !shard.cost !{i64 1000} {
  %p = alloca i32
  store i32 %x, ptr %p
  %v = load i32, ptr %p
  %a = call i32 @get(i32 %v)
  ret i32 %a
}

; OWNER:      $twice = comdat any
; OWNER:      define linkonce_odr i32 @twice(i32 %x) #[[TINY:[0-9]+]] comdat {
; OWNER-NEXT: shl i32 %x, 1
; OWNER:      define {{.*}}i32 @get(i32 %x) #[[PRE:[0-9]+]] {
; OWNER-NOT:  alloca
; OWNER-NOT:  call
; OWNER:      shl i32 %x, 1
; OWNER-NEXT: ret i32
; OWNER:      define i32 @main_loop(i32 %x) {
; OWNER-NEXT: alloca i32
; OWNER:      attributes #[[TINY]] = { "shard-presimplified" }
; OWNER:      attributes #[[PRE]] = { {{.*}}"shard-presimplified"{{.*}} }

; IMPORTER:      define available_externally {{.*}}i32 @get(i32 %x) #[[PRE:[0-9]+]] {
; IMPORTER-NOT:  alloca
; IMPORTER:      shl i32 %x, 1
; IMPORTER-NEXT: ret i32
; IMPORTER:      define i32 @user(i32 %x) {
; IMPORTER-NEXT: alloca i32
; IMPORTER:      attributes #[[PRE]] = { {{.*}}nounwind{{.*}}"shard-presimplified"{{.*}} }

; RAW:     define available_externally i32 @get(i32 %x){{( #[0-9]+)?}} {
; RAW-NEXT: alloca i32
; RAW-NOT: shard-presimplified
