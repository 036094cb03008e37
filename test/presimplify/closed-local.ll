; A closed local: a local function that only functions simplified in the closure call.
; The closure does not keep it, so the pipeline sees all its uses, as the serial one
; does: @helper, @get's one call, is inlined with the last-call bonus and deleted; the dead
; argument of @twocalls (two calls, not inlined) is removed, under a new name (a new local,
; placed like any other); @shared, which @main_loop also calls (not in the closure), stays
; as it is. -inline-threshold=0 keeps anything but a last call out of line. The old
; @helper and @twocalls become `unreachable`, held by their owner alone, which drops them.
; The same with debug info (the closure simplified in place, debugify).
; The costs are pinned (!shard.cost), the bodies stand-ins: import-size=0 leaves the imports
; to the costs.
; RUN: rm -rf %t && mkdir %t %t/dbg
; RUN: %opt-shard -inline-threshold=0 -passes='shard-partition<shards=2;place=graph>,shard-split<dir=%t;import-size=0;presimplify=2>' -disable-output %s
; RUN: %opt-shard -inline-threshold=0 -passes='debugify,shard-partition<shards=2;place=graph>,shard-split<dir=%t/dbg;import-size=0;presimplify=2>' -disable-output %s
; RUN: opt -passes=verify -disable-output %t/shard.0.bc
; RUN: opt -passes=verify -disable-output %t/shard.1.bc
; RUN: opt -passes=verify -disable-output %t/dbg/shard.0.bc
; RUN: opt -passes=verify -disable-output %t/dbg/shard.1.bc
; RUN: llvm-dis %t/shard.1.bc -o - | FileCheck --check-prefix=OWNER %s
; RUN: llvm-dis %t/shard.0.bc -o - | FileCheck --check-prefix=IMPORTER %s
; RUN: llvm-dis %t/dbg/shard.1.bc -o - | FileCheck --check-prefix=OWNER %s
; RUN: llvm-dis %t/dbg/shard.0.bc -o - | FileCheck --check-prefix=IMPORTER %s

define internal i32 @helper(i32 %x) !shard.cost !{i64 300} {
  %a = mul i32 %x, 3
  %b = xor i32 %a, 5
  %c = mul i32 %b, 7
  %d = xor i32 %c, 11
  %e = mul i32 %d, 13
  %f = xor i32 %e, 17
  %g = mul i32 %f, 19
  %h = xor i32 %g, 23
  ret i32 %h
}

define internal i32 @twocalls(i32 %x, i32 %unused) !shard.cost !{i64 300} {
  %a = mul i32 %x, 3
  %b = xor i32 %a, 5
  %c = mul i32 %b, 7
  %d = xor i32 %c, 11
  %e = mul i32 %d, 13
  %f = xor i32 %e, 17
  %g = mul i32 %f, 19
  %h = xor i32 %g, 23
  ret i32 %h
}

define internal i32 @shared(i32 %x) !shard.cost !{i64 300} {
  %a = mul i32 %x, 3
  %b = xor i32 %a, 5
  %c = mul i32 %b, 7
  %d = xor i32 %c, 11
  %e = mul i32 %d, 13
  %f = xor i32 %e, 17
  %g = mul i32 %f, 19
  %h = xor i32 %g, 23
  ret i32 %h
}

define i32 @get(i32 %x) !shard.cost !{i64 40} {
  %a = call i32 @helper(i32 %x)
  %b = call i32 @twocalls(i32 %a, i32 1)
  %c = call i32 @twocalls(i32 %b, i32 2)
  %d = call i32 @shared(i32 %c)
  ret i32 %d
}

define i32 @main_loop(i32 %x) !shard.cost !{i64 900} {
  %a = call i32 @get(i32 %x)
  %b = call i32 @shared(i32 %a)
  ret i32 %b
}

define i32 @user(i32 %x) !shard.cost !{i64 1000} {
  %a = call i32 @get(i32 %x)
  ret i32 %a
}

; OWNER:      define internal i32 @helper(i32 %x) {
; OWNER-NEXT:   unreachable
; OWNER:      define internal i32 @twocalls(i32 %x, i32 %unused) {
; OWNER-NEXT:   unreachable
; OWNER:      define i32 @get(i32 %x) #[[PRE:[0-9]+]]
; OWNER-NOT:  call
; OWNER:      mul i32 %x, 3
; OWNER-NOT:  call
; OWNER:      call fastcc i32 @twocalls.1.shard.{{[0-9a-f]+}}(i32 %{{.*}})
; OWNER:      call fastcc i32 @twocalls.1.shard.{{[0-9a-f]+}}(i32 %{{.*}})
; OWNER:      call i32 @shared.shard.{{[0-9a-f]+}}(i32 %{{.*}})
; OWNER:      define hidden fastcc i32 @twocalls.1.shard.{{[0-9a-f]+}}(i32 %0) {{.*}}#[[PRE2:[0-9]+]]
; OWNER-NEXT: mul i32 %0, 3
; OWNER:      attributes #[[PRE2]] = { {{.*}}"shard-presimplified"{{.*}} }

; IMPORTER-NOT: @helper
; IMPORTER-NOT: define {{.*}}@twocalls
; IMPORTER:     define hidden i32 @shared.shard.{{[0-9a-f]+}}(i32 %x)
; IMPORTER-NEXT: mul i32 %x, 3
; IMPORTER:     define available_externally i32 @get(i32 %x)
; IMPORTER:     call fastcc i32 @twocalls.1.shard.{{[0-9a-f]+}}(
; IMPORTER-NOT: define {{.*}}@twocalls
; IMPORTER:     declare hidden fastcc i32 @twocalls.1.shard.{{[0-9a-f]+}}(i32)
