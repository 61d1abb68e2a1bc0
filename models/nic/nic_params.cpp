// nic_params.cpp: the NIC's keys (its family's and its parts') and the family's rules on them (nic_device.h).
#include <string>

#include "hw/generic_nic_regs.h"
#include "hw/i40e_regs.h"
#include "hw/lan743x_regs.h"
#include "hw/mvneta_regs.h"
#include "hw/stmmac_regs.h"
#include "nic/nic_device.h"

namespace nicsim {

namespace {
const char *family_name(NicDevice::Family f) {
  switch (f) {
    case NicDevice::Family::Lan743x: return "lan743x";
    case NicDevice::Family::Stmmac: return "stmmac";
    case NicDevice::Family::I40e: return "i40e";
    case NicDevice::Family::Mvneta: return "mvneta";
    case NicDevice::Family::Generic: break;
  }
  return "generic";
}

/* The smallest descriptor of the family (the device refuses a smaller
 * spacing): the sizes in src/hw/; i40e's is its TX descriptor. */
uint32_t family_desc_bytes(NicDevice::Family f) {
  switch (f) {
    case NicDevice::Family::Lan743x: return LAN743X_DESC_SIZE;
    case NicDevice::Family::Stmmac: return STMMAC_DESC_SIZE;
    case NicDevice::Family::Mvneta: return MVNETA_DESC_SIZE;
    case NicDevice::Family::I40e: return static_cast<uint32_t>(sizeof(struct i40e_tx_desc));
    case NicDevice::Family::Generic: break;
  }
  return GN_DESC_SIZE;
}
}  // namespace

void NicDevice::Params::bind(ParamBinder &b) {
  b.key("nic.family", family,
        {{"generic", Family::Generic},
         {"lan743x", Family::Lan743x},
         {"stmmac", Family::Stmmac},
         {"i40e", Family::I40e},
         {"mvneta", Family::Mvneta}});
  b.key("nic.rx_desc_bytes", rx_desc_bytes);
  mac.bind(b);
  peer.bind(b);
  peer.line_rate_gbps = mac.line_rate_gbps; /* the wire runs at the MAC's rate */
  dma.bind(b);
  /* stmmac's timer is its RX watchdog, off (RWT 0) until the driver writes
   * RX_WATCHDOG (dwmac4's reset value). */
  if (family == Family::Stmmac) dma.coal_usecs = 0;
}

ParamCheck NicDevice::Params::validate() const {
  if (ParamCheck e = mac.validate()) return e;
  if (ParamCheck e = peer.validate()) return e;
  if (ParamCheck e = dma.validate()) return e;
  if (family == Family::I40e && rx_desc_bytes != 16 && rx_desc_bytes != 32)
    return param_error({"nic.rx_desc_bytes"}, "use 16 or 32 (I40E_RXDID / 16-byte descriptors)",
                       "nic.rx_desc_bytes = %u is not an i40e RX descriptor size", rx_desc_bytes);
  /* i40e: 16 B TX descriptors; its RX ring follows nic.rx_desc_bytes. */
  const uint32_t fam_desc = family_desc_bytes(family);
  if (dma.desc_spacing < fam_desc)
    return param_error({"nic.desc_spacing", "nic.family"}, "set nic.desc_spacing to at least " + std::to_string(fam_desc),
                       "nic.desc_spacing = %u B is smaller than the %u-byte %s descriptor", dma.desc_spacing, fam_desc,
                       family_name(family));
  /* RSS, per-queue rings and one MSI-X vector per queue pair are modelled
   * for the generic NIC and i40e (docs/nic.md, Queues). */
  for (int tx = 0; tx < 2; tx++) {
    const uint32_t q = tx ? dma.tx_queues : dma.rx_queues;
    const char *key = tx ? "nic.tx_queues" : "nic.rx_queues";
    if (q > 1 && family != Family::Generic && family != Family::I40e)
      return param_error({key, "nic.family"},
                         std::string("set ") + key + ": 1, or nic.family: generic or i40e (the multi-queue families)",
                         "%s = %u: the %s family is modelled with one queue per direction", key, q, family_name(family));
  }
  /* Interrupt moderation (docs/nic.md): with a frame count above 1 and no
   * timer, the completions after a burst's last full count are never
   * notified. The drivers program COAL_USECS in whole microseconds; stmmac
   * uses IOC and its RX watchdog. */
  if (family != Family::Stmmac && dma.coal_frames > 1 && dma.coal_usecs < 0.5)
    return param_error({"nic.irq_coal_frames", "nic.irq_coal_usecs"},
                       "set nic.irq_coal_usecs to at least 1 (drivers program whole microseconds), or "
                       "nic.irq_coal_frames: 1",
                       "nic.irq_coal_frames = %u with no coalescing timer (nic.irq_coal_usecs = %s): the last frames of "
                       "a burst, fewer than the count, would never be notified",
                       dma.coal_frames, real_text(dma.coal_usecs).c_str());
  /* Per-direction coalescing: the generic moderator's registers; stmmac
   * moderates by IOC (driver.rx_coal_frames, tx_coal_frames) and its RX watchdog. */
  const bool split = dma.dir_coal_frames[0] >= 0 || dma.dir_coal_frames[1] >= 0 || dma.dir_coal_usecs[0] >= 0 ||
                     dma.dir_coal_usecs[1] >= 0;
  if (split && family == Family::Stmmac)
    return param_error({"nic.rx_irq_coal_frames", "nic.family"},
                       "leave nic.rx_/tx_irq_coal_* at -1 and use driver.rx_coal_frames, driver.tx_coal_frames and "
                       "driver.tx_coal_timer_us",
                       "nic.rx_/tx_irq_coal_* set on the stmmac family: stmmac moderates by IOC bits and its RX "
                       "watchdog, not by frame counts");
  for (int d = 0; split && d < 2; d++) {
    const char *fk = d ? "nic.tx_irq_coal_frames" : "nic.rx_irq_coal_frames";
    const char *uk = d ? "nic.tx_irq_coal_usecs" : "nic.rx_irq_coal_usecs";
    const int64_t f = dma.dir_coal_frames[d] >= 0 ? dma.dir_coal_frames[d] : dma.coal_frames;
    const double u = dma.dir_coal_usecs[d] >= 0 ? dma.dir_coal_usecs[d] : dma.coal_usecs;
    if (f == 0)
      return param_error({fk}, std::string("use at least 1 (or -1: nic.irq_coal_frames)"),
                         "%s = 0: an interrupt needs at least one completion", fk);
    if (f > 1 && u < 0.5)
      return param_error({fk, uk}, std::string("set ") + uk + " to at least 1 (drivers program whole microseconds), or " + fk + ": 1",
                         "%s = %lld with no coalescing timer (%s = %s): the last frames of a burst, fewer than the "
                         "count, would never be notified",
                         fk, static_cast<long long>(f), uk, real_text(u).c_str());
  }
  return std::nullopt;
}

}  // namespace nicsim
