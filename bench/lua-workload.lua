-- bench/lua.sh's workload: a deterministic mix of what a Lua program spends its time on (table
-- sort through a comparison callback, string formatting and patterns, calls, coroutines,
-- metamethods, pcall, load, integer and float arithmetic, utf8). Prints what it computed.
local t0 = {}
for i = 1, 200000 do t0[i] = (i * 7919) % 100003 end
table.sort(t0)
local s = 0
for i = 1, #t0, 97 do s = s + t0[i] end
print("sort", s)
local parts = {}
for i = 1, 20000 do parts[#parts + 1] = string.format("%d:%x:%5.2f", i, i * 3, i / 7) end
local str = table.concat(parts, ",")
local n = 0
for a, b in str:gmatch("(%d+):(%x+)") do n = n + #a + #b end
print("gmatch", n, #str, (str:gsub("%d", "#")):sub(1, 30))
local function fib(k) if k < 2 then return k end return fib(k - 1) + fib(k - 2) end
print("fib", fib(27))
local co = coroutine.wrap(function() for i = 1, 50000 do coroutine.yield(i) end end)
local cs = 0
for _ = 1, 50000 do cs = cs + co() end
print("coroutine", cs)
local mt = {__add = function(a, b) return setmetatable({v = a.v + b.v}, getmetatable(a)) end,
            __index = function(_, k) return k .. "!" end}
local acc = setmetatable({v = 0}, mt)
for i = 1, 100000 do acc = acc + setmetatable({v = i}, mt) end
print("meta", acc.v, acc.foo)
local ok, err = pcall(function() error({code = 42}) end)
print("pcall", ok, err.code, select("#", pcall(error)))
local f = load("local x = ... return x * 2 + 1")
local ls = 0
for i = 1, 30000 do ls = ls + f(i) end
print("load", ls, 7 // 2, 7.5 // 2, 2^10, math.maxinteger // 3, string.pack and #string.pack("i4d", 1, 2))
local words = {}
for w in ("the quick brown fox jumps over the lazy dog "):rep(2000):gmatch("%a+") do words[w] = (words[w] or 0) + 1 end
local keys = {} for k in pairs(words) do keys[#keys + 1] = k end table.sort(keys)
for _, k in ipairs(keys) do io.write(k, "=", words[k], " ") end print()
print("utf8", utf8.len("héllo wörld"), utf8.char(72, 228, 8364), string.rep("ab", 3, "-"))
