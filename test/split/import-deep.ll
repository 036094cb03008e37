; What shard-split follows past import-depth: tiny definitions (cost up to tiny-cost=30:
; the accessors and wrappers C++ libraries nest many levels deep; here the linkonce_odr
; chain t1 -> t2 -> t3 -> t4) are copied at any depth, and the input's own
; available_externally definitions (C++ extern templates, here @ae -> @ae2) go to every
; shard that refers to them, whatever their cost: the serial build has them all for its
; inliner. A tiny definition adds no depth: @a imports the wrapper @w (cost 5) and, at the
; same depth 1, what it calls, @m (cost 80, not tiny), as the serial inliner sees @m in @a
; once @w is inlined. A constant adds depth: @a imports the table @vt but only declares the
; function it names, @vf (cost 80), as a vtable's functions are seldom inlined; likewise a
; function whose address @a only passes on, @cb (a callback), is declared, not imported.
; tiny-cost=0 stops the chain at the copy depth (import-depth + 1 = 2); groups that are not
; tiny are imported rather than copied (@t1, @t2, with no-odr-copies: the shard compiles
; no copy of them), and @m past the import depth; by default (odr-copies) @t1 and @t2 are
; linkonce_odr copies instead, as no shard declares them, while @t3, declared, is not;
; import-cost=0 (no imports) leaves other shards' available_externally definitions out.
; The plan puts @a and @ae in shard 0, the rest in shard 1 (the chain follows @b, which
; calls @t1 twice).
; RUN: rm -rf %t && mkdir -p %t/d %t/t0 %t/i0
; RUN: %opt-shard -passes='shard-partition<shards=2>,shard-split<dir=%t/d;chain-cost=0>' -disable-output %s
; RUN: llvm-dis %t/d/shard.0.bc -o - | FileCheck %s --check-prefix=DEFAULT
; RUN: FileCheck %s --check-prefix=MAN < %t/d/manifest
; RUN: %opt-shard -passes='shard-partition<shards=2>,shard-split<dir=%t/t0;chain-cost=0;tiny-cost=0>' -disable-output %s
; RUN: llvm-dis %t/t0/shard.0.bc -o - | FileCheck %s --check-prefix=TINY0-ODR
; RUN: %opt-shard -passes='shard-partition<shards=2>,shard-split<dir=%t/t0;chain-cost=0;tiny-cost=0;no-odr-copies>' -disable-output %s
; RUN: llvm-dis %t/t0/shard.0.bc -o - | FileCheck %s --check-prefix=TINY0
; RUN: %opt-shard -passes='shard-partition<shards=2>,shard-split<dir=%t/i0;chain-cost=0;import-cost=0>' -disable-output %s
; RUN: llvm-dis %t/i0/shard.0.bc -o - | FileCheck %s --check-prefix=IMPORT0
; RUN: %opt-shard -passes='shard-split<dir=%t;tiny-cost=12>' -print-pipeline-passes -disable-output %s | FileCheck %s --check-prefix=PIPE

; The manifest's predicted cost: what the shard holds (@a 1000, @ae 500), three quarters
; of what it imports (@w 5, @m 80, @ae2 400: 3 + 60 + 300), nothing for its copies of
; tiny wrappers (@t1..@t4: inlined and dropped); shard 1 imports @ae (375).
; MAN: shard 0 cost 1863 functions 2
; MAN-NEXT: shard 1 cost 1981 functions 10

; DEFAULT: define void @a()
; DEFAULT: define available_externally i32 @w(i32 %x)
; DEFAULT: declare i32 @cb(i32)
; DEFAULT: declare i32 @vf(i32)
; DEFAULT: define available_externally i32 @m(i32 %x)
; DEFAULT: define linkonce_odr void @t1() comdat
; DEFAULT: define linkonce_odr void @t2() comdat
; DEFAULT: define linkonce_odr void @t3() comdat
; DEFAULT: define linkonce_odr void @t4() comdat
; DEFAULT: define available_externally void @ae()
; DEFAULT: define available_externally void @ae2()

; TINY0-ODR: define linkonce_odr void @t1() comdat
; TINY0-ODR: define linkonce_odr void @t2() comdat
; TINY0-ODR: declare void @t3()
; TINY0-ODR-NOT: @t4

; TINY0: define available_externally i32 @w(i32 %x)
; TINY0: declare i32 @m(i32)
; TINY0: define available_externally void @t1()
; TINY0: define available_externally void @t2()
; TINY0-NOT: comdat
; TINY0: declare void @t3()
; TINY0-NOT: @t4
; TINY0: define available_externally void @ae2()

; IMPORT0: define linkonce_odr void @t4() comdat
; IMPORT0: define available_externally void @ae()
; IMPORT0: declare void @ae2()

; PIPE: shard-split<dir={{.*}};tiny-cost=12>

$t1 = comdat any
$t2 = comdat any
$t3 = comdat any
$t4 = comdat any
@vt = constant [1 x ptr] [ptr @vf]
declare void @register(ptr)
define void @a() !shard.cost !{i64 1000} {
  call void @register(ptr @cb)
  %v = load ptr, ptr @vt
  %u = call i32 %v(i32 0)
  %r = call i32 @w(i32 1)
  call void @t1()
  call void @ae()
  ret void
}
define void @b() !shard.cost !{i64 1000} {
  %c = call i32 @cb(i32 1)
  %c2 = call i32 @cb(i32 2)
  %v = load ptr, ptr @vt
  %u = call i32 %v(i32 0)
  %v2 = load ptr, ptr @vt
  %u2 = call i32 %v2(i32 1)
  %r = call i32 @w(i32 2)
  %s = call i32 @w(i32 3)
  call void @t1()
  call void @t1()
  call void @ae()
  ret void
}
define i32 @w(i32 %x) !shard.cost !{i64 5} {
  %r = call i32 @m(i32 %x)
  ret i32 %r
}
define i32 @cb(i32 %x) !shard.cost !{i64 20} {
  ret i32 %x
}
define i32 @vf(i32 %x) !shard.cost !{i64 80} {
  ret i32 %x
}
define i32 @m(i32 %x) !shard.cost !{i64 80} {
  %r = add i32 %x, 1
  ret i32 %r
}
define linkonce_odr void @t1() comdat !shard.cost !{i64 5} {
  call void @t2()
  ret void
}
define linkonce_odr void @t2() comdat !shard.cost !{i64 5} {
  call void @t3()
  ret void
}
define linkonce_odr void @t3() comdat !shard.cost !{i64 5} {
  call void @t4()
  ret void
}
define linkonce_odr void @t4() comdat !shard.cost !{i64 5} {
  ret void
}
define available_externally void @ae() !shard.cost !{i64 500} {
  call void @ae2()
  ret void
}
define available_externally void @ae2() !shard.cost !{i64 400} {
  ret void
}
