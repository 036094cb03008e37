/* A precompiled header (test/driver/launcher-compile.test): what pch-use.c needs to compile. */
#pragma once
#define SCALE 7
static inline int scaled(int x) { return x * SCALE; }
