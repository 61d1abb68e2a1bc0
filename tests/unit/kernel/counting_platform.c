/* counting_platform.c: the counting nk_platform for unit tests (see
 * counting_platform.h): real memory, a fake register file, counters. */
#include "unit/kernel/counting_platform.h"

#include <stdlib.h>
#include <string.h>

static struct counting_platform *cpof(void *ctx) { return (struct counting_platform *)ctx; }

static void count_op(struct counting_platform *cp) {
  int b = nk_prof_current();
  if (b >= 0 && b < NK_PROF_MAX) cp->c.bucket_ops[b]++;
}

static uint64_t op_load(void *ctx, uint64_t pa, unsigned size) {
  struct counting_platform *cp = cpof(ctx);
  cp->c.loads[cp_attr(cp, pa)]++;
  count_op(cp);
  uint64_t v = 0;
  memcpy(&v, cp->mem + pa, size); /* little-endian host */
  return v;
}

static void op_store(void *ctx, uint64_t pa, uint64_t val, unsigned size) {
  struct counting_platform *cp = cpof(ctx);
  cp->c.stores[cp_attr(cp, pa)]++;
  count_op(cp);
  memcpy(cp->mem + pa, &val, size);
}

static void op_copy(void *ctx, uint64_t dst, uint64_t src, uint64_t len) {
  struct counting_platform *cp = cpof(ctx);
  cp->c.copies++;
  cp->c.copy_bytes += len;
  if (((dst ^ src) & 7) == 0)
    cp->c.copies_aligned++;
  else
    cp->c.copies_misaligned++;
  count_op(cp);
  memmove(cp->mem + dst, cp->mem + src, len);
}

static void op_cache_maint(void *ctx, uint64_t pa, uint64_t len, enum nk_cache_op op) {
  struct counting_platform *cp = cpof(ctx);
  uint64_t lines = len ? (pa + len + cp->line - 1) / cp->line - pa / cp->line : 0;
  cp->c.cache_calls[op]++;
  cp->c.cache_lines[op] += lines;
  count_op(cp);
}

static uint32_t op_mmio_read32(void *ctx, uint32_t off) {
  struct counting_platform *cp = cpof(ctx);
  cp->c.mmio_reads++;
  cp->c.mmio_reads_reg[off / 4]++;
  count_op(cp);
  return cp->on_mmio_read ? cp->on_mmio_read(cp->user, off) : cp->regs[off / 4];
}

static void op_mmio_write32(void *ctx, uint32_t off, uint32_t val) {
  struct counting_platform *cp = cpof(ctx);
  cp->c.mmio_writes++;
  cp->c.mmio_writes_reg[off / 4]++;
  count_op(cp);
  cp->regs[off / 4] = val;
  if (cp->on_mmio_write) cp->on_mmio_write(cp->user, off, val);
}

static void op_barrier(void *ctx, enum nk_barrier b) {
  struct counting_platform *cp = cpof(ctx);
  cp->c.barriers[b]++;
  count_op(cp);
}

static void op_charge(void *ctx, double cycles) {
  struct counting_platform *cp = cpof(ctx);
  cp->c.charges++;
  cp->c.cycles += cycles;
  int b = nk_prof_current();
  if (b >= 0 && b < NK_PROF_MAX) cp->c.bucket_cycles[b] += cycles;
  count_op(cp);
}

static void op_exec(void *ctx, double instructions, double cycles, int bucket) {
  struct counting_platform *cp = cpof(ctx);
  cp->c.execs++;
  cp->c.instructions += instructions;
  cp->c.cycles += cycles;
  int b = bucket >= 0 ? bucket : nk_prof_current();
  if (b >= 0 && b < NK_PROF_MAX) {
    cp->c.bucket_instructions[b] += instructions;
    cp->c.bucket_cycles[b] += cycles;
    cp->c.bucket_execs[b]++;
  }
}

static void op_read_headers(void *ctx, uint64_t pa, uint32_t len, unsigned misaligned) {
  struct counting_platform *cp = cpof(ctx);
  (void)pa;
  cp->c.header_reads++;
  cp->c.header_bytes += len;
  cp->c.misaligned_loads += misaligned;
  int b = nk_prof_current();
  if (b >= 0 && b < NK_PROF_MAX) cp->c.bucket_misaligned[b] += misaligned;
}

static void op_set_attr(void *ctx, uint64_t pa, uint64_t len, enum nk_mem_attr attr) {
  struct counting_platform *cp = cpof(ctx);
  cp->c.set_attr_calls[attr]++;
  for (uint64_t l = pa / cp->line; l < (pa + len + cp->line - 1) / cp->line; l++) cp->attr[l] = (uint8_t)attr;
}

static void op_host_rx(void *ctx, uint64_t pa, uint32_t len) {
  struct counting_platform *cp = cpof(ctx);
  cp->c.host_rx++;
  cp->c.host_rx_bytes += len;
  if (cp->on_host_rx) cp->on_host_rx(cp->user, pa, cp->mem + pa, len);
}

static void op_timer_arm(void *ctx, int id, uint64_t delay_ns) {
  struct counting_platform *cp = cpof(ctx);
  if (id < 0 || id >= NK_TIMER_MAX) abort(); /* the kernel hands out ids below NK_TIMER_MAX */
  if (delay_ns == NK_TIMER_CANCEL) {
    cp->c.timer_cancels++;
    cp->timer_armed[id] = false;
    return;
  }
  cp->c.timer_arms++;
  cp->timer_armed[id] = true;
  cp->timer_delay_ns[id] = delay_ns;
}

static uint64_t op_now_ns(void *ctx) { return cpof(ctx)->now_ns; }

static void op_spin(void *ctx, unsigned id, bool acquire) {
  struct counting_platform *cp = cpof(ctx);
  if (id == 0 || id > NK_SPIN_MAX) abort(); /* the kernel hands out ids 1 .. NK_SPIN_MAX */
  if (acquire)
    cp->c.spin_acquires[id]++;
  else
    cp->c.spin_releases[id]++;
  if (cp->spin_held[id] == acquire) cp->c.spin_misuse++;
  cp->spin_held[id] = acquire;
}

int cp_spins_held(const struct counting_platform *cp) {
  int n = 0;
  for (int i = 0; i <= NK_SPIN_MAX; i++) n += cp->spin_held[i];
  return n;
}

int cp_init(struct counting_platform *cp, uint64_t mem_size, bool coherent, uint32_t line) {
  memset(cp, 0, sizeof *cp);
  cp->mem = malloc(mem_size);
  cp->attr = calloc(mem_size / line + 1, 1);
  if (!cp->mem || !cp->attr) {
    cp_fini(cp);
    return -1;
  }
  memset(cp->mem, 0xA5, mem_size);
  cp->mem_size = mem_size;
  cp->line = line;
  cp->ops = (struct nk_platform_ops){op_load,    op_store,  op_copy,     op_cache_maint, op_mmio_read32,
                                     op_mmio_write32, op_barrier, op_charge, op_set_attr, op_host_rx,
                                     op_timer_arm, NULL /* user_copy_cycles: per_byte */,
                                     NULL /* iommu_map: no IOMMU */, op_spin, op_now_ns, op_exec,
                                     op_read_headers, NULL /* stream_read_cycles: no cache */,
                                     NULL /* iommu_inv: no invalidation queue */};
  cp->plat = (struct nk_platform){&cp->ops, cp, cp->mem, mem_size, coherent, 0xFEE00000ull};
  return 0;
}

void cp_fini(struct counting_platform *cp) {
  free(cp->mem);
  free(cp->attr);
  cp->mem = NULL;
  cp->attr = NULL;
}

void cp_reset_counts(struct counting_platform *cp) { memset(&cp->c, 0, sizeof cp->c); }

enum nk_mem_attr cp_attr(const struct counting_platform *cp, uint64_t pa) {
  return (enum nk_mem_attr)cp->attr[pa / cp->line];
}

bool cp_fire_timer(struct counting_platform *cp, struct nk_kernel *k, int id) {
  if (id < 0 || id >= NK_TIMER_MAX || !cp->timer_armed[id]) return false;
  cp->timer_armed[id] = false;
  nk_kernel_timer(k, id);
  return true;
}

int cp_armed_timer(const struct counting_platform *cp) {
  for (int i = 0; i < NK_TIMER_MAX; i++)
    if (cp->timer_armed[i]) return i;
  return -1;
}
