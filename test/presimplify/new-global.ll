; The simplification pipeline makes new globals in the closure: here printf("hello\n")
; becomes puts("hello"), with a new private constant for "hello". Such a local is defined
; in the source module and enters the split's layout like any other: every shard that holds
; a body naming it, importer or owner, has a private copy of it (a small unnamed_addr
; constant), named after its referrer, and no shard is left with a declaration of it.
; RUN: rm -rf %t && mkdir %t
; RUN: %opt-shard -passes='shard-partition<shards=2;place=graph>,shard-split<dir=%t;presimplify=2;verify>' -disable-output %s
; RUN: opt -passes=verify -disable-output %t/shard.0.bc
; RUN: opt -passes=verify -disable-output %t/shard.1.bc
; RUN: llvm-dis %t/shard.1.bc -o - | FileCheck --check-prefixes=CHECK,OWNER %s
; RUN: llvm-dis %t/shard.0.bc -o - | FileCheck --check-prefixes=CHECK,IMPORTER %s
; RUN: FileCheck --check-prefix=MANIFEST %s < %t/manifest

@.msg = private unnamed_addr constant [7 x i8] c"hello\0A\00"
@.bye = private unnamed_addr constant [5 x i8] c"bye\0A\00"

declare i32 @printf(ptr, ...)

define void @hello() !shard.cost !{i64 40} {
  %c = call i32 (ptr, ...) @printf(ptr @.msg)
  ret void
}

define void @bye() !shard.cost !{i64 40} {
  %c = call i32 (ptr, ...) @printf(ptr @.bye)
  ret void
}

define i32 @main_loop(i32 %x) !shard.cost !{i64 900} {
  call void @hello()
  call void @bye()
  ret i32 %x
}

define i32 @user(i32 %x) !shard.cost !{i64 1000} {
  call void @hello()
  call void @bye()
  ret i32 %x
}

; CHECK-NOT:  external
; CHECK:      @str.hello = private unnamed_addr constant [6 x i8] c"hello\00"
; CHECK-NEXT: @str.bye = private unnamed_addr constant [4 x i8] c"bye\00"
; CHECK-NOT:  external
; CHECK:      declare {{.*}}i32 @puts(ptr
; OWNER:      define void @hello() #[[PRE:[0-9]+]] {
; IMPORTER:   define available_externally void @hello() #[[PRE:[0-9]+]] {
; CHECK-NEXT: call i32 @puts(ptr {{.*}}@str.hello)
; OWNER:      define void @bye() #[[PRE]] {
; IMPORTER:   define available_externally void @bye() #[[PRE]] {
; CHECK-NEXT: call i32 @puts(ptr {{.*}}@str.bye)
; CHECK:      attributes #[[PRE]] = {{{.*}}"shard-presimplified"

; Copied, not promoted: the manifest promotes nothing.
; MANIFEST-NOT: promoted
