; A shard borrows its own functions' bodies from the source module (moves them in, writes
; the shard, moves them back) instead of copying them: the shards must be the very bytes
; that copying makes (copy-bodies), and the source module must be left as it was, for
; the shards written after it, which import from it. Checked on the other tests' inputs:
; imports and copies of moved bodies, debug info, Key Instructions atom groups,
; blockaddress, ctors and llvm.used, aliases and ifuncs, comdats, promoted locals, module
; asm, TLS. (LLVM 19 always copies: there both runs copy.)
; RUN: rm -rf %t && mkdir %t
; RUN: %s.sh %plugin %S %t import import-deep debug-info blockaddress ctors-used alias-ifunc comdat comdat-keepalive promote module-asm tls unnamed
; RUN: %if llvm-22 %{ %s.sh %plugin %S %t atom-groups %}
