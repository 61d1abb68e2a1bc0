/* timer.c: hrtimer-like one-shot timers for drivers (stmmac's TX coalescing
 * timer), each backed by one platform timer (platform.h timer_arm). */
#include <stdio.h>

#include "kernel/kernel_priv.h"

/* The kernel a timer belongs to: the current one, checked. */
static struct nk_kernel *timer_kernel(const struct hrtimer *t, const char *what) {
  struct nk_kernel *k = nk__cur(what);
  if (!t || t->id < 1 || t->id > NK_TIMER_MAX || k->timers[t->id - 1] != t) {
    nk__fault(k, "%s: hrtimer %p was not set up with hrtimer_init", what, (const void *)t);
    return NULL;
  }
  return k;
}

static void platform_arm(struct nk_kernel *k, int id, uint64_t delay_ns) {
  if (k->plat.ops->timer_arm) k->plat.ops->timer_arm(k->plat.ctx, id, delay_ns);
}

void hrtimer_init(struct hrtimer *timer, int clock_id, enum hrtimer_mode mode) {
  struct nk_kernel *k = nk__cur("hrtimer_init");
  if (!timer) {
    nk__fault(k, "hrtimer_init: NULL timer");
    return;
  }
  if (clock_id != CLOCK_MONOTONIC || mode != HRTIMER_MODE_REL) {
    nk__fault(k, "hrtimer_init: only CLOCK_MONOTONIC with HRTIMER_MODE_REL is modelled");
    return;
  }
  int slot = -1;
  for (int i = 0; i < NK_TIMER_MAX; i++) {
    if (k->timers[i] == timer) {
      /* Re-initialising a registered timer: cancel it first. */
      if (k->timer_queued[i]) platform_arm(k, i, NK_TIMER_CANCEL);
      slot = i;
      break;
    }
    if (slot < 0 && !k->timers[i]) slot = i;
  }
  if (slot < 0) {
    nk__fault(k, "hrtimer_init: all %d platform timers are in use", NK_TIMER_MAX);
    return;
  }
  k->timers[slot] = timer;
  k->timer_queued[slot] = false;
  *timer = (struct hrtimer){NULL, slot + 1, false, 0};
}

void hrtimer_start(struct hrtimer *timer, ktime_t tim, enum hrtimer_mode mode) {
  struct nk_kernel *k = timer_kernel(timer, "hrtimer_start");
  if (!k) return;
  if (mode != HRTIMER_MODE_REL) {
    nk__fault(k, "hrtimer_start: only HRTIMER_MODE_REL is modelled");
    return;
  }
  if (!timer->function) {
    nk__fault(k, "hrtimer_start: the timer has no function");
    return;
  }
  if (!k->plat.ops->timer_arm) {
    nk__fault(k, "hrtimer_start: the platform has no timers");
    return;
  }
  timer->queued = true;
  k->timer_queued[timer->id - 1] = true;
  platform_arm(k, timer->id - 1, tim > 0 ? (uint64_t)tim : 0);
}

int hrtimer_cancel(struct hrtimer *timer) {
  struct nk_kernel *k = timer_kernel(timer, "hrtimer_cancel");
  if (!k || !timer->queued) return 0;
  timer->queued = false;
  k->timer_queued[timer->id - 1] = false;
  platform_arm(k, timer->id - 1, NK_TIMER_CANCEL);
  return 1;
}

bool hrtimer_is_queued(const struct hrtimer *timer) { return timer && timer->queued; }

u64 hrtimer_forward_now(struct hrtimer *timer, ktime_t interval) {
  if (!timer_kernel(timer, "hrtimer_forward_now")) return 0;
  timer->forward = interval;
  return 1;
}

void nk_kernel_timer(struct nk_kernel *k, int id) {
  nk_kernel_set_current(k);
  if (k->fault[0]) return;
  struct hrtimer *t = (id >= 0 && id < NK_TIMER_MAX) ? k->timers[id] : NULL;
  if (!t || !k->timer_queued[id]) {
    /* Cancelled or re-armed after the platform had already fired it. */
    k->stats.timers_stale++;
    return;
  }
  /* Dequeued before the expiry's cost is charged (a charge may let another
   * CPU run): an hrtimer_start from another CPU meanwhile queues it again, as
   * Linux's __run_hrtimer removes the timer before its callback runs. */
  t->queued = false;
  k->timer_queued[id] = false;
  t->forward = 0;
  int prev = nk_prof_enter(k->prof_hrtimer);
  k->plat.ops->charge(k->plat.ctx, k->cfg->cpu.softirq_cycles);
  nk_prof_leave(prev);
  k->stats.timers++;
  enum hrtimer_restart r = t->function(t);
  if (r == HRTIMER_RESTART && !k->timer_queued[id]) {
    if (t->forward <= 0) {
      nk__fault(k, "hrtimer callback returned HRTIMER_RESTART without hrtimer_forward_now");
      return;
    }
    t->queued = true;
    k->timer_queued[id] = true;
    platform_arm(k, id, (uint64_t)t->forward);
  }
  nk__flush_user_copy(k);
}

/* Runs after the driver's remove, which may have freed the timers: only the
 * kernel's own state is read. */
NK_NOCOUNT void nk__timers_release(struct nk_kernel *k) {
  for (int i = 0; i < NK_TIMER_MAX; i++) {
    if (k->timer_queued[i]) {
      k->timer_leak = true;
      k->timer_queued[i] = false;
      platform_arm(k, i, NK_TIMER_CANCEL);
    }
    k->timers[i] = NULL;
  }
}
