"""Prints a module of N small functions @fK, each called by both @user0 and @user1 (so that
a two-shard split imports about half of them into each shard): groups.test."""
import sys

n = int(sys.argv[1])
for k in range(n):
    print("define i32 @f%d(i32 %%x) {\n  %%p = alloca i32\n  store i32 %%x, ptr %%p\n"
          "  %%v = load i32, ptr %%p\n  %%r = add i32 %%v, %d\n  ret i32 %%r\n}" % (k, k))
for u in range(2):
    print("define i32 @user%d(i32 %%x) {" % u)
    for k in range(n):
        print("  %%a%d = call i32 @f%d(i32 %%x)" % (k, k))
    print("  ret i32 %x\n}")
