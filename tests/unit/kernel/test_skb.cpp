// test_skb.cpp: the skb pool: Linux's headroom (data & 7 == 2), skb_put and
// skb_reserve bounds, double free, and RX delivery to the host stack.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "net/frame.h"
#include "unit/kernel/test_support.h"

namespace {
int dummy_poll(napi_struct *, int) { return 0; }
}  // namespace

TEST(KernelSkb, RxSkbsHaveNetSkbPadPlusNetIpAlignHeadroom) {
  TestKernel t;
  ASSERT_TRUE(t.create(true)) << t.err;
  napi_struct napi{};
  netif_napi_add(t.dev(), &napi, dummy_poll, 64);
  sk_buff *a = napi_alloc_skb(&napi, 1514);
  sk_buff *b = netdev_alloc_skb(t.dev(), 1514);
  ASSERT_TRUE(a && b);
  for (sk_buff *s : {a, b}) {
    EXPECT_EQ(s->data - s->head, NET_SKB_PAD + NET_IP_ALIGN);
    EXPECT_EQ(t.pa(s->head) % 64, 0u) << "skb buffers start on a cache line";
    EXPECT_EQ(t.pa(s->data) & 7, 2u) << "as in Linux: the IP header after the 14-byte Ethernet header is aligned";
    EXPECT_EQ(s->len, 0u);
    EXPECT_EQ(s->dev, t.dev());
    EXPECT_GE(s->size, 1514u + NET_SKB_PAD + NET_IP_ALIGN);
  }
  EXPECT_NE(a->head, b->head);
  dev_kfree_skb_any(a);
  dev_kfree_skb_any(b);
  netif_napi_del(&napi);
  EXPECT_EQ(t.fault(), nullptr);
}

TEST(KernelSkb, PutAndReserveMoveTheRightPointers) {
  TestKernel t;
  ASSERT_TRUE(t.create(true)) << t.err;
  sk_buff *s = netdev_alloc_skb(t.dev(), 200);
  ASSERT_NE(s, nullptr);
  uint8_t *d0 = s->data;
  skb_reserve(s, 6);
  EXPECT_EQ(s->data, d0 + 6);
  uint8_t *p = skb_put(s, 100);
  EXPECT_EQ(p, s->data);
  EXPECT_EQ(s->len, 100u);
  uint8_t *q = skb_put(s, 50);
  EXPECT_EQ(q, s->data + 100);
  EXPECT_EQ(s->len, 150u);
  EXPECT_EQ(t.fault(), nullptr);
  skb_reserve(s, 4);  // Linux only reserves on an empty skb
  EXPECT_NE(t.fault(), nullptr);
  dev_kfree_skb_any(s);
}

TEST(KernelSkb, PutBeyondTheBufferIsSkbOverPanic) {
  TestKernel t;
  ASSERT_TRUE(t.create(true)) << t.err;
  sk_buff *s = netdev_alloc_skb(t.dev(), 100);
  ASSERT_NE(s, nullptr);
  skb_put(s, s->size - (NET_SKB_PAD + NET_IP_ALIGN));  // exactly fills the buffer
  EXPECT_EQ(t.fault(), nullptr);
  uint32_t len = s->len;
  skb_put(s, 1);
  ASSERT_NE(t.fault(), nullptr);
  EXPECT_NE(std::string(t.fault()).find("skb_over_panic"), std::string::npos) << t.fault();
  EXPECT_EQ(s->len, len) << "an over-put does not grow the skb";
  dev_kfree_skb_any(s);
}

TEST(KernelSkb, AnSkbLargerThanThePoolBuffersIsAFault) {
  TestKernel t;
  ASSERT_TRUE(t.create(true)) << t.err;
  EXPECT_EQ(netdev_alloc_skb(t.dev(), 60000), nullptr);
  ASSERT_NE(t.fault(), nullptr);
  EXPECT_NE(std::string(t.fault()).find("larger than the skb pool"), std::string::npos) << t.fault();
}

TEST(KernelSkb, DoubleFreeIsAFault) {
  TestKernel t;
  ASSERT_TRUE(t.create(true)) << t.err;
  sk_buff *s = netdev_alloc_skb(t.dev(), 100);
  dev_kfree_skb_any(s);
  EXPECT_EQ(t.fault(), nullptr);
  dev_kfree_skb_any(s);
  ASSERT_NE(t.fault(), nullptr);
  EXPECT_NE(std::string(t.fault()).find("freed twice"), std::string::npos) << t.fault();
  EXPECT_EQ(nk_kernel_skbs_in_use(t.k), 0u);
  dev_kfree_skb_any(nullptr);  // like Linux: a no-op
}

TEST(KernelSkb, ExhaustedPoolReturnsNullWithAMessage) {
  TestKernel t;
  t.cfg.nic.tx_ring_size = 8;
  t.cfg.driver.napi_budget = 4;
  ASSERT_TRUE(t.create(true)) << t.err;
  const unsigned n = 8 + 2 * 4 + 64;
  std::vector<sk_buff *> all;
  for (unsigned i = 0; i < n; i++) {
    sk_buff *s = netdev_alloc_skb(t.dev(), 64);
    ASSERT_NE(s, nullptr) << i;
    all.push_back(s);
  }
  EXPECT_EQ(netdev_alloc_skb(t.dev(), 64), nullptr);
  EXPECT_NE(std::string(nk_kernel_last_error(t.k)).find("all 80 skbs are in use"), std::string::npos)
      << nk_kernel_last_error(t.k);
  EXPECT_EQ(t.fault(), nullptr);
  std::string leak = t.check();
  EXPECT_NE(leak.find("80 of 80 skbs were never freed"), std::string::npos) << leak;
  for (sk_buff *s : all) napi_consume_skb(s, 64);
  EXPECT_EQ(t.check(), "");
}

TEST(KernelSkb, ReceiveChargesTheStackAndHandsTheFrameToTheHost) {
  TestKernel t;
  ASSERT_TRUE(t.create(true)) << t.err;
  struct Seen {
    uint64_t pa = 0;
    uint32_t len = 0;
    int calls = 0;
  } seen;
  t.cp.user = &seen;
  t.cp.on_host_rx = [](void *u, uint64_t pa, const uint8_t *, uint32_t len) {
    auto *s = static_cast<Seen *>(u);
    s->pa = pa;
    s->len = len;
    s->calls++;
  };
  napi_struct napi{};
  netif_napi_add(t.dev(), &napi, dummy_poll, 64);
  sk_buff *s = napi_alloc_skb(&napi, 1000);
  skb_put(s, 1000);
  uint64_t data_pa = t.pa(s->data);
  cp_reset_counts(&t.cp);
  int before = nk_prof_current();
  napi_gro_receive(&napi, s);
  EXPECT_EQ(nk_prof_current(), before);
  EXPECT_EQ(seen.calls, 1);
  EXPECT_EQ(seen.pa, data_pa);
  EXPECT_EQ(seen.len, 1000u);
  /* The softirq part now; the copy to user space when the entry point ends. */
  const nc_stack &st = t.cfg.stack;
  EXPECT_DOUBLE_EQ(t.instr(NK_PROF_GRO), st.gro_instructions);
  EXPECT_DOUBLE_EQ(t.instr(NK_PROF_NETIF_RECEIVE), st.netif_receive_instructions);
  EXPECT_DOUBLE_EQ(t.instr(NK_PROF_IP_RCV), st.ip_rcv_instructions);
  EXPECT_DOUBLE_EQ(t.instr(NK_PROF_UDP_RCV), st.udp_rcv_instructions);
  EXPECT_DOUBLE_EQ(t.instr(NK_PROF_SOCK_WAKEUP), st.sock_wakeup_instructions);
  EXPECT_EQ(t.cp.c.header_reads, 3u) << "GRO's first read, ip_rcv's and udp_rcv's";
  EXPECT_DOUBLE_EQ(t.bucket(NK_PROF_COPY_TO_USER), 0);
  EXPECT_DOUBLE_EQ(t.instr(NK_PROF_UDP_RECVMSG), 0) << "the reader has not run yet";
  nk_kernel_irq(t.k, 63); /* an entry point (a spurious vector) flushes it */
  EXPECT_DOUBLE_EQ(t.bucket(NK_PROF_COPY_TO_USER), t.cfg.cpu.stack_rx_cycles_per_byte * 1000);
  /* The reader: woken and asleep again, one recvmsg, the free of what it read. */
  EXPECT_DOUBLE_EQ(t.bucket(NK_PROF_SCHEDULE), 2 * t.cfg.cpu.context_switch_cycles);
  EXPECT_DOUBLE_EQ(t.instr(NK_PROF_UDP_RECVMSG), st.udp_recvmsg_instructions);
  EXPECT_DOUBLE_EQ(t.bucket(NK_PROF_UDP_RECVMSG), t.cfg.cpu.syscall_cycles);
  EXPECT_DOUBLE_EQ(t.instr(NK_PROF_FREE_SKB), st.free_skb_instructions);
  EXPECT_EQ(nk_prof_class(nk_prof_find(NK_PROF_COPY_TO_USER)), NK_CLASS_RX);
  EXPECT_EQ(nk_prof_class(nk_prof_find(NK_PROF_IP_RCV)), NK_CLASS_RX);
  EXPECT_EQ(t.dev()->stats.rx_packets, 1u);
  EXPECT_EQ(t.dev()->stats.rx_bytes, 1000u);
  EXPECT_EQ(nk_kernel_get_stats(t.k)->rx_delivered, 1u);
  EXPECT_EQ(nk_kernel_skbs_in_use(t.k), 0u) << "the stack consumed the skb";
  netif_napi_del(&napi);
  EXPECT_EQ(t.fault(), nullptr);
  EXPECT_EQ(t.check(), "");
}

/* The stack's 32-bit header loads (ip_fast_csum, the socket lookups' saddr and
 * daddr, inet_gro_receive's words) are aligned when the driver reserves
 * NET_IP_ALIGN before the frame, and misaligned without it (x86's 0, or a
 * driver that DMAs to offset 0): the count a core that traps on them pays for. */
TEST(KernelSkb, HeaderLoadsAreMisalignedOnlyWithoutNetIpAlign) {
  for (int align : {2, 0}) {
    SCOPED_TRACE(align);
    TestKernel t;
    t.cfg.cpu.net_ip_align_bytes = align;
    ASSERT_TRUE(t.create(true)) << t.err;
    t.cp.on_host_rx = [](void *, uint64_t, const uint8_t *, uint32_t) {};
    napi_struct napi{};
    netif_napi_add(t.dev(), &napi, dummy_poll, 64);
    sk_buff *s = napi_alloc_skb(&napi, 1000);
    ASSERT_NE(s, nullptr);
    EXPECT_EQ((t.pa(s->data) + NF_ETH_HLEN) % 4, align == 2 ? 0u : 2u) << "the IP header's alignment";
    skb_put(s, 1000);
    cp_reset_counts(&t.cp);
    napi_gro_receive(&napi, s);
    if (align == 2) {
      EXPECT_EQ(t.cp.c.misaligned_loads, 0u);
    } else {
      /* UDP: GRO's inet words (2) + ip_fast_csum (5) + udp4_gro_receive's
       * lookup (2); ip_rcv's csum (5) + early demux (2) + route (2); udp_rcv's
       * lookup (2). riscv's generic csum would load none of the 10 csum words. */
      EXPECT_EQ(t.cp.c.misaligned_loads, 20u);
      EXPECT_EQ(t.cp.c.bucket_misaligned[nk_prof_find(NK_PROF_GRO)], 9u);
      EXPECT_EQ(t.cp.c.bucket_misaligned[nk_prof_find(NK_PROF_IP_RCV)], 9u);
      EXPECT_EQ(t.cp.c.bucket_misaligned[nk_prof_find(NK_PROF_UDP_RCV)], 2u);
    }
    nk_kernel_irq(t.k, 63);
    netif_napi_del(&napi);
    EXPECT_EQ(t.fault(), nullptr);
  }
}
