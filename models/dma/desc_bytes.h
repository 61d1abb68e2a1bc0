/* desc_bytes.h: little-endian field access for descriptor codecs (the
 * in-memory bytes, independent of the host's byte order). */
#ifndef NICSIM_MODELS_DMA_DESC_BYTES_H
#define NICSIM_MODELS_DMA_DESC_BYTES_H

#include <cstdint>

namespace nicsim {

/* The little-endian 32-bit word at p. */
inline uint32_t le32_at(const uint8_t *p) {
  return static_cast<uint32_t>(p[0]) | (static_cast<uint32_t>(p[1]) << 8) |
         (static_cast<uint32_t>(p[2]) << 16) | (static_cast<uint32_t>(p[3]) << 24);
}
/* Stores v little-endian at p. */
inline void le32_put(uint8_t *p, uint32_t v) {
  for (int i = 0; i < 4; i++) p[i] = static_cast<uint8_t>(v >> (8 * i));
}

}  // namespace nicsim
#endif
