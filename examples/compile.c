/* compile.c: the smallest libshard host. Reads an LLVM module (.bc or .ll) with the LLVM-C
   API, compiles it with Shard on all CPUs and writes the object:
     cc compile.c $(pkg-config --cflags --libs shard) -o compile
     ./compile big.bc big.o        (then link big.o like the output of clang -c) */
#include <shard.h>

#include <llvm-c/Core.h>
#include <llvm-c/IRReader.h>

#include <stdio.h>

int main(int argc, char **argv) {
  if (argc != 3) {
    fprintf(stderr, "usage: %s INPUT.bc OUTPUT.o\n", argv[0]);
    return 2;
  }
  LLVMContextRef ctx = LLVMContextCreate();
  LLVMMemoryBufferRef in, obj;
  LLVMModuleRef m;
  char *error = NULL;
  if (LLVMCreateMemoryBufferWithContentsOfFile(argv[1], &in, &error) ||
      LLVMParseIRInContext(ctx, in, &m, &error)) { /* takes the buffer */
    fprintf(stderr, "%s: %s\n", argv[1], error);
    return 1;
  }
  struct shard_config c;
  shard_config_init(&c);                    /* -O2, automatic shards, one job per CPU */
  if (shard_compile(m, &c, &obj, &error)) { /* takes the module */
    fprintf(stderr, "%s\n", error);
    shard_dispose_message(error);
    return 1;
  }
  FILE *f = fopen(argv[2], "wb");
  size_t n = LLVMGetBufferSize(obj);
  int bad = !f || fwrite(LLVMGetBufferStart(obj), 1, n, f) != n;
  if ((f && fclose(f)) || bad) {
    perror(argv[2]);
    return 1;
  }
  LLVMDisposeMemoryBuffer(obj);
  LLVMContextDispose(ctx);
  return 0;
}
