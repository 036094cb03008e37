; thread_local globals in shard-split: the TLS mode is kept on the definition and on
; every declaration in other shards, for external globals, for internal ones (which are
; promoted to hidden for the other shards) and for an external declaration.
;
; Groups of cost 100 (variables: 1 + 25344 / 256) take one shard each in name order:
; a, b, tl_ext, tl_int, tl_le.
;
; RUN: rm -rf %t && mkdir %t
; RUN: %opt-shard -passes='shard-partition<shards=5;place=graph>,print<shard-plan>,shard-split<dir=%t>' \
; RUN:   -disable-output %s 2>&1 | FileCheck --check-prefix=PLAN %s
; RUN: llvm-dis %t/shard.0.bc -o - | FileCheck --check-prefixes=USER,S0 %s
; RUN: llvm-dis %t/shard.1.bc -o - | FileCheck --check-prefixes=USER,S1 %s
; RUN: llvm-dis %t/shard.2.bc -o - | FileCheck --check-prefix=S2 --implicit-check-not=thread_local %s
; RUN: llvm-dis %t/shard.3.bc -o - | FileCheck --check-prefix=S3 --implicit-check-not=thread_local %s
; RUN: llvm-dis %t/shard.4.bc -o - | FileCheck --check-prefix=S4 --implicit-check-not=thread_local %s
; RUN: opt -passes=verify -disable-output %t/shard.0.bc
; RUN: opt -passes=verify -disable-output %t/shard.1.bc
; RUN: opt -passes=verify -disable-output %t/shard.2.bc
; RUN: opt -passes=verify -disable-output %t/shard.3.bc
; RUN: opt -passes=verify -disable-output %t/shard.4.bc
; RUN: FileCheck --check-prefix=MAN %s < %t/manifest

; PLAN:      shard 0: cost=100 functions=1 globals=1
; PLAN-NEXT:   @a function cost=100 global
; PLAN-NEXT: shard 1: cost=100 functions=1 globals=1
; PLAN-NEXT:   @b function cost=100 global
; PLAN-NEXT: shard 2: cost=100 functions=0 globals=1
; PLAN-NEXT:   @tl_ext variable global
; PLAN-NEXT: shard 3: cost=100 functions=0 globals=1
; PLAN-NEXT:   @tl_int variable local
; PLAN-NEXT: shard 4: cost=100 functions=0 globals=1
; PLAN-NEXT:   @tl_le variable local

; USER:      @[[INT:tl_int\.shard\.[0-9a-f]{16}]] = external hidden thread_local global [25344 x i8]
; USER-NEXT: @tl_ext = external thread_local(initialexec) global [25344 x i8]
; USER-NEXT: @[[LE:tl_le\.shard\.[0-9a-f]{16}]] = external hidden thread_local(localexec) global [25344 x i8]
; USER-NEXT: @tl_dyn = external thread_local(localdynamic) global i8
; S0:        define i8 @a()
; S0-NEXT:     load i8, ptr @[[INT]]
; S0-NEXT:     load i8, ptr @tl_ext
; S0-NEXT:     load i8, ptr @[[LE]]
; S0-NEXT:     load i8, ptr @tl_dyn
; S1:        define void @b()
; S1-NEXT:     store i8 1, ptr @[[INT]]
; S1-NEXT:     store i8 2, ptr @tl_ext
; S1-NEXT:     store i8 3, ptr @[[LE]]
; S1-NEXT:     store i8 4, ptr @tl_dyn

; S2: @tl_ext = thread_local(initialexec) global [25344 x i8] zeroinitializer
; S3: @[[INT:tl_int\.shard\.[0-9a-f]{16}]] = hidden thread_local global [25344 x i8] zeroinitializer
; S4: @[[LE:tl_le\.shard\.[0-9a-f]{16}]] = hidden thread_local(localexec) global [25344 x i8] zeroinitializer

; MAN:      promoted tl_int[[SUF:\.shard\.[0-9a-f]{16}]] tl_int{{$}}
; MAN-NEXT: promoted tl_le[[SUF]] tl_le{{$}}
; MAN-NOT:  promoted

@tl_int = internal thread_local global [25344 x i8] zeroinitializer
@tl_ext = thread_local(initialexec) global [25344 x i8] zeroinitializer
@tl_le = internal thread_local(localexec) global [25344 x i8] zeroinitializer
@tl_dyn = external thread_local(localdynamic) global i8

define i8 @a() #0 !shard.cost !{i64 100} {
  %x = load i8, ptr @tl_int
  %y = load i8, ptr @tl_ext
  %z = load i8, ptr @tl_le
  %w = load i8, ptr @tl_dyn
  %s = add i8 %x, %y
  %t = add i8 %s, %z
  %u = add i8 %t, %w
  ret i8 %u
}
define void @b() #0 !shard.cost !{i64 100} {
  store i8 1, ptr @tl_int
  store i8 2, ptr @tl_ext
  store i8 3, ptr @tl_le
  store i8 4, ptr @tl_dyn
  ret void
}

attributes #0 = { noinline }
