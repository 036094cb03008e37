; With the plugin loaded (clang -fpass-plugin in the shard compiles), a function marked
; "shard-presimplified" skips the optional passes of the simplification pipeline: here the
; inliner, so @marked still calls @inc where @plain has it inlined. The optimisation pipeline
; that follows treats it like any other function: its late InstCombine folds the add of 0.
; RUN: %opt-shard -passes='default<O2>' -S %s | FileCheck %s
; Without the plugin, the mark means nothing.
; RUN: opt -passes='default<O2>' -S %s | FileCheck --check-prefix=PLAIN %s

define linkonce_odr i32 @inc(i32 %x) {
  %y = add i32 %x, 1
  ret i32 %y
}

define i32 @marked(i32 %x) #0 {
  %r = call i32 @inc(i32 %x)
  %s = add i32 %r, 0
  ret i32 %s
}

define i32 @plain(i32 %x) {
  %r = call i32 @inc(i32 %x)
  %s = add i32 %r, 0
  ret i32 %s
}

attributes #0 = { "shard-presimplified" }

; CHECK-LABEL: define i32 @marked(
; CHECK-NEXT:    %r = {{.*}}call i32 @inc(i32 %x)
; CHECK-NEXT:    ret i32 %r
; CHECK-LABEL: define i32 @plain(
; CHECK-NEXT:    add i32 %x, 1
; CHECK-NEXT:    ret i32

; PLAIN-LABEL: define i32 @marked(
; PLAIN-NEXT:    add i32 %x, 1
; PLAIN-NEXT:    ret i32
