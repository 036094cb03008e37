; shard-split<notify=FD> writes a line to file descriptor FD once each file is complete:
; "manifest" first (part 0), then each shard number, the largest predicted work first, so
; that the driver can compile a shard while the others are written. quick-exit ends opt
; after the last file (no later pass runs); verify checks the input after the last file
; (for opt -disable-verify: bad-input.test has a broken one); the files are the same bytes
; either way.
; RUN: rm -rf %t.a %t.b && mkdir %t.a %t.b
; RUN: %opt-shard -passes='shard-partition<shards=3>,shard-split<dir=%t.a>' -disable-output %s
; RUN: %opt-shard -passes='shard-partition<shards=3>,shard-split<dir=%t.b;notify=1;quick-exit;verify>,print<shard-plan>' -disable-output -disable-verify %s \
; RUN:   | FileCheck %s --match-full-lines --implicit-check-not={{.}}
; CHECK: manifest
; CHECK-NEXT: 2
; CHECK-NEXT: 0
; CHECK-NEXT: 1
; RUN: cmp %t.a/manifest %t.b/manifest
; RUN: cmp %t.a/shard.0.bc %t.b/shard.0.bc
; RUN: cmp %t.a/shard.1.bc %t.b/shard.1.bc
; RUN: cmp %t.a/shard.2.bc %t.b/shard.2.bc
; Part 1 of 2 names only its own shard and writes no manifest.
; RUN: %opt-shard -passes='shard-partition<shards=3>,shard-split<dir=%t.b;parts=2;part=1;notify=1>' -disable-output %s \
; RUN:   | FileCheck %s --check-prefix=PART1 --match-full-lines --implicit-check-not={{.}}
; PART1: 1
; RUN: %opt-shard -passes='shard-split<dir=%t.b;notify=7;quick-exit;verify>' -print-pipeline-passes -disable-output %s | FileCheck --check-prefix=PIPE %s
; PIPE: shard-split<dir={{.*}};notify=7;quick-exit;verify>
; RUN: not %opt-shard -passes='shard-split<dir=%t.b;notify=-1>' -disable-output %s 2>&1 | FileCheck --check-prefix=BAD %s
; BAD: shard-split: invalid parameter 'notify=-1': expected a file descriptor number

define i32 @small(i32 %x) !shard.cost !{i64 100} {
  ret i32 %x
}
define i32 @medium(i32 %x) !shard.cost !{i64 2000} {
  %y = add i32 %x, 1
  ret i32 %y
}
define i32 @large(i32 %x) !shard.cost !{i64 9000} {
  %y = mul i32 %x, 3
  ret i32 %y
}
