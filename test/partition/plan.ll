; print<shard-plan>: the output format (header, optional module-asm line, one line
; per shard, one per member in module order), and the balance of shard-partition
; (largest cost first onto the least-loaded shard, equal loads to the lowest shard,
; equal costs in name order, not module order; nothing here refers to anything else,
; so cost alone decides); re-running the partition replaces the plan; shards=0 picks
; the count from the total cost (1 for a small module, else the smallest power of two
; at least total / 32768, at most 32);
; -print-pipeline-passes round-trips every pass with its parameters.
;
; RUN: %opt-shard -passes='shard-partition<shards=3;place=graph>,print<shard-plan>' -disable-output %s 2>&1 \
; RUN:   | FileCheck --strict-whitespace --check-prefix=PLAN3 %s
; RUN: %opt-shard -passes='shard-partition<shards=0;place=graph>,print<shard-plan>' -disable-output %s 2>&1 \
; RUN:   | FileCheck --strict-whitespace --check-prefix=AUTO4 %s
; RUN: %opt-shard -passes='shard-cost,shard-partition<shards=0;place=graph>,print<shard-plan>' -disable-output %s 2>&1 \
; RUN:   | FileCheck --strict-whitespace --check-prefix=AUTO1 %s
; RUN: %opt-shard -passes='shard-partition<shards=3;place=graph>,shard-partition<shards=2;place=graph>,print<shard-plan>' -disable-output %s 2>&1 \
; RUN:   | FileCheck --strict-whitespace --check-prefix=AGAIN %s
; RUN: %opt-shard -passes='print<shard-plan>' -disable-output %s 2>&1 | FileCheck --check-prefix=NONE %s
; RUN: %opt-shard -passes='shard-cost,shard-partition<shards=4;place=graph>,print<shard-plan>,shard-split<dir=%t>' \
; RUN:   -print-pipeline-passes -disable-output %s | FileCheck --check-prefix=PIPE -DDIR=%t %s
; RUN: %opt-shard -passes='shard-partition,print<shard-plan>' -print-pipeline-passes -disable-output %s \
; RUN:   | FileCheck --check-prefix=PIPE0 %s

; Sorted: a 40000, then b and d 20000 (b first by name although d comes first in the
; module), c 16000, e 4000, then the two variables (1 each; the unnamed one sorts first).
; a -> 0; b -> 1; d -> 2; c -> 1 (tie 20000/20000: lowest); e, @0, @v -> 2 (least loaded).
; The alias follows its aliasee. Total 100002 (over 3 × 32768): shards=0 chooses 4. The module has
; no module asm, so no "module-asm:" line comes between the header and shard 0.
;      PLAN3:{{^}}shard-plan: shards=3 total-cost=100002 max-cost=40000 imbalance=1.20
; PLAN3-NEXT:{{^}}shard 0: cost=40000 functions=1 globals=2{{$}}
; PLAN3-NEXT:{{^}}  @a function cost=40000 global{{$}}
; PLAN3-NEXT:{{^}}  @ali alias global{{$}}
; PLAN3-NEXT:{{^}}shard 1: cost=36000 functions=2 globals=2{{$}}
; PLAN3-NEXT:{{^}}  @c function cost=16000 global{{$}}
; PLAN3-NEXT:{{^}}  @b function cost=20000 global{{$}}
; PLAN3-NEXT:{{^}}shard 2: cost=24002 functions=2 globals=4{{$}}
; PLAN3-NEXT:{{^}}  @d function cost=20000 global{{$}}
; PLAN3-NEXT:{{^}}  @e function cost=4000 local{{$}}
; PLAN3-NEXT:{{^}}  @v variable global{{$}}
; PLAN3-NEXT:{{^}}  @<6> variable local{{$}}
; PLAN3-NOT:{{.}}

; shard-cost replaces the hand-written costs (4 per one-block function): total 22.
;      AUTO4:{{^}}shard-plan: shards=4 total-cost=100002 max-cost=40000
;      AUTO1:{{^}}shard-plan: shards=1 total-cost=22 max-cost=22 imbalance=1.00
; AUTO1-NEXT:{{^}}shard 0: cost=22 functions=5 globals=8{{$}}
; AUTO1-NEXT:{{^}}  @d function cost=4 global{{$}}
; AUTO1-NEXT:{{^}}  @a function cost=4 global{{$}}
; AUTO1-NEXT:{{^}}  @c function cost=4 global{{$}}
; AUTO1-NEXT:{{^}}  @b function cost=4 global{{$}}
; AUTO1-NEXT:{{^}}  @e function cost=4 local{{$}}
; AUTO1-NEXT:{{^}}  @v variable global{{$}}
; AUTO1-NEXT:{{^}}  @<6> variable local{{$}}
; AUTO1-NEXT:{{^}}  @ali alias global{{$}}
; AUTO1-NOT:{{.}}

; Re-run with shards=2 replaces the first plan: a -> 0; b, d -> 1; c -> 0 (equal
; loads: lowest shard); e, @0, @v -> 1 (least loaded).
;      AGAIN:{{^}}shard-plan: shards=2 total-cost=100002 max-cost=56000 imbalance=1.12
; AGAIN-NEXT:{{^}}shard 0: cost=56000 functions=2 globals=3{{$}}
; AGAIN-NEXT:{{^}}  @a function cost=40000 global{{$}}
; AGAIN-NEXT:{{^}}  @c function cost=16000 global{{$}}
; AGAIN-NEXT:{{^}}  @ali alias global{{$}}
; AGAIN-NEXT:{{^}}shard 1: cost=44002 functions=3 globals=5{{$}}
; AGAIN-NEXT:{{^}}  @d function cost=20000 global{{$}}
; AGAIN-NEXT:{{^}}  @b function cost=20000 global{{$}}
; AGAIN-NEXT:{{^}}  @e function cost=4000 local{{$}}
; AGAIN-NEXT:{{^}}  @v variable global{{$}}
; AGAIN-NEXT:{{^}}  @<6> variable local{{$}}
; AGAIN-NOT:{{.}}

; NONE: shard-plan: none (run shard-partition first)

; PIPE: shard-cost,shard-partition<shards=4;place=graph>,print<shard-plan>,shard-split<dir=[[DIR]]>
; PIPE0: shard-partition<shards=0>,print<shard-plan>

define void @d() !shard.cost !{i64 20000} { ret void }
define void @a() !shard.cost !{i64 40000} { ret void }
define void @c() !shard.cost !{i64 16000} { ret void }
define void @b() !shard.cost !{i64 20000} { ret void }
define internal void @e() !shard.cost !{i64 4000} { ret void }
@v = global i32 0
@0 = internal global i8 1
@ali = alias void (), ptr @a
