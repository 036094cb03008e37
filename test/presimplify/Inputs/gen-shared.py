"""Prints a module of N small functions @fK, each called by both @user0 and @user1 (so that
a two-shard split imports about half of them into each shard): groups.test. With --printf,
each @fK also prints a line of its own, printf("fK\\n"), which the simplification pipeline
turns into puts("fK") with a new string constant: new-global-groups.test."""
import sys

args = [a for a in sys.argv[1:] if not a.startswith("--")]
printf = "--printf" in sys.argv[1:]
n = int(args[0])
if printf:
    print("declare i32 @printf(ptr, ...)")
for k in range(n):
    line = ""
    if printf:
        s = "f%d\\0A\\00" % k
        print('@.s%d = private unnamed_addr constant [%d x i8] c"%s"' % (k, len("f%d" % k) + 2, s))
        line = "  %%c = call i32 (ptr, ...) @printf(ptr @.s%d)\n" % k
    print("define i32 @f%d(i32 %%x) {\n%s  %%p = alloca i32\n  store i32 %%x, ptr %%p\n"
          "  %%v = load i32, ptr %%p\n  %%r = add i32 %%v, %d\n  ret i32 %%r\n}" % (k, line, k))
for u in range(2):
    print("define i32 @user%d(i32 %%x) {" % u)
    for k in range(n):
        print("  %%a%d = call i32 @f%d(i32 %%x)" % (k, k))
    print("  ret i32 %x\n}")
