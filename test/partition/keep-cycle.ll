; shard-partition<keep-cycle>: the most expensive function that reaches itself through
; others (@exec, an interpreter loop: @exec -> @vacuum -> @api -> @step -> @exec) keeps the
; shortest such cycle in its group, so that its shard's inliner walks the cycle as the
; serial one does. Without it, the stable cut leaves @api and its helper @step in another
; shard. At 8 shards the cycle's other group (cost 700) is more than half a share (612):
; it stays out. The parameter prints with the pipeline.
; RUN: %opt-shard -passes='shard-partition<shards=4>,print<shard-plan>' -disable-output %s 2>&1 \
; RUN:   | FileCheck %s --check-prefix=OFF
; RUN: %opt-shard -passes='shard-partition<shards=4;keep-cycle>,print<shard-plan>' -disable-output %s 2>&1 \
; RUN:   | FileCheck %s --check-prefix=ON
; RUN: %opt-shard -passes='shard-partition<shards=8;keep-cycle>,print<shard-plan>' -disable-output %s 2>&1 \
; RUN:   | FileCheck %s --check-prefix=BOUND
; RUN: %opt-shard -passes='shard-partition<shards=4;keep-cycle>' -print-pipeline-passes -disable-output %s \
; RUN:   | FileCheck %s --check-prefix=PIPE

; OFF:      shard {{[0-9]}}: cost=5100 functions=2 globals=2
; OFF-NEXT:   @exec function cost=5000 global
; OFF-NEXT:   @vacuum function cost=100 local
; OFF:        @f4 function cost=1000 global
; OFF-NEXT:   @api function cost=300 global
; OFF-NEXT:   @step function cost=400 local

; ON:      shard {{[0-9]}}: cost=5800 functions=4 globals=4
; ON-NEXT:   @exec function cost=5000 global
; ON-NEXT:   @vacuum function cost=100 local
; ON-NEXT:   @api function cost=300 global
; ON-NEXT:   @step function cost=400 local

; BOUND:      shard {{[0-9]}}: cost=5100 functions=2 globals=2
; BOUND-NEXT:   @exec function cost=5000 global
; BOUND-NEXT:   @vacuum function cost=100 local
; BOUND:        @f4 function cost=1000 global
; BOUND-NEXT:   @api function cost=300 global

; PIPE: shard-partition<shards=4;keep-cycle>

define i32 @exec(i32 %x) !shard.cost !{i64 5000} {
  %a = call i32 @vacuum(i32 %x)
  ret i32 %a
}
define internal i32 @vacuum(i32 %x) !shard.cost !{i64 100} {
  %a = call i32 @api(i32 %x)
  ret i32 %a
}
define i32 @f1() !shard.cost !{i64 1000} {
  ret i32 0
}
define i32 @f2() !shard.cost !{i64 1000} {
  ret i32 0
}
define i32 @f3() !shard.cost !{i64 1000} {
  ret i32 0
}
define i32 @f4() !shard.cost !{i64 1000} {
  ret i32 0
}
define i32 @api(i32 %x) !shard.cost !{i64 300} {
  %a = call i32 @step(i32 %x)
  ret i32 %a
}
define internal i32 @step(i32 %x) !shard.cost !{i64 400} {
  %a = call i32 @exec(i32 %x)
  ret i32 %a
}
