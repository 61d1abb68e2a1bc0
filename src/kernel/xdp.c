/* xdp.c: driver.xdp's built-in XDP program and the XDP accounting.
 *
 * Linux runs an attached program from the driver's RX loop on the frame in
 * its page_pool buffer (bpf_prog_run_xdp, include/linux/filter.h): an
 * indirect call into the program's JIT image. nicsim's program is built in:
 * "return XDP_<verdict>;", two BPF instructions, whose cost is
 * stack.xdp_prog_instructions (E; docs/drivers.md, "XDP"). The driver does
 * the rest (recycling, XDP_TX) and reports each frame's outcome through
 * nk_xdp_account, where Linux drivers bump their own XDP counters. */
#include "kernel/kernel_priv.h"

const struct bpf_prog *nk_xdp_prog(struct net_device *dev) {
  struct nk_kernel *k = nk__dev_kernel(dev, "nk_xdp_prog");
  if (!k) return NULL;
  switch (k->cfg->driver.xdp) {
    case NC_XDP_PASS: k->xdp_prog.act = XDP_PASS; break;
    case NC_XDP_DROP: k->xdp_prog.act = XDP_DROP; break;
    case NC_XDP_TX: k->xdp_prog.act = XDP_TX; break;
    default: return NULL;
  }
  return &k->xdp_prog;
}

u32 bpf_prog_run_xdp(const struct bpf_prog *prog, struct xdp_buff *xdp) {
  struct nk_kernel *k = nk__current;
  if (!k || !prog || !xdp) return XDP_ABORTED;
  nk__exec(k, k->cfg->stack.xdp_prog_instructions, 0, k->prof.xdp_prog);
  return prog->act;
}

void nk_xdp_account(struct napi_struct *napi, enum nk_xdp_outcome o) {
  struct nk_kernel *k = napi && napi->dev ? napi->dev->k : nk__current;
  if (!k) return;
  switch (o) {
    case NK_XDP_PASS: k->stats.xdp_pass++; return;
    case NK_XDP_DROP: k->stats.xdp_drop++; break;
    case NK_XDP_TX: k->stats.xdp_tx++; break;
    case NK_XDP_TX_ERROR: k->stats.xdp_tx_errors++; break;
  }
  if (napi && napi->rx_queue >= 0 && napi->rx_queue < NK_NAPI_MAX) k->rxq_xdp[napi->rx_queue]++;
}

void *convert_to_xdp_frame(const struct xdp_buff *xdp) {
  u8 *xdpf = xdp->data_hard_start;
  const u32 room = (u32)((u8 *)xdp->data - xdpf);
  if (room < 32) return NULL; /* sizeof(struct xdp_frame): "Assure headroom is available for storing info" */
  nk_st64(xdpf + 0, nk_virt_to_phys(xdp->data));                   /* data */
  nk_st16(xdpf + 8, (u16)((u8 *)xdp->data_end - (u8 *)xdp->data)); /* len */
  nk_st16(xdpf + 10, (u16)(room - 32));                             /* headroom */
  nk_st16(xdpf + 12, 0);                                            /* metasize */
  nk_st32(xdpf + 16, xdp->mem_type);                                /* mem.type */
  nk_st32(xdpf + 20, 0);                                            /* mem.id */
  nk_st64(xdpf + 24, 0);                                            /* dev_rx */
  return xdpf;
}

void nk_xdp_tx_queued(struct net_device *dev, u32 txq) {
  struct nk_kernel *k = nk__dev_kernel(dev, "nk_xdp_tx_queued");
  if (k && txq < NK_NAPI_MAX) k->txq_packets[txq]++;
}

NK_NOCOUNT uint64_t nk_kernel_rxq_xdp(const struct nk_kernel *k, uint32_t q) { return q < NK_NAPI_MAX ? k->rxq_xdp[q] : 0; }
