/* Compiles only with pch.h included (test/driver/launcher-compile.test). */
int f1(int x) { return scaled(x) + 1; }
int f2(int x) { return scaled(x) * 2; }
int f3(int x) { return f1(x) + f2(x) + SCALE; }
