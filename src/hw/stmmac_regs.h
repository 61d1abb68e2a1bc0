/*
 * stmmac.h: Synopsys DesignWare GMAC 4.x (dwmac4, the stmmac driver's
 * "normal" descriptors) layouts, from Linux
 * drivers/net/ethernet/stmicro/stmmac/descs.h (struct dma_desc) and
 * dwmac4_descs.h (TDES and RDES bits, names as there, prefixed STMMAC_).
 * Shared by the C driver and models/dma. Fields are little-endian.
 *
 * Read format (driver to device): des0/des1 = buffer 1 address low/high
 * (dwmac4_set_addr). TX: des2 = IOC | buffer 1 length, des3 = OWN | FD | LD |
 * packet length. RX: des3 = OWN | IOC | BUF1V; the RX buffer size is not in
 * the descriptor (DMA_CHAN_RX_CONTROL RBSZ). The device writes des3 back
 * with OWN clear (RX: FD, LD and the packet length).
 *
 * RX interrupt moderation: a completed descriptor with RDES3 IOC raises RI;
 * one without starts the RX watchdog, DMA_CHAN_RX_WATCHDOG RWT, counted in
 * units of 256 CSR clock cycles (the stmmac driver's riwt).
 */
#ifndef NICSIM_HW_STMMAC_REGS_H
#define NICSIM_HW_STMMAC_REGS_H

#include <assert.h> /* static_assert in C11 and C++ */
#include <stdint.h>

/* TDES2 (read format). */
#define STMMAC_TDES2_BUFFER1_SIZE_MASK 0x00003FFFu /* GENMASK(13, 0) */
#define STMMAC_TDES2_INTERRUPT_ON_COMPLETION (1u << 31)
/* TDES3. */
#define STMMAC_TDES3_PACKET_SIZE_MASK 0x00007FFFu /* GENMASK(14, 0) */
#define STMMAC_TDES3_ERROR_SUMMARY (1u << 15)
#define STMMAC_TDES3_LAST_DESCRIPTOR (1u << 28)
#define STMMAC_TDES3_FIRST_DESCRIPTOR (1u << 29)
#define STMMAC_TDES3_CONTEXT_TYPE (1u << 30)
#define STMMAC_TDES3_OWN (1u << 31)

/* RDES3 (write-back format). */
#define STMMAC_RDES3_PACKET_SIZE_MASK 0x00007FFFu /* GENMASK(14, 0) */
#define STMMAC_RDES3_ERROR_SUMMARY (1u << 15)
#define STMMAC_RDES3_LAST_DESCRIPTOR (1u << 28)
#define STMMAC_RDES3_FIRST_DESCRIPTOR (1u << 29)
#define STMMAC_RDES3_CONTEXT_DESCRIPTOR (1u << 30)
/* RDES3 (read format). */
#define STMMAC_RDES3_BUFFER1_VALID_ADDR (1u << 24)
#define STMMAC_RDES3_INT_ON_COMPLETION_EN (1u << 30)
#define STMMAC_RDES3_OWN (1u << 31)

/* RX watchdog: RWT counts units of this many CSR clock cycles. */
#define STMMAC_RIWT_UNIT_CYCLES 256u

/* struct dma_desc (descs.h): the normal descriptor, RX and TX. */
struct stmmac_dma_desc {
  uint32_t des0;
  uint32_t des1;
  uint32_t des2;
  uint32_t des3;
};
static_assert(sizeof(struct stmmac_dma_desc) == 16, "dwmac4 descriptor is 16 bytes");

#define STMMAC_DESC_SIZE 16u

#endif
