; shard-split prints back every parameter it was given that is not the default, in one
; fixed order (limits, then how the shards are written), and only dir= for the defaults,
; given or not.
; RUN: %opt-shard -passes='shard-split<threads=4;presimplify=2;copy-bodies;verify;quick-exit;notify=7;part=2;parts=3;const-bytes=9;tiny-cost=12;import-depth=2;dup-cost=3;local-import-cost=5;import-cost=7;dir=/d/all>' -print-pipeline-passes -disable-output %s \
; RUN:   | FileCheck --check-prefix=ALL --match-full-lines %s
; ALL: shard-split<dir=/d/all;import-cost=7;local-import-cost=5;dup-cost=3;import-depth=2;tiny-cost=12;const-bytes=9;parts=3;part=2;notify=7;quick-exit;verify;copy-bodies;presimplify=2;threads=4>,verify
; RUN: %opt-shard -passes='shard-split<dir=/d/none>,shard-split<dir=/d/given;import-cost=170;local-import-cost=125;dup-cost=60;import-depth=1;tiny-cost=30;const-bytes=4096;parts=1;part=0;presimplify=0;threads=1>' -print-pipeline-passes -disable-output %s \
; RUN:   | FileCheck --check-prefix=DEFAULT --match-full-lines %s
; DEFAULT: shard-split<dir=/d/none>,shard-split<dir=/d/given>,verify
