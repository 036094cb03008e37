; Unnamed globals, numbered by shard-split itself (found by test/fuzz/fuzz.py). Left to
; LLVM's renaming, the second and later were "__shard.anon.shard.H.1", ".2", ..., the form
; of LLVM's own renaming: linking the shards (llvm-link, IRMover) crashed when one shard
; declared "...H" and the next defined "...H" calling "...H.2". Now each is
; "__shard.anon.N.shard.H". An unnamed common variable becomes a zero-filled definition
; in its owner: a common symbol stays global in the object (the fuzzer found
; "C __shard.anon..." where clang -c has a local __unnamed_N); now it is local, like serial.
;
; RUN: rm -rf %t && mkdir %t
; RUN: %opt-shard -passes='shard-partition<shards=2;place=graph>,print<shard-plan>,shard-split<dir=%t>' \
; RUN:   -disable-output %s 2>&1 | FileCheck --check-prefix=PLAN %s
; RUN: llvm-dis %t/shard.0.bc -o - | FileCheck --check-prefix=S0 --implicit-check-not=define --implicit-check-not=declare %s
; RUN: llvm-dis %t/shard.1.bc -o - | FileCheck --check-prefix=S1 --implicit-check-not=define --implicit-check-not=declare %s
; RUN: FileCheck --check-prefix=MAN %s < %t/manifest
; RUN: llvm-link %t/shard.0.bc %t/shard.1.bc -o %t/linked.bc
; RUN: %shard --shards 2 -o %t.o %s
; RUN: llvm-nm %t.o | FileCheck --check-prefix=NM %s

; PLAN:      shard 0: cost=301 functions=1 globals=2
; PLAN-NEXT:   @a function cost=300 global
; PLAN-NEXT:   @<4> variable global
; PLAN-NEXT: shard 1: cost=300 functions=3 globals=3

; S0:      @[[V:__shard\.anon\.3\.shard\.[0-9a-f]{16}]] = hidden global i32 0, align 4
; S0:      define i32 @a()
; S0:        call i32 @[[F:__shard\.anon\.0\.shard\.[0-9a-f]{16}]](i32
; S0:      declare hidden i32 @[[F]](i32)

; S1:      @[[V:__shard\.anon\.3\.shard\.[0-9a-f]{16}]] = external hidden global i32
; S1:      define hidden i32 @[[F:__shard\.anon\.0\.shard\.[0-9a-f]{16}]](i32 %x)
; S1-NEXT:   call i32 @[[H:__shard\.anon\.2\.shard\.[0-9a-f]{16}]](i32 %x)
; S1:      define hidden i32 @__shard.anon.1.shard.{{[0-9a-f]+}}(i32 %x)
; S1:      define hidden i32 @[[H]](i32 %x)

; MAN:      promoted __shard.anon.0.shard.[[SUF:[0-9a-f]{16}]] -{{$}}
; MAN-NEXT: promoted __shard.anon.1.shard.[[SUF]] -{{$}}
; MAN-NEXT: promoted __shard.anon.2.shard.[[SUF]] -{{$}}
; MAN-NEXT: promoted __shard.anon.3.shard.[[SUF]] -{{$}}

; The variable is local (clang -O2 -c: "b __unnamed_1"), only @a is global.
; NM:      t __shard.anon.0.shard.[[SUF:[0-9a-f]{16}]]{{$}}
; NM-NEXT: t __shard.anon.1.shard.[[SUF]]{{$}}
; NM-NEXT: t __shard.anon.2.shard.[[SUF]]{{$}}
; NM-NEXT: b __shard.anon.3.shard.[[SUF]]{{$}}
; NM-NEXT: T a
; NM-NOT:  {{.}}

target triple = "x86_64-pc-linux-gnu"

@0 = common global i32 0, align 4

define i32 @a() noinline !shard.cost !{i64 300} {
  %v = load i32, ptr @0
  %r = call i32 @1(i32 %v)
  ret i32 %r
}

define i32 @1(i32 %x) noinline !shard.cost !{i64 100} {
  %r = call i32 @3(i32 %x)
  ret i32 %r
}

define i32 @2(i32 %x) noinline !shard.cost !{i64 100} {
  ret i32 %x
}

define i32 @3(i32 %x) noinline !shard.cost !{i64 100} {
  store i32 %x, ptr @0
  ret i32 %x
}
