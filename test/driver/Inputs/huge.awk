# Writes one function of about N instructions (awk -v n=N -f huge.awk): a straight chain of
# multiply, shift and xor whose every step is stored (volatile) through %p, so none is
# folded away; huge(x, p) returns the last value.
BEGIN {
  print "define i64 @huge(i64 %x, ptr %p) {"
  prev = "%x"
  for (i = 0; i < n / 4; i++) {
    printf "  %%a%d = mul i64 %s, %d\n", i, prev, 2 * i + 3
    printf "  %%b%d = lshr i64 %%a%d, %d\n", i, i, i % 61 + 1
    printf "  %%c%d = xor i64 %%a%d, %%b%d\n", i, i, i
    printf "  store volatile i64 %%c%d, ptr %%p\n", i
    prev = "%c" i
  }
  printf "  ret i64 %s\n}\n", prev
}
