; Parses, but does not verify; @f, which does not, is called from the other shards (imported there).
define i32 @f(i1 %c) {
entry:
  br i1 %c, label %a, label %b
a:
  %x = add i32 1, 2
  br label %b
b:
  ret i32 %x
}

define i32 @g() {
  %r = call i32 @f(i1 true)
  ret i32 %r
}

define i32 @h() {
  %r = call i32 @f(i1 false)
  ret i32 %r
}
