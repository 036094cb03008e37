// bench/interp.sh's Duktape workload: calls, strings, JSON, sorting, regular expressions,
// numbers, property tables and closures, each printing a result that must not change.
function fib(n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }
print('fib', fib(24));

var s = '';
for (var i = 0; i < 20000; i++) s += String.fromCharCode(65 + i % 26);
print('string', s.length, s.substr(100, 10), s.indexOf('XYZAB', 5000), s.split('Q').length);

var rows = [];
for (var i = 0; i < 3000; i++) rows.push({ k: i, v: 'x' + (i * 7919 % 1000), a: [i, i / 3] });
var text = JSON.stringify(rows);
print('json', text.length, JSON.parse(text)[1234].v);
rows.sort(function (a, b) { return a.v < b.v ? -1 : a.v > b.v ? 1 : a.k - b.k; });
print('sort', rows[0].k, rows[2999].k);

var words = '';
for (var i = 0; i < 2000; i++) words += 'abc' + i + ' ';
var re = /([a-z]+)(\d+)/g, m, digits = 0;
while ((m = re.exec(words)) !== null) digits += m[2].length;
print('regexp', digits, words.replace(/c(\d)/g, 'C$1').length);

print('number', Math.floor(Math.sin(1) * 1e9), (0.1 + 0.2).toFixed(17), parseFloat('3.14159e2'),
      (255).toString(16), (1 / 3).toPrecision(12), Number.MAX_VALUE);

var counts = {};
for (var i = 0; i < 20000; i++) {
  var key = 'k' + (i % 5000);
  counts[key] = (counts[key] || 0) + i;
}
print('object', counts.k4999, Object.keys(counts).length);

var squares = [1, 2, 3, 4, 5].map(function (x) { return function () { return x * x; }; });
print('closure', squares.map(function (f) { return f(); }).reduce(function (a, b) { return a + b; }));

try { null.x; } catch (e) { print('error', e.name); }
print('uri', encodeURIComponent('a b&c/\u00fc'), decodeURIComponent('%E2%82%AC').length);
print('date', new Date(0).toISOString());
