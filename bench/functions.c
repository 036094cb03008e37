/* A third deterministic SQLite workload, of yet another shape: SQL functions and the
 * interpreter's expression code rather than storage. `bench/quality.sh --workload
 * bench/functions.c` measures a build with it (bench/workload.c exercises many features once
 * each, bench/speedtest.c bulk work on large tables).
 *
 * In one in-memory database, 8 000 rows made by a recursive CTE, each with a JSON document: a
 * trigger with an upsert, a view over json_extract, then three rounds of JSON reads and
 * writes (json_each, json_tree, json_set, json_patch, json_group_array), window functions
 * (row_number, rank, framed sums, lag, lead, ntile), date and time functions, printf and the
 * string functions, a Mandelbrot set in a recursive CTE (floating-point arithmetic in the
 * interpreter), a self-join with grouping, and updates between rounds. Every result value, as
 * text, goes into one FNV-1a checksum, printed with the row count; the output depends on
 * nothing but the program and sqlite3.c.
 *
 *   clang -O2 -c bench/functions.c -I DIR_OF_SQLITE3_H -o functions.o
 *   clang functions.o sqlite3.o -lm -o functions && ./functions
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "checksum.h"
#include "sqlite3.h"

static sqlite3 *db;

/* Stops the program with the database's last error. */
static void die(const char *what) {
  fprintf(stderr, "functions: %s: %s\n", what, sqlite3_errmsg(db));
  exit(1);
}

/* Runs SQL (one or more statements), hashing every value of every row as text. */
static void run(const char *sql) {
  while (*sql) {
    sqlite3_stmt *st;
    const char *tail;
    if (sqlite3_prepare_v2(db, sql, -1, &st, &tail) != SQLITE_OK)
      die(sql);
    if (st) {
      int rc;
      while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        for (int i = 0, n = sqlite3_column_count(st); i < n; i++) {
          const unsigned char *t = sqlite3_column_text(st, i);
          if (t)
            hash_bytes(t, (size_t)sqlite3_column_bytes(st, i));
        }
        rows_seen++;
      }
      if (rc != SQLITE_DONE)
        die(sqlite3_sql(st));
      sqlite3_finalize(st);
    }
    sql = tail;
  }
}

int main(void) {
  if (sqlite3_open(":memory:", &db) != SQLITE_OK)
    die("open");
  run("CREATE TABLE ev(id INTEGER PRIMARY KEY, day TEXT, kind TEXT, amount REAL, doc TEXT);"
      "CREATE TABLE totals(kind TEXT PRIMARY KEY, n INTEGER, s REAL);"
      "CREATE TRIGGER ev_ins AFTER INSERT ON ev BEGIN"
      "  INSERT INTO totals VALUES(new.kind, 1, new.amount)"
      "  ON CONFLICT(kind) DO UPDATE SET n = n + 1, s = s + excluded.s; END;"
      "CREATE VIEW ev_doc AS SELECT id, json_extract(doc, '$.user') AS user,"
      "  json_extract(doc, '$.tags') AS tags, json_array_length(doc, '$.tags') AS ntags FROM ev;");
  run("WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 8000)"
      " INSERT INTO ev SELECT i, date('2020-01-01', '+' || (i % 1500) || ' days'),"
      "  printf('k%02d', i % 37), (i * 7919 % 10007) / 100.0,"
      "  json_object('user', printf('u%05d', i % 811), 'n', i, 'tags',"
      "   json_array(i % 3, 'x' || (i % 5), i % 7 = 0), 'geo', json_object('lat', i % 90, 'lon', i % 180))"
      " FROM n;");
  for (int round = 0; round < 3; round++) {
    run("SELECT kind, n, printf('%.2f', s) FROM totals ORDER BY kind;"
        "SELECT user, count(*), sum(ntags), group_concat(DISTINCT json_extract(tags, '$[1]'))"
        " FROM ev_doc GROUP BY user ORDER BY user LIMIT 200;"
        "SELECT id, row_number() OVER w, rank() OVER (PARTITION BY kind ORDER BY amount),"
        "  sum(amount) OVER (PARTITION BY kind ORDER BY id ROWS BETWEEN 3 PRECEDING AND CURRENT ROW),"
        "  lag(amount, 2) OVER w, lead(day) OVER w, ntile(4) OVER w"
        " FROM ev WINDOW w AS (PARTITION BY kind ORDER BY day, id) ORDER BY id LIMIT 3000 OFFSET 5000;"
        "SELECT strftime('%Y-%W', day) AS wk, count(*), avg(amount), min(julianday(day)),"
        "  max(strftime('%s', day, '+12 hours'))"
        " FROM ev GROUP BY wk ORDER BY wk;"
        "SELECT key, value, type, fullkey FROM ev, json_each(ev.doc) WHERE ev.id % 97 = 0;"
        "SELECT ev.id, t.fullkey, t.atom FROM ev, json_tree(ev.doc) AS t WHERE ev.id % 211 = 0;"
        "SELECT json_group_array(json_object('id', id, 'a', amount)) FROM ev WHERE id % 50 = 0;"
        "SELECT json_set(doc, '$.n', id * 2, '$.extra', json('[1,2,{\"a\":3}]')),"
        "  json_remove(doc, '$.geo'), json_patch(doc, '{\"user\":null,\"z\":1}') FROM ev WHERE id % 31 = 0;"
        "SELECT upper(kind), lower(printf('%X-%08.3f-%-6s|', id, amount, kind)),"
        "  replace(day, '-', '/'), substr(doc, 5, 20), instr(doc, 'tags'), length(doc),"
        "  trim('  ' || kind || '  '), hex(substr(doc, 1, 8)), quote(amount), unicode(kind),"
        "  char(65 + id % 26, 97 + id % 26), ltrim(day, '20'), abs(-amount), round(amount, 1),"
        "  coalesce(nullif(id % 3, 0), 'zero'), typeof(amount), likely(id), iif(id % 2, 'odd', 'even')"
        " FROM ev WHERE id % 7 = 0;"
        "WITH RECURSIVE xaxis(x) AS (VALUES(-2.0) UNION ALL SELECT x + 0.1 FROM xaxis WHERE x < 1.2),"
        " yaxis(y) AS (VALUES(-1.0) UNION ALL SELECT y + 0.1 FROM yaxis WHERE y < 1.0),"
        " m(iter, cx, cy, x, y) AS (SELECT 0, x, y, 0.0, 0.0 FROM xaxis, yaxis UNION ALL"
        "  SELECT iter + 1, cx, cy, x * x - y * y + cx, 2.0 * x * y + cy FROM m"
        "  WHERE (x * x + y * y) < 4.0 AND iter < 20),"
        " m2(iter, cx, cy) AS (SELECT max(iter), cx, cy FROM m GROUP BY cx, cy),"
        " a(t) AS (SELECT group_concat(substr(' .+*#', 1 + min(iter / 7, 4), 1), '')"
        "  FROM m2 GROUP BY cy)"
        " SELECT group_concat(rtrim(t), x'0a') FROM a;"
        "SELECT a.kind, b.kind, count(*) FROM ev a JOIN ev b ON a.id = b.id + 1"
        " AND a.kind < b.kind WHERE a.id < 6000 GROUP BY 1, 2 ORDER BY 3 DESC, 1, 2 LIMIT 50;"
        "SELECT date(day, 'start of month', '+1 month', '-1 day'), time(id * 37, 'unixepoch'),"
        "  datetime(1600000000 + id * 3600, 'unixepoch')"
        " FROM ev WHERE id % 13 = 0;");
    run("UPDATE ev SET doc = json_set(doc, '$.round', 1 + (SELECT count(*) FROM totals)),"
        " amount = amount * 1.01 WHERE id % 5 = 0;"
        "DELETE FROM totals WHERE kind > 'k30';"
        "INSERT INTO ev(day, kind, amount, doc) SELECT day, kind, amount + 1, doc FROM ev WHERE id % 101 = 0;");
  }
  printf("functions: %llu rows, checksum %016llx\n", rows_seen, (unsigned long long)checksum);
  sqlite3_close(db);
  return 0;
}
