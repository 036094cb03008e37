int scale = 3;
int get(int x) { int y = x * scale; return y + 1; }
int user(int x) { int s = 0; for (int i = 0; i < x; i++) s += get(i); return s; }
int user2(int x) { return get(x) * 2; }
