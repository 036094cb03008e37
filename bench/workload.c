/* A deterministic SQLite workload: Shard's end-to-end check and benchmark program.
 *
 * It links against a separately compiled sqlite3.c (the object under test: `clang -O2 -c` or `shard`) and
 * exercises much of the SQL engine in an in-memory database, in well under a second: tables and indexes,
 * a few thousand rows inserted in one transaction from a fixed pseudo-random generator through prepared
 * statements with bindings, joins, GROUP BY / HAVING / aggregates, ORDER BY and COLLATE, LIKE / GLOB,
 * string, date and arithmetic functions, an application-defined function, recursive CTEs, window
 * functions, JSON functions, compound SELECTs, UPSERT and RETURNING, UPDATE / DELETE, a view, triggers,
 * savepoints, and PRAGMA integrity_check. Every value of every result row goes into one FNV-1a checksum;
 * a few result lines and the checksum are printed. The output depends on nothing but the program and
 * sqlite3.c (no time, no pointers, no random(), no 'now'), so two builds of sqlite3.c must print the same.
 *
 * sqlite3.c needs no non-default options; Shard's scripts compile it with
 *   -DSQLITE_THREADSAFE=0 -DSQLITE_OMIT_LOAD_EXTENSION
 * so that the program links with just `-lm` (no -lpthread, no -ldl). Only functions compiled in by default
 * are used (JSON and window functions are default; the math functions, FTS and R-Tree are not).
 *
 *   clang -O2 -c bench/workload.c -I DIR_OF_SQLITE3_H -o workload.o
 *   clang workload.o sqlite3.o -lm -o workload && ./workload
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sqlite3.h"

static sqlite3 *db;
static uint64_t checksum = 1469598103934665603ULL; /* FNV-1a 64 offset basis */
static unsigned long long rows_seen;

static void hash_bytes(const void *p, size_t n) {
    const unsigned char *b = p;
    for (size_t i = 0; i < n; i++) {
        checksum ^= b[i];
        checksum *= 1099511628211ULL;
    }
}

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

/* Hash (and print the first `show` rows of) every result row of the statement. Returns the row count. */
static int step_all(sqlite3_stmt *st, const char *label, int show) {
    int n = 0, rc;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        int cols = sqlite3_column_count(st);
        if (n < show) printf("%s:", label);
        for (int i = 0; i < cols; i++) {
            int type = sqlite3_column_type(st, i);
            const char *text;
            char hexbuf[2 * 64 + 1];
            if (type == SQLITE_BLOB) {
                const unsigned char *b = sqlite3_column_blob(st, i);
                int len = sqlite3_column_bytes(st, i), k;
                for (k = 0; k < len && k < 64; k++) snprintf(hexbuf + 2 * k, 3, "%02x", b[k]);
                hexbuf[2 * k] = 0;
                text = hexbuf;
            } else if (type == SQLITE_NULL) {
                text = "NULL";
            } else {
                text = (const char *)sqlite3_column_text(st, i);
            }
            hash_int(type);
            hash_str(text);
            if (n < show) printf(" %s", text);
        }
        if (n < show) printf("\n");
        n++;
    }
    if (rc != SQLITE_DONE) die(label);
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
    if (v < 0) v = -v;
    while (v >= 10) {
        long long s = 0;
        for (; v; v /= 10) s += v % 10;
        v = s;
    }
    sqlite3_result_int64(ctx, v);
}

/* Application-defined aggregate: xor_agg(x). */
static void xor_step(sqlite3_context *ctx, int argc, sqlite3_value **argv) {
    (void)argc;
    long long *acc = sqlite3_aggregate_context(ctx, sizeof *acc);
    if (acc) *acc ^= sqlite3_value_int64(argv[0]);
}
static void xor_final(sqlite3_context *ctx) {
    long long *acc = sqlite3_aggregate_context(ctx, 0);
    sqlite3_result_int64(ctx, acc ? *acc : 0);
}

static const char *const syll[] = {"ka", "lo", "mi", "ne", "ru", "sa", "to", "vi", "an", "el",
                                   "or", "qu", "zy", "ba", "de", "fi", "go", "hu", "ja", "pe"};
static const char *const cities[] = {"Aachen", "Bergen", "Cork",  "Dublin", "Esbjerg", "Faro",
                                     "Gent",   "Haarlem", "Izmir", "Jena",  "Kassel", "Lille"};
static const char *const categories[] = {"tools", "garden", "kitchen", "toys", "books", "audio", "sport"};

static void make_name(char *buf, size_t n, int parts) {
    buf[0] = 0;
    for (int i = 0; i < parts; i++) strncat(buf, syll[rnd_below(20)], n - strlen(buf) - 1);
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
    sqlite3_stmt *ins = prepare("INSERT INTO customers(id, name, city, tier, balance, email)"
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
        if (sqlite3_step(ins) != SQLITE_DONE) die("insert customer");
        sqlite3_reset(ins);
    }
    sqlite3_finalize(ins);

    ins = prepare("INSERT INTO products(sku, title, price_cents, category, stock) VALUES(?, ?, ?, ?, ?)");
    for (int i = 1; i <= N_PRODUCTS; i++) {
        char sku[32], title[96];
        snprintf(sku, sizeof sku, "SKU-%05d-%c%c", i * 37 % 100000, 'A' + rnd_below(26), 'A' + rnd_below(26));
        make_name(name, sizeof name, 2 + rnd_below(2));
        snprintf(title, sizeof title, "%s %s %d", name, categories[i % 7], 1 + rnd_below(99));
        sqlite3_bind_text(ins, 1, sku, -1, SQLITE_TRANSIENT);
        sqlite3_bind_text(ins, 2, title, -1, SQLITE_TRANSIENT);
        sqlite3_bind_int(ins, 3, 99 + rnd_below(50000));
        sqlite3_bind_text(ins, 4, categories[rnd_below(7)], -1, SQLITE_STATIC);
        sqlite3_bind_int64(ins, 5, (sqlite3_int64)rnd_below(1000));
        if (sqlite3_step(ins) != SQLITE_DONE) die("insert product");
        hash_int(sqlite3_last_insert_rowid(db));
        sqlite3_reset(ins);
    }
    sqlite3_finalize(ins);

    ins = prepare("INSERT INTO orders(customer_id, product_id, qty, day, note, meta)"
                  " VALUES(?, ?, ?, date('2023-01-01', '+' || ? || ' days'), ?, json(?))");
    for (int i = 1; i <= N_ORDERS; i++) {
        char note[96], meta[160];
        int cust = 1 + (int)((rnd() % N_CUSTOMERS) * (rnd() % N_CUSTOMERS) / N_CUSTOMERS); /* skewed */
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
        snprintf(meta, sizeof meta, "{\"channel\":\"%s\",\"gift\":%s,\"tags\":[%d,%d],\"score\":%d.%02d}",
                 rnd_below(2) ? "web" : (rnd_below(2) ? "shop" : "phone"), rnd_below(5) ? "false" : "true",
                 rnd_below(10), rnd_below(10), rnd_below(100), rnd_below(100));
        sqlite3_bind_text(ins, 6, meta, -1, SQLITE_TRANSIENT);
        if (sqlite3_step(ins) != SQLITE_DONE) die("insert order");
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
    exec("CREATE TRIGGER customers_tier AFTER UPDATE OF tier ON customers BEGIN"
         "  INSERT INTO kv(k, v) VALUES('tier' || new.tier, 1) ON CONFLICT(k) DO UPDATE SET v = v + 1;"
         " END");
}

static void queries(void) {
    query("count", 1,
          "SELECT (SELECT count(*) FROM customers), (SELECT count(*) FROM products),"
          " (SELECT count(*) FROM orders), (SELECT count(DISTINCT city) FROM customers)");
    query("by_city", 4,
          "SELECT coalesce(c.city, '?') AS city, count(*) AS n, sum(o.qty * p.price_cents) AS revenue,"
          "       printf('%.3f', avg(o.qty)), max(p.price_cents), min(o.day)"
          " FROM orders o JOIN customers c ON c.id = o.customer_id JOIN products p ON p.id = o.product_id"
          " GROUP BY c.city ORDER BY revenue DESC, city");
    query("category_having", 3,
          "SELECT category, count(*), total(price_cents) / 100.0, group_concat(id, ',' ORDER BY id DESC)"
          " FROM products GROUP BY category HAVING count(*) > 20 ORDER BY 2 DESC, 1");
    query("top_customers", 3,
          "SELECT id, name, n_orders, spent_cents FROM customer_totals"
          " ORDER BY spent_cents DESC, id LIMIT 10");
    query("like_glob", 1,
          "SELECT (SELECT count(*) FROM customers WHERE name LIKE '%an%'),"
          "       (SELECT count(*) FROM customers WHERE name GLOB 'K*[aeiou]'),"
          "       (SELECT count(*) FROM orders WHERE note LIKE 'URGENT:%'),"
          "       (SELECT count(*) FROM products WHERE sku GLOB 'SKU-?[0-4]*')");
    query("strings", 5,
          "SELECT upper(substr(name, 1, 3)) || lower(substr(name, 4)), length(name), instr(name, 'a'),"
          "       replace(email, '@example.org', ''), hex(substr(name, -2)), quote(city),"
          "       trim('  ' || name || '  '), printf('%-8s|%5d|%08.2f', substr(name, 1, 8), tier, balance),"
          "       unicode(name), char(65 + tier), rtrim(ltrim(name, 'K'), 'a'), format('%q', name || '''s')"
          " FROM customers WHERE id % 97 = 3 ORDER BY id");
    query("arith", 3,
          "SELECT tier, count(*), round(sum(balance), 2), round(avg(balance), 3), min(balance), max(balance),"
          "       sum(abs(CAST(balance AS INT)) % 7), sum(id / 3), total(id * 1.5), xor_agg(id),"
          "       sum(digit_root(id * 7919)), sum(id & 0x55) | 1, sum(id << 2) >> 1, sum(~id)"
          " FROM customers GROUP BY tier ORDER BY tier");
    query("case_null", 5,
          "SELECT CASE WHEN city IS NULL THEN 'nowhere' WHEN tier >= 3 THEN 'gold:' || city ELSE city END,"
          "       iif(balance < 0, 'debt', 'ok'), nullif(tier, 0), ifnull(city, '-'), typeof(balance),"
          "       CAST(balance AS TEXT), CAST('12abc' AS INTEGER), 7 / 2, 7 / 2.0, -7 % 3"
          " FROM customers WHERE id IN (1, 2, 3, 250, 599) OR city IS NULL ORDER BY id LIMIT 8");
    query("dates", 3,
          "SELECT strftime('%Y-%m', day) AS month, count(*), sum(qty),"
          "       julianday(max(day)) - julianday(min(day)), date(min(day), 'start of month', '+1 month', '-1 day'),"
          "       strftime('%w %j', max(day))"
          " FROM orders GROUP BY month ORDER BY month");
    query("collate", 4,
          "SELECT DISTINCT city FROM customers WHERE city IS NOT NULL"
          " ORDER BY city COLLATE NOCASE DESC LIMIT 5");
    query("subqueries", 1,
          "SELECT (SELECT count(*) FROM customers c WHERE NOT EXISTS"
          "          (SELECT 1 FROM orders o WHERE o.customer_id = c.id)),"
          "       (SELECT count(*) FROM products WHERE id IN (SELECT product_id FROM orders WHERE qty = 9)),"
          "       (SELECT max(n) FROM (SELECT customer_id, count(*) AS n FROM orders GROUP BY customer_id)),"
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
          "WITH RECURSIVE fib(n, a, b) AS (SELECT 1, 0, 1 UNION ALL SELECT n + 1, b, (a + b) % 1000000007"
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
          "       round(sum(balance) OVER (PARTITION BY city ORDER BY id ROWS BETWEEN 2 PRECEDING AND CURRENT ROW), 2),"
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
    query("json", 3,
          "SELECT meta ->> '$.channel' AS ch, count(*), sum(meta -> '$.gift' = 'true'),"
          "       round(sum(json_extract(meta, '$.score')), 2), sum(json_array_length(meta, '$.tags')),"
          "       json_group_array(DISTINCT json_extract(meta, '$.tags[0]') ORDER BY 1)"
          " FROM orders GROUP BY ch ORDER BY ch");
    query("json_build", 3,
          "SELECT json_object('id', id, 'name', name, 'city', city, 'tier', tier,"
          "                   'orders', (SELECT json_group_array(json_object('p', product_id, 'q', qty))"
          "                              FROM (SELECT * FROM orders WHERE customer_id = c.id ORDER BY id LIMIT 3))),"
          "       json_patch('{\"a\":1,\"b\":{\"c\":2}}', json_object('b', json_object('d', tier))),"
          "       json_set(json_array(1, 2, 3), '$[1]', name), json_valid(name), json_type(meta)"
          " FROM customers c LEFT JOIN (SELECT customer_id, min(meta) AS meta FROM orders GROUP BY customer_id) m"
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
    sqlite3_stmt *st = prepare(
        "SELECT count(*), round(total(balance), 2), min(name), max(name) FROM customers"
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
        for (int k = 0; k < len; k++) buf[k] = (unsigned char)rnd();
        if (i % 17 == 0)
            sqlite3_bind_zeroblob(st, 1, len);
        else
            sqlite3_bind_blob(st, 1, buf, len, SQLITE_TRANSIENT);
        if (sqlite3_step(st) != SQLITE_DONE) die("insert blob");
        sqlite3_reset(st);
    }
    sqlite3_finalize(st);
    query("blobs", 2,
          "SELECT count(*), sum(length(data)), hex(substr(max(data), 1, 8)), min(hex(data)) FROM blobs"
          " UNION ALL SELECT id, length(data), hex(substr(data, 3, 4)), typeof(data) FROM blobs WHERE id = 18");
}

static void modify(void) {
    query("upsert_returning", 3,
          "INSERT INTO kv(k, v) SELECT coalesce(city, 'none'), count(*) FROM customers GROUP BY city"
          " ON CONFLICT(k) DO UPDATE SET v = v + excluded.v RETURNING k, v");
    exec("UPDATE orders SET qty = qty + 1 WHERE id % 13 = 0");
    exec("UPDATE orders SET qty = (SELECT tier FROM customers WHERE id = orders.customer_id) + 1"
         " WHERE note LIKE 'urgent:%' AND customer_id % 5 = 0");
    exec("UPDATE customers SET tier = (tier + 1) % 5, balance = round(balance * 1.01, 2) WHERE city = 'Cork'");
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

    query("audit", 4, "SELECT what, count(*), sum(n), min(ref), max(ref) FROM audit GROUP BY what ORDER BY what");
    query("kv", 4, "SELECT k, v FROM kv ORDER BY v DESC, k LIMIT 6");
    query("after", 3,
          "SELECT category, count(*), sum(stock), sum(price_cents), count(*) FILTER (WHERE title LIKE '%(sale)')"
          " FROM products GROUP BY category ORDER BY category");
    query("totals_after", 3,
          "SELECT city, count(*), sum(n_orders), sum(spent_cents) FROM customer_totals"
          " GROUP BY city ORDER BY sum(spent_cents) DESC, city");
    query("integrity", 1, "PRAGMA integrity_check");
    query("fk", 1, "SELECT count(*) FROM pragma_foreign_key_check");
}

int main(void) {
    if (sqlite3_open(":memory:", &db) != SQLITE_OK) die("open");
    if (sqlite3_create_function(db, "digit_root", 1, SQLITE_UTF8 | SQLITE_DETERMINISTIC, NULL, digit_root, NULL,
                                NULL) != SQLITE_OK ||
        sqlite3_create_function(db, "xor_agg", 1, SQLITE_UTF8, NULL, NULL, xor_step, xor_final) != SQLITE_OK)
        die("create_function");
    printf("sqlite %s\n", sqlite3_libversion());

    create_and_fill();
    views_and_triggers();
    queries();
    ctes_windows_json();
    bound_statements();
    modify();

    sqlite3_close(db);
    printf("rows %llu\n", rows_seen);
    printf("checksum %016llx\n", (unsigned long long)checksum);
    return 0;
}
