; A local function in a comdat of its own name (test/unit/elfgroup.test): the group's
; signature is a local symbol, as in a shared local's group once the link made it local.
$helper = comdat any
define internal i32 @helper(i32 %x) comdat {
  ret i32 %x
}
define i32 @user(i32 %x) {
  %y = call i32 @helper(i32 %x)
  ret i32 %y
}
