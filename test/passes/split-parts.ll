; shard-split<parts=P;part=I> writes only the shards K with K % P == I, and part 0 alone
; writes the manifest; P processes together write exactly the files, byte for byte, that
; one process writes.
; RUN: rm -rf %t.one %t.two && mkdir %t.one %t.two
; RUN: %opt-shard -passes='shard-partition<shards=3>,shard-split<dir=%t.one>' -disable-output %s
; RUN: %opt-shard -passes='shard-partition<shards=3>,shard-split<dir=%t.two;parts=2;part=1>' -disable-output %s
; RUN: ls %t.two | FileCheck --check-prefix=PART1 --implicit-check-not=shard --implicit-check-not=manifest %s
; PART1: shard.1.bc
; RUN: %opt-shard -passes='shard-partition<shards=3>,shard-split<dir=%t.two;parts=2;part=0>' -disable-output %s
; RUN: cmp %t.one/manifest %t.two/manifest
; RUN: cmp %t.one/shard.0.bc %t.two/shard.0.bc
; RUN: cmp %t.one/shard.1.bc %t.two/shard.1.bc
; RUN: cmp %t.one/shard.2.bc %t.two/shard.2.bc
; RUN: %opt-shard -passes='shard-split<dir=%t.two;parts=2;part=1>' -print-pipeline-passes -disable-output %s | FileCheck --check-prefix=PIPE %s
; PIPE: shard-split<dir={{.*}};parts=2;part=1>

define internal i32 @helper(i32 %x) !shard.cost !{i64 500} {
  ret i32 %x
}
define i32 @a(i32 %x) !shard.cost !{i64 1000} {
  %r = call i32 @helper(i32 %x)
  ret i32 %r
}
define i32 @b(i32 %x) !shard.cost !{i64 1000} {
  %r = call i32 @helper(i32 %x)
  ret i32 %r
}
