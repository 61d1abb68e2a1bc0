/*
 * mvneta.h: Marvell NETA (Armada 370/XP/38x) descriptor layouts, from Linux
 * drivers/net/ethernet/marvell/mvneta.c (struct mvneta_rx_desc,
 * struct mvneta_tx_desc, MVNETA_RXD_* and MVNETA_TXD_* bits; little-endian
 * layout). Shared by the C driver and models/dma.
 *
 * 32-byte descriptors without an OWN bit: the driver hands descriptors over
 * by adding to the queue's non-occupied count and learns completions from
 * the occupied (RX) and sent (TX) counts in the queue status registers (here
 * the TAIL and HEAD registers). RX: the device writes status (FIRST/LAST)
 * and data_size back; the frame lands MVNETA_MH_SIZE bytes into the buffer,
 * after the 2-byte Marvell header, and data_size counts the header and the
 * FCS (the driver subtracts ETH_FCS_LEN + MVNETA_MH_SIZE). The RX buffer size
 * is per queue (MVNETA_RXQ_SIZE_REG), here RX_BUF_SIZE. TX descriptors are
 * not written back.
 */
#ifndef NICSIM_HW_MVNETA_REGS_H
#define NICSIM_HW_MVNETA_REGS_H

#include <assert.h> /* static_assert in C11 and C++ */
#include <stdint.h>

#define MVNETA_MH_SIZE 2u /* Marvell header before the frame in an RX buffer */

#define MVNETA_TXD_Z_PAD (1u << 19)
#define MVNETA_TXD_L_DESC (1u << 20)
#define MVNETA_TXD_F_DESC (1u << 21)
#define MVNETA_TXD_FLZ_DESC (MVNETA_TXD_Z_PAD | MVNETA_TXD_L_DESC | MVNETA_TXD_F_DESC)

#define MVNETA_RXD_ERR_SUMMARY (1u << 16)
#define MVNETA_RXD_LAST_DESC (1u << 26)
#define MVNETA_RXD_FIRST_DESC (1u << 27)
#define MVNETA_RXD_FIRST_LAST_DESC (MVNETA_RXD_FIRST_DESC | MVNETA_RXD_LAST_DESC)

struct mvneta_tx_desc {
  uint32_t command;       /* MVNETA_TXD_* */
  uint16_t reserved1;     /* csum_l4 */
  uint16_t data_size;     /* bytes to send from the buffer */
  uint32_t buf_phys_addr; /* buffer bus address (32-bit) */
  uint32_t reserved2;     /* hw_cmd */
  uint32_t reserved3[4];
};
static_assert(sizeof(struct mvneta_tx_desc) == 32, "mvneta TX descriptor is 32 bytes");

struct mvneta_rx_desc {
  uint32_t status;        /* MVNETA_RXD_*, written by the device */
  uint16_t reserved1;     /* pnc_info */
  uint16_t data_size;     /* received bytes, Marvell header and FCS included */
  uint32_t buf_phys_addr; /* buffer bus address (32-bit) */
  uint32_t reserved2;     /* pnc_flow_id */
  uint32_t buf_cookie;    /* the driver's, kept */
  uint16_t reserved3;
  uint16_t reserved4;
  uint32_t reserved5;
  uint32_t reserved6;
};
static_assert(sizeof(struct mvneta_rx_desc) == 32, "mvneta RX descriptor is 32 bytes");

#define MVNETA_DESC_SIZE 32u

#endif
