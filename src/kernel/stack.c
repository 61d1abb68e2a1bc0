/* stack.c: the Linux network stack's own parts, each charged under the Linux
 * function that does the work, as perf shows it (docs/host.md, "The stack"):
 *
 *   receive, per frame:   napi_gro_receive (GRO attempt or merge)
 *   per packet handed up: __netif_receive_skb_core > ip_rcv > udp_rcv or
 *                         tcp_v4_rcv (tcp_ack for a pure ACK), and
 *                         sock_def_readable when it wakes the sleeping reader
 *   the reader:           udp_recvmsg / tcp_recvmsg (the system call) with
 *                         __schedule (woken, then asleep again),
 *                         copy_to_user and kfree_skb of what it read
 *   send, per frame:      udp_sendmsg / tcp_sendmsg (the system call) >
 *                         copy_from_user, ip_output; tcp_send_ack > ip_output
 *   either direction:     __alloc_skb, kfree_skb
 *
 * Each part costs instructions (stack.*, the kernel's code, the same on
 * every core kind); the core model turns them into cycles (ops->exec,
 * cpu.kernel_ipc). The parts that read packet headers read them at their
 * real addresses (ops->read_headers): the first read of a packet the device
 * wrote misses the cache, and the header loads that are not aligned to
 * their size trap on a core that cannot load unaligned. Which loads: the
 * 32-bit header fields the Linux v5.4 code of each part reads, listed below
 * from its source (16-bit and byte fields are never misaligned with an even
 * NET_IP_ALIGN). */
#include <math.h>

#include "kernel/kernel_priv.h"
#include "net/frame.h"

unsigned int nk_net_ip_align(void) { return nk__current ? nk__current->net_ip_align : 2u; }

void nk__stack_init(struct nk_kernel *k) {
  struct nk_stack_prof *p = &k->prof;
  p->gro = nk_prof_id(NK_PROF_GRO, NK_CLASS_RX);
  p->netif = nk_prof_id(NK_PROF_NETIF_RECEIVE, NK_CLASS_RX);
  p->ip_rcv = nk_prof_id(NK_PROF_IP_RCV, NK_CLASS_RX);
  p->udp_rcv = nk_prof_id(NK_PROF_UDP_RCV, NK_CLASS_RX);
  p->tcp_rcv = nk_prof_id(NK_PROF_TCP_RCV, NK_CLASS_RX);
  p->tcp_ack = nk_prof_id(NK_PROF_TCP_ACK, NK_CLASS_RX);
  p->wakeup = nk_prof_id(NK_PROF_SOCK_WAKEUP, NK_CLASS_RX);
  p->udp_recvmsg = nk_prof_id(NK_PROF_UDP_RECVMSG, NK_CLASS_RX);
  p->tcp_recvmsg = nk_prof_id(NK_PROF_TCP_RECVMSG, NK_CLASS_RX);
  p->udp_sendmsg = nk_prof_id(NK_PROF_UDP_SENDMSG, NK_CLASS_TX);
  p->tcp_sendmsg = nk_prof_id(NK_PROF_TCP_SENDMSG, NK_CLASS_TX);
  p->tcp_send_ack = nk_prof_id(NK_PROF_TCP_SEND_ACK, NK_CLASS_TX);
  p->ip_output = nk_prof_id(NK_PROF_IP_OUTPUT, NK_CLASS_TX);
  p->copy_from_user = nk_prof_id(NK_PROF_COPY_FROM_USER, NK_CLASS_TX);
  p->pktgen_xmit = nk_prof_id(NK_PROF_PKTGEN_XMIT, NK_CLASS_TX);
  p->pktgen_fill = nk_prof_id(NK_PROF_PKTGEN_FILL, NK_CLASS_TX);
  p->xdp_prog = nk_prof_id(NK_PROF_XDP_PROG, NK_CLASS_RX);
  /* Self time in the caller's class (ops->exec's bucket): registered as OTHER. */
  p->alloc_skb = nk_prof_id(NK_PROF_ALLOC_SKB, NK_CLASS_OTHER);
  p->free_skb = nk_prof_id(NK_PROF_FREE_SKB, NK_CLASS_OTHER);
  p->schedule = nk_prof_id(NK_PROF_SCHEDULE, NK_CLASS_OTHER);
  k->net_ip_align = (u32)k->cfg->cpu.net_ip_align_bytes;
  k->reader_awake = false;
}

void nk__exec(struct nk_kernel *k, double instructions, double cycles, int bucket) {
  if (instructions <= 0 && cycles <= 0) return;
  k->plat.ops->exec(k->plat.ctx, instructions, cycles, bucket);
}

/* ---- the header loads of each part ------------------------------------------ */

/* One load of a header field: its offset from the IPv4 header (the TCP or
 * UDP header follows at 20, TCP options with timestamps at 40) and size. */
struct hdr_load {
  u8 off, size;
};
#define NK_N(a) (sizeof(a) / sizeof((a)[0]))

/* ip_fast_csum(iph, 5): five 32-bit words (the arch versions of x86, arm64,
 * sparc and mips load words; riscv before v6.7 has the generic do_csum,
 * which loads a 16-bit half first when the header is 2 mod 4, then aligned
 * words: no misaligned load). */
static const struct hdr_load ip_csum[] = {{0, 4}, {4, 4}, {8, 4}, {12, 4}, {16, 4}};
/* inet_gro_receive: ntohl(*(__be32 *)&iph->id), ntohl(*(__be32 *)iph); and
 * ip_fast_csum. With a packet of its flow held: iph->saddr and iph->daddr
 * against the held packet's (iph2's, laid out alike). */
static const struct hdr_load gro_inet[] = {{4, 4}, {0, 4}};
static const struct hdr_load gro_inet_held[] = {{12, 4}, {16, 4}, {12, 4}, {16, 4}};
/* tcp_gro_receive: tcp_flag_word(th); with a packet held, *(u32 *)&th->source,
 * tcp_flag_word(th2), th->ack_seq, each option word and th->seq, each on both
 * packets. */
static const struct hdr_load gro_tcp[] = {{32, 4}};
static const struct hdr_load gro_tcp_held[] = {{20, 4}, {20, 4}, {32, 4}, {28, 4}, {28, 4}, {40, 4}, {40, 4},
                                               {44, 4}, {44, 4}, {48, 4}, {48, 4}, {24, 4}, {24, 4}};
/* udp4_gro_receive: udp4_lib_lookup_skb (iph->saddr, iph->daddr) for a UDP GRO socket. */
static const struct hdr_load gro_udp[] = {{12, 4}, {16, 4}};
/* ip_rcv_finish: early demux (__inet_lookup_established / __udp4_lib_demux_lookup
 * with iph->saddr and iph->daddr). */
static const struct hdr_load ip_rcv_demux[] = {{12, 4}, {16, 4}};
/* ip_route_input_noref(skb, iph->daddr, iph->saddr, ...) for a UDP packet
 * without a cached route (an unconnected socket). */
static const struct hdr_load ip_route_udp[] = {{16, 4}, {12, 4}};
/* __udp4_lib_rcv: saddr and daddr for the lookup. */
static const struct hdr_load udp_rcv_loads[] = {{12, 4}, {16, 4}};
/* tcp_v4_rcv: tcp_v4_fill_cb's ntohl(th->seq) and ntohl(th->ack_seq);
 * tcp_rcv_established's tcp_flag_word(th) (header prediction) and
 * tcp_parse_aligned_timestamp's three option words. */
static const struct hdr_load tcp_rcv_loads[] = {{24, 4}, {28, 4}, {32, 4}, {40, 4}, {44, 4}, {48, 4}};

/* Loads of l[0..n) at the IPv4 header ip (pa) that are not aligned to their size. */
static unsigned misaligned(u64 ip, const struct hdr_load *l, size_t n) {
  unsigned m = 0;
  for (size_t i = 0; i < n; i++) m += (ip + l[i].off) % l[i].size != 0;
  return m;
}

static unsigned csum_misaligned(const struct nk_kernel *k, u64 ip) {
  return k->cfg->cpu.kind == NC_CPU_RISCV ? 0 : misaligned(ip, ip_csum, NK_N(ip_csum));
}

/* The packet's IPv4 header (pa) and the bytes of its headers from skb->data. */
static u64 ip_header(const struct nk_kernel *k, const struct sk_buff *skb) { return nk__pa(k, skb->data) + NF_ETH_HLEN; }

/* Reads [pa, pa + len) clipped to the skb's data, with mis misaligned loads. */
static void read_headers(struct nk_kernel *k, const struct sk_buff *skb, u64 pa, u32 len, unsigned mis) {
  if (!k->plat.ops->read_headers) return;
  const u64 end = nk__pa(k, skb->data) + skb->len;
  if (pa >= end) return;
  if (pa + len > end) len = (u32)(end - pa);
  k->plat.ops->read_headers(k->plat.ctx, pa, len, mis);
}

/* Bytes of the transport header (TCP with the timestamp option, UDP). */
static u32 l4_header_bytes(const struct nk_kernel *k) { return k->tcp ? 32u : 8u; }

/* ---- receive ------------------------------------------------------------------ */

void nk__stack_gro(struct nk_kernel *k, const struct sk_buff *skb, bool held) {
  const u64 ip = ip_header(k, skb);
  unsigned mis = misaligned(ip, gro_inet, NK_N(gro_inet)) + csum_misaligned(k, ip);
  if (k->tcp) {
    mis += misaligned(ip, gro_tcp, NK_N(gro_tcp));
    if (held)
      mis += misaligned(ip, gro_inet_held, NK_N(gro_inet_held)) + misaligned(ip, gro_tcp_held, NK_N(gro_tcp_held));
  } else {
    mis += misaligned(ip, gro_udp, NK_N(gro_udp));
  }
  nk__exec(k, k->cfg->stack.gro_instructions, 0, -1);
  /* The first read of the frame: Ethernet, IP and transport headers. */
  read_headers(k, skb, nk__pa(k, skb->data), NF_ETH_HLEN + 20u + l4_header_bytes(k), mis);
}

int nk__stack_rx_enter(struct nk_kernel *k, const struct sk_buff *skb, bool ack) {
  const struct nc_stack *st = &k->cfg->stack;
  const u64 ip = ip_header(k, skb);
  const int prev = nk_prof_enter(k->prof.netif);
  nk__exec(k, st->netif_receive_instructions, 0, -1);
  nk_prof_enter(k->prof.ip_rcv);
  nk__exec(k, st->ip_rcv_instructions, 0, -1);
  unsigned mis = csum_misaligned(k, ip) + misaligned(ip, ip_rcv_demux, NK_N(ip_rcv_demux));
  if (!k->tcp) mis += misaligned(ip, ip_route_udp, NK_N(ip_route_udp));
  read_headers(k, skb, ip, 20, mis);
  if (k->tcp) {
    nk_prof_enter(ack ? k->prof.tcp_ack : k->prof.tcp_rcv);
    nk__exec(k, ack ? st->tcp_ack_instructions : st->tcp_rcv_instructions, 0, -1);
    read_headers(k, skb, ip + 20, l4_header_bytes(k), misaligned(ip, tcp_rcv_loads, NK_N(tcp_rcv_loads)));
  } else {
    nk_prof_enter(k->prof.udp_rcv);
    nk__exec(k, st->udp_rcv_instructions, 0, -1);
    read_headers(k, skb, ip + 20, l4_header_bytes(k), misaligned(ip, udp_rcv_loads, NK_N(udp_rcv_loads)));
  }
  return prev;
}

void nk__stack_rx_leave(int prev) {
  /* The three frames nk__stack_rx_enter entered. */
  nk_prof_leave(prev);
  nk_prof_leave(prev);
  nk_prof_leave(prev);
}

/* sock_def_readable after data was queued: wakes the reader if it sleeps. */
void nk__stack_wakeup(struct nk_kernel *k) {
  if (k->reader_awake) return;
  k->reader_awake = true;
  const int prev = nk_prof_enter(k->prof.wakeup);
  nk__exec(k, k->cfg->stack.sock_wakeup_instructions, 0, -1);
  nk_prof_leave(prev);
}

/* ---- skbs ---------------------------------------------------------------------- */

void nk__stack_alloc_skb(struct nk_kernel *k) { nk__exec(k, k->cfg->stack.alloc_skb_instructions, 0, k->prof.alloc_skb); }

void nk__stack_free_skb(struct nk_kernel *k) { nk__exec(k, k->cfg->stack.free_skb_instructions, 0, k->prof.free_skb); }

/* ---- the reader ---------------------------------------------------------------- */

void nk__flush_user_copy(struct nk_kernel *k) {
  /* With several cores the reader runs on its own core and copies there
   * (nk_kernel_user_copy); with one it runs right after the softirq. */
  if (k->cfg->cpu.cores >= 2) return;
  nk_kernel_user_copy(k);
}

uint64_t nk_kernel_user_copy_pending(const struct nk_kernel *k) { return k->user_copy_bytes; }

void nk_kernel_user_copy(struct nk_kernel *k) {
  if (k->user_copy_bytes == 0 && k->user_skbs == 0) return;
  const struct nc_cpu *cpu = &k->cfg->cpu;
  const struct nc_stack *st = &k->cfg->stack;
  /* One read() of everything pending: with cpu.user_copy memcpy the copies
   * were priced at delivery (user_copy_price in skb.c). */
  const bool priced = cpu->user_copy == NC_USER_COPY_MEMCPY && k->plat.ops->user_copy_cycles;
  const double copy = priced ? k->user_copy_cycles : cpu->stack_rx_cycles_per_byte * (double)k->user_copy_bytes;
  /* System calls: a UDP reader's recvmsg returns one datagram; a TCP
   * reader's read() returns up to traffic.read_bytes (at least one call). */
  double calls = (double)k->user_skbs;
  if (k->tcp) {
    calls = ceil((double)k->user_payload / (double)k->cfg->traffic.read_bytes);
    if (calls < 1) calls = 1;
  }
  const int prev = nk_prof_enter(k->tcp ? k->prof.tcp_recvmsg : k->prof.udp_recvmsg);
  /* Woken by sock_def_readable: it was asleep in recvmsg (sk_wait_data). */
  nk__exec(k, 0, cpu->context_switch_cycles, k->prof.schedule);
  nk__exec(k, (double)k->user_skbs * (k->tcp ? st->tcp_recvmsg_instructions : st->udp_recvmsg_instructions),
           calls * cpu->syscall_cycles, -1);
  const int p2 = nk_prof_enter(k->prof_copy_to_user);
  k->plat.ops->charge(k->plat.ctx, copy);
  nk_prof_leave(p2);
  nk__exec(k, (double)k->user_frees * st->free_skb_instructions, 0, k->prof.free_skb);
  /* Its queue is empty: it sleeps in the next recvmsg. */
  nk__exec(k, 0, cpu->context_switch_cycles, k->prof.schedule);
  nk_prof_leave(prev);
  k->user_copy_bytes = 0;
  k->user_copy_cycles = 0;
  k->user_copy_payload = 0;
  k->user_skbs = 0;
  k->user_frees = 0;
  k->user_payload = 0;
  k->reader_awake = false;
}

/* ---- send ----------------------------------------------------------------------- */

/* Where a UDP send's payload lands in its skb: ip_append_data reserves
 * LL_RESERVED_SPACE (16 B on Ethernet) before the IP header, so the payload
 * is 16 + 20 + 8 = 44 bytes into a kmalloc'd (8-aligned) head. A TCP send's
 * payload goes into page fragments filled in order, as the application's
 * buffer is read in order: both at the same offset. */
#define NK_UDP_TX_PAYLOAD_OFF 44u
#define NK_TX_FRAG_BASE 0x20000ull /* only the alignment matters */

void nk_kernel_stack_tx(struct nk_kernel *k, uint32_t frame_bytes) {
  nk_kernel_set_current(k);
  const struct nc_cpu *cpu = &k->cfg->cpu;
  const struct nc_stack *st = &k->cfg->stack;
  const u32 len = nf_dma_len(frame_bytes);
  const u32 hdr = k->tcp ? NF_TCP_OVERHEAD - NF_FCS_LEN : 42u;
  const u64 payload = len > hdr ? len - hdr : 0;
  const u64 wsize = (u64)k->cfg->traffic.read_bytes;
  /* The system call: one sendmsg per datagram; a TCP sender's write() of
   * traffic.read_bytes carries that many bytes of segments. */
  const double calls = k->tcp ? (double)payload / (double)wsize : 1.0;
  const int prev = nk_prof_enter(k->tcp ? k->prof.tcp_sendmsg : k->prof.udp_sendmsg);
  nk__exec(k, k->tcp ? st->tcp_sendmsg_instructions : st->udp_sendmsg_instructions, calls * cpu->syscall_cycles, -1);
  /* The payload's copy from the application's buffer. */
  double copy = cpu->stack_tx_cycles_per_byte * len;
  if (cpu->user_copy == NC_USER_COPY_MEMCPY && k->plat.ops->user_copy_cycles) {
    const u64 off = k->tx_payload % wsize;
    const u64 dst = k->tcp ? NK_TX_FRAG_BASE + off : NK_TX_FRAG_BASE + NK_UDP_TX_PAYLOAD_OFF;
    copy = payload ? k->plat.ops->user_copy_cycles(k->plat.ctx, dst, NK_USER_BUF_BASE + (k->tcp ? off : 0), payload) : 0;
  }
  k->tx_payload += payload;
  int p2 = nk_prof_enter(k->prof.copy_from_user);
  k->plat.ops->charge(k->plat.ctx, copy);
  nk_prof_leave(p2);
  p2 = nk_prof_enter(k->prof.ip_output);
  nk__exec(k, st->ip_output_instructions, 0, -1);
  nk_prof_leave(p2);
  nk_prof_leave(prev);
}

void nk__stack_tx_ack(struct nk_kernel *k) {
  const struct nc_stack *st = &k->cfg->stack;
  const int prev = nk_prof_enter(k->prof.tcp_send_ack);
  nk__exec(k, st->tcp_send_ack_instructions, 0, -1);
  const int p2 = nk_prof_enter(k->prof.ip_output);
  nk__exec(k, st->ip_output_instructions, 0, -1);
  nk_prof_leave(p2);
  nk_prof_leave(prev);
}
