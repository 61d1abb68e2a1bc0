// test_yaml.cpp: reading YAML files: valid input, and every kind of bad input (syntax, anchors,
// aliases, tags, duplicates, nesting, binary junk, types, ranges) giving a located error.
#include <sys/stat.h>
#include <unistd.h>

#include <cstring>
#include <random>
#include <string>

#include "config_test_util.h"

namespace {

// Loads text and expects an error at `at` whose message contains `msg`.
void expect_error(const std::string &text, const std::string &at, const std::string &msg,
                  const std::string &hint = "") {
  Loaded l;
  load_text(l, text);
  ASSERT_EQ(l.rc, -1) << "accepted:\n" << text;
  EXPECT_EQ(l.s, nullptr);
  EXPECT_EQ(where(l.err), at) << printed(l.err);
  EXPECT_NE(std::string(l.err.msg).find(msg), std::string::npos) << printed(l.err);
  if (!hint.empty()) {
    EXPECT_NE(std::string(l.err.hint).find(hint), std::string::npos) << printed(l.err);
  }
}

TEST(ConfigYaml, ValidScenarioIsLoadedWithPositions) {
  Loaded l;
  load_text(l,
            "# a comment\n"
            "name: my-test\n"
            "description: \"a: quoted, description\"\n"
            "nic:\n"
            "  desc_spacing: 0x20   # hex\n"
            "  line_rate_gbps: 25\n"
            "traffic: {mode: bidir, frame_bytes: 64}\n"
            "driver.napi_budget: 16\n"
            "memory:\n"
            "  coherent_dma: false\n");
  ASSERT_EQ(l.rc, 0) << printed(l.err);
  EXPECT_EQ(nc_scenario_npoints(l.s), 0u);
  EXPECT_EQ(nc_scenario_nswept(l.s), 0u);
  nicsim_config c;
  nc_error e{};
  ASSERT_EQ(resolve(l, -1, &c, &e), 0) << printed(e);
  EXPECT_STREQ(c.name, "my-test");
  EXPECT_STREQ(c.description, "a: quoted, description");
  EXPECT_STREQ(c.platform, "");
  EXPECT_STREQ(c.label, "");
  EXPECT_EQ(c.nic.desc_spacing, 32);
  EXPECT_EQ(c.nic.line_rate_gbps, 25.0);
  EXPECT_EQ(c.traffic.mode, NC_MODE_BIDIR);
  EXPECT_EQ(c.traffic.frame_bytes, 64);
  EXPECT_EQ(c.driver.napi_budget, 16);
  EXPECT_FALSE(c.memory.coherent_dma);
  EXPECT_EQ(origin_of(c, "nic.desc_spacing"), "t.yaml:5:17");
  EXPECT_EQ(origin_of(c, "nic.line_rate_gbps"), "t.yaml:6:19");
  EXPECT_EQ(origin_of(c, "traffic.mode"), "t.yaml:7:17");
  EXPECT_EQ(origin_of(c, "traffic.frame_bytes"), "t.yaml:7:37");
  EXPECT_EQ(origin_of(c, "driver.napi_budget"), "t.yaml:8:21");
  EXPECT_EQ(origin_of(c, "memory.coherent_dma"), "t.yaml:10:17");
  EXPECT_EQ(origin_of(c, "cpu.clock_mhz"), "<default>:0:0");
  EXPECT_EQ(c.cpu.clock_mhz, 2000.0);
}

TEST(ConfigYaml, NameDefaultsToTheFileStem) {
  Loaded l;
  load_text(l, "nic: {desc_spacing: 32}\n", "dir/sub/my-scenario.yaml");
  ASSERT_EQ(l.rc, 0) << printed(l.err);
  nicsim_config c;
  nc_error e{};
  ASSERT_EQ(resolve(l, -1, &c, &e), 0) << printed(e);
  EXPECT_STREQ(c.name, "my-scenario");
}

TEST(ConfigYaml, UnknownKeyWithSuggestion) {
  expect_error("nic:\n  desc_spacng: 16\n", "t.yaml:2:3", "unknown key 'nic.desc_spacng'",
               "did you mean 'nic.desc_spacing'?");
  expect_error("nic:\n  spacing: 16\n", "t.yaml:2:3", "unknown key 'nic.spacing'",
               "did you mean 'nic.desc_spacing'?");
  expect_error("cpu: {napi_budget: 16}\n", "t.yaml:1:7", "unknown key 'cpu.napi_budget'",
               "did you mean 'driver.napi_budget'?");
  expect_error("nic.desc_spacng: 16\n", "t.yaml:1:1", "unknown key 'nic.desc_spacng'",
               "did you mean 'nic.desc_spacing'?");
  // No close key: the hint lists the section's keys.
  expect_error("traffic:\n  zzzzzz: 1\n", "t.yaml:2:3", "unknown key 'traffic.zzzzzz'",
               "keys of section 'traffic': mode, frame_bytes, rate_gbps");
}

TEST(ConfigYaml, UnknownSectionWithSuggestion) {
  // The key itself is not shown (issue 23: the file may not be a nicsim file
  // at all); its position and the nearest word of ours are.
  const char *msg = "not a nicsim scenario: unknown top-level key";
  expect_error("nics:\n  desc_spacing: 16\n", "t.yaml:1:1", msg, "did you mean 'nic'?");
  expect_error("platfrom: x86-gen3\n", "t.yaml:1:1", msg, "did you mean 'platform'?");
  expect_error("desc_spacing: 16\n", "t.yaml:1:1", msg,
               "did you mean 'nic.desc_spacing'? keys go inside their section");
  expect_error("xyzzy: 1\n", "t.yaml:1:1", msg,
               "the top level holds name, description, platform, sweep and the sections run");
}

TEST(ConfigYaml, BadTypes) {
  expect_error("nic:\n  desc_spacing: abc\n", "t.yaml:2:17",
               "invalid value 'abc' for nic.desc_spacing; expected an integer in [4, 4096] (B)");
  expect_error("nic:\n  desc_spacing: 16.5\n", "t.yaml:2:17",
               "invalid value '16.5' for nic.desc_spacing; expected an integer in [4, 4096] (B)");
  expect_error("nic: 5\n", "t.yaml:1:6", "section 'nic' must be a mapping of keys, but it is a single value",
               "nic: {family: generic}");
  expect_error("nic:\n", "t.yaml:1:5", "section 'nic' must be a mapping of keys, but it is an empty value");
  expect_error("nic: [1, 2]\n", "t.yaml:1:6", "section 'nic' must be a mapping of keys, but it is a list");
  expect_error("nic:\n  desc_spacing: [16, 32]\n", "t.yaml:2:17",
               "nic.desc_spacing takes a single value, but it is a list",
               "to sweep it, list the values under sweep.axes");
  expect_error("nic:\n  desc_spacing: {a: 1}\n", "t.yaml:2:17",
               "nic.desc_spacing takes a single value, but it is a mapping",
               "expected an integer in [4, 4096] (B)");
  expect_error("nic:\n  desc_spacing:\n", "t.yaml:2:16", "missing value for nic.desc_spacing");
  expect_error("nic:\n  desc_spacing: \"32\"\n", "t.yaml:2:17",
               "a quoted value is a string", "remove the quotes");
  expect_error("memory: {coherent_dma: yes}\n", "t.yaml:1:24",
               "invalid value 'yes' for memory.coherent_dma; expected true or false");
  expect_error("traffic: {mode: bidr}\n", "t.yaml:1:17",
               "expected one of rx, tx, bidir", "did you mean 'bidir'?");
  expect_error("name: [a, b]\n", "t.yaml:1:7", "name must be a single value, but it is a list");
  expect_error("name: " + std::string(300, 'x') + "\n", "t.yaml:1:7",
               "name is 300 bytes long; the limit is 255");
}

TEST(ConfigYaml, OutOfRangeStatesRangeAndUnit) {
  expect_error("nic:\n  desc_spacing: 8192\n", "t.yaml:2:17",
               "nic.desc_spacing = 8192 is out of range; expected an integer in [4, 4096] (B)");
  expect_error("run:\n  duration_us: 0\n", "t.yaml:2:16",
               "run.duration_us = 0 is out of range; expected a number in [1, 10000000] (us)");
}

TEST(ConfigYaml, NaNInfAndHugeNumbers) {
  expect_error("traffic: {rate_gbps: .nan}\n", "t.yaml:1:22", "invalid value '.nan'",
               "NaN and infinity are not allowed");
  expect_error("traffic: {rate_gbps: .inf}\n", "t.yaml:1:22", "invalid value '.inf'",
               "NaN and infinity are not allowed");
  expect_error("traffic: {rate_gbps: 1e999}\n", "t.yaml:1:22",
               "traffic.rate_gbps = 1e999 is out of range");
  expect_error("nic: {rx_ring_size: 123456789012345678901234567890}\n", "t.yaml:1:21",
               "nic.rx_ring_size = 123456789012345678901234567890 is out of range; expected an "
               "integer in [8, 65536] (descriptors)");
}

TEST(ConfigYaml, NegativeSize) {
  expect_error("memory:\n  size_mb: -64\n", "t.yaml:2:12",
               "memory.size_mb = -64 is out of range; expected an integer in [1, 4096] (MiB)");
}

TEST(ConfigYaml, DuplicateKeyTopLevel) {
  expect_error("nic:\n  desc_spacing: 16\ncpu: {kind: x86}\nnic:\n  rx_ring_size: 64\n",
               "t.yaml:4:1", "duplicate key 'nic' (first defined at t.yaml:1:1)");
}

TEST(ConfigYaml, DuplicateKeyNested) {
  expect_error("nic:\n  desc_spacing: 16\n  rx_ring_size: 64\n  desc_spacing: 32\n", "t.yaml:4:3",
               "duplicate key 'nic.desc_spacing' (first defined at t.yaml:2:3)");
  expect_error("sweep:\n  points:\n    - {label: a, label: b}\n", "t.yaml:3:18",
               "duplicate key 'sweep.points[0].label' (first defined at t.yaml:3:8)");
  // The same key through a section and a dotted key.
  expect_error("nic:\n  desc_spacing: 16\nnic.desc_spacing: 32\n", "t.yaml:3:1",
               "nic.desc_spacing is set twice (first at t.yaml:2:17)");
}

TEST(ConfigYaml, AliasIsRejected) {
  expect_error("nic: {desc_spacing: 16}\ncpu: *x\n", "t.yaml:2:6",
               "YAML anchors and aliases are not supported (found alias '*x')",
               "write the value out");
}

TEST(ConfigYaml, AnchorIsRejected) {
  expect_error("nic: &base\n  desc_spacing: 16\n", "t.yaml:1:6",
               "YAML anchors and aliases are not supported (found anchor '&base')",
               "write the value out");
  expect_error("nic:\n  desc_spacing: &v 16\n", "t.yaml:2:17", "found anchor '&v'");
}

TEST(ConfigYaml, SelfReferencingAliasDoesNotLoop) {
  // 'a' is no key of ours, so the anchor's name is not shown (issue 23).
  expect_error("a: &x [*x]\n", "t.yaml:1:4", "found an anchor");
  expect_error("a: &x\n  b: *x\n", "t.yaml:1:4", "found an anchor");
  expect_error("- &a [*a, *a, *a]\n", "t.yaml:1:3", "found an anchor");
  expect_error("nic: &x [*x]\n", "t.yaml:1:6", "found anchor '&x'");
}

TEST(ConfigYaml, TagsAreRejected) {
  expect_error("nic: {desc_spacing: !!int 16}\n", "t.yaml:1:21",
               "YAML tags are not supported (found tag '!!int')", "remove the tag");
  expect_error("nic: !custom {desc_spacing: 16}\n", "t.yaml:1:6",
               "YAML tags are not supported (found tag '!custom')");
}

TEST(ConfigYaml, DeepNesting) {
  std::string deep = "nic: " + std::string(40, '[') + std::string(40, ']') + "\n";
  expect_error(deep, "t.yaml:1:37", "nesting is deeper than 32 levels");
  // Far deeper input still stops at the limit, without deep recursion.
  std::string huge = "a: " + std::string(200000, '[') + "\n";
  expect_error(huge, "t.yaml:1:35", "nesting is deeper than 32 levels");
  // 32 levels in all are fine for the YAML reader (the section check rejects them).
  std::string ok = "nic: " + std::string(31, '[') + std::string(31, ']') + "\n";
  expect_error(ok, "t.yaml:1:6", "section 'nic' must be a mapping of keys, but it is a list");
}

TEST(ConfigYaml, EmptyFile) {
  expect_error("", "t.yaml:0:0", "the file is empty");
  expect_error("# only a comment\n\n", "t.yaml:0:0", "the file is empty");
  expect_error("---\n", "t.yaml:0:0", "the file is empty");
  Loaded l;
  load_text(l, "");
  EXPECT_EQ(printed(l.err),
            "t.yaml: error: the file is empty\n"
            "  hint: write at least one section, e.g. 'nic: {desc_spacing: 32}', or delete the file\n");
}

TEST(ConfigYaml, TopLevelMustBeAMapping) {
  expect_error("- nic\n- cpu\n", "t.yaml:1:1", "the top level must be a mapping, but it is a list");
  expect_error("\n  42\n", "t.yaml:2:3",
               "the top level must be a mapping, but it is a single value");
  expect_error("\"\"\n", "t.yaml:1:1", "the top level must be a mapping");
}

TEST(ConfigYaml, SyntaxErrors) {
  expect_error("nic: {desc_spacing: 16\n", "t.yaml:2:1", "YAML syntax error",
               "while parsing a flow mapping (at 1:6)");
  expect_error("nic:\n  desc_spacing: 16\n rx_ring_size: 64\n", "t.yaml:3:2",
               "YAML syntax error: did not find expected key");
  expect_error("nic:\n\tdesc_spacing: 16\n", "t.yaml:2:1", "YAML syntax error");
  expect_error("? [a, b]\n: 1\n", "t.yaml:1:3",
               "a mapping key must be a single value, not a list or mapping");
}

TEST(ConfigYaml, SeveralDocuments) {
  expect_error("nic: {desc_spacing: 16}\n---\ncpu: {kind: x86}\n", "t.yaml:2:1",
               "a file holds one YAML document, but a second one starts here");
}

TEST(ConfigYaml, InvalidUtf8) {
  // The reader fails before any key is read, so the byte is not shown (issue 23).
  expect_error("nic:\n  desc_spacing: \x80\x81\n", "t.yaml:2:17",
               "not a valid text file: invalid leading UTF-8 octet", "must be UTF-8 text");
  // A character counts once in the column, whatever its UTF-8 length.
  expect_error("name: \xc3\xa9t\xc3\xa9 \xff\n", "t.yaml:1:11", "invalid leading UTF-8 octet");
}

TEST(ConfigYaml, BinaryJunkFile) {
  TempDir d;
  std::string elf("\x7f" "ELF\x02\x01\x01\x00\x00\x00\x00\x00", 12);
  std::string path = d.write("junk.yaml", elf);
  Loaded l;
  l.rc = nc_scenario_load(path.c_str(), &l.s, &l.err);
  ASSERT_EQ(l.rc, -1);
  EXPECT_EQ(where(l.err), path + ":1:1") << printed(l.err);
  EXPECT_STREQ(l.err.msg, "not a valid text file: control characters are not allowed");
  // A NUL byte after valid text.
  std::string nul("nic:\n  desc_spacing: 16\x00\n", 24);
  path = d.write("nul.yaml", nul);
  Loaded l2;
  l2.rc = nc_scenario_load(path.c_str(), &l2.s, &l2.err);
  ASSERT_EQ(l2.rc, -1);
  EXPECT_EQ(where(l2.err), path + ":2:19") << printed(l2.err);
  EXPECT_NE(std::strstr(l2.err.msg, "control characters are not allowed"), nullptr) << printed(l2.err);
  // Random bytes never crash and always give a located, non-empty message.
  std::mt19937 rng(42);
  for (int i = 0; i < 200; i++) {
    std::string junk(1 + rng() % 300, '\0');
    for (char &ch : junk) ch = static_cast<char>(rng());
    path = d.write("rand.yaml", junk);
    Loaded r;
    r.rc = nc_scenario_load(path.c_str(), &r.s, &r.err);
    EXPECT_EQ(r.rc, -1);
    EXPECT_GT(std::strlen(r.err.msg), 0u);
    EXPECT_STREQ(r.err.where.file, path.c_str());
  }
}

TEST(ConfigYaml, EscapedNulIsRejected) {
  expect_error("name: \"a\\0b\"\n", "t.yaml:1:7", "a value contains a NUL character");
}

TEST(ConfigYaml, UnreadableFile) {
  Loaded l;
  l.rc = nc_scenario_load("/nonexistent/dir/s.yaml", &l.s, &l.err);
  ASSERT_EQ(l.rc, -1);
  EXPECT_EQ(printed(l.err),
            "/nonexistent/dir/s.yaml: error: cannot open the file: No such file or directory\n"
            "  hint: check the path (relative paths start at the current directory)\n");
  TempDir d;
  Loaded l2;
  l2.rc = nc_scenario_load(d.path.c_str(), &l2.s, &l2.err);
  ASSERT_EQ(l2.rc, -1);
  EXPECT_STREQ(l2.err.msg, "this is a directory");
}

TEST(ConfigYaml, FileWithoutReadPermission) {
  TempDir d;
  std::string path = d.write("secret.yaml", "nic: {desc_spacing: 32}\n");
  ASSERT_EQ(chmod(path.c_str(), 0), 0);
  if (geteuid() == 0) GTEST_SKIP() << "root reads files without permission";
  Loaded l3;
  l3.rc = nc_scenario_load(path.c_str(), &l3.s, &l3.err);
  ASSERT_EQ(l3.rc, -1);
  EXPECT_STREQ(l3.err.msg, "cannot open the file: Permission denied");
}

TEST(ConfigYaml, LoadsFromAFile) {
  TempDir d;
  std::string path = d.write("s.yaml", "nic:\n  desc_spacing: 48\n");
  Loaded l;
  l.rc = nc_scenario_load(path.c_str(), &l.s, &l.err);
  ASSERT_EQ(l.rc, 0) << printed(l.err);
  nicsim_config c;
  nc_error e{};
  ASSERT_EQ(resolve(l, -1, &c, &e), 0) << printed(e);
  EXPECT_EQ(c.nic.desc_spacing, 48);
  EXPECT_EQ(origin_of(c, "nic.desc_spacing"), path + ":2:17");
}

// Every prefix and many single-byte corruptions of a rich scenario load
// without crashing; failures always carry a message.
TEST(ConfigYaml, TruncatedAndCorruptedInputNeverCrashes) {
  const std::string good =
      "name: fuzz\n"
      "nic: {desc_spacing: 32, line_rate_gbps: 25}\n"
      "traffic:\n"
      "  mode: bidir\n"
      "sweep:\n"
      "  axes:\n"
      "    nic.desc_spacing: [16, 32, 64]\n"
      "  points:\n"
      "    - label: a\n"
      "      driver.napi_budget: 8\n"
      "    - {label: b, cpu: {kind: arm64}}\n";
  {
    Loaded l;
    load_text(l, good);
    ASSERT_EQ(l.rc, 0) << printed(l.err);
    EXPECT_EQ(nc_scenario_npoints(l.s), 6u);
  }
  for (size_t n = 0; n < good.size(); n++) {
    Loaded l;
    load_text(l, good.substr(0, n));
    if (l.rc != 0) {
      EXPECT_GT(std::strlen(l.err.msg), 0u) << n;
    }
  }
  const char repl[] = {'[', ']', '{', '}', ':', '-', '&', '*', '!', '\'', '"', ' ', '\n', '#', ','};
  for (size_t i = 0; i < good.size(); i++)
    for (char r : repl) {
      std::string t = good;
      t[i] = r;
      Loaded l;
      load_text(l, t);
      if (l.rc != 0) {
        EXPECT_GT(std::strlen(l.err.msg), 0u);
        EXPECT_EQ(l.s, nullptr);
      } else {
        nicsim_config c;
        nc_error e{};
        for (long p = -1; p < static_cast<long>(nc_scenario_npoints(l.s)); p++)
          if (resolve(l, p, &c, &e) != 0) {
            EXPECT_GT(std::strlen(e.msg), 0u);
          }
      }
    }
}

}  // namespace
