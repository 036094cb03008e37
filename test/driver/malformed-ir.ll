; This file is its own (malformed) input: the parser's diagnostic must be shown (opt's with
; the process executor), no output written, an existing output left untouched and the
; temporary directory removed.

; RUN: rm -rf %t.tmp && mkdir %t.tmp && rm -f %t.o
; RUN: env TMPDIR=%t.tmp not %shard --executor processes -o %t.o %s 2>&1 | FileCheck %s -DIN=%s
; CHECK: shard: error: opt failed to split '[[IN]]': exit status 1
; CHECK-NEXT: {{.*}}opt{{.*}}: [[IN]]:{{[0-9]+}}:{{[0-9]+}}: error:
; RUN: test ! -e %t.o
; RUN: ls -A %t.tmp | count 0
; RUN: env TMPDIR=%t.tmp not %shard -o %t.o %s 2>&1 | FileCheck %s -DIN=%s --check-prefix=THREADS
; THREADS: shard: error: cannot read the module '[[IN]]': [[IN]]:{{[0-9]+}}:{{[0-9]+}}: error: use of undefined value '%undefined_value'
; RUN: test ! -e %t.o
; RUN: ls -A %t.tmp | count 0

; RUN: echo keep > %t.o
; RUN: env TMPDIR=%t.tmp not %shard --executor processes -o %t.o %s
; RUN: FileCheck %s --check-prefix=KEEP < %t.o
; RUN: env TMPDIR=%t.tmp not %shard -o %t.o %s
; RUN: FileCheck %s --check-prefix=KEEP < %t.o
; KEEP: {{^keep$}}
; RUN: ls -A %t.tmp | count 0

define i32 @f(i32 %x) {
  %y = add i32 %x, %undefined_value
  ret i32 %y
}
