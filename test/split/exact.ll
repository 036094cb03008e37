; A shard holds some functions as copies that LLVM cannot take for the definition that runs:
; imports (available_externally) and shared locals (linkonce_odr). FunctionAttrs infers nothing
; for such an inexact definition, so a caller of a C static lost the memory and capture facts
; the serial build infers (docs/passes.md, *exact copies*). The split marks the copies of a
; definition the input held exactly ("shard-exact"), and the shard compile (the plugin loaded)
; lets FunctionAttrs treat them as exact while it infers their SCC's attributes.
;
; @top (shard 0) calls @helper (a local of shard 1 that @own calls too: a shared linkonce_odr
; copy in each), @api (external: imported) and @tmpl (linkonce_odr in the input, as a C++
; inline function: copied, and inexact serially too). @top2 calls @helper and @api only.
; RUN: rm -rf %t && mkdir %t
; RUN: %opt-shard -passes='shard-split<dir=%t;import-size=0>' -disable-output %s
; RUN: llvm-dis %t/shard.0.bc -o - | FileCheck --check-prefix=MARK %s
; RUN: opt -passes=verify -disable-output %t/shard.0.bc
; RUN: %opt-shard -passes='cgscc(function-attrs)' %t/shard.0.bc -S -o - | FileCheck --check-prefix=ON %s
; RUN: opt -passes='cgscc(function-attrs)' %t/shard.0.bc -S -o - | FileCheck --check-prefix=OFF %s
; RUN: rm -rf %t.off && mkdir %t.off
; RUN: %opt-shard -passes='shard-split<dir=%t.off;import-size=0;no-exact-copies>' -disable-output %s
; RUN: llvm-dis %t.off/shard.0.bc -o - | FileCheck --check-prefix=NOMARK %s
; RUN: %opt-shard -passes='shard-split<dir=%t;no-exact-copies>' -print-pipeline-passes -disable-output %s | FileCheck --check-prefix=PIPE %s

; MARK: define i32 @top(ptr %p) {
; MARK: define i32 @top2(ptr %p) {
; MARK: define linkonce_odr hidden i32 @helper.shard.{{[0-9a-f]+}}(ptr %p) #[[E:[0-9]+]] comdat {
; MARK: define available_externally i32 @api(ptr %p) #[[E]] {
; MARK: define linkonce_odr i32 @tmpl(ptr %p) {
; MARK: attributes #[[E]] = { "shard-exact" }

; The linkage is the split's again after the inference.
; ON: define i32 @top(ptr %p) {
; ON: define i32 @top2(ptr {{.*}}readonly{{.*}} %p) #[[T:[0-9]+]] {
; ON: define linkonce_odr hidden i32 @helper.shard.{{[0-9a-f]+}}(ptr {{.*}}readonly{{.*}} %p) #[[E:[0-9]+]] comdat {
; ON: define available_externally i32 @api(ptr {{.*}}readonly{{.*}} %p) #[[E]] {
; ON: define linkonce_odr i32 @tmpl(ptr %p) {
; ON-DAG: attributes #[[T]] = { {{.*}}memory(argmem: read) }
; ON-DAG: attributes #[[E]] = { {{.*}}memory(argmem: read) "shard-exact" }

; NOMARK-NOT: shard-exact
; PIPE: shard-split<dir={{.*}};no-exact-copies>

; Without the plugin, as LLVM sees them: nothing inferred.
; OFF: define i32 @top2(ptr %p) {
; OFF: define linkonce_odr hidden i32 @helper.shard.{{[0-9a-f]+}}(ptr %p) #[[E:[0-9]+]] comdat {
; OFF: attributes #[[E]] = { "shard-exact" }

@slot = global ptr null, !shard.partition !{i32 1}

define i32 @top(ptr %p) !shard.cost !{i64 1000} !shard.partition !{i32 0} {
  %a = call i32 @helper(ptr %p)
  %b = call i32 @api(ptr %p)
  %c = call i32 @tmpl(ptr %p)
  %s = add i32 %a, %b
  %t = add i32 %s, %c
  ret i32 %t
}
define i32 @top2(ptr %p) !shard.cost !{i64 1000} !shard.partition !{i32 0} {
  %a = call i32 @helper(ptr %p)
  %b = call i32 @api(ptr %p)
  %s = add i32 %a, %b
  ret i32 %s
}
define i32 @own(ptr %p) !shard.cost !{i64 1000} !shard.partition !{i32 1} {
  %a = call i32 @helper(ptr %p)
  %b = call i32 @tmpl(ptr %p)
  %s = add i32 %a, %b
  ret i32 %s
}
define internal i32 @helper(ptr %p) !shard.cost !{i64 150} !shard.partition !{i32 1} {
  %v = load i32, ptr %p
  ret i32 %v
}
define i32 @api(ptr %p) !shard.cost !{i64 60} !shard.partition !{i32 1} {
  %v = load i32, ptr %p
  ret i32 %v
}
define linkonce_odr i32 @tmpl(ptr %p) !shard.cost !{i64 20} !shard.partition !{i32 1} {
  %v = load i32, ptr %p
  ret i32 %v
}

!shard.plan = !{!0, !1, !2, !3}
!0 = !{!"version", i32 1}
!1 = !{!"shards", i32 2}
!2 = !{!"asm-shard", i32 0}
!3 = !{!"costs", i64 2000, i64 1230}
