"""Prints a module of N small functions @fK, each called by both @user0 and @user1 (so that
a two-shard split imports about half of them into each shard): groups.test. With --printf,
each @fK also prints a line of its own, printf("fK\\n"), which the simplification pipeline
turns into puts("fK") with a new string constant: new-global-groups.test. With --cross,
@f0 and @f1 (the first group) also call @x, a local too big for a private copy, defined
last (so that the other shard imports it and the last group simplifies it), which reads a
constant of a named struct type (another type in each context): groups.test."""
import sys

args = [a for a in sys.argv[1:] if not a.startswith("--")]
printf = "--printf" in sys.argv[1:]
cross = "--cross" in sys.argv[1:]
n = int(args[0])
if printf:
    print("declare i32 @printf(ptr, ...)")
for k in range(n):
    line = ""
    if printf:
        s = "f%d\\0A\\00" % k
        print('@.s%d = private unnamed_addr constant [%d x i8] c"%s"' % (k, len("f%d" % k) + 2, s))
        line = "  %%c = call i32 (ptr, ...) @printf(ptr @.s%d)\n" % k
    if cross and k < 2:
        line += "  %cx = call i32 @x(i32 %x)\n"
    print("define i32 @f%d(i32 %%x) {\n%s  %%p = alloca i32\n  store i32 %%x, ptr %%p\n"
          "  %%v = load i32, ptr %%p\n  %%r = add i32 %%v, %d\n  ret i32 %%r\n}" % (k, line, k))
for u in range(2):
    print("define i32 @user%d(i32 %%x) {" % u)
    for k in range(n):
        print("  %%a%d = call i32 @f%d(i32 %%x)" % (k, k))
    print("  ret i32 %x\n}")
if cross:
    print("%struct.S = type { i32 }\n@k = linkonce_odr constant %struct.S { i32 7 }")
    print("@sink = global i32 0\ndefine internal i32 @x(i32 %y) {\n  %k = load volatile i32, ptr @k")
    print("  %x = add i32 %y, %k")
    v = "%x"
    for k in range(30):
        print("  %%m%d = mul i32 %s, %d\n  %%n%d = xor i32 %%m%d, %d" % (k, v, k + 3, k, k, k + 5))
        v = "%%n%d" % k
    print("  store volatile i32 %s, ptr @sink\n  ret i32 %s\n}" % (v, v))
