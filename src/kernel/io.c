/* io.c: MMIO (nk_ioremap, readl, writel) and memory barriers of the kernel
 * layer, forwarded to the platform with the register offset checked. */
#include <inttypes.h>
#include <stdint.h>

#include "hw/generic_nic_regs.h"
#include "kernel/kernel_priv.h"

/* The BAR0 window: never dereferenced, only used to turn ioaddr + REG back
 * into REG. Sized for the largest BAR of a supported family. */
#define NK_IOWIN_SIZE GN_BAR0_SIZE
static char nk_iowin[NK_IOWIN_SIZE];

void __iomem *nk_ioremap(struct net_device *dev) {
  (void)nk__dev_kernel(dev, "nk_ioremap");
  return nk_iowin;
}

/* The BAR0 offset of addr, or -1 (fault recorded) if it is not a register. */
static int64_t reg_offset(struct nk_kernel *k, const void __iomem *addr, const char *what) {
  uintptr_t a = (uintptr_t)addr, base = (uintptr_t)nk_iowin;
  if (a < base || a - base > NK_IOWIN_SIZE - 4 || ((a - base) & 3)) {
    nk__fault(k, "%s(%p): not a 32-bit register in the %u-byte BAR0 window (offset %" PRIdPTR ")", what, addr,
              NK_IOWIN_SIZE, (intptr_t)(a - base));
    return -1;
  }
  return (int64_t)(a - base);
}

u32 readl(const void __iomem *addr) {
  struct nk_kernel *k = nk__cur("readl");
  int64_t off = reg_offset(k, addr, "readl");
  if (off < 0) return 0xffffffffu; /* what a failed PCIe read returns */
  return k->plat.ops->mmio_read32(k->plat.ctx, (uint32_t)off);
}

void writel(u32 val, void __iomem *addr) {
  struct nk_kernel *k = nk__cur("writel");
  int64_t off = reg_offset(k, addr, "writel");
  if (off < 0) return;
  k->plat.ops->mmio_write32(k->plat.ctx, (uint32_t)off, val);
}

static void barrier(enum nk_barrier b, const char *what) {
  struct nk_kernel *k = nk__cur(what);
  k->plat.ops->barrier(k->plat.ctx, b);
}

void mb(void) { barrier(NK_BARRIER_MB, "mb"); }
void rmb(void) { barrier(NK_BARRIER_RMB, "rmb"); }
void wmb(void) { barrier(NK_BARRIER_WMB, "wmb"); }
void dma_rmb(void) { barrier(NK_BARRIER_DMA_RMB, "dma_rmb"); }
void dma_wmb(void) { barrier(NK_BARRIER_DMA_WMB, "dma_wmb"); }
