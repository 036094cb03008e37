; Unnamed globals that are not local (found by test/fuzz/fuzz.py). Code generation names
; them __unnamed_N, numbered per module: split across shards, each shard numbered them
; its own way, so that a shard's reference to @0 became "U __unnamed_1" and nothing
; defined it (or another shard's __unnamed_1 did). shard-split names every one of them
; (__shard.anon.N.shard.H), hidden, keeping its linkage (weak_odr stays weak_odr; common
; becomes a definition: unnamed-names.ll), and lists it as promoted with
; OLD "-", so that the driver makes it local after linking.
;
; Groups of cost 100 (variables: 1 + 25344 / 256) take one shard each: @2, @0, a (with
; @1, which only it uses), b.
;
; RUN: rm -rf %t && mkdir %t
; RUN: %opt-shard -passes='shard-partition<shards=4;place=graph>,print<shard-plan>,shard-split<dir=%t>' \
; RUN:   -disable-output %s 2>&1 | FileCheck --check-prefix=PLAN %s
; RUN: llvm-dis %t/shard.0.bc -o - | FileCheck --check-prefix=S0 --implicit-check-not=define --implicit-check-not=declare %s
; RUN: llvm-dis %t/shard.1.bc -o - | FileCheck --check-prefix=S1 --implicit-check-not=define --implicit-check-not=declare %s
; RUN: llvm-dis %t/shard.2.bc -o - | FileCheck --check-prefix=S2 --implicit-check-not=define --implicit-check-not=declare %s
; RUN: llvm-dis %t/shard.3.bc -o - | FileCheck --check-prefix=S3 --implicit-check-not=define --implicit-check-not=declare %s
; RUN: FileCheck --check-prefix=MAN %s < %t/manifest
; RUN: %shard --shards 4 -o %t.o %s
; RUN: llvm-nm %t.o | FileCheck --check-prefix=NM --implicit-check-not=__unnamed %s

; PLAN:      shard 0: cost=100 functions=1 globals=1
; PLAN-NEXT:   @<2> function cost=100 global
; PLAN-NEXT: shard 1: cost=100 functions=0 globals=1
; PLAN-NEXT:   @<3> variable global
; PLAN-NEXT: shard 2: cost=101 functions=1 globals=2
; PLAN-NEXT:   @a function cost=100 global
; PLAN-NEXT:   @<4> variable global
; PLAN-NEXT: shard 3: cost=100 functions=1 globals=1
; PLAN-NEXT:   @b function cost=100 global

; S0: define hidden i8 @[[F:__shard\.anon\.0\.shard\.[0-9a-f]{16}]](i8 %x)

; S1: @[[V:__shard\.anon\.1\.shard\.[0-9a-f]{16}]] = hidden global [25344 x i8] zeroinitializer

; S2:      @[[V:__shard\.anon\.1\.shard\.[0-9a-f]{16}]] = external hidden global [25344 x i8]
; S2-NEXT: @[[W:__shard\.anon\.2\.shard\.[0-9a-f]{16}]] = weak_odr hidden global i32 7
; S2:      define i8 @a()
; S2-NEXT:   load i8, ptr @[[V]]
; S2-NEXT:   load i32, ptr @[[W]]
; S2-NEXT:   call i8 @[[F:__shard\.anon\.0\.shard\.[0-9a-f]{16}]](i8
; S2:      declare hidden i8 @[[F]](i8)

; S3:      @[[V:__shard\.anon\.1\.shard\.[0-9a-f]{16}]] = external hidden global [25344 x i8]
; S3:      define i8 @b()
; S3-NEXT:   load i8, ptr @[[V]]
; S3-NEXT:   call i8 @[[F:__shard\.anon\.0\.shard\.[0-9a-f]{16}]](i8
; S3:      declare hidden i8 @[[F]](i8)

; MAN:      promoted __shard.anon.0.shard.[[SUF:[0-9a-f]{16}]] -
; MAN-NEXT: promoted __shard.anon.1.shard.[[SUF]] -
; MAN-NEXT: promoted __shard.anon.2.shard.[[SUF]] -

; Every reference resolves inside the object; the unnamed globals are local there.
; NM:      t __shard.anon.0.shard.[[SUF:[0-9a-f]{16}]]{{$}}
; NM-NEXT: b __shard.anon.1.shard.[[SUF]]{{$}}
; NM-NEXT: d __shard.anon.2.shard.[[SUF]]{{$}}
; NM-NEXT: T a
; NM-NEXT: T b

target triple = "x86_64-pc-linux-gnu"

@0 = global [25344 x i8] zeroinitializer
@1 = weak_odr global i32 7

define i8 @a() noinline !shard.cost !{i64 100} {
  %v = load i8, ptr @0
  %w = load i32, ptr @1
  %r = call i8 @2(i8 %v)
  ret i8 %r
}

define i8 @b() noinline !shard.cost !{i64 100} {
  %v = load i8, ptr @0
  %r = call i8 @2(i8 %v)
  ret i8 %r
}

define i8 @2(i8 %x) noinline !shard.cost !{i64 100} {
  ret i8 %x
}
