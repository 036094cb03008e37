/* A deterministic SQLite workload: Shard's end-to-end check and benchmark program.
 *
 * It links against a separately compiled sqlite3.c (the object under test: `clang -O2 -c` or
 * `shard`) and exercises much of the SQL engine in an in-memory database, in well under a second:
 * tables and indexes, a few thousand rows inserted in one transaction from a fixed pseudo-random
 * generator through prepared statements with bindings, joins (inner, outer, natural), GROUP BY /
 * HAVING / aggregates, ORDER BY with LIMIT / OFFSET, built-in and application-defined collations,
 * LIKE / GLOB, string, date, blob and floating-point functions and formatting, application-defined
 * scalar, aggregate and window functions, recursive CTEs, window functions and frames, JSON
 * functions, compound SELECTs, UPSERT and RETURNING, UPDATE / DELETE, views, triggers (INSTEAD OF
 * too), STRICT tables, generated columns, cascading foreign keys, constraint errors, ALTER TABLE,
 * partial / expression / covering indexes, an attached and a temporary database, transactions with
 * ROLLBACK and nested savepoints, incremental blob I/O, VACUUM INTO an in-memory database, the
 * backup API, sqlite3_serialize / sqlite3_deserialize, and PRAGMA integrity_check. Every value of
 * every result row goes into one FNV-1a checksum; a few result lines and the checksum are printed.
 * The output depends on nothing but the program and sqlite3.c (no time, no pointers, no random(),
 * no 'now', no 'localtime', one rnd() per statement), so two builds of sqlite3.c must print the
 * same, whichever C compiler built them (gcc, clang 19 and clang 22 agree).
 *
 * sqlite3.c needs no non-default options; Shard's scripts compile it with
 *   -DSQLITE_THREADSAFE=0 -DSQLITE_OMIT_LOAD_EXTENSION
 * so that the program links with just `-lm` (no -lpthread, no -ldl). Only functions compiled in by
 * default are used (JSON and window functions are default; the math functions, FTS3/FTS5 and R-Tree
 * are not).
 *
 *   clang -O2 -c bench/workload.c -I DIR_OF_SQLITE3_H -o workload.o
 *   clang workload.o sqlite3.o -lm -o workload && ./workload
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "checksum.h"
#include "sqlite3.h"

static sqlite3 *db;

static void hash_str(const char *s) { hash_bytes(s, strlen(s) + 1); }

static void hash_int(long long v) {
  char buf[32];
  snprintf(buf, sizeof buf, "%lld", v);
  hash_str(buf);
}

static void die(const char *what) {
  fprintf(stderr, "workload: %s: %s\n", what, sqlite3_errmsg(db));
  exit(1);
}

/* Fixed pseudo-random generator (xorshift64*), so the data is the same on every run. */
static uint64_t rng_state = 0x9E3779B97F4A7C15ULL;
static uint32_t rnd(void) {
  rng_state ^= rng_state >> 12;
  rng_state ^= rng_state << 25;
  rng_state ^= rng_state >> 27;
  return (uint32_t)((rng_state * 2685821657736338717ULL) >> 32);
}
static int rnd_below(int n) { return (int)(rnd() % (uint32_t)n); }

static void exec(const char *sql) {
  char *err = NULL;
  if (sqlite3_exec(db, sql, NULL, NULL, &err) != SQLITE_OK) {
    fprintf(stderr, "workload: %s\n  in: %s\n", err ? err : "error", sql);
    exit(1);
  }
  hash_int(sqlite3_changes(db));
}

/* Hash (and print the first `show` rows of) every result row of the statement. Returns the row
 * count. */
static int step_all(sqlite3_stmt *st, const char *label, int show) {
  int n = 0, rc;
  while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
    int cols = sqlite3_column_count(st);
    if (n < show)
      printf("%s:", label);
    for (int i = 0; i < cols; i++) {
      int type = sqlite3_column_type(st, i);
      const char *text;
      char hexbuf[2 * 64 + 1];
      if (type == SQLITE_BLOB) {
        const unsigned char *b = sqlite3_column_blob(st, i);
        int len = sqlite3_column_bytes(st, i), k;
        for (k = 0; k < len && k < 64; k++)
          snprintf(hexbuf + 2 * k, 3, "%02x", b[k]);
        hexbuf[2 * k] = 0;
        text = hexbuf;
      } else if (type == SQLITE_NULL) {
        text = "NULL";
      } else {
        text = (const char *)sqlite3_column_text(st, i);
      }
      hash_int(type);
      hash_str(text);
      if (n < show)
        printf(" %s", text);
    }
    if (n < show)
      printf("\n");
    n++;
  }
  if (rc != SQLITE_DONE)
    die(label);
  rows_seen += (unsigned long long)n;
  hash_int(n);
  return n;
}

/* Run one SQL statement; print its first `show` rows as "label: v1 v2 ...". */
static int query(const char *label, int show, const char *sql) {
  sqlite3_stmt *st;
  if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK) {
    fprintf(stderr, "workload: %s: %s\n  in: %s\n", label, sqlite3_errmsg(db), sql);
    exit(1);
  }
  int n = step_all(st, label, show);
  sqlite3_finalize(st);
  return n;
}

static sqlite3_stmt *prepare(const char *sql) {
  sqlite3_stmt *st;
  if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK) {
    fprintf(stderr, "workload: prepare: %s\n  in: %s\n", sqlite3_errmsg(db), sql);
    exit(1);
  }
  return st;
}

/* Application-defined scalar function: digit_root(x) (the repeated digit sum of |x|). */
static void digit_root(sqlite3_context *ctx, int argc, sqlite3_value **argv) {
  (void)argc;
  if (sqlite3_value_type(argv[0]) == SQLITE_NULL) {
    sqlite3_result_null(ctx);
    return;
  }
  long long v = sqlite3_value_int64(argv[0]);
  if (v < 0)
    v = -v;
  while (v >= 10) {
    long long s = 0;
    for (; v; v /= 10)
      s += v % 10;
    v = s;
  }
  sqlite3_result_int64(ctx, v);
}

/* Application-defined aggregate: xor_agg(x). */
static void xor_step(sqlite3_context *ctx, int argc, sqlite3_value **argv) {
  (void)argc;
  long long *acc = sqlite3_aggregate_context(ctx, sizeof *acc);
  if (acc)
    *acc ^= sqlite3_value_int64(argv[0]);
}
static void xor_final(sqlite3_context *ctx) {
  long long *acc = sqlite3_aggregate_context(ctx, 0);
  sqlite3_result_int64(ctx, acc ? *acc : 0);
}

static const char *const syll[] = {"ka", "lo", "mi", "ne", "ru", "sa", "to", "vi", "an", "el",
                                   "or", "qu", "zy", "ba", "de", "fi", "go", "hu", "ja", "pe"};
static const char *const cities[] = {"Aachen", "Bergen",  "Cork",  "Dublin", "Esbjerg", "Faro",
                                     "Gent",   "Haarlem", "Izmir", "Jena",   "Kassel",  "Lille"};
static const char *const categories[] = {"tools", "garden", "kitchen", "toys",
                                         "books", "audio",  "sport"};

static void make_name(char *buf, size_t n, int parts) {
  buf[0] = 0;
  for (int i = 0; i < parts; i++)
    strncat(buf, syll[rnd_below(20)], n - strlen(buf) - 1);
  buf[0] = (char)(buf[0] - 'a' + 'A');
}

#define N_CUSTOMERS 600
#define N_PRODUCTS 250
#define N_ORDERS 5000

static void create_and_fill(void) {
  exec("CREATE TABLE customers(id INTEGER PRIMARY KEY, name TEXT NOT NULL, city TEXT, tier INT,"
       " balance REAL, email TEXT UNIQUE)");
  exec("CREATE TABLE products(id INTEGER PRIMARY KEY, sku TEXT UNIQUE NOT NULL, title TEXT,"
       " price_cents INT CHECK(price_cents > 0), category TEXT, stock INT DEFAULT 0)");
  exec("CREATE TABLE orders(id INTEGER PRIMARY KEY, customer_id INT REFERENCES customers(id),"
       " product_id INT REFERENCES products(id), qty INT, day TEXT, note TEXT, meta TEXT)");
  exec("CREATE TABLE audit(id INTEGER PRIMARY KEY AUTOINCREMENT, what TEXT, ref INT, n INT)");
  exec("CREATE TABLE kv(k TEXT PRIMARY KEY, v INT) WITHOUT ROWID");

  exec("BEGIN");
  sqlite3_stmt *ins =
      prepare("INSERT INTO customers(id, name, city, tier, balance, email)"
              " VALUES(?1, ?2, ?3, ?4, ?5, lower(?2) || '.' || ?1 || '@example.org')");
  char name[64];
  for (int i = 1; i <= N_CUSTOMERS; i++) {
    make_name(name, sizeof name, 2 + rnd_below(3));
    sqlite3_bind_int(ins, 1, i);
    sqlite3_bind_text(ins, 2, name, -1, SQLITE_TRANSIENT);
    if (rnd_below(25) == 0)
      sqlite3_bind_null(ins, 3);
    else
      sqlite3_bind_text(ins, 3, cities[rnd_below(12)], -1, SQLITE_STATIC);
    sqlite3_bind_int(ins, 4, rnd_below(5));
    sqlite3_bind_double(ins, 5, (double)(rnd_below(2000000) - 300000) / 100.0);
    if (sqlite3_step(ins) != SQLITE_DONE)
      die("insert customer");
    sqlite3_reset(ins);
  }
  sqlite3_finalize(ins);

  ins = prepare(
      "INSERT INTO products(sku, title, price_cents, category, stock) VALUES(?, ?, ?, ?, ?)");
  for (int i = 1; i <= N_PRODUCTS; i++) {
    char sku[32], title[96];
    /* One rnd() per statement: the order in which arguments are evaluated is unspecified (gcc and
       clang differ), so several in one call would make the data depend on the compiler. */
    int a = 'A' + rnd_below(26);
    int b = 'A' + rnd_below(26);
    snprintf(sku, sizeof sku, "SKU-%05d-%c%c", i * 37 % 100000, a, b);
    make_name(name, sizeof name, 2 + rnd_below(2));
    int edition = 1 + rnd_below(99);
    snprintf(title, sizeof title, "%s %s %d", name, categories[i % 7], edition);
    sqlite3_bind_text(ins, 1, sku, -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(ins, 2, title, -1, SQLITE_TRANSIENT);
    sqlite3_bind_int(ins, 3, 99 + rnd_below(50000));
    sqlite3_bind_text(ins, 4, categories[rnd_below(7)], -1, SQLITE_STATIC);
    sqlite3_bind_int64(ins, 5, (sqlite3_int64)rnd_below(1000));
    if (sqlite3_step(ins) != SQLITE_DONE)
      die("insert product");
    hash_int(sqlite3_last_insert_rowid(db));
    sqlite3_reset(ins);
  }
  sqlite3_finalize(ins);

  ins = prepare("INSERT INTO orders(customer_id, product_id, qty, day, note, meta)"
                " VALUES(?, ?, ?, date('2023-01-01', '+' || ? || ' days'), ?, json(?))");
  for (int i = 1; i <= N_ORDERS; i++) {
    char note[96], meta[160];
    uint32_t r1 = rnd() % N_CUSTOMERS;
    int cust = 1 + (int)(r1 * (rnd() % N_CUSTOMERS) / N_CUSTOMERS); /* skewed */
    sqlite3_bind_int(ins, 1, cust);
    sqlite3_bind_int(ins, 2, 1 + rnd_below(N_PRODUCTS));
    sqlite3_bind_int(ins, 3, 1 + rnd_below(9));
    sqlite3_bind_int(ins, 4, rnd_below(730));
    if (rnd_below(3) == 0) {
      sqlite3_bind_null(ins, 5);
    } else {
      make_name(name, sizeof name, 1 + rnd_below(4));
      snprintf(note, sizeof note, "%s%s", rnd_below(4) ? "" : "urgent: ", name);
      sqlite3_bind_text(ins, 5, note, -1, SQLITE_TRANSIENT);
    }
    const char *channel = rnd_below(2) ? "web" : (rnd_below(2) ? "shop" : "phone");
    const char *gift = rnd_below(5) ? "false" : "true";
    int t1 = rnd_below(10), t2 = rnd_below(10), s1 = rnd_below(100),
        s2 = rnd_below(100); /* in order */
    snprintf(meta, sizeof meta,
             "{\"channel\":\"%s\",\"gift\":%s,\"tags\":[%d,%d],\"score\":%d.%02d}", channel, gift,
             t1, t2, s1, s2);
    sqlite3_bind_text(ins, 6, meta, -1, SQLITE_TRANSIENT);
    if (sqlite3_step(ins) != SQLITE_DONE)
      die("insert order");
    sqlite3_reset(ins);
    sqlite3_clear_bindings(ins);
  }
  sqlite3_finalize(ins);
  exec("COMMIT");

  exec("CREATE INDEX orders_customer ON orders(customer_id, day)");
  exec("CREATE INDEX orders_product ON orders(product_id)");
  exec("CREATE INDEX customers_city ON customers(city COLLATE NOCASE, tier)");
  exec("CREATE INDEX orders_channel ON orders(meta ->> '$.channel')");
  exec("ANALYZE");
}

static void views_and_triggers(void) {
  exec("CREATE VIEW customer_totals AS"
       " SELECT c.id, c.name, c.city, c.tier, count(o.id) AS n_orders,"
       "        coalesce(sum(o.qty * p.price_cents), 0) AS spent_cents"
       " FROM customers c LEFT JOIN orders o ON o.customer_id = c.id"
       " LEFT JOIN products p ON p.id = o.product_id GROUP BY c.id");
  exec("CREATE TRIGGER orders_qty AFTER UPDATE OF qty ON orders WHEN new.qty <> old.qty BEGIN"
       "  INSERT INTO audit(what, ref, n) VALUES('qty', new.id, new.qty - old.qty);"
       "  UPDATE products SET stock = stock - (new.qty - old.qty) WHERE id = new.product_id;"
       " END");
  exec("CREATE TRIGGER orders_gone BEFORE DELETE ON orders BEGIN"
       "  INSERT INTO audit(what, ref, n) VALUES('delete', old.id, old.qty);"
       " END");
  exec(
      "CREATE TRIGGER customers_tier AFTER UPDATE OF tier ON customers BEGIN"
      "  INSERT INTO kv(k, v) VALUES('tier' || new.tier, 1) ON CONFLICT(k) DO UPDATE SET v = v + 1;"
      " END");
}

static void queries(void) {
  query("count", 1,
        "SELECT (SELECT count(*) FROM customers), (SELECT count(*) FROM products),"
        " (SELECT count(*) FROM orders), (SELECT count(DISTINCT city) FROM customers)");
  query(
      "by_city", 4,
      "SELECT coalesce(c.city, '?') AS city, count(*) AS n, sum(o.qty * p.price_cents) AS revenue,"
      "       printf('%.3f', avg(o.qty)), max(p.price_cents), min(o.day)"
      " FROM orders o JOIN customers c ON c.id = o.customer_id JOIN products p ON p.id = "
      "o.product_id"
      " GROUP BY c.city ORDER BY revenue DESC, city");
  query("category_having", 3,
        "SELECT category, count(*), total(price_cents) / 100.0, group_concat(id, ',' ORDER BY id "
        "DESC)"
        " FROM products GROUP BY category HAVING count(*) > 20 ORDER BY 2 DESC, 1");
  query("top_customers", 3,
        "SELECT id, name, n_orders, spent_cents FROM customer_totals"
        " ORDER BY spent_cents DESC, id LIMIT 10");
  query("like_glob", 1,
        "SELECT (SELECT count(*) FROM customers WHERE name LIKE '%an%'),"
        "       (SELECT count(*) FROM customers WHERE name GLOB 'K*[aeiou]'),"
        "       (SELECT count(*) FROM orders WHERE note LIKE 'URGENT:%'),"
        "       (SELECT count(*) FROM products WHERE sku GLOB 'SKU-?[0-4]*')");
  query(
      "strings", 5,
      "SELECT upper(substr(name, 1, 3)) || lower(substr(name, 4)), length(name), instr(name, 'a'),"
      "       replace(email, '@example.org', ''), hex(substr(name, -2)), quote(city),"
      "       trim('  ' || name || '  '), printf('%-8s|%5d|%08.2f', substr(name, 1, 8), tier, "
      "balance),"
      "       unicode(name), char(65 + tier), rtrim(ltrim(name, 'K'), 'a'), format('%q', name || "
      "'''s')"
      " FROM customers WHERE id % 97 = 3 ORDER BY id");
  query("arith", 3,
        "SELECT tier, count(*), round(sum(balance), 2), round(avg(balance), 3), min(balance), "
        "max(balance),"
        "       sum(abs(CAST(balance AS INT)) % 7), sum(id / 3), total(id * 1.5), xor_agg(id),"
        "       sum(digit_root(id * 7919)), sum(id & 0x55) | 1, sum(id << 2) >> 1, sum(~id)"
        " FROM customers GROUP BY tier ORDER BY tier");
  query(
      "case_null", 5,
      "SELECT CASE WHEN city IS NULL THEN 'nowhere' WHEN tier >= 3 THEN 'gold:' || city ELSE city "
      "END,"
      "       iif(balance < 0, 'debt', 'ok'), nullif(tier, 0), ifnull(city, '-'), typeof(balance),"
      "       CAST(balance AS TEXT), CAST('12abc' AS INTEGER), 7 / 2, 7 / 2.0, -7 % 3"
      " FROM customers WHERE id IN (1, 2, 3, 250, 599) OR city IS NULL ORDER BY id LIMIT 8");
  query("dates", 3,
        "SELECT strftime('%Y-%m', day) AS month, count(*), sum(qty),"
        "       julianday(max(day)) - julianday(min(day)), date(min(day), 'start of month', '+1 "
        "month', '-1 day'),"
        "       strftime('%w %j', max(day))"
        " FROM orders GROUP BY month ORDER BY month");
  query("collate", 4,
        "SELECT DISTINCT city FROM customers WHERE city IS NOT NULL"
        " ORDER BY city COLLATE NOCASE DESC LIMIT 5");
  query("subqueries", 1,
        "SELECT (SELECT count(*) FROM customers c WHERE NOT EXISTS"
        "          (SELECT 1 FROM orders o WHERE o.customer_id = c.id)),"
        "       (SELECT count(*) FROM products WHERE id IN (SELECT product_id FROM orders WHERE "
        "qty = 9)),"
        "       (SELECT max(n) FROM (SELECT customer_id, count(*) AS n FROM orders GROUP BY "
        "customer_id)),"
        "       (SELECT name FROM customers WHERE balance = (SELECT max(balance) FROM customers))");
  query("compound", 6,
        "SELECT 'u', count(*) FROM (SELECT customer_id FROM orders WHERE qty > 7"
        "                           UNION SELECT id FROM customers WHERE tier = 4)"
        " UNION ALL SELECT 'i', count(*) FROM (SELECT customer_id FROM orders WHERE qty > 7"
        "                           INTERSECT SELECT id FROM customers WHERE tier = 4)"
        " UNION ALL SELECT 'e', count(*) FROM (SELECT id FROM customers"
        "                           EXCEPT SELECT customer_id FROM orders)");
}

static void ctes_windows_json(void) {
  query("fib", 2,
        "WITH RECURSIVE fib(n, a, b) AS (SELECT 1, 0, 1 UNION ALL SELECT n + 1, b, (a + b) % "
        "1000000007"
        "   FROM fib WHERE n < 90)"
        " SELECT n, a FROM fib WHERE n IN (50, 90)");
  query("collatz", 3,
        "WITH RECURSIVE seq(v) AS (SELECT 1 UNION ALL SELECT v + 1 FROM seq WHERE v < 300),"
        " c(start, x, steps) AS ("
        "   SELECT v, v, 0 FROM seq"
        "   UNION ALL SELECT start, CASE WHEN x % 2 THEN 3 * x + 1 ELSE x / 2 END, steps + 1"
        "   FROM c WHERE x > 1)"
        " SELECT start, max(steps) AS s FROM c GROUP BY start ORDER BY s DESC, start LIMIT 3");
  query("tree", 4,
        "WITH RECURSIVE parent(id, up) AS (SELECT id, id / 3 FROM customers WHERE id > 1),"
        " chain(id, depth, path) AS ("
        "   SELECT 1, 0, '1'"
        "   UNION ALL SELECT p.id, chain.depth + 1, chain.path || '/' || p.id"
        "   FROM parent p JOIN chain ON p.up = chain.id WHERE p.id <> chain.id)"
        " SELECT depth, count(*), max(path) FROM chain GROUP BY depth ORDER BY depth");
  query("window", 5,
        "SELECT city, id, balance,"
        "       row_number() OVER w, rank() OVER (PARTITION BY city ORDER BY tier),"
        "       dense_rank() OVER (PARTITION BY city ORDER BY tier),"
        "       round(sum(balance) OVER (PARTITION BY city ORDER BY id ROWS BETWEEN 2 PRECEDING "
        "AND CURRENT ROW), 2),"
        "       lag(id, 1, -1) OVER w, lead(name) OVER w, ntile(4) OVER w,"
        "       first_value(name) OVER w, percent_rank() OVER w, cume_dist() OVER w"
        " FROM customers WHERE city IS NOT NULL"
        " WINDOW w AS (PARTITION BY city ORDER BY balance DESC, id)"
        " ORDER BY city, balance DESC, id");
  query("running", 3,
        "SELECT day, daily, sum(daily) OVER (ORDER BY day) AS running,"
        "       avg(daily) OVER (ORDER BY day RANGE BETWEEN 6 PRECEDING AND CURRENT ROW)"
        " FROM (SELECT julianday(day) - julianday('2023-01-01') AS day, sum(qty) AS daily"
        "       FROM orders GROUP BY day) ORDER BY day DESC LIMIT 5");
  query(
      "json", 3,
      "SELECT meta ->> '$.channel' AS ch, count(*), sum(meta -> '$.gift' = 'true'),"
      "       round(sum(json_extract(meta, '$.score')), 2), sum(json_array_length(meta, '$.tags')),"
      "       json_group_array(DISTINCT json_extract(meta, '$.tags[0]') ORDER BY 1)"
      " FROM orders GROUP BY ch ORDER BY ch");
  query("json_build", 3,
        "SELECT json_object('id', id, 'name', name, 'city', city, 'tier', tier,"
        "                   'orders', (SELECT json_group_array(json_object('p', product_id, 'q', "
        "qty))"
        "                              FROM (SELECT * FROM orders WHERE customer_id = c.id ORDER "
        "BY id LIMIT 3))),"
        "       json_patch('{\"a\":1,\"b\":{\"c\":2}}', json_object('b', json_object('d', tier))),"
        "       json_set(json_array(1, 2, 3), '$[1]', name), json_valid(name), json_type(meta)"
        " FROM customers c LEFT JOIN (SELECT customer_id, min(meta) AS meta FROM orders GROUP BY "
        "customer_id) m"
        "   ON m.customer_id = c.id WHERE c.id % 150 = 7 ORDER BY c.id");
  query("json_each", 3,
        "SELECT j.key, j.value, j.type, count(*) FROM orders, json_each(orders.meta) AS j"
        " WHERE orders.id % 50 = 0 GROUP BY j.key, j.type ORDER BY j.key");
  query("json_tree", 1,
        "SELECT count(*), sum(CASE WHEN atom IS NOT NULL THEN 1 ELSE 0 END), max(fullkey)"
        " FROM orders, json_tree(orders.meta) WHERE orders.id <= 200");
}

static void bound_statements(void) {
  /* One prepared statement, many bindings. */
  sqlite3_stmt *st =
      prepare("SELECT count(*), round(total(balance), 2), min(name), max(name) FROM customers"
              " WHERE tier = :tier AND (city = :city OR :city IS NULL) AND balance > :floor");
  int idx_tier = sqlite3_bind_parameter_index(st, ":tier");
  int idx_city = sqlite3_bind_parameter_index(st, ":city");
  int idx_floor = sqlite3_bind_parameter_index(st, ":floor");
  char label[64];
  for (int tier = 0; tier < 5; tier++) {
    for (int c = -1; c < 12; c++) {
      sqlite3_bind_int(st, idx_tier, tier);
      if (c < 0)
        sqlite3_bind_null(st, idx_city);
      else
        sqlite3_bind_text(st, idx_city, cities[c], -1, SQLITE_STATIC);
      sqlite3_bind_double(st, idx_floor, tier * 1000.0 - 500.5);
      snprintf(label, sizeof label, "bound[%d,%s]", tier, c < 0 ? "*" : cities[c]);
      step_all(st, label, c < 0 || (tier == 2 && c == 5));
      sqlite3_reset(st);
    }
  }
  sqlite3_finalize(st);

  /* Blobs through bindings. */
  exec("CREATE TABLE blobs(id INTEGER PRIMARY KEY, data BLOB)");
  st = prepare("INSERT INTO blobs(data) VALUES(?)");
  unsigned char buf[256];
  for (int i = 0; i < 200; i++) {
    int len = 1 + rnd_below(256);
    for (int k = 0; k < len; k++)
      buf[k] = (unsigned char)rnd();
    if (i % 17 == 0)
      sqlite3_bind_zeroblob(st, 1, len);
    else
      sqlite3_bind_blob(st, 1, buf, len, SQLITE_TRANSIENT);
    if (sqlite3_step(st) != SQLITE_DONE)
      die("insert blob");
    sqlite3_reset(st);
  }
  sqlite3_finalize(st);
  query(
      "blobs", 2,
      "SELECT count(*), sum(length(data)), hex(substr(max(data), 1, 8)), min(hex(data)) FROM blobs"
      " UNION ALL SELECT id, length(data), hex(substr(data, 3, 4)), typeof(data) FROM blobs WHERE "
      "id = 18");
}

static void modify(void) {
  query("upsert_returning", 3,
        "INSERT INTO kv(k, v) SELECT coalesce(city, 'none'), count(*) FROM customers GROUP BY city"
        " ON CONFLICT(k) DO UPDATE SET v = v + excluded.v RETURNING k, v");
  exec("UPDATE orders SET qty = qty + 1 WHERE id % 13 = 0");
  exec("UPDATE orders SET qty = (SELECT tier FROM customers WHERE id = orders.customer_id) + 1"
       " WHERE note LIKE 'urgent:%' AND customer_id % 5 = 0");
  exec("UPDATE customers SET tier = (tier + 1) % 5, balance = round(balance * 1.01, 2) WHERE city "
       "= 'Cork'");
  exec("UPDATE customers SET city = upper(city) WHERE id IN (SELECT customer_id FROM orders"
       " GROUP BY customer_id HAVING count(*) > 30)");
  exec("DELETE FROM orders WHERE day < '2023-02-01' OR (qty = 1 AND note IS NULL AND id % 4 = 0)");
  query("deleted", 1, "SELECT changes(), total_changes() > 0");

  /* Savepoints: this change is rolled back, this one is kept. */
  exec("SAVEPOINT s1");
  exec("DELETE FROM products WHERE category = 'toys'");
  exec("ROLLBACK TO s1");
  exec("UPDATE products SET title = title || ' (sale)', price_cents = price_cents * 9 / 10"
       " WHERE category = 'books'");
  exec("RELEASE s1");

  query("audit", 4,
        "SELECT what, count(*), sum(n), min(ref), max(ref) FROM audit GROUP BY what ORDER BY what");
  query("kv", 4, "SELECT k, v FROM kv ORDER BY v DESC, k LIMIT 6");
  query("after", 3,
        "SELECT category, count(*), sum(stock), sum(price_cents), count(*) FILTER (WHERE title "
        "LIKE '%(sale)')"
        " FROM products GROUP BY category ORDER BY category");
  query("totals_after", 3,
        "SELECT city, count(*), sum(n_orders), sum(spent_cents) FROM customer_totals"
        " GROUP BY city ORDER BY sum(spent_cents) DESC, city");
  query("integrity", 1, "PRAGMA integrity_check");
  query("fk", 1, "SELECT count(*) FROM pragma_foreign_key_check");
}

/* Run SQL that must fail; print and hash its extended error code and message. */
static void expect_error(const char *label, const char *sql) {
  char *err = NULL;
  if (sqlite3_exec(db, sql, NULL, NULL, &err) == SQLITE_OK) {
    fprintf(stderr, "workload: %s: no error\n  in: %s\n", label, sql);
    exit(1);
  }
  int code = sqlite3_extended_errcode(db);
  printf("%s: %d %s\n", label, code, err ? err : "?");
  hash_int(code);
  hash_str(err ? err : "?");
  sqlite3_free(err);
}

/* Application-defined collation BYLEN: shorter strings first, then bytewise. */
static int collate_bylen(void *arg, int n1, const void *s1, int n2, const void *s2) {
  (void)arg;
  if (n1 != n2)
    return n1 < n2 ? -1 : 1;
  return memcmp(s1, s2, (size_t)n1);
}

/* xValue of the window function xor_win (xor is its own inverse: xInverse is xor_step). */
static void xor_value(sqlite3_context *ctx) {
  long long *acc = sqlite3_aggregate_context(ctx, 0);
  sqlite3_result_int64(ctx, acc ? *acc : 0);
}

/* STRICT tables, generated columns, cascading foreign keys, conflict clauses, constraint errors,
   ALTER TABLE, an INSTEAD OF trigger, collations, outer and natural joins, an attached and a
   temporary table. */
static void schema_features(void) {
  exec("PRAGMA foreign_keys = ON");
  exec("CREATE TABLE shelves(id INTEGER PRIMARY KEY, label TEXT NOT NULL UNIQUE COLLATE NOCASE, w "
       "REAL NOT NULL,"
       " h REAL NOT NULL CHECK(h > 0), area REAL AS (w * h) STORED,"
       " shape TEXT AS (iif(w = h, 'square', 'oblong'))) STRICT");
  exec("CREATE TABLE placed(id INTEGER PRIMARY KEY, shelf INT NOT NULL REFERENCES shelves(id)"
       " ON DELETE CASCADE ON UPDATE CASCADE, product INT REFERENCES products(id), slot INT, "
       "UNIQUE(shelf, slot))");
  exec("WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 40)"
       " INSERT INTO shelves(label, w, h) SELECT 'Shelf-' || i, 0.5 + (i % 7) * 0.25, 0.5 + (i % "
       "5) * 0.25 FROM n");
  exec("INSERT INTO placed(shelf, product, slot) SELECT 1 + id % 40, id, id / 40 FROM products");
  expect_error("strict", "INSERT INTO shelves(label, w, h) VALUES('bad', 'wide', 1.0)");
  expect_error("check", "INSERT INTO shelves(label, w, h) VALUES('flat', 1.0, 0)");
  expect_error("unique", "INSERT INTO shelves(label, w, h) VALUES('SHELF-3', 1.0, 1.0)");
  expect_error("foreign", "INSERT INTO placed(shelf, product, slot) VALUES(99, 1, 1)");
  expect_error("generated", "UPDATE shelves SET area = 1");
  expect_error("overflow", "WITH t(x) AS (VALUES(9223372036854775807), (1)) SELECT sum(x) FROM t");
  exec("INSERT OR IGNORE INTO placed(shelf, product, slot) SELECT shelf, product, slot FROM placed "
       "WHERE id % 3 = 0");
  exec("INSERT OR REPLACE INTO placed(shelf, product, slot)"
       " SELECT shelf, product % 250 + 1, slot FROM placed WHERE id % 5 = 0");
  exec("UPDATE shelves SET id = id + 100 WHERE id % 4 = 0");
  exec("DELETE FROM shelves WHERE shape = 'square'");
  query("shelves", 2,
        "SELECT shape, count(*), printf('%.4f', sum(area)), min(label), max(label COLLATE BYLEN),"
        "       (SELECT count(*) FROM placed p JOIN shelves t ON t.id = p.shelf WHERE t.shape = "
        "s.shape)"
        " FROM shelves s GROUP BY shape ORDER BY shape");
  query("placed", 1,
        "SELECT count(*), count(DISTINCT shelf), sum(product), max(shelf), sum(slot) FROM placed");

  exec("ALTER TABLE placed ADD COLUMN note TEXT DEFAULT 'new'");
  exec("ALTER TABLE placed RENAME COLUMN slot TO position");
  exec("UPDATE placed SET note = 'moved' WHERE position > 4");
  query("notes", 2, "SELECT note, count(*) FROM placed GROUP BY note ORDER BY note");
  exec("ALTER TABLE placed RENAME TO placements");
  exec("ALTER TABLE placements DROP COLUMN note");
  query("altered", 1, "SELECT sql FROM sqlite_schema WHERE name = 'placements'");

  query("bylen", 3,
        "SELECT name FROM customers WHERE id % 50 = 1 ORDER BY name COLLATE BYLEN DESC, id");
  query("collations", 1,
        "SELECT 'abc  ' = 'abc' COLLATE RTRIM, 'ABC' = 'abc' COLLATE NOCASE, 'ABC' = 'abc', 'a' < "
        "'B' COLLATE NOCASE,"
        "       'a' < 'B', 'ab' < 'b' COLLATE BYLEN");
  query("nocase_groups", 3,
        "SELECT city COLLATE NOCASE AS c, count(*), min(city), max(city) FROM customers"
        " GROUP BY c ORDER BY count(*) DESC, c");

  exec("CREATE VIEW big_orders AS SELECT id, customer_id, qty FROM orders WHERE qty >= 8");
  exec("CREATE TRIGGER big_orders_upd INSTEAD OF UPDATE OF qty ON big_orders BEGIN"
       "  UPDATE orders SET qty = new.qty WHERE id = old.id;"
       " END");
  exec("UPDATE big_orders SET qty = qty - 1 WHERE customer_id % 9 = 0");
  query("big_orders", 1, "SELECT count(*), sum(qty), (SELECT count(*) FROM audit) FROM big_orders");

  query("full_join", 4,
        "WITH t(city, country) AS (VALUES('Aachen', 'DE'), ('Bergen', 'NO'), ('Cork', 'IE'), "
        "('Dublin', 'IE'),"
        "                                ('Oslo', 'NO'), ('Porto', 'PT'))"
        " SELECT coalesce(c.city, t.city) AS place, t.country, count(c.id), count(t.city)"
        " FROM customers c FULL JOIN t ON t.city = c.city GROUP BY 1, 2 ORDER BY 1, 2");
  query("right_join", 1,
        "SELECT count(*), count(p.id), sum(o.qty) FROM orders o RIGHT JOIN products p"
        " ON p.id = o.product_id AND o.qty > 8");
  query("using", 1,
        "SELECT count(*), sum(qty), sum(tier) FROM orders JOIN (SELECT id AS customer_id, tier "
        "FROM customers)"
        " USING (customer_id) NATURAL JOIN (SELECT id AS product_id, category FROM products) WHERE "
        "tier = 2");

  exec("ATTACH ':memory:' AS aux");
  exec(
      "CREATE TABLE aux.totals AS SELECT customer_id, count(*) AS n, sum(qty) AS q FROM main.orders"
      " GROUP BY customer_id");
  exec("CREATE TEMP TABLE top_q AS SELECT * FROM aux.totals ORDER BY q DESC, customer_id LIMIT 20");
  query("attached", 3,
        "SELECT t.customer_id, t.q, c.name, (SELECT count(*) FROM aux.totals WHERE q > t.q)"
        " FROM temp.top_q t JOIN main.customers c ON c.id = t.customer_id ORDER BY t.q DESC, "
        "t.customer_id");
  exec("DROP TABLE temp.top_q");
  exec("DETACH aux");
}

/* Partial, expression and covering indexes, and the queries they serve; LIMIT with OFFSET. */
static void indexed_queries(void) {
  exec("CREATE INDEX orders_big ON orders(day, qty) WHERE qty >= 8");
  exec("CREATE INDEX customers_lname ON customers(lower(name))");
  exec("CREATE INDEX orders_cover ON orders(product_id, qty, customer_id)");
  exec("ANALYZE");
  query("partial", 1,
        "SELECT count(*), sum(qty), min(day), max(day) FROM orders"
        " WHERE qty >= 8 AND day BETWEEN '2023-06-01' AND '2023-12-31'");
  query("expr_index", 3,
        "SELECT id, name FROM customers WHERE lower(name) IN ('huto', 'neru', 'kaka') OR "
        "lower(name) LIKE 'ka%'"
        " ORDER BY lower(name), id LIMIT 5");
  query("covering", 3,
        "SELECT product_id, sum(qty), count(DISTINCT customer_id) FROM orders WHERE product_id "
        "BETWEEN 10 AND 30"
        " GROUP BY product_id ORDER BY 2 DESC, 1 LIMIT 5 OFFSET 3");
  query("page", 3,
        "SELECT id, customer_id, day FROM orders ORDER BY day DESC, id LIMIT 7 OFFSET 1000");
  query("minmax", 1,
        "SELECT min(day), max(day), (SELECT max(customer_id) FROM orders WHERE product_id = 7),"
        "       (SELECT min(lower(name)) FROM customers) FROM orders");
  query("indexed_by", 1,
        "SELECT (SELECT count(*) || ':' || total(qty) FROM orders INDEXED BY orders_customer"
        "        WHERE customer_id BETWEEN 100 AND 200),"
        "       (SELECT count(*) || ':' || total(qty) FROM orders NOT INDEXED WHERE customer_id "
        "BETWEEN 100 AND 200)");
  query("in_list", 3,
        "SELECT customer_id, count(*) FROM orders WHERE customer_id IN (3, 5, 8, 13, 21, 34, 55, "
        "89, 144, 233, 377)"
        " GROUP BY customer_id HAVING count(*) > 2 ORDER BY customer_id");
  query("distinct_page", 2,
        "SELECT DISTINCT tier, city COLLATE NOCASE FROM customers WHERE city IS NOT NULL"
        " ORDER BY 2 DESC, 1 LIMIT 4 OFFSET 6");
  query("busy_days", 3,
        "SELECT day, count(*) FROM orders GROUP BY day"
        " HAVING count(*) >= (SELECT avg(c) * 1.5 FROM (SELECT count(*) AS c FROM orders GROUP BY "
        "day))"
        " ORDER BY count(*) DESC, day LIMIT 5");
}

/* Floating point: series, Newton iterations, formatting and parsing, rounding, overflow to Inf, the
   integer/real boundary, and aggregates over reals. */
static void reals(void) {
  query("series", 2,
        "WITH RECURSIVE s(n, harm, basel, leib, grow) AS ("
        "   SELECT 1, 1.0, 1.0, 1.0, 1.0"
        "   UNION ALL SELECT n + 1, harm + 1.0 / (n + 1), basel + 1.0 / ((n + 1) * (n + 1)),"
        "     leib + (CASE WHEN n % 2 THEN -1.0 ELSE 1.0 END) / (2 * n + 1), grow * 1.0007"
        "   FROM s WHERE n < 3000)"
        " SELECT n, harm, printf('%.15e', basel), printf('%!.18g', 4 * leib), grow, round(grow, "
        "3), CAST(grow AS INT)"
        " FROM s WHERE n % 600 = 0");
  query(
      "newton", 1,
      "WITH RECURSIVE r(id, v, g, i) AS ("
      "   SELECT id, abs(balance) + 1.0, abs(balance) / 2 + 1.0, 0 FROM customers WHERE id % 4 = 0"
      "   UNION ALL SELECT id, v, (g + v / g) / 2, i + 1 FROM r WHERE i < 12)"
      " SELECT count(*), printf('%.10f', sum(g)), printf('%.17g', max(g)), printf('%.6e', min(g * "
      "g - v))"
      " FROM r WHERE i = 12");
  query("float_text", 6,
        "WITH v(x) AS (VALUES(0.1 + 0.2), (1.0 / 3), (2.5e-308), (4.9e-324), "
        "(1.7976931348623157e308),"
        "                    (123456789012345678.0), (-0.0), (9007199254740993.0), (1e308 * 10), "
        "(-1e308 * 10),"
        "                    (0.5), (1.5), (2.5), ('3.14159abc' + 0), (CAST('  -12.5e3  ' AS "
        "REAL)), ('1e-5' * 1),"
        "                    (6.02214076e23), (1.0e-7 / 3))"
        " SELECT x, printf('%.20g|%e|%.3f|%g|%!.25g|%#.3g', x, x, x, x, x, x), CAST(CAST(x AS "
        "TEXT) AS REAL) = x,"
        "       typeof(x), x * 1e300, -x / 1e-300, CAST(x AS INT)"
        " FROM v");
  query("rounding", 1,
        "SELECT round(2.5), round(-2.5), round(0.125, 2), round(1.005, 2), round(1e15 + 0.5), "
        "round(-0.0049, 2),"
        "       printf('%.0f %.0f %.2f %.1f', 0.5, 1.5, 1.005, 0.25), 9223372036854775807 + 1,"
        "       typeof(9223372036854775807 + 1), CAST(1e19 AS INT), CAST(-1e19 AS INT), "
        "9223372036854775807 * 2,"
        "       (-9223372036854775807 - 1) / -1, 10 / 0, 10.0 / 0, 1e308 * 10 - 1e308 * 10");
  query("real_aggs", 1,
        "SELECT count(*), sum(balance), total(balance), avg(balance),"
        "       sum(balance * balance) / count(*) - avg(balance) * avg(balance), max(balance) - "
        "min(balance)"
        " FROM customers");
  query("real_groups", 3,
        "SELECT product_id, sum(qty * 1.0 / (1 + customer_id % 7)), avg(json_extract(meta, "
        "'$.score') * 1.1),"
        "       printf('%.12f', total(1.0 / (id + qty)))"
        " FROM orders GROUP BY product_id ORDER BY 2 DESC, 1 LIMIT 5");
}

/* More date, string, JSON and window functions than queries() uses. */
static void more_functions(void) {
  query(
      "dates2", 3,
      "WITH v(d) AS (VALUES('2024-01-31'), ('2023-02-28'), ('2020-02-29'), ('1999-12-31 23:59:59'),"
      "                    ('2038-01-19 03:14:07'), ('1970-01-01'), ('2000-03-01T12:00:00.500'))"
      " SELECT d, date(d, 'weekday 0'), date(d, 'start of year', '+59 days'), datetime(d, '+90 "
      "minutes', '-1 seconds'),"
      "       unixepoch(d), datetime(unixepoch(d) + 86399, 'unixepoch'),"
      "       strftime('%Y-%m-%dT%H:%M:%f %s %u %W %G %V', d, '+12.345 seconds'),"
      "       date(d, '+1 month'), date(d, '+1 month', 'floor'), timediff(d, '2000-02-29'),"
      "       julianday(d) - 2451544.5, date(d, '-3 years', 'start of month'), time(julianday(d) + "
      "0.7654321, 'subsec')"
      " FROM v");
  query("weeks", 2,
        "SELECT strftime('%W', day) AS wk, count(*), min(date(day, 'weekday 1', '-7 days')), "
        "max(strftime('%j', day))"
        " FROM orders GROUP BY wk ORDER BY count(*) DESC, wk LIMIT 3");
  query("strings2", 2,
        "SELECT concat(name, '/', city), concat_ws('-', tier, city, NULL, id), octet_length(name "
        "|| 'é'),"
        "       length(name || 'é'), substring(email, 3, 5), like('%a_o%', name), name LIKE "
        "'%\\_%' ESCAPE '\\',"
        "       glob('*[^aeiou]', name),"
        "       printf('%Q|%q|%w|%5.2s|%-6d|%+d|%x|%o|%c|%,d', city, name || '''', name, name, "
        "tier, tier, id * 4099, id,"
        "              name, id * 1234567),"
        "       unicode(char(id + 256)), hex(char(128512 + id % 50)), upper('straße ä'), "
        "replace(name, substr(name, 2, 1), '*'),"
        "       unistr('\\u00e9\\U0001F600'), ltrim('xxyxhello', 'xy'), quote(x'00ff'), "
        "quote(2.5), quote(-7)"
        " FROM customers WHERE id % 120 = 1 ORDER BY id");
  query("string_agg", 2,
        "SELECT coalesce(city, '-'), string_agg(substr(name, 1, 2), ';' ORDER BY id DESC), count(*)"
        " FROM customers WHERE id % 7 = 0 GROUP BY city ORDER BY 1");
  query("json2", 2,
        "SELECT json_insert(meta, '$.extra', tier, '$.tags[#]', o.id), json_replace(meta, "
        "'$.gift', json('null')),"
        "       json_remove(meta, '$.tags[0]', '$.score'),"
        "       replace(json_pretty(json_object('a', json_array(1, 2.5, 'x'), 'b', name)), "
        "char(10), '~'),"
        "       json_quote(name), json(jsonb_set(jsonb(meta), '$.score', 0.5)), meta -> "
        "'$.tags[#-1]',"
        "       json_array_length(meta -> 'tags'), json_error_position('{\"a\":1,}'), "
        "json_valid('{a:1}', 6)"
        " FROM orders o JOIN customers c ON c.id = o.customer_id WHERE o.id % 1000 = 1 ORDER BY "
        "o.id");
  query("json_group", 1,
        "SELECT json_group_object(city, n) FROM (SELECT coalesce(city, 'none') AS city, count(*) "
        "AS n FROM customers"
        " GROUP BY 1 ORDER BY 1)");
  query("window2", 3,
        "SELECT customer_id, id, qty,"
        "   sum(qty) OVER (PARTITION BY customer_id ORDER BY qty GROUPS BETWEEN 1 PRECEDING AND 1 "
        "FOLLOWING"
        "                  EXCLUDE TIES),"
        "   count(*) OVER (PARTITION BY customer_id ORDER BY qty RANGE BETWEEN 2 PRECEDING AND 2 "
        "FOLLOWING"
        "                  EXCLUDE CURRENT ROW),"
        "   nth_value(id, 2) OVER w, last_value(id) OVER w, sum(qty) FILTER (WHERE note IS NOT "
        "NULL) OVER w,"
        "   xor_win(id) OVER (PARTITION BY customer_id ORDER BY id ROWS BETWEEN 3 PRECEDING AND 1 "
        "FOLLOWING),"
        "   avg(qty) OVER (PARTITION BY customer_id ORDER BY id ROWS UNBOUNDED PRECEDING EXCLUDE "
        "GROUP)"
        " FROM orders WHERE customer_id <= 12"
        " WINDOW w AS (PARTITION BY customer_id ORDER BY day, id ROWS BETWEEN UNBOUNDED PRECEDING "
        "AND UNBOUNDED FOLLOWING)"
        " ORDER BY customer_id, id");
}

/* Blobs: ordering, grouping, searching and converting them, an index on them, incremental blob I/O.
 */
static void blob_heavy(void) {
  exec("CREATE INDEX blobs_data ON blobs(data)");
  query("blob_order", 2,
        "SELECT id, length(data), hex(substr(data, 1, 6)) FROM blobs ORDER BY data DESC LIMIT 3 "
        "OFFSET 5");
  query("blob_groups", 2,
        "SELECT length(data) / 64 AS k, count(*), sum(instr(data, x'00') > 0), "
        "hex(substr(max(data), 1, 4)),"
        "       sum(unhex(hex(data)) = data), sum(CAST(data AS TEXT) = data), sum(data > x'80')"
        " FROM blobs GROUP BY k ORDER BY k");
  query("blob_join", 1,
        "SELECT count(*), sum(a.id * b.id) FROM blobs a JOIN blobs b"
        " ON substr(a.data, 1, 1) = substr(b.data, 1, 1) AND a.data < b.data");
  query("blob_ops", 1,
        "SELECT hex(x'cafe' || x'babe'), typeof(x'cafe' || x'babe'), length(zeroblob(1000)), "
        "hex(substr(x'0102030405', -2)),"
        "       hex(replace(x'010203', x'02', x'ff')), x'41' = 'A', CAST(x'414243' AS TEXT), "
        "hex(unhex('a1-b2', '-'))");

  exec("CREATE TABLE big(id INTEGER PRIMARY KEY, data BLOB)");
  exec("INSERT INTO big(id, data) VALUES(1, zeroblob(65536))");
  sqlite3_blob *blob;
  if (sqlite3_blob_open(db, "main", "big", "data", 1, 1, &blob) != SQLITE_OK)
    die("blob_open");
  unsigned char chunk[4096];
  for (int off = 0; off < 65536; off += 4096) {
    for (int k = 0; k < 4096; k++)
      chunk[k] = (unsigned char)(rnd() >> 24);
    if (sqlite3_blob_write(blob, chunk, sizeof chunk, off) != SQLITE_OK)
      die("blob_write");
  }
  for (int off = 3; off + 1000 <= 65536; off += 7001) {
    if (sqlite3_blob_read(blob, chunk, 1000, off) != SQLITE_OK)
      die("blob_read");
    hash_bytes(chunk, 1000);
  }
  hash_int(sqlite3_blob_bytes(blob));
  sqlite3_blob_close(blob);
  query("big_blob", 1,
        "WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < 63)"
        " SELECT length(data), hex(substr(data, 4093, 8)), sum(instr(data, "
        "unhex(printf('%02x%02x', i * 4, 255 - i)))),"
        "        count(DISTINCT substr(data, i * 1024 + 1, 2))"
        " FROM big, n");
}

/* Transactions: a ROLLBACK, nested savepoints, and a conflict that rolls back the whole
 * transaction. */
static void transactions(void) {
  query("before_tx", 1, "SELECT count(*), sum(qty), (SELECT count(*) FROM audit) FROM orders");
  exec("BEGIN");
  exec("DELETE FROM orders WHERE id % 2 = 0");
  exec("UPDATE customers SET balance = 0");
  exec("INSERT INTO kv VALUES('tx', 1)");
  query("in_tx", 1,
        "SELECT count(*), sum(qty), (SELECT total(balance) FROM customers), (SELECT count(*) FROM "
        "audit)"
        " FROM orders");
  exec("ROLLBACK");
  query("after_rollback", 1,
        "SELECT count(*), sum(qty), (SELECT count(*) FROM kv WHERE k = 'tx'), (SELECT count(*) "
        "FROM audit),"
        "       (SELECT round(total(balance), 2) FROM customers) FROM orders");

  exec("SAVEPOINT a");
  exec("INSERT INTO kv VALUES('sa', 1)");
  exec("SAVEPOINT b");
  exec("INSERT INTO kv VALUES('sb', 2)");
  exec("UPDATE kv SET v = v * 10 WHERE k = 'sa'");
  exec("SAVEPOINT c");
  exec("DELETE FROM kv");
  exec("ROLLBACK TO b");
  exec("INSERT INTO kv VALUES('sb2', 3)");
  exec("RELEASE a");
  query("savepoints", 3, "SELECT k, v FROM kv WHERE k LIKE 's%' ORDER BY k");

  exec("BEGIN IMMEDIATE");
  exec("INSERT INTO kv VALUES('keep?', 1)");
  expect_error("or_rollback", "INSERT OR ROLLBACK INTO kv VALUES('sa', 99)");
  hash_int(sqlite3_get_autocommit(db));
  query("rolled_back", 1,
        "SELECT count(*), (SELECT v FROM kv WHERE k = 'sa') FROM kv WHERE k = 'keep?'");
}

/* Copies of the database: VACUUM INTO a second in-memory database (memdb), the backup API, and
   sqlite3_serialize / sqlite3_deserialize; each copy is checked and queried. */
static void copies(void) {
  const char *check =
      "SELECT (SELECT count(*) FROM orders), (SELECT sum(qty) FROM orders), (SELECT count(*) FROM "
      "audit),"
      " (SELECT count(*) || ' ' || sum(length(name)) FROM sqlite_schema WHERE type = 'index'),"
      " (SELECT page_count FROM pragma_page_count), (SELECT freelist_count FROM "
      "pragma_freelist_count)";
  sqlite3 *main_db = db, *vac, *backup, *image;
  int flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_URI;
  if (sqlite3_open_v2("file:/workload-vacuum?vfs=memdb", &vac, flags, NULL) != SQLITE_OK)
    die("open memdb");
  exec("VACUUM INTO 'file:/workload-vacuum?vfs=memdb'");
  db = vac;
  query("vacuum_into", 1, check);
  sqlite3_close(vac);

  if (sqlite3_open(":memory:", &backup) != SQLITE_OK)
    die("open backup");
  sqlite3_backup *bk = sqlite3_backup_init(backup, "main", main_db, "main");
  if (!bk)
    die("backup_init");
  int rc, steps = 0;
  while ((rc = sqlite3_backup_step(bk, 16)) == SQLITE_OK)
    steps++;
  if (rc != SQLITE_DONE)
    die("backup_step");
  int pages = sqlite3_backup_pagecount(bk);
  sqlite3_backup_finish(bk);
  db = backup;
  query("backup", 1, check);
  printf("backup_steps: %d pages in %d steps\n", pages, steps + 1);
  hash_int(pages);
  hash_int(steps);

  sqlite3_int64 size;
  unsigned char *bytes = sqlite3_serialize(backup, "main", &size, 0);
  if (!bytes)
    die("serialize");
  sqlite3_close(backup);
  if (sqlite3_open(":memory:", &image) != SQLITE_OK)
    die("open image");
  db = image;
  if (sqlite3_deserialize(image, "main", bytes, size, size,
                          SQLITE_DESERIALIZE_FREEONCLOSE | SQLITE_DESERIALIZE_RESIZEABLE) !=
      SQLITE_OK)
    die("deserialize");
  exec("DELETE FROM orders WHERE qty > 5");
  query("image", 1, check);
  query("image_integrity", 1, "PRAGMA integrity_check");
  hash_int(size);
  sqlite3_close(image);
  db = main_db;
}

int main(void) {
  /* URI file names, for VACUUM INTO an in-memory database (copies()). */
  int flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_URI;
  if (sqlite3_open_v2(":memory:", &db, flags, NULL) != SQLITE_OK)
    die("open");
  if (sqlite3_create_function(db, "digit_root", 1, SQLITE_UTF8 | SQLITE_DETERMINISTIC, NULL,
                              digit_root, NULL, NULL) != SQLITE_OK ||
      sqlite3_create_function(db, "xor_agg", 1, SQLITE_UTF8, NULL, NULL, xor_step, xor_final) !=
          SQLITE_OK ||
      sqlite3_create_window_function(db, "xor_win", 1, SQLITE_UTF8, NULL, xor_step, xor_final,
                                     xor_value, xor_step, NULL) != SQLITE_OK ||
      sqlite3_create_collation(db, "BYLEN", SQLITE_UTF8, NULL, collate_bylen) != SQLITE_OK)
    die("create_function");
  printf("sqlite %s\n", sqlite3_libversion());

  create_and_fill();
  views_and_triggers();
  queries();
  ctes_windows_json();
  bound_statements();
  modify();
  schema_features();
  indexed_queries();
  reals();
  more_functions();
  blob_heavy();
  transactions();
  copies();

  sqlite3_close(db);
  printf("rows %llu\n", rows_seen);
  printf("checksum %016llx\n", (unsigned long long)checksum);
  return 0;
}
