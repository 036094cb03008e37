; Rejected multiversioning pipelines: each error names the pass and the offending
; parameter, and opt exits with an error (not a crash).
;
; RUN: not %opt-shard -passes='shard-mv-annotate<targets=pentium9>' -disable-output %s 2>&1 \
; RUN:   | FileCheck --check-prefix=UNKNOWN %s
; UNKNOWN: shard-mv-annotate: invalid parameter 'targets=pentium9': unknown x86-64 target 'pentium9' (expected x86-64-v2, x86-64-v3, x86-64-v4 or a CPU name such as haswell)
; UNKNOWN: unknown pass name 'shard-mv-annotate<targets=pentium9>'
;
; RUN: not %opt-shard -passes='shard-mv-annotate<targets=x86-64-v3:x86-64>' -disable-output %s 2>&1 \
; RUN:   | FileCheck --check-prefix=BASE %s
; BASE: shard-mv-annotate: invalid parameter 'targets=x86-64-v3:x86-64': 'x86-64' is the baseline, not a target
;
; RUN: not %opt-shard -passes='shard-mv-annotate<targets=>' -disable-output %s 2>&1 \
; RUN:   | FileCheck --check-prefix=EMPTY %s
; EMPTY: shard-mv-annotate: invalid parameter 'targets=': expected targets=T1:T2:...
;
; RUN: not %opt-shard -passes='shard-mv-annotate<cpus=haswell>' -disable-output %s 2>&1 \
; RUN:   | FileCheck --check-prefix=KEY %s
; KEY: shard-mv-annotate: invalid parameter 'cpus=haswell': expected targets=T1:T2:...
;
; RUN: not %opt-shard -passes='shard-mv<dispatch=plt>' -disable-output %s 2>&1 \
; RUN:   | FileCheck --check-prefix=DISPATCH %s
; DISPATCH: shard-mv: invalid parameter 'dispatch=plt': dispatch must be ifunc, table or auto
;
; RUN: not %opt-shard -passes='shard-mv<force=i386>' -disable-output %s 2>&1 \
; RUN:   | FileCheck --check-prefix=FORCE %s
; FORCE: shard-mv: invalid parameter 'force=i386': unknown x86-64 target 'i386'
;
; RUN: not %opt-shard -passes='shard-mv<verbose>' -disable-output %s 2>&1 \
; RUN:   | FileCheck --check-prefix=MVKEY %s
; MVKEY: shard-mv: invalid parameter 'verbose': expected dispatch=ifunc|table|auto, force=TARGET|default or trace
;
; A bad -shard-mv-targets is found when the pass runs.
; RUN: not %opt-shard -shard-mv-targets=x86-64-v3,pentium9 -passes=shard-mv-annotate -disable-output %s 2>&1 \
; RUN:   | FileCheck --check-prefix=OPT %s
; OPT: shard-mv-annotate: unknown x86-64 target 'pentium9'

define void @f() {
  ret void
}
