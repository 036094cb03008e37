; shard-split<parts=P;part=I> writes only part I's share of the shards: K % P == I below
; 4 parts; from 4 parts on, part 0 writes none (it verifies the input in the driver) and
; part 1 + K % (P - 1) writes shard K. Part 0 alone writes the manifest. P processes
; together write exactly the files, byte for byte, that one process writes.
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
; RUN: rm -rf %t.four && mkdir %t.four
; RUN: %opt-shard -passes='shard-partition<shards=3>,shard-split<dir=%t.four;parts=4;part=0>' -disable-output %s
; RUN: ls %t.four | FileCheck --check-prefix=FOUR0 --implicit-check-not=shard %s
; FOUR0: manifest
; RUN: %opt-shard -passes='shard-partition<shards=3>,shard-split<dir=%t.four;parts=4;part=3>' -disable-output %s
; RUN: ls %t.four | FileCheck --check-prefix=FOUR3 --implicit-check-not=shard. %s
; FOUR3: manifest
; FOUR3: shard.2.bc
; RUN: %opt-shard -passes='shard-partition<shards=3>,shard-split<dir=%t.four;parts=4;part=1>' -disable-output %s
; RUN: %opt-shard -passes='shard-partition<shards=3>,shard-split<dir=%t.four;parts=4;part=2>' -disable-output %s
; RUN: cmp %t.one/shard.0.bc %t.four/shard.0.bc
; RUN: cmp %t.one/shard.1.bc %t.four/shard.1.bc
; RUN: cmp %t.one/shard.2.bc %t.four/shard.2.bc
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
