; shard-split<chain-cost=N> (225 by default, 0: off; docs/passes.md): past import-depth, what an
; import calls is imported too while the chain of imports that reached it costs up to N in
; all, none of them linkonce. C libraries layer their APIs (Duktape's duk_to_string ->
; duk_require_string -> duk_require_lstring -> duk_get_lstring -> duk_get_tval): the
; serial inliner folds each into the one above, and into the caller; a shard that stopped at
; the import depth kept a call to duk_get_lstring in the interpreter's hot path.
;
; By default (225): @top (shard 0) calls @req_string (tiny, cost 17: no depth), which
; calls @req_lstring (40: depth 1, chain 57), @get_lstring (74: chain 131), @get_tval (82:
; chain 213), @deep (100: chain 313, over 225: declared). @get_tval also calls @lo, a
; linkonce_odr function outside any comdat (cost 40): not followed. With 0, the split stops at
; import-depth: @req_lstring imported, @get_lstring declared. The costs are pinned
; (!shard.cost), the bodies stand-ins: import-size=0 leaves the imports to the costs.
; RUN: rm -rf %t && mkdir -p %t/on %t/off
; RUN: %opt-shard -passes='shard-split<dir=%t/on;import-size=0>' -disable-output %s
; RUN: llvm-dis %t/on/shard.0.bc -o - | FileCheck --check-prefix=ON --implicit-check-not=define %s
; RUN: opt -passes=verify -disable-output %t/on/shard.0.bc
; RUN: %opt-shard -passes='shard-split<dir=%t/off;import-size=0;chain-cost=0>' -disable-output %s
; RUN: llvm-dis %t/off/shard.0.bc -o - | FileCheck --check-prefix=OFF --implicit-check-not=define %s
; RUN: %opt-shard -passes='shard-split<dir=%t/on;chain-cost=0>' -print-pipeline-passes -disable-output %s | FileCheck --check-prefix=PIPE0 %s
; RUN: %opt-shard -passes='shard-split<dir=%t/on;chain-cost=100>' -print-pipeline-passes -disable-output %s | FileCheck --check-prefix=PIPE %s
; RUN: %opt-shard -passes='shard-split<dir=%t/on>' -print-pipeline-passes -disable-output %s | FileCheck --check-prefix=DEFAULT-PIPE %s
; RUN: not %opt-shard -passes='shard-split<dir=%t/on;chain-cost=x>' -disable-output %s 2>&1 | FileCheck --check-prefix=BAD %s

; ON: define i32 @top(
; ON: define available_externally i32 @req_string(
; ON: define available_externally i32 @req_lstring(
; ON: define available_externally i32 @get_lstring(
; ON: define available_externally i32 @get_tval(
; ON: declare i32 @deep(
; ON: declare i32 @lo(

; OFF: define i32 @top(
; OFF: define available_externally i32 @req_string(
; OFF: define available_externally i32 @req_lstring(
; OFF: declare i32 @get_lstring(

; PIPE: shard-split<dir={{.*}};chain-cost=100>
; PIPE0: shard-split<dir={{.*}};chain-cost=0>
; DEFAULT-PIPE-NOT: ;chain-cost=
; BAD: chain-cost=x{{.*}}expected a non-negative integer

define i32 @top(i32 %x) !shard.cost !{i64 1000} !shard.partition !{i32 0} {
  %r = call i32 @req_string(i32 %x)
  ret i32 %r
}
define i32 @req_string(i32 %x) !shard.cost !{i64 17} !shard.partition !{i32 1} {
  %r = call i32 @req_lstring(i32 %x)
  ret i32 %r
}
define i32 @req_lstring(i32 %x) !shard.cost !{i64 40} !shard.partition !{i32 1} {
  %r = call i32 @get_lstring(i32 %x)
  ret i32 %r
}
define i32 @get_lstring(i32 %x) !shard.cost !{i64 74} !shard.partition !{i32 1} {
  %r = call i32 @get_tval(i32 %x)
  ret i32 %r
}
define i32 @get_tval(i32 %x) !shard.cost !{i64 82} !shard.partition !{i32 1} {
  %a = call i32 @deep(i32 %x)
  %b = call i32 @lo(i32 %a)
  ret i32 %b
}
define i32 @deep(i32 %x) !shard.cost !{i64 100} !shard.partition !{i32 1} {
  %r = call i32 @ext(i32 %x)
  ret i32 %r
}
define linkonce_odr i32 @lo(i32 %x) !shard.cost !{i64 40} !shard.partition !{i32 1} {
  %r = call i32 @ext(i32 %x)
  ret i32 %r
}
define i32 @other(i32 %x) !shard.cost !{i64 1000} !shard.partition !{i32 1} {
  %r = call i32 @lo(i32 %x)
  ret i32 %r
}
declare i32 @ext(i32)

!shard.plan = !{!0, !1, !2, !3}
!0 = !{!"version", i32 1}
!1 = !{!"shards", i32 2}
!2 = !{!"asm-shard", i32 0}
!3 = !{!"costs", i64 1000, i64 1353}
