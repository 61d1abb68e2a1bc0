/*
 * lan743x.h: Microchip LAN743x descriptor layouts and DMA-controller register
 * fields, from Linux drivers/net/ethernet/microchip/lan743x_main.h (names as
 * there, prefixed LAN743X_). Shared by the C driver and models/dma.
 *
 * Both rings use 16-byte descriptors placed DSPACE apart (DMAC_CFG
 * MAX_DSPACE: 16, 32, 64 or 128 bytes). RX descriptors carry an OWN bit;
 * TX descriptors do not: the device owns [TX_HEAD, TX_TAIL) and reports
 * progress by writing its head index to TX_HEAD_WRITEBACK_ADDR (head
 * pointer write-back). All fields are little-endian 32-bit words.
 */
#ifndef NICSIM_HW_LAN743X_REGS_H
#define NICSIM_HW_LAN743X_REGS_H

#include <assert.h> /* static_assert in C11 and C++ */
#include <stdint.h>

/* DMA controller registers (lan743x_main.h). */
#define LAN743X_DMAC_CFG 0xC00
#define LAN743X_DMAC_CFG_MAX_READ_REQ_MASK 0x00000070u /* outstanding reads */
#define LAN743X_DMAC_CFG_MAX_DSPACE_16 0x0u
#define LAN743X_DMAC_CFG_MAX_DSPACE_32 0x1u
#define LAN743X_DMAC_CFG_MAX_DSPACE_64 0x2u
#define LAN743X_DMAC_CFG_MAX_DSPACE_128 0x3u
#define LAN743X_DMAC_COAL_CFG 0xC04
#define LAN743X_RX_CFG_A(ch) (0xC40 + ((ch) << 6))
#define LAN743X_RX_CFG_A_RX_WB_THRES_MASK 0x1F000000u
#define LAN743X_RX_CFG_A_RX_PF_THRES_MASK 0x001F0000u
#define LAN743X_TX_CFG_A(ch) (0xD40 + ((ch) << 6))
#define LAN743X_TX_CFG_A_TX_HP_WB_EN (1u << 5)
#define LAN743X_TX_HEAD_WRITEBACK_ADDRH(ch) (0xD50 + ((ch) << 6))
#define LAN743X_TX_HEAD_WRITEBACK_ADDRL(ch) (0xD54 + ((ch) << 6))
#define LAN743X_TX_HEAD(ch) (0xD58 + ((ch) << 6))
#define LAN743X_TX_TAIL(ch) (0xD5C + ((ch) << 6))

/* Descriptor spacings DSPACE selects (DMA_DESCRIPTOR_SPACING_*). */
#define LAN743X_DESC_SPACING_16 16u
#define LAN743X_DESC_SPACING_32 32u
#define LAN743X_DESC_SPACING_64 64u
#define LAN743X_DESC_SPACING_128 128u

/* TX descriptor bits (TX_DESC_DATA0_*, TX_DESC_DATA3_*). */
#define LAN743X_TX_DESC_DATA0_DTYPE_MASK 0xC0000000u
#define LAN743X_TX_DESC_DATA0_DTYPE_DATA 0x00000000u
#define LAN743X_TX_DESC_DATA0_FS 0x20000000u
#define LAN743X_TX_DESC_DATA0_LS 0x10000000u
#define LAN743X_TX_DESC_DATA0_EXT 0x08000000u
#define LAN743X_TX_DESC_DATA0_IOC 0x04000000u
#define LAN743X_TX_DESC_DATA0_FCS 0x00020000u
#define LAN743X_TX_DESC_DATA0_BUF_LENGTH_MASK 0x0000FFFFu
#define LAN743X_TX_DESC_DATA3_FRAME_LENGTH_MSS_MASK 0x3FFF0000u

/* RX descriptor bits (RX_DESC_DATA0_*). */
#define LAN743X_RX_DESC_DATA0_OWN 0x00008000u
#define LAN743X_RX_DESC_DATA0_FS 0x80000000u
#define LAN743X_RX_DESC_DATA0_LS 0x40000000u
#define LAN743X_RX_DESC_DATA0_FRAME_LENGTH_MASK 0x3FFF0000u
#define LAN743X_RX_DESC_DATA0_FRAME_LENGTH_SHIFT 16
#define LAN743X_RX_DESC_DATA0_EXT 0x00004000u
#define LAN743X_RX_DESC_DATA0_BUF_LENGTH_MASK 0x00003FFFu

/* TX descriptor: data0 = flags | buffer length, data1/data2 = buffer address
 * low/high, data3 = frame length << 16 (first descriptor of a frame). */
struct lan743x_tx_desc {
  uint32_t data0;
  uint32_t data1;
  uint32_t data2;
  uint32_t data3;
};
static_assert(sizeof(struct lan743x_tx_desc) == 16, "lan743x TX descriptor is 16 bytes");

/* RX descriptor: the driver writes data1/data2 = buffer address low/high and
 * then data0 = OWN | buffer length; the device writes data0 back with OWN
 * clear, FS/LS and the frame length (bits 29:16). */
struct lan743x_rx_desc {
  uint32_t data0;
  uint32_t data1;
  uint32_t data2;
  uint32_t data3;
};
static_assert(sizeof(struct lan743x_rx_desc) == 16, "lan743x RX descriptor is 16 bytes");

#define LAN743X_DESC_SIZE 16u

#endif
