// A coroutine that two shards hold: coro (inline, so other shards may import it) is
// called by user0 and user1, which the partition puts in different shards. CoroSplit, in
// the simplification pipeline, splits it into new functions coro.resume and coro.destroy:
// new-function.test. Self-contained (no <coroutine>): the few pieces of std it needs.
namespace std {
template <class R, class... Args> struct coroutine_traits {
  using promise_type = typename R::promise_type;
};
template <class P = void> struct coroutine_handle;
template <> struct coroutine_handle<void> {
  void *p = nullptr;
  static coroutine_handle from_address(void *a) noexcept {
    coroutine_handle h;
    h.p = a;
    return h;
  }
  void *address() const noexcept { return p; }
  void resume() const { __builtin_coro_resume(p); }
  void destroy() const { __builtin_coro_destroy(p); }
};
template <class P> struct coroutine_handle : coroutine_handle<void> {
  static coroutine_handle from_address(void *a) noexcept {
    coroutine_handle h;
    h.p = a;
    return h;
  }
  static coroutine_handle from_promise(P &pr) noexcept {
    return from_address(__builtin_coro_promise(&pr, alignof(P), true));
  }
  P &promise() const { return *static_cast<P *>(__builtin_coro_promise(p, alignof(P), false)); }
};
struct suspend_always {
  bool await_ready() const noexcept { return false; }
  void await_suspend(coroutine_handle<>) const noexcept {}
  void await_resume() const noexcept {}
};
} // namespace std

struct task {
  struct promise_type {
    int v = 0;
    task get_return_object() { return {std::coroutine_handle<promise_type>::from_promise(*this)}; }
    std::suspend_always initial_suspend() noexcept { return {}; }
    std::suspend_always final_suspend() noexcept { return {}; }
    void return_value(int x) { v = x; }
    void unhandled_exception() {}
  };
  std::coroutine_handle<promise_type> h;
};

inline task coro(int x) { co_return x + 1; }

int big(int x) { return x + 7; }

int user0(int x) {
  task t = coro(x);
  t.h.resume();
  int v = t.h.promise().v;
  t.h.destroy();
  for (int i = 0; i < x; i++)
    v += big(i) * big(v);
  return v;
}

int user1(int x) {
  task t = coro(x);
  t.h.resume();
  int v = t.h.promise().v;
  t.h.destroy();
  for (int i = 0; i < x; i++)
    v += big(i) * big(v + i);
  return v * 3;
}
