// test_security.cpp: the loader against hostile scenarios (issue 23): what a
// platform name may resolve to, errors that never show the content of a file
// that is not a nicsim file, paths never cut, platform files identified by
// file and capped in size, integers checked as integers.
#include <gtest/gtest.h>

#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <cstring>
#include <string>

#include "config_test_util.h"

namespace {

const char kSecret[] = "root:$y$j9T$SECRETHASH:19000:0:99999:7:::\ndaemon:*:19000:0:99999:7:::\n";

// Loads scenario file `scen`; returns the error text as printed (empty if it loaded).
std::string load_error(const std::string &scen, Loaded &l) {
  l.rc = nc_scenario_load(scen.c_str(), &l.s, &l.err);
  return l.rc == 0 ? std::string() : printed(l.err);
}

// The printed error holds none of the secret file's words.
void expect_no_secret(const std::string &e) {
  for (const char *w : {"root", "SECRETHASH", "j9T", "daemon", "hunter2", "PASSWORD", "API_KEY",
                        "sk-live", "xoxb", "\xC3"})
    EXPECT_EQ(e.find(w), std::string::npos) << "'" << w << "' shown in: " << e;
}

}  // namespace

// Issue 23, defect 1: `platform: /etc/shadow` printed the file's first line.
TEST(ConfigSecurity, PlatformPathsResolveOnlyBesideTheScenario) {
  TempDir d;
  std::string secret = d.write("secret/shadow.yaml", kSecret);
  d.write("dir/plat.yaml", "cpu: {cores: 2}\n");
  struct Case {
    const char *value, *why;
  } refused[] = {
      {"/etc/shadow", "it is absolute"},
      {"/etc/passwd.yaml", "it is absolute"},
      {"../secret/shadow.yaml", "'..'"},
      {"dir/../../secret/shadow.yaml", "'..'"},
      {"dir/plat", "ends in .yaml"},
      {"dir/..", "ends in .yaml"},
  };
  for (const Case &c : refused) {
    std::string scen = d.write("dir/s.yaml", std::string("platform: \"") + c.value + "\"\n");
    Loaded l;
    std::string e = load_error(scen, l);
    ASSERT_EQ(l.rc, -1) << c.value;
    EXPECT_NE(e.find("is not allowed"), std::string::npos) << e;
    EXPECT_NE(e.find(c.why), std::string::npos) << e;
    EXPECT_EQ(where(l.err), scen + ":1:11") << "at the scenario's value, not in the named file";
    expect_no_secret(e);
  }
  // Beside the scenario (or below it) is fine.
  std::string scen = d.write("s.yaml", "platform: dir/plat.yaml\n");
  Loaded ok;
  EXPECT_EQ(load_error(scen, ok), "");
}

// Issue 23, defect 1 (the class): no error shows the content of a file that
// is not a nicsim scenario or platform file, whatever is wrong with it.
TEST(ConfigSecurity, ErrorsNeverShowTheContentOfAFileThatIsNotANicsimFile) {
  TempDir d;
  const char *contents[] = {
      kSecret,                                            // a mapping key 'root:...::'
      "root:$y$j9T$SECRETHASH\n",                         // one scalar
      "PASSWORD: hunter2\n",                              // an .env-like mapping
      "name: x\nAPI_KEY: sk-live-123\n",                  // a known word, then a secret
      "nic: {desc_spacing: 32}\nPASSWORD: hunter2\n",     // a section, then a secret
      "PASSWORD: hunter2\nnic: {desc_spacing: [x]}\n",    // a secret, then a bad value
      "PASSWORD: hunter2\nPASSWORD: hunter2\n",           // a duplicate key
      "PASSWORD: &hunter2 x\n",                           // an anchor
      "PASSWORD: *hunter2\n",                             // an alias
      "PASSWORD: !hunter2 x\n",                           // a tag
      "\"PASSWORD\\e\": hunter2\n",                       // a control character in a key
      "PASSWORD: \xC3(hunter2\n",                         // invalid UTF-8
      "- PASSWORD\n- hunter2\n",                          // a list
      "PASSWORD: \"hunter2\n",                            // unterminated
      "{PASSWORD: hunter2, xoxb: [\n",                    // unterminated flow
  };
  for (const char *c : contents) {
    SCOPED_TRACE(c);
    std::string plat = d.write("p.yaml", c);
    // As a platform file beside a scenario.
    std::string scen = d.write("s.yaml", "platform: p.yaml\n");
    Loaded l;
    std::string e = load_error(scen, l);
    ASSERT_EQ(l.rc, -1);
    EXPECT_EQ(std::string(l.err.where.file), plat);
    expect_no_secret(e);
    // As the scenario itself, from a file and from a string.
    Loaded l2;
    e = load_error(plat, l2);
    ASSERT_EQ(l2.rc, -1);
    expect_no_secret(e);
    Loaded l3;
    load_text(l3, c, "x.yaml");
    ASSERT_EQ(l3.rc, -1);
    expect_no_secret(printed(l3.err));
  }
  // The position still says where to look, and a near miss of ours is named.
  d.write("p.yaml", "nic: {desc_spacing: 32}\nnics: {}\n");
  std::string scen = d.write("s.yaml", "platform: p.yaml\n");
  Loaded l;
  std::string e = load_error(scen, l);
  EXPECT_EQ(where(l.err), d.path + "/p.yaml:2:1");
  EXPECT_NE(e.find("not a nicsim platform file: unknown top-level key"), std::string::npos) << e;
  EXPECT_NE(e.find("did you mean 'nic'?"), std::string::npos) << e;
}

// A platform file that is not a regular file (a FIFO, a device through a
// link) is refused without being opened for reading: nothing blocks.
TEST(ConfigSecurity, PlatformMustBeARegularFile) {
  TempDir d;
  ASSERT_EQ(mkfifo((d.path + "/fifo.yaml").c_str(), 0600), 0);
  ASSERT_EQ(symlink("/dev/zero", (d.path + "/zero.yaml").c_str()), 0);
  for (const char *p : {"fifo.yaml", "zero.yaml"}) {
    std::string scen = d.write("s.yaml", std::string("platform: ") + p + "\n");
    Loaded l;
    std::string e = load_error(scen, l);
    ASSERT_EQ(l.rc, -1) << p;
    EXPECT_NE(e.find("not a regular file"), std::string::npos) << e;
  }
}

// Issue 23, defect 2: a scenario directory longer than the path buffer was cut
// at 1023 bytes, so `platform: plat.yaml` read another file with no error.
TEST(ConfigSecurity, LongPathsAreNeverCut) {
  TempDir d;
  // d/AAAA.../AAAA (just over 1023 bytes) holds the scenario; the directory
  // cut at 1023 bytes holds a decoy platform file.
  std::string deep = d.path;
  while (deep.size() < 1030) deep += "/" + std::string(40, 'a');
  std::string cut = deep.substr(0, 1023);
  std::string rel_deep = deep.substr(d.path.size() + 1);
  ASSERT_EQ(std::system(("mkdir -p '" + deep + "' '" + cut + "'").c_str()), 0);
  d.write(rel_deep + "/plat.yaml", "cpu: {cores: 2}\n");
  ASSERT_NE(cut.back(), '/');
  d.write(cut.substr(d.path.size() + 1) + "/plat.yaml", "cpu: {cores: 3}\n");
  std::string scen = d.write(rel_deep + "/s.yaml", "platform: plat.yaml\n");
  Loaded l;
  std::string e = load_error(scen, l);
  ASSERT_EQ(l.rc, -1) << "a path that does not fit is an error, not another file";
  EXPECT_NE(e.find("the limit is 1023"), std::string::npos) << e;
  // The error's file name keeps its end, marked as shortened.
  EXPECT_EQ(std::string(l.err.where.file).substr(0, 3), "...");
  EXPECT_NE(std::string(l.err.where.file).find("/s.yaml"), std::string::npos);
  // From inside the directory (a short relative path) the same scenario
  // loads the platform beside it.
  char old[4096];
  ASSERT_NE(getcwd(old, sizeof old), nullptr);
  ASSERT_EQ(chdir(deep.c_str()), 0);
  Loaded l2;
  EXPECT_EQ(load_error("s.yaml", l2), "");
  nicsim_config c;
  nc_error err;
  if (l2.rc == 0) {
    ASSERT_EQ(resolve(l2, -1, &c, &err), 0) << printed(err);
    EXPECT_EQ(c.cpu.cores, 2);
  }
  ASSERT_EQ(chdir(old), 0);
}

// Issue 23, defect 11: platform files were deduplicated by path text; one
// large file named many ways was read (and parsed) once per name.
TEST(ConfigSecurity, PlatformFilesAreIdentifiedByFileAndCapped) {
  TempDir d;
  d.write("plat/p.yaml", "cpu: {cores: 2}\n");
  ASSERT_EQ(symlink("p.yaml", (d.path + "/plat/link.yaml").c_str()), 0);
  // Two spellings of one file on a platform axis are one value.
  std::string scen =
      d.write("s.yaml", "sweep: {axes: {platform: [plat/p.yaml, plat/./p.yaml]}}\n");
  Loaded l;
  std::string e = load_error(scen, l);
  ASSERT_EQ(l.rc, -1);
  EXPECT_NE(e.find("duplicate value 'plat/./p.yaml'"), std::string::npos) << e;
  scen = d.write("s.yaml", "sweep: {axes: {platform: [plat/p.yaml, plat/link.yaml]}}\n");
  Loaded l2;
  e = load_error(scen, l2);
  ASSERT_EQ(l2.rc, -1);
  EXPECT_NE(e.find("duplicate value 'plat/link.yaml'"), std::string::npos) << e;
  // Points naming it many ways read it once: the inputs are the scenario and it.
  std::string pts = "sweep:\n  points:\n";
  std::string name = "p.yaml";
  for (int i = 0; i < 299; i++) {
    pts += "    - {label: p" + std::to_string(i) + ", platform: plat/" + name + "}\n";
    name = "./" + name;
  }
  scen = d.write("s.yaml", pts);
  Loaded l3;
  EXPECT_EQ(load_error(scen, l3), "");
  size_t n = 0;
  const char *path = nullptr;
  uint64_t dev = 0, ino = 0;
  while (nc_scenario_input(l3.s, n, &path, &dev, &ino)) n++;
  EXPECT_EQ(n, 2u);
  struct stat st;
  ASSERT_EQ(stat((d.path + "/plat/p.yaml").c_str(), &st), 0);
  ASSERT_TRUE(nc_scenario_input(l3.s, 1, &path, &dev, &ino));
  EXPECT_EQ(ino, (uint64_t)st.st_ino);
  EXPECT_EQ(dev, (uint64_t)st.st_dev);
  // A platform file over 1 MiB is refused before it is read.
  std::string big = "cpu: {cores: 2}\n" + std::string(1 << 20, '#');
  d.write("plat/big.yaml", big);
  scen = d.write("s.yaml", "platform: plat/big.yaml\n");
  Loaded l4;
  auto t0 = std::chrono::steady_clock::now();
  e = load_error(scen, l4);
  ASSERT_EQ(l4.rc, -1);
  EXPECT_NE(e.find("larger than 1 MiB"), std::string::npos) << e;
  EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(), 1.0);
  // Exactly at the limit is fine.
  d.write("plat/big.yaml", big.substr(0, 1 << 20));
  Loaded l5;
  EXPECT_EQ(load_error(scen, l5), "");
}

// Issue 23, defect 10: the range check of integer keys went through a double,
// so 9200000000000000512 passed run.seed's maximum of 9.2e18.
TEST(ConfigSecurity, IntegersAreCheckedAsIntegers) {
  nicsim_config c;
  nc_config_defaults(&c);
  nc_error err;
  EXPECT_EQ(nc_config_set(&c, "run.seed=9200000000000000512", &err), -1);
  EXPECT_NE(std::string(err.msg).find("out of range"), std::string::npos) << err.msg;
  EXPECT_EQ(nc_config_set(&c, "run.seed=9200000000000000001", &err), -1);
  EXPECT_EQ(nc_config_set(&c, "run.seed=9200000000000000000", &err), 0) << err.msg;
  EXPECT_EQ(c.run.seed, INT64_C(9200000000000000000));
  EXPECT_EQ(nc_config_set(&c, "run.seed=-1", &err), -1);
  // In a file too, and every INT key's bounds are whole numbers that convert exactly.
  Loaded l;
  load_text(l, "run: {seed: 9200000000000000512}\n");
  EXPECT_EQ(l.rc, -1);
  for (size_t i = 0; i < NC_KEY__COUNT; i++) {
    const nc_key &k = nc_keys()[i];
    if (k.type != NC_INT) continue;
    EXPECT_EQ(k.min, (double)(int64_t)k.min) << k.path;
    EXPECT_LT(k.max, 9223372036854775807.0) << k.path;
    EXPECT_EQ(k.max, (double)(int64_t)k.max) << k.path;
  }
  // Repeats on top of the largest seed: the seed of the last repeat is checked as an integer.
  Loaded l2;
  load_text(l2, "run: {seed: 9200000000000000000}\nsweep: {axes: {nic.desc_spacing: [16]}, repeats: 2}\n");
  ASSERT_EQ(l2.rc, 0) << printed(l2.err);
  EXPECT_EQ(resolve(l2, 1, &c, &err), -1);
}

// Issue 23, defects 1, 2 and 11 for overlays (--overlay FILE): an overlay is
// read as a platform file is. One that is no YAML overlay, a directory, a
// FIFO, a huge file, a path too long to keep whole, or one naming a platform
// is refused with its file (and line:col where there is one), and no error
// shows its content; it is recorded as an input (nc_scenario_input).
TEST(ConfigSecurity, OverlaysAreReadAsPlatformFilesAre) {
  TempDir d;
  std::string scen = d.write("s.yaml", "name: s\n");
  auto add = [&](const std::string &ov, std::string &e) {
    Loaded l;
    l.rc = nc_scenario_load(scen.c_str(), &l.s, &l.err);
    EXPECT_EQ(l.rc, 0) << printed(l.err);
    int rc = nc_scenario_add_overlay(l.s, ov.c_str(), &l.err);
    e = rc == 0 ? std::string() : printed(l.err);
    return rc;
  };
  std::string e;
  const char *secrets[] = {kSecret, "PASSWORD: hunter2\n", "PASSWORD: hunter2\nPASSWORD: hunter2\n",
                           "nic: {desc_spacing: 32}\nAPI_KEY: sk-live-1\n", "PASSWORD: *hunter2\n"};
  for (const char *text : secrets) {
    std::string ov = d.write("o.yaml", text);
    EXPECT_EQ(add(ov, e), -1) << text;
    EXPECT_EQ(e.rfind(ov + ":", 0), 0u) << e;
    expect_no_secret(e);
  }
  std::string ov = d.write("o.yaml", "PASSWORD: hunter2\n");
  ASSERT_EQ(add(ov, e), -1);
  EXPECT_NE(e.find("not a nicsim overlay"), std::string::npos) << e;
  ov = d.write("o.yaml", "platform: /etc/shadow\n");
  EXPECT_EQ(add(ov, e), -1);
  EXPECT_NE(e.find(ov + ":1:1"), std::string::npos) << e;
  EXPECT_NE(e.find("not allowed in an overlay"), std::string::npos) << e;
  ASSERT_EQ(mkdir((d.path + "/dir.yaml").c_str(), 0700), 0);
  EXPECT_EQ(add(d.path + "/dir.yaml", e), -1);
  EXPECT_NE(e.find("this is a directory"), std::string::npos) << e;
  ASSERT_EQ(mkfifo((d.path + "/fifo.yaml").c_str(), 0600), 0);
  EXPECT_EQ(add(d.path + "/fifo.yaml", e), -1);
  EXPECT_NE(e.find("not a regular file"), std::string::npos) << e;
  std::string big = "nic: {desc_spacing: 32}\n" + std::string(2u << 20, '#') + "\n";
  EXPECT_EQ(add(d.write("big.yaml", big), e), -1);
  EXPECT_NE(e.find("larger than 1 MiB"), std::string::npos) << e;
  EXPECT_EQ(add(d.path + "/" + std::string(NC_PATH_MAX, 'x') + ".yaml", e), -1);
  EXPECT_NE(e.find("the limit is"), std::string::npos) << e;
  // A good overlay is an input, identified by its file.
  ov = d.write("good.yaml", "nic: {desc_spacing: 32}\n");
  Loaded l;
  ASSERT_EQ(nc_scenario_load(scen.c_str(), &l.s, &l.err), 0);
  ASSERT_EQ(nc_scenario_add_overlay(l.s, ov.c_str(), &l.err), 0) << printed(l.err);
  const char *in = nullptr;
  uint64_t dev = 0, ino = 0;
  struct stat st;
  ASSERT_EQ(stat(ov.c_str(), &st), 0);
  ASSERT_TRUE(nc_scenario_input(l.s, 1, &in, &dev, &ino));
  EXPECT_EQ(std::string(in), ov);
  EXPECT_EQ(dev, (uint64_t)st.st_dev);
  EXPECT_EQ(ino, (uint64_t)st.st_ino);
}
