; Rejected pipelines and fatal split errors: shard-partition accepts only shards=N with
; N from 0 to 4096; shard-split needs dir=PATH naming an existing directory and a plan
; from shard-partition. Each error names the pass and the offending parameter, and opt
; exits with an error (not a crash). The limits themselves are accepted.
;
; RUN: not %opt-shard -passes='shard-partition<shards=x>' -disable-output %s 2>&1 \
; RUN:   | FileCheck --check-prefix=NOTNUM %s
; NOTNUM: shard-partition: invalid parameter 'shards=x': shards must be an integer from 0 (automatic) to 4096
; NOTNUM: unknown pass name 'shard-partition<shards=x>'
;
; RUN: not %opt-shard -passes='shard-partition<shards=5000>' -disable-output %s 2>&1 \
; RUN:   | FileCheck --check-prefix=BIG %s
; BIG: shard-partition: invalid parameter 'shards=5000': shards must be an integer from 0 (automatic) to 4096
;
; RUN: not %opt-shard -passes='shard-partition<shards=-1>' -disable-output %s 2>&1 \
; RUN:   | FileCheck --check-prefix=NEG %s
; NEG: shard-partition: invalid parameter 'shards=-1': shards must be an integer
;
; RUN: not %opt-shard -passes='shard-partition<shards=>' -disable-output %s 2>&1 \
; RUN:   | FileCheck --check-prefix=EMPTY %s
; EMPTY: shard-partition: invalid parameter 'shards=': shards must be an integer
;
; RUN: not %opt-shard -passes='shard-partition<foo=1>' -disable-output %s 2>&1 \
; RUN:   | FileCheck --check-prefix=FOO %s
; FOO: shard-partition: invalid parameter 'foo=1': expected shards=N
;
; RUN: not %opt-shard -passes='shard-split' -disable-output %s 2>&1 \
; RUN:   | FileCheck --check-prefix=NODIR %s
; NODIR: shard-split: invalid parameter '': expected dir=PATH
; NODIR: unknown pass name 'shard-split'
;
; RUN: not %opt-shard -passes='shard-split<dir=>' -disable-output %s 2>&1 \
; RUN:   | FileCheck --check-prefix=EMPTYDIR %s
; EMPTYDIR: shard-split: invalid parameter 'dir=': expected dir=PATH
;
; RUN: not %opt-shard -passes='shard-split<path=x>' -disable-output %s 2>&1 \
; RUN:   | FileCheck --check-prefix=BADKEY %s
; BADKEY: shard-split: invalid parameter 'path=x': expected dir=PATH
;
; RUN: not %opt-shard -passes='shard-split<dir=x;parts=2;part=2>' -disable-output %s 2>&1 \
; RUN:   | FileCheck --check-prefix=PART %s
; PART: shard-split: invalid parameter 'parts=2': expected parts >= 1 and part < parts
; RUN: not %opt-shard -passes='shard-split<dir=x;import-depth=17>' -disable-output %s 2>&1 \
; RUN:   | FileCheck --check-prefix=DEPTH %s
; DEPTH: shard-split: invalid parameter 'import-depth=17': expected an integer from 0 to 16
;
; RUN: not %opt-shard -passes='shard-split<dir=x;presimplify=4>' -disable-output %s 2>&1 \
; RUN:   | FileCheck --check-prefix=PRE %s
; PRE: shard-split: invalid parameter 'presimplify=4': expected an optimisation level from 0 to 3
;
; shard-split without a plan, or into a directory that does not exist: fatal, and
; nothing is written.
; RUN: rm -rf %t && mkdir %t
; RUN: not %opt-shard -passes='shard-split<dir=%t>' -disable-output %s 2>&1 \
; RUN:   | FileCheck --check-prefix=NOPLAN %s
; NOPLAN: LLVM ERROR: shard-split: module has no shard plan (run shard-partition first)
; RUN: not ls %t/manifest
; RUN: not %opt-shard -passes='shard-partition<shards=2>,shard-split<dir=%t/missing>' -disable-output %s 2>&1 \
; RUN:   | FileCheck --check-prefix=MISSING -DDIR=%t %s
; MISSING: LLVM ERROR: shard-split: output directory '[[DIR]]/missing' does not exist
; RUN: not ls %t/missing
;
; A regular file is not a directory either.
; RUN: touch %t/file
; RUN: not %opt-shard -passes='shard-partition<shards=2>,shard-split<dir=%t/file>' -disable-output %s 2>&1 \
; RUN:   | FileCheck --check-prefix=FILE -DDIR=%t %s
; FILE: LLVM ERROR: shard-split: output directory '[[DIR]]/file' does not exist
;
; The bounds are valid.
; RUN: %opt-shard -passes='shard-partition<shards=4096>,print<shard-plan>' -disable-output %s 2>&1 \
; RUN:   | FileCheck --check-prefix=MAX %s
; MAX: shard-plan: shards=4096 total-cost=4
; RUN: %opt-shard -passes='shard-partition<shards=0>,print<shard-plan>' -disable-output %s 2>&1 \
; RUN:   | FileCheck --check-prefix=AUTO %s
; AUTO: shard-plan: shards=1 total-cost=4

define void @f() { ret void }
