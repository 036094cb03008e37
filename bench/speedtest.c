/* A second deterministic SQLite workload, of another shape than bench/workload.c: bulk work on
 * a few large tables, the way speed tests and applications load SQLite, rather than many
 * features once each. `bench/quality.sh --workload bench/speedtest.c` measures a build with it,
 * so that code quality is judged on a workload the split was not tuned on.
 *
 * In one in-memory database: rows inserted through prepared statements (integer keys in order
 * and at random, numbers spelled out in words as text), full scans with ranges, LIKE and GLOB,
 * sorts with and without LIMIT, index builds, lookups and range scans through indexes, updates
 * and deletes by key and by range, REPLACE, joins, grouping, correlated subqueries, IN lists,
 * CASE, string and floating-point functions, integer and text primary keys (WITHOUT ROWID),
 * a savepoint rolled back, and PRAGMA integrity_check. Every value of every result row goes
 * into one FNV-1a checksum, printed with the row count; the output depends on nothing but the
 * program and sqlite3.c.
 *
 *   clang -O2 -c bench/speedtest.c -I DIR_OF_SQLITE3_H -o speedtest.o
 *   clang speedtest.o sqlite3.o -lm -o speedtest && ./speedtest
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "checksum.h"
#include "sqlite3.h"

enum { ROWS = 12000 };

static sqlite3 *db;

/* Stops the program with the database's last error. */
static void die(const char *what) {
  fprintf(stderr, "speedtest: %s: %s\n", what, sqlite3_errmsg(db));
  exit(1);
}

/* A fixed linear congruential generator: the same data on every run. */
static uint32_t seed = 12345;
static uint32_t rnd(void) {
  seed = seed * 1103515245u + 12345u;
  return seed >> 1;
}

/* Writes N (below one billion) in English words into OUT. */
static void spell(unsigned n, char *out, size_t size) {
  static const char *ones[] = {"zero",    "one",     "two",       "three",    "four",
                               "five",    "six",     "seven",     "eight",    "nine",
                               "ten",     "eleven",  "twelve",    "thirteen", "fourteen",
                               "fifteen", "sixteen", "seventeen", "eighteen", "nineteen"};
  static const char *tens[] = {"", "", "twenty", "thirty", "forty",
                               "fifty", "sixty", "seventy", "eighty", "ninety"};
  size_t len = 0;
  out[0] = 0;
#define PUT(s) (len += (size_t)snprintf(out + len, len < size ? size - len : 0, "%s%s", len ? " " : "", (s)))
  static const struct {
    unsigned n;
    const char *word;
  } scales[] = {{1000000, "million"}, {1000, "thousand"}};
  for (int i = 0; i < 2; i++) {
    if (n < scales[i].n)
      continue;
    char sub[128];
    spell(n / scales[i].n, sub, sizeof sub);
    PUT(sub);
    PUT(scales[i].word);
    n %= scales[i].n;
    if (!n)
      return;
  }
  if (n >= 100) {
    PUT(ones[n / 100]);
    PUT("hundred");
    n %= 100;
    if (!n)
      return;
  }
  if (n >= 20) {
    PUT(tens[n / 10]);
    n %= 10;
    if (!n)
      return;
  }
  if (n || !len)
    PUT(ones[n]);
#undef PUT
}

/* Prepares SQL or stops. */
static sqlite3_stmt *prepare(const char *sql) {
  sqlite3_stmt *st;
  if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK)
    die(sql);
  return st;
}

/* Steps ST to its end, hashing every value of every row; resets it. */
static void drain(sqlite3_stmt *st) {
  int rc;
  while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
    for (int i = 0, n = sqlite3_column_count(st); i < n; i++) {
      int type = sqlite3_column_type(st, i);
      hash_bytes(&type, sizeof type);
      if (type == SQLITE_INTEGER) {
        long long v = sqlite3_column_int64(st, i);
        hash_bytes(&v, sizeof v);
      } else if (type == SQLITE_FLOAT) {
        char buf[32];
        snprintf(buf, sizeof buf, "%.6g", sqlite3_column_double(st, i));
        hash_bytes(buf, strlen(buf));
      } else if (type != SQLITE_NULL) {
        hash_bytes(sqlite3_column_blob(st, i), (size_t)sqlite3_column_bytes(st, i));
      }
    }
    rows_seen++;
  }
  if (rc != SQLITE_DONE)
    die(sqlite3_sql(st));
  sqlite3_reset(st);
}

/* Runs SQL (one or more statements), hashing their rows. */
static void run(const char *sql) {
  while (*sql) {
    sqlite3_stmt *st;
    const char *tail;
    if (sqlite3_prepare_v2(db, sql, -1, &st, &tail) != SQLITE_OK)
      die(sql);
    if (st) {
      drain(st);
      sqlite3_finalize(st);
    }
    sql = tail;
  }
  int changes = sqlite3_changes(db);
  hash_bytes(&changes, sizeof changes);
}

/* Inserts ROWS rows into t1 (random numbers, unindexed), t2 (keys in order) and t3 (text keys). */
static void load(void) {
  run("CREATE TABLE t1(a INTEGER, b INTEGER, c TEXT);"
      "CREATE TABLE t2(a INTEGER PRIMARY KEY, b INTEGER, c TEXT);"
      "CREATE TABLE t3(k TEXT PRIMARY KEY, v INTEGER, w REAL) WITHOUT ROWID;");
  sqlite3_stmt *i1 = prepare("INSERT INTO t1 VALUES(?1, ?2, ?3)");
  sqlite3_stmt *i2 = prepare("INSERT INTO t2 VALUES(?1, ?2, ?3)");
  sqlite3_stmt *i3 = prepare("INSERT OR IGNORE INTO t3 VALUES(?1, ?2, ?3 / 7.0)");
  char words[256];
  run("BEGIN");
  for (int i = 1; i <= ROWS; i++) {
    unsigned x = rnd() % 1000000;
    spell(x, words, sizeof words);
    sqlite3_bind_int(i1, 1, i);
    sqlite3_bind_int(i1, 2, (int)x);
    sqlite3_bind_text(i1, 3, words, -1, SQLITE_STATIC);
    drain(i1);
    sqlite3_bind_int(i2, 1, i);
    sqlite3_bind_int(i2, 2, (int)(x % 5000));
    sqlite3_bind_text(i2, 3, words, -1, SQLITE_STATIC);
    drain(i2);
    sqlite3_bind_text(i3, 1, words, -1, SQLITE_STATIC);
    sqlite3_bind_int(i3, 2, i);
    sqlite3_bind_int(i3, 3, (int)x);
    drain(i3);
  }
  run("COMMIT");
  sqlite3_finalize(i1);
  sqlite3_finalize(i2);
  sqlite3_finalize(i3);
}

/* Full scans of t1: ranges, patterns, sorts. */
static void scans(void) {
  sqlite3_stmt *range = prepare("SELECT count(*), avg(b), sum(length(c)) FROM t1 WHERE b BETWEEN ?1 AND ?2");
  for (int i = 0; i < 40; i++) {
    int lo = (int)(rnd() % 1000000);
    sqlite3_bind_int(range, 1, lo);
    sqlite3_bind_int(range, 2, lo + 50000);
    drain(range);
  }
  sqlite3_finalize(range);
  sqlite3_stmt *like = prepare("SELECT count(*), min(a), max(b) FROM t1 WHERE c LIKE ?1");
  sqlite3_stmt *glob = prepare("SELECT count(*) FROM t2 WHERE c GLOB ?1");
  static const char *parts[] = {"one", "two", "three", "seven", "eleven", "forty", "hundred", "thousand"};
  for (int i = 0; i < 16; i++) {
    char pat[64];
    snprintf(pat, sizeof pat, "%%%s%%%s%%", parts[i % 8], parts[(i * 3 + 1) % 8]);
    sqlite3_bind_text(like, 1, pat, -1, SQLITE_TRANSIENT);
    drain(like);
    snprintf(pat, sizeof pat, "*%s*", parts[(i + 5) % 8]);
    sqlite3_bind_text(glob, 1, pat, -1, SQLITE_TRANSIENT);
    drain(glob);
  }
  sqlite3_finalize(like);
  sqlite3_finalize(glob);
  run("SELECT a, b, c FROM t1 ORDER BY c LIMIT 20;"
      "SELECT a FROM t1 ORDER BY b DESC, a LIMIT 5 OFFSET 1000;"
      "SELECT b % 97 AS g, count(*), total(a), group_concat(a % 10, '') FROM t1 GROUP BY g ORDER BY 2 DESC, 1;"
      "SELECT count(DISTINCT b % 1000), max(length(c)), min(c) FROM t1;");
}

/* Indexes, then lookups and range scans through them. */
static void indexed(void) {
  run("CREATE INDEX t1b ON t1(b); CREATE INDEX t1c ON t1(c); CREATE INDEX t2b ON t2(b, c);");
  sqlite3_stmt *eq = prepare("SELECT a, c FROM t1 WHERE b = ?1");
  sqlite3_stmt *rg = prepare("SELECT count(*), sum(a) FROM t1 WHERE b >= ?1 AND b < ?2");
  sqlite3_stmt *tx = prepare("SELECT v, w FROM t3 WHERE k = ?1");
  sqlite3_stmt *pk = prepare("SELECT b, upper(substr(c, 1, 12)) FROM t2 WHERE a = ?1");
  char words[256];
  for (int i = 0; i < 3000; i++) {
    unsigned x = rnd() % 1000000;
    sqlite3_bind_int(eq, 1, (int)x);
    drain(eq);
    sqlite3_bind_int(rg, 1, (int)x);
    sqlite3_bind_int(rg, 2, (int)x + 2000);
    drain(rg);
    spell(rnd() % 1000000, words, sizeof words);
    sqlite3_bind_text(tx, 1, words, -1, SQLITE_STATIC);
    drain(tx);
    sqlite3_bind_int(pk, 1, (int)(x % ROWS) + 1);
    drain(pk);
  }
  sqlite3_finalize(eq);
  sqlite3_finalize(rg);
  sqlite3_finalize(tx);
  sqlite3_finalize(pk);
  run("SELECT c FROM t1 WHERE c > 'seven' ORDER BY c LIMIT 30;"
      "SELECT b, count(*) FROM t2 WHERE b BETWEEN 100 AND 200 GROUP BY b ORDER BY b;"
      "SELECT k, v FROM t3 WHERE k BETWEEN 'nine' AND 'one' ORDER BY k DESC LIMIT 25;");
}

/* Updates, deletes and replaces, by key and by range, one savepoint rolled back. */
static void changes(void) {
  run("BEGIN");
  sqlite3_stmt *up = prepare("UPDATE t2 SET b = b + 1, c = c || '!' WHERE a = ?1");
  sqlite3_stmt *ur = prepare("UPDATE t1 SET b = b * 2 WHERE b BETWEEN ?1 AND ?2");
  sqlite3_stmt *rp = prepare("REPLACE INTO t2(a, b, c) VALUES(?1, ?2, printf('r%08d', ?2))");
  for (int i = 0; i < 2000; i++) {
    sqlite3_bind_int(up, 1, (int)(rnd() % ROWS) + 1);
    drain(up);
    sqlite3_bind_int(rp, 1, (int)(rnd() % (2 * ROWS)) + 1);
    sqlite3_bind_int(rp, 2, (int)(rnd() % 100000));
    drain(rp);
  }
  for (int i = 0; i < 200; i++) {
    int lo = (int)(rnd() % 1000000);
    sqlite3_bind_int(ur, 1, lo);
    sqlite3_bind_int(ur, 2, lo + 500);
    drain(ur);
  }
  sqlite3_finalize(up);
  sqlite3_finalize(ur);
  sqlite3_finalize(rp);
  run("SAVEPOINT s; DELETE FROM t1 WHERE a % 3 = 0; SELECT count(*) FROM t1; ROLLBACK TO s; RELEASE s;"
      "DELETE FROM t1 WHERE b % 11 = 0;"
      "DELETE FROM t3 WHERE v % 5 = 1;"
      "UPDATE t3 SET w = round(w * 1.5, 3) WHERE v < 3000;"
      "COMMIT;"
      "SELECT count(*), sum(b), total(w) FROM t1, (SELECT total(w) AS w FROM t3);");
}

/* Joins, subqueries, expressions. */
static void queries(void) {
  run("SELECT count(*), sum(t1.b - t2.b) FROM t1 JOIN t2 ON t1.a = t2.a WHERE t2.b < 2500;"
      "SELECT t2.a, t3.v FROM t2 JOIN t3 ON t3.k = t2.c WHERE t2.a < 400 ORDER BY t2.a;"
      "SELECT a, (SELECT count(*) FROM t2 WHERE t2.b = t1.b % 5000) FROM t1 WHERE a < 300;"
      "SELECT count(*) FROM t1 WHERE a IN (SELECT a FROM t2 WHERE b % 7 = 3);"
      "SELECT count(*) FROM t1 WHERE b % 1000 IN (1, 3, 7, 15, 31, 63, 127, 255, 511);"
      "SELECT sum(CASE WHEN b < 250000 THEN 1 WHEN b < 500000 THEN 2 ELSE 3 END),"
      "       sum(instr(c, 'e')), sum(length(replace(c, ' ', ''))), max(hex(a)) FROM t1;"
      "SELECT avg(b * 1.5 + a / 3.0), sum(abs(b - 500000)), max(printf('%.3f', b / 7.0)) FROM t1;"
      "SELECT substr(c, 1, instr(c || ' ', ' ') - 1) AS w, count(*) FROM t1 GROUP BY w"
      "  HAVING count(*) > 10 ORDER BY 2 DESC, 1;"
      "SELECT lower(k), cast(w AS INTEGER), typeof(w) FROM t3 ORDER BY w DESC LIMIT 10;"
      "PRAGMA integrity_check;");
}

int main(void) {
  if (sqlite3_open(":memory:", &db) != SQLITE_OK)
    die("open");
  load();
  scans();
  indexed();
  changes();
  queries();
  sqlite3_close(db);
  printf("speedtest: %llu rows, checksum %016llx\n", rows_seen, (unsigned long long)checksum);
  return 0;
}
