/* The host of bench/interp.sh's Duktape: evaluates each file named on the command line in one
   heap, with a global print() that writes its arguments, joined by spaces, to stdout. Exits 1
   when a script throws (the error is printed), 2 when a file cannot be read. */
#include "duktape.h"

#include <stdio.h>
#include <stdlib.h>

/* print(...): the arguments as strings, space-separated, and a newline. */
static duk_ret_t print(duk_context *ctx) {
  duk_push_string(ctx, " ");
  duk_insert(ctx, 0);
  duk_join(ctx, duk_get_top(ctx) - 1);
  printf("%s\n", duk_safe_to_string(ctx, -1));
  return 0;
}

/* The whole of file PATH, NUL-terminated, or NULL. */
static char *slurp(const char *path) {
  FILE *f = fopen(path, "rb");
  if (!f)
    return NULL;
  char *buf = NULL;
  long n = fseek(f, 0, SEEK_END) == 0 ? ftell(f) : -1;
  if (n >= 0 && fseek(f, 0, SEEK_SET) == 0 && (buf = malloc((size_t)n + 1)) &&
      fread(buf, 1, (size_t)n, f) == (size_t)n)
    buf[n] = 0;
  else {
    free(buf);
    buf = NULL;
  }
  fclose(f);
  return buf;
}

int main(int argc, char **argv) {
  duk_context *ctx = duk_create_heap_default();
  if (!ctx)
    return 2;
  duk_push_c_function(ctx, print, DUK_VARARGS);
  duk_put_global_string(ctx, "print");
  int status = 0;
  for (int i = 1; i < argc && !status; i++) {
    char *src = slurp(argv[i]);
    if (!src) {
      fprintf(stderr, "duktape-host: cannot read '%s'\n", argv[i]);
      status = 2;
    } else if (duk_peval_string(ctx, src) != 0) {
      printf("error: %s\n", duk_safe_to_string(ctx, -1));
      status = 1;
    }
    duk_pop(ctx);
    free(src);
  }
  duk_destroy_heap(ctx);
  return status;
}
