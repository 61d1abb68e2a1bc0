// test_summary.cpp: the human tables: the run summary's header, sections,
// rounding, alignment, checks and profile; the sweep table.
#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <vector>

#include "results_test_util.h"

using nicsim_test::capture;
using nicsim_test::default_config;
using nicsim_test::make_zeroed;

namespace {

std::vector<std::string> lines_of(const std::string &s) {
  std::vector<std::string> out;
  std::stringstream ss(s);
  std::string line;
  while (std::getline(ss, line)) out.push_back(line);
  return out;
}

// The line containing needle, or "".
std::string line_with(const std::string &text, const std::string &needle) {
  for (const std::string &l : lines_of(text))
    if (l.find(needle) != std::string::npos) return l;
  return "";
}

// Results of a plausible 10G RX run.
nicsim_test::cptr<nicsim_results> rx_results() {
  auto r = make_zeroed<nicsim_results>();
  nicsim_results_init(r.get());
  nicsim_results_set(r.get(), nicsim_metric_find("rx.gbps"), 9.87012);
  nicsim_results_set(r.get(), nicsim_metric_find("rx.mpps"), 0.81275);
  nicsim_results_set(r.get(), nicsim_metric_find("rx.pkts"), 1463416);
  nicsim_results_set(r.get(), nicsim_metric_find("rx.drops"), 12);
  nicsim_results_set(r.get(), nicsim_metric_find("tx.gbps"), 0);
  nicsim_results_set(r.get(), nicsim_metric_find("tx.mpps"), 0);
  nicsim_results_set(r.get(), nicsim_metric_find("tx.pkts"), 0);
  nicsim_results_set(r.get(), nicsim_metric_find("cpu.util"), 0.45236);
  nicsim_results_set(r.get(), nicsim_metric_find("cpu.cycles_per_rx_pkt"), 2345.67);
  nicsim_results_set(r.get(), nicsim_metric_find("cpu.uncached_loads"), 0);
  nicsim_results_set(r.get(), nicsim_metric_find("pcie.up.bytes"), 2345678901.0);
  nicsim_results_set(r.get(), nicsim_metric_find("pcie.up.util"), 0.1234);
  nicsim_results_set(r.get(), nicsim_metric_find("irq.count"), 40000);
  nicsim_results_set(r.get(), nicsim_metric_find("irq.per_sec"), 20000.4);
  nicsim_results_set(r.get(), nicsim_metric_find("total.rx.sent"), 1000);
  nicsim_results_set(r.get(), nicsim_metric_find("total.rx.received"), 990);
  nicsim_results_set(r.get(), nicsim_metric_find("total.rx.dropped"), 10);
  nicsim_results_set(r.get(), nicsim_metric_find("total.tx.sent"), 0);
  nicsim_results_set(r.get(), nicsim_metric_find("total.tx.received"), 0);
  nicsim_results_set(r.get(), nicsim_metric_find("sim.time_ns"), 4000000);
  nicsim_results_set(r.get(), nicsim_metric_find("sim.events"), 123456);
  nicsim_results_set(r.get(), nicsim_metric_find("sim.wall_s"), 1.234);
  return r;
}

TEST(Summary, HeaderDescribesTheSetup) {
  auto c = default_config("before/nic.desc_spacing=16");
  c->pcie.gen = 2;
  c->pcie.lanes = 1;
  c->nic.line_rate_gbps = 2.5;
  c->traffic.frame_bytes = 64;
  auto r = rx_results();
  std::string out = capture([&](FILE *f) { nicsim_summary_print(f, c.get(), r.get()); });
  EXPECT_NE(out.find("Scenario   unit \"test\", with comma  (point before/nic.desc_spacing=16)"),
            std::string::npos)
      << out;
  EXPECT_NE(out.find("Platform   x86-gen3\n"), std::string::npos) << out;
  EXPECT_NE(out.find("Traffic    rx (wire to host), 64 B frames, offered at line rate"),
            std::string::npos)
      << out;
  EXPECT_NE(out.find("Line rate  2.5 Gbit/s Ethernet"), std::string::npos) << out;
  EXPECT_NE(out.find("Link       PCIe Gen2 x1 (5 GT/s per lane)"), std::string::npos) << out;
}

// A socket-limited sender (traffic.sndbuf_bytes): the header says how the
// host sends, and the TX section shows the socket's waits and peak memory.
TEST(Summary, SocketLimitedSenderIsNamedWithItsBufferAndWaits) {
  auto c = default_config();
  c->traffic.mode = NC_MODE_BIDIR;
  c->traffic.sndbuf_bytes = 212992;
  auto r = rx_results();
  nicsim_results_set(r.get(), nicsim_metric_find("tx.pkts"), 1000);
  nicsim_results_set(r.get(), nicsim_metric_find("tx.sndbuf_waits"), 14);
  nicsim_results_set(r.get(), nicsim_metric_find("tx.wmem_max"), 214272);
  std::string out = capture([&](FILE *f) { nicsim_summary_print(f, c.get(), r.get()); });
  EXPECT_NE(out.find(", wire offered at line rate, host sends as fast as its 212992 B socket send buffer allows\n"),
            std::string::npos)
      << out;
  EXPECT_NE(out.find("TX socket: waits for buffer space"), std::string::npos) << out;
  EXPECT_NE(out.find("214,272 B"), std::string::npos) << out;
  c->traffic.rate_gbps = 5;
  out = capture([&](FILE *f) { nicsim_summary_print(f, c.get(), r.get()); });
  EXPECT_NE(out.find("offered 5 Gbit/s per direction, host socket send buffer 212992 B\n"), std::string::npos) << out;
  c->traffic.sndbuf_bytes = 0;
  out = capture([&](FILE *f) { nicsim_summary_print(f, c.get(), r.get()); });
  EXPECT_EQ(out.find("TX socket"), std::string::npos) << out;
  EXPECT_EQ(out.find("send buffer"), std::string::npos) << out;
  EXPECT_EQ(out.find("paced on average"), std::string::npos) << out;
  c->traffic.tx_pacing = NC_PACING_AVERAGE;
  out = capture([&](FILE *f) { nicsim_summary_print(f, c.get(), r.get()); });
  EXPECT_NE(out.find("offered 5 Gbit/s per direction, host paced on average (catches up)\n"), std::string::npos)
      << out;
}

TEST(Summary, OnChipBusPlatformNamesTheBusNotPcie) {
  auto c = default_config();
  c->bus.enabled = true;
  c->bus.width_bytes = 16;
  c->bus.clock_mhz = 250;
  c->bus.burst_beats = 16;
  auto r = rx_results();
  std::string out = capture([&](FILE *f) { nicsim_summary_print(f, c.get(), r.get()); });
  EXPECT_NE(out.find("Link       on-chip bus, 16 B x 250 MHz, bursts of up to 16 beats"), std::string::npos)
      << out;
  EXPECT_EQ(out.find("Link       PCIe"), std::string::npos) << out;
}

// With XDP in rx mode the stack may get no frame at all: the RX lines stay,
// with the frames XDP dropped or sent back, and the drop rate counts them
// as taken by the host.
TEST(Summary, XdpVerdictsAreRxFramesTheHostTook) {
  auto c = default_config();
  c->traffic.mode = NC_MODE_RX;
  c->driver.xdp = NC_XDP_DROP;
  auto r = rx_results();
  nicsim_results_set(r.get(), nicsim_metric_find("rx.pkts"), 0);
  nicsim_results_set(r.get(), nicsim_metric_find("rx.drops"), 100);
  nicsim_results_set(r.get(), nicsim_metric_find("xdp.drop"), 300);
  nicsim_results_set(r.get(), nicsim_metric_find("xdp.tx"), 0);
  nicsim_results_set(r.get(), nicsim_metric_find("xdp.tx_errors"), 0);
  std::string out = capture([&](FILE *f) { nicsim_summary_print(f, c.get(), r.get()); });
  EXPECT_NE(line_with(out, "RX frames XDP dropped").find(" 300"), std::string::npos) << out;
  EXPECT_NE(line_with(out, "RX frames dropped").find(" 100"), std::string::npos) << out;
  EXPECT_NE(line_with(out, "RX drop rate").find(" 25.00 %"), std::string::npos) << out;
  c->driver.xdp = NC_XDP_OFF;
  out = capture([&](FILE *f) { nicsim_summary_print(f, c.get(), r.get()); });
  EXPECT_EQ(out.find("XDP dropped"), std::string::npos) << "no XDP lines without a program\n" << out;
}

TEST(Summary, SectionsValuesAndRounding) {
  auto c = default_config();
  c->traffic.mode = NC_MODE_RX;
  auto r = rx_results();
  std::string out = capture([&](FILE *f) { nicsim_summary_print(f, c.get(), r.get()); });

  size_t pos = 0;
  for (const char *title :
       {"\nThroughput", "\nCPU\n", "\nPCIe", "\nInterrupts\n", "\nChecks", "\nSimulation\n"}) {
    size_t at = out.find(title, pos);
    ASSERT_NE(at, std::string::npos) << title << " missing or out of order\n" << out;
    pos = at;
  }
  EXPECT_EQ(out.find("\nNIC\n"), std::string::npos) << "a section without metrics is left out";
  EXPECT_NE(line_with(out, "RX rate").find(" 9.870 Gbit/s"), std::string::npos) << out;
  EXPECT_NE(line_with(out, "RX packet rate").find(" 0.813 Mpkt/s"), std::string::npos);
  EXPECT_NE(line_with(out, "RX frames delivered").find(" 1,463,416"), std::string::npos);
  EXPECT_NE(line_with(out, "RX drop rate").find(" 0.00 %"), std::string::npos);
  EXPECT_NE(line_with(out, "Utilisation").find(" 45.2 %"), std::string::npos);
  EXPECT_NE(line_with(out, "Cycles per RX frame").find(" 2345.7 cycles"), std::string::npos);
  EXPECT_NE(line_with(out, "Up bytes").find(" 2,345,678,901 B"), std::string::npos);
  EXPECT_NE(line_with(out, "Up utilisation").find(" 12.3 %"), std::string::npos);
  EXPECT_NE(line_with(out, "Interrupt rate").find(" 20,000 /s"), std::string::npos);
  EXPECT_NE(line_with(out, "Simulated time").find(" 4.000 ms"), std::string::npos);
  EXPECT_NE(line_with(out, "Wall-clock time").find(" 1.23 s"), std::string::npos);
  EXPECT_EQ(line_with(out, "TX rate"), "") << "rx mode with no TX frames shows no TX rows";
  EXPECT_EQ(line_with(out, "Cycles per TX"), "");
  EXPECT_NE(line_with(out, "RX frames  ").find("sent 1,000 = received 990 + dropped 10   OK"),
            std::string::npos)
      << out;
  EXPECT_EQ(line_with(out, "TX frames  "), "");
  EXPECT_EQ(out.find("CPU profile"), std::string::npos);
}

TEST(Summary, NumbersAreRightAlignedInOneColumn) {
  auto c = default_config();
  auto r = rx_results();
  std::string out = capture([&](FILE *f) { nicsim_summary_print(f, c.get(), r.get()); });
  // Every value row: two-space indent, label, value ending at the same column
  // (units, which hold no digits, follow).
  std::vector<size_t> ends;
  for (const char *label :
       {"RX rate", "RX frames delivered", "Utilisation", "Up bytes on the wire",
        "Interrupts raised", "Interrupt rate", "Simulated time", "Kernel events"}) {
    std::string l = line_with(out, label);
    ASSERT_FALSE(l.empty()) << label;
    EXPECT_EQ(l.substr(0, 2), "  ");
    ends.push_back(l.find_last_of("0123456789"));
  }
  for (size_t e : ends) EXPECT_EQ(e, ends[0]) << out;
  for (const std::string &l : lines_of(out))
    EXPECT_TRUE(l.empty() || l.back() != ' ') << "trailing blank: '" << l << "'";
}

TEST(Summary, BidirShowsBothDirectionsAndMismatchIsFlagged) {
  auto c = default_config();
  c->traffic.mode = NC_MODE_BIDIR;
  c->traffic.rate_gbps = 2.5;
  auto r = rx_results();
  nicsim_results_set(r.get(), nicsim_metric_find("tx.gbps"), 1.5);
  nicsim_results_set(r.get(), nicsim_metric_find("total.tx.sent"), 500);
  nicsim_results_set(r.get(), nicsim_metric_find("total.tx.received"), 497);
  nicsim_results_set(r.get(), nicsim_metric_find("total.rx.received"), 991);
  std::string out = capture([&](FILE *f) { nicsim_summary_print(f, c.get(), r.get()); });
  EXPECT_NE(out.find("offered 2.5 Gbit/s per direction"), std::string::npos) << out;
  EXPECT_NE(line_with(out, "TX rate").find("1.500 Gbit/s"), std::string::npos) << out;
  EXPECT_NE(line_with(out, "RX frames  ").find("MISMATCH: 1 frames extra"), std::string::npos)
      << out;
  EXPECT_NE(
      line_with(out, "TX frames  ").find("sent 500 = received 497   MISMATCH: 3 frames missing"),
      std::string::npos)
      << out;
}

TEST(Summary, ProfileOfFractionsIsSortedByShareWithCycles) {
  auto c = default_config();
  auto r = rx_results();
  nicsim_results_set(r.get(), nicsim_metric_find("cpu.busy_cycles"), 200000);
  nicsim_results_set_extra(r.get(), "cpu.profile.small_fn", "fraction", NM_KIND_REAL, "", 0.1);
  nicsim_results_set_extra(r.get(), "cpu.profile.big_fn", "fraction", NM_KIND_REAL, "", 0.7);
  nicsim_results_set_extra(r.get(), "cpu.profile.mid_fn", "fraction", NM_KIND_REAL, "", 0.2);
  nicsim_results_set_extra(r.get(), "other.extra", "x", NM_KIND_COUNT, "", 1e9);
  std::string out = capture([&](FILE *f) { nicsim_summary_print(f, c.get(), r.get()); });
  size_t head = out.find("CPU profile");
  ASSERT_NE(head, std::string::npos) << out;
  size_t big = out.find("big_fn", head), mid = out.find("mid_fn", head),
         small = out.find("small_fn", head);
  ASSERT_NE(small, std::string::npos);
  EXPECT_LT(big, mid);
  EXPECT_LT(mid, small);
  EXPECT_NE(line_with(out, "big_fn").find("70.0 %  140,000"), std::string::npos) << out;
  EXPECT_NE(line_with(out, "small_fn").find("10.0 %   20,000"), std::string::npos) << out;
  EXPECT_NE(line_with(out, "Function").find("Share   Cycles"), std::string::npos) << out;
  EXPECT_EQ(out.find("other.extra"), std::string::npos);
}

TEST(Summary, ProfileOfCycleCountsSharesTheirSum) {
  auto c = default_config();
  auto r = rx_results();
  nicsim_results_set_extra(r.get(), "cpu.profile.a", "cycles", NM_KIND_COUNT, "", 300);
  nicsim_results_set_extra(r.get(), "cpu.profile.b", "cycles", NM_KIND_COUNT, "", 100);
  std::string out = capture([&](FILE *f) { nicsim_summary_print(f, c.get(), r.get()); });
  EXPECT_NE(line_with(out, "  a  ").find("75.0 %"), std::string::npos) << out;
  EXPECT_NE(line_with(out, "  b  ").find("25.0 %"), std::string::npos) << out;
  EXPECT_LT(out.find("  a  "), out.find("  b  "));
}

TEST(Summary, EmptyResultsPrintOnlyTheHeader) {
  auto c = default_config();
  auto r = make_zeroed<nicsim_results>();
  nicsim_results_init(r.get());
  std::string out = capture([&](FILE *f) { nicsim_summary_print(f, c.get(), r.get()); });
  EXPECT_NE(out.find("Scenario"), std::string::npos);
  EXPECT_EQ(out.find("Throughput"), std::string::npos) << out;
  EXPECT_EQ(out.find("Simulation"), std::string::npos) << out;
}

TEST(SweepTable, RowsInPointOrderWithFailures) {
  auto c0 = default_config("a/nic.desc_spacing=16");
  auto c1 = default_config("a/nic.desc_spacing=32");
  c0->nic.desc_spacing = 16;
  c1->nic.desc_spacing = 32;
  auto r0 = rx_results();
  nicsim_point pts[2] = {{c0.get(), r0.get()}, {c1.get(), nullptr}};
  const char *keys[] = {"nic.desc_spacing"};
  std::string out = capture([&](FILE *f) { nicsim_sweep_table_print(f, keys, 1, pts, 2); });
  std::vector<std::string> l = lines_of(out);
  ASSERT_EQ(l.size(), 3u) << out;
  EXPECT_NE(l[0].find("label"), std::string::npos);
  EXPECT_NE(l[0].find("nic.desc_spacing"), std::string::npos);
  EXPECT_NE(l[0].find("RX Gbit/s"), std::string::npos);
  EXPECT_EQ(l[0].find("TX Gbit/s"), std::string::npos) << "rx-only sweep";
  EXPECT_NE(l[0].find("status"), std::string::npos);
  EXPECT_NE(l[1].find("9.870"), std::string::npos) << out;
  EXPECT_NE(l[1].find(" 45.2 "), std::string::npos) << out;
  EXPECT_NE(l[2].find("FAILED"), std::string::npos) << out;
  EXPECT_EQ(l[0].find("RX Gbit/s") + strlen("RX Gbit/s"), l[1].find("9.870") + 5)
      << "numbers right-aligned under their header\n"
      << out;

  pts[1].res = r0.get();
  out = capture([&](FILE *f) { nicsim_sweep_table_print(f, keys, 1, pts, 2); });
  EXPECT_EQ(out.find("status"), std::string::npos) << "no status column when all succeeded";
}

}  // namespace
