/*
 * i40e.h: Intel 700-series (i40e) descriptor layouts, from Linux
 * drivers/net/ethernet/intel/i40e/i40e_type.h (union i40e_16byte_rx_desc,
 * union i40e_32byte_rx_desc, struct i40e_tx_desc and their bit fields,
 * names as there). Shared by the C driver and models/dma. Little-endian.
 *
 * RX read format: qword0 = packet buffer address, qword1 = header buffer
 * address (0: no header split), which the device overwrites at write-back
 * with status_error_len: DD (bit 0), EOF (bit 1), buffer length (bits
 * 51:38). There is no OWN bit: the device owns [head, tail); the driver sees
 * DD. The 32-byte form adds two reserved qwords. RX buffer size is in the
 * queue context (here the RX_BUF_SIZE register); the CRC is stripped.
 * TX: qword0 = buffer address, qword1 = DTYPE (3:0) | CMD (13:4) | OFFSET
 * (33:16) | buffer size (47:34) | L2TAG1; the device marks a completed
 * descriptor by writing DTYPE = DESC_DONE (0xF); or, with head write-back,
 * writes its head index to memory instead.
 */
#ifndef NICSIM_HW_I40E_REGS_H
#define NICSIM_HW_I40E_REGS_H

#include <assert.h> /* static_assert in C11 and C++ */
#include <stdint.h>

#define I40E_RX_DESC_STATUS_DD_SHIFT 0
#define I40E_RX_DESC_STATUS_EOF_SHIFT 1
#define I40E_RXD_QW1_LENGTH_PBUF_SHIFT 38
#define I40E_RXD_QW1_LENGTH_PBUF_MASK (0x3FFFULL << I40E_RXD_QW1_LENGTH_PBUF_SHIFT)

#define I40E_TXD_QW1_DTYPE_SHIFT 0
#define I40E_TXD_QW1_DTYPE_MASK (0xFULL << I40E_TXD_QW1_DTYPE_SHIFT)
#define I40E_TXD_QW1_CMD_SHIFT 4
#define I40E_TXD_QW1_CMD_MASK (0x3FFULL << I40E_TXD_QW1_CMD_SHIFT)
#define I40E_TXD_QW1_OFFSET_SHIFT 16
#define I40E_TXD_QW1_TX_BUF_SZ_SHIFT 34
#define I40E_TXD_QW1_TX_BUF_SZ_MASK (0x3FFFULL << I40E_TXD_QW1_TX_BUF_SZ_SHIFT)
#define I40E_TX_DESC_DTYPE_DATA 0x0ULL
#define I40E_TX_DESC_DTYPE_DESC_DONE 0xFULL
#define I40E_TX_DESC_CMD_EOP 0x0001ULL
#define I40E_TX_DESC_CMD_RS 0x0002ULL
#define I40E_TX_DESC_CMD_ICRC 0x0004ULL

/* RX descriptor, read format of both sizes and write-back qword1. */
struct i40e_16byte_rx_desc {
  uint64_t pkt_addr; /* write-back: qword0 (filter status, RSS) */
  uint64_t hdr_addr; /* write-back: qword1 status_error_len */
};
static_assert(sizeof(struct i40e_16byte_rx_desc) == 16, "i40e 16-byte RX descriptor");

struct i40e_32byte_rx_desc {
  uint64_t pkt_addr;
  uint64_t hdr_addr;
  uint64_t rsvd1;
  uint64_t rsvd2;
};
static_assert(sizeof(struct i40e_32byte_rx_desc) == 32, "i40e 32-byte RX descriptor");

struct i40e_tx_desc {
  uint64_t buffer_addr;
  uint64_t cmd_type_offset_bsz;
};
static_assert(sizeof(struct i40e_tx_desc) == 16, "i40e TX descriptor is 16 bytes");

#endif
