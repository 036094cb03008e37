; Parses, but does not verify: %x is used on a path where it is not defined.
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
  ret i32 1
}

define i32 @h() {
  ret i32 2
}
