/*
 * generic_nic.h: register map and descriptor layout of nicsim's generic NIC.
 * Shared by the C driver (src/drivers/generic.c) and the SystemC DMA engine
 * (models/dma), so the two cannot disagree. All descriptor fields are
 * little-endian. A device family (mvneta, lan743x, stmmac, i40e) has its own
 * header like this one.
 *
 * Ownership: the driver hands a descriptor to the device by writing it with
 * GN_DESC_OWN set and then moving the ring's tail register past it. The device
 * clears GN_DESC_OWN when it writes the descriptor back. Indices in
 * [head, tail) belong to the device; the rest to the driver.
 */
#ifndef NICSIM_HW_GENERIC_NIC_REGS_H
#define NICSIM_HW_GENERIC_NIC_REGS_H

#include <assert.h> /* static_assert in C11 and C++ */
#include <stdint.h>

/* Registers (32-bit, offsets from BAR0). */
#define GN_REG_CTRL 0x000          /* GN_CTRL_* enables */
#define GN_REG_INT_STATUS 0x004    /* pending causes; read to clear */
#define GN_REG_INT_MASK 0x008      /* 1 = cause masked; writing 0 unmasks */
#define GN_REG_DESC_SPACING 0x00C  /* bytes between descriptor starts */
#define GN_REG_RX_RING_LO 0x010
#define GN_REG_RX_RING_HI 0x014
#define GN_REG_RX_RING_SIZE 0x018  /* entries */
#define GN_REG_RX_TAIL 0x01C       /* driver: first index NOT given to the device */
#define GN_REG_RX_HEAD 0x020       /* device: next index it will complete (read-only) */
#define GN_REG_RX_BUF_SIZE 0x024   /* bytes in each RX buffer */
#define GN_REG_TX_RING_LO 0x030
#define GN_REG_TX_RING_HI 0x034
#define GN_REG_TX_RING_SIZE 0x038
#define GN_REG_TX_TAIL 0x03C
#define GN_REG_TX_HEAD 0x040
#define GN_REG_COAL_FRAMES 0x050   /* interrupt after this many completions */
#define GN_REG_COAL_USECS 0x054    /* or after this long, in microseconds */
#define GN_REG_RX_WATCHDOG 0x058   /* stmmac RX watchdog RWT: units of 256 CSR clock cycles; 0 = off */
#define GN_REG_MSI_ADDR_LO 0x060
#define GN_REG_MSI_ADDR_HI 0x064
#define GN_REG_MSI_DATA 0x068
#define GN_REG_TX_HEAD_WB_LO 0x070 /* head write-back address (nic.wb_mode head); 0: none */
#define GN_REG_TX_HEAD_WB_HI 0x074
/* RSS (nic.rx_queues > 1): the Toeplitz key, 40 B in 10 registers (byte
 * 4i + j of the key in bits 8j..8j+7 of register i, as i40e's PFQF_HKEY),
 * the table size, and the indirection table: 4 one-byte entries per
 * register (entry 4i + j in bits 8j..8j+7, as PFQF_HLUT), 512 at most. A
 * frame goes to queue LUT[hash mod RSS_TABLE_SIZE]; with RSS_TABLE_SIZE 0
 * (reset) every frame goes to queue 0. */
#define GN_REG_RSS_KEY(i) (0x080 + 4 * (i)) /* i in [0, 10) */
#define GN_REG_RSS_TABLE_SIZE 0x0B0         /* entries used, a power of two, at most 512 */
#define GN_REG_RSS_LUT(i) (0x200 + 4 * (i)) /* i in [0, 128) */
#define GN_RSS_KEY_REGS 10
#define GN_RSS_LUT_REGS 128
#define GN_RSS_LUT_MAX 512

/* Queue register blocks: queue q's block starts at GN_QBLOCK(q) (q < 16).
 * Each holds queue q's RX and TX ring registers and interrupt vector q's
 * registers (vector q serves RX queue q and TX queue q: one MSI-X vector per
 * queue pair, as i40e's q_vectors). Queue 0's block and the single-queue
 * registers above are the same registers (aliases). */
#define GN_MAX_QUEUES 16
#define GN_QBLOCK(q) (0x400 + 0x40 * (q))
#define GN_Q_RX_RING_LO 0x00
#define GN_Q_RX_RING_HI 0x04
#define GN_Q_RX_RING_SIZE 0x08
#define GN_Q_RX_TAIL 0x0C
#define GN_Q_RX_HEAD 0x10 /* read-only */
#define GN_Q_TX_RING_LO 0x14
#define GN_Q_TX_RING_HI 0x18
#define GN_Q_TX_RING_SIZE 0x1C
#define GN_Q_TX_TAIL 0x20
#define GN_Q_TX_HEAD 0x24 /* read-only */
#define GN_Q_INT_STATUS 0x28 /* vector q's causes; read to clear */
#define GN_Q_INT_MASK 0x2C   /* vector q's mask (reset: all masked) */
#define GN_Q_COAL_FRAMES 0x30
#define GN_Q_COAL_USECS 0x34
#define GN_Q_MSI_ADDR_LO 0x38 /* vector q's MSI-X table entry: address ... */
#define GN_Q_MSI_ADDR_HI 0x3C
/* ... and data word (outside the full block): vector q's at GN_REG_MSIX_DATA(q);
 * MSI_DATA above is vector 0's. */
#define GN_REG_MSIX_DATA(q) (0x0C0 + 4 * (q))
/* TX head write-back addresses of all TX queues (nic.wb_mode head);
 * TX_HEAD_WB_LO/HI above are queue 0's. */
#define GN_REG_TXQ_HEAD_WB_LO(q) (0x100 + 8 * (q))
#define GN_REG_TXQ_HEAD_WB_HI(q) (0x104 + 8 * (q))
/* Per-direction coalescing of vector v (v < 16), as ethtool's rx-frames,
 * rx-usecs, tx-frames and tx-usecs: writing any of them makes the vector
 * count RX and TX completions apart, each against its own threshold and
 * timer (until then both count together against COAL_FRAMES/USECS, whose
 * writes set both directions). Reset: the shared values. */
#define GN_REG_VEC_COAL(v) (0x800 + 0x10 * (v))
#define GN_VC_RX_FRAMES 0x0
#define GN_VC_RX_USECS 0x4
#define GN_VC_TX_FRAMES 0x8
#define GN_VC_TX_USECS 0xC
/* TX queue q's interrupt vector (q < 16), as the XL710's QINT_TQCTL(q)
 * MSIX_INDX: its completions raise that vector's TX cause. Reset: vector q
 * (q mod the vectors for a TX queue beyond them). i40e's XDP rings, TX
 * queues after nic.tx_queues, are linked to their RX ring's vector. */
#define GN_REG_TXQ_VEC(q) (0x900 + 4 * (q))
/* Register offset of queue register r (GN_Q_*) of queue q. */
#define GN_QREG(q, r) (GN_QBLOCK(q) + (r))

/* Register offset of queue register r (GN_Q_*) of queue (or vector) q: queue
 * 0's single-queue register where there is one, else its queue-block one. */
static inline uint32_t gn_qreg(uint32_t q, uint32_t r) {
  if (q != 0) return GN_QREG(q, r);
  switch (r) {
    case GN_Q_RX_RING_LO: return GN_REG_RX_RING_LO;
    case GN_Q_RX_RING_HI: return GN_REG_RX_RING_HI;
    case GN_Q_RX_RING_SIZE: return GN_REG_RX_RING_SIZE;
    case GN_Q_RX_TAIL: return GN_REG_RX_TAIL;
    case GN_Q_RX_HEAD: return GN_REG_RX_HEAD;
    case GN_Q_TX_RING_LO: return GN_REG_TX_RING_LO;
    case GN_Q_TX_RING_HI: return GN_REG_TX_RING_HI;
    case GN_Q_TX_RING_SIZE: return GN_REG_TX_RING_SIZE;
    case GN_Q_TX_TAIL: return GN_REG_TX_TAIL;
    case GN_Q_TX_HEAD: return GN_REG_TX_HEAD;
    case GN_Q_INT_STATUS: return GN_REG_INT_STATUS;
    case GN_Q_INT_MASK: return GN_REG_INT_MASK;
    case GN_Q_COAL_FRAMES: return GN_REG_COAL_FRAMES;
    case GN_Q_COAL_USECS: return GN_REG_COAL_USECS;
    case GN_Q_MSI_ADDR_LO: return GN_REG_MSI_ADDR_LO;
    default: return GN_REG_MSI_ADDR_HI;
  }
}

#define GN_BAR0_SIZE 0x1000

#define GN_CTRL_RX_EN (1u << 0)
#define GN_CTRL_TX_EN (1u << 1)

#define GN_INT_RX (1u << 0) /* RX frames completed */
#define GN_INT_TX (1u << 1) /* TX frames completed */
#define GN_INT_ALL (GN_INT_RX | GN_INT_TX)

/* Descriptor flags. */
#define GN_DESC_OWN (1u << 15) /* set: the device owns the descriptor */
#define GN_DESC_EOP (1u << 14) /* last descriptor of a frame */
#define GN_DESC_ERR (1u << 13) /* device reports an error on this frame */

/* RX descriptor, 16 bytes. The driver writes buf_addr and buf_len with OWN;
 * the device writes pkt_len and flags (OWN cleared, EOP set). */
struct gn_rx_desc {
  uint64_t buf_addr;
  uint16_t buf_len;
  uint16_t pkt_len;
  uint16_t flags;
  uint16_t rsvd;
};
static_assert(sizeof(struct gn_rx_desc) == 16, "generic RX descriptor is 16 bytes");

/* TX descriptor, 16 bytes. The driver writes all of it with OWN and EOP;
 * the device writes flags back with OWN cleared. */
struct gn_tx_desc {
  uint64_t buf_addr;
  uint16_t len;
  uint16_t flags;
  uint32_t rsvd;
};
static_assert(sizeof(struct gn_tx_desc) == 16, "generic TX descriptor is 16 bytes");

#define GN_DESC_SIZE 16u

#define GN_OFF_RX_FLAGS 12u /* offsetof(struct gn_rx_desc, flags) */
#define GN_OFF_TX_FLAGS 10u /* offsetof(struct gn_tx_desc, flags) */

#endif
