/* A code-generation error in one shard (test/driver/launcher-compile.test): inline assembly
   that the assembler rejects, beside functions that compile. */
int a1(int x) { return x * 3 + 1; }
int a2(int x) { return x * 5 + 2; }
int bad(int x) {
  __asm__("bogus %0" : : "r"(x));
  return x;
}
int a3(int x) { return x * 7 + 3; }
