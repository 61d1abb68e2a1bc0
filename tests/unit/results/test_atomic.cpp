// test_atomic.cpp: nicsim_write_atomic: a file is replaced whole or not at
// all; on every failure the previous file is intact and no temporary remains.
#include <dirent.h>
#include <fcntl.h>
#include <ftw.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/file.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <fstream>
#include <set>
#include <sstream>
#include <string>

#include "common/special_files.h"
#include "results/output.h"
#include "results/safety.h"

namespace {

// A fresh temporary directory, removed (with its files) at the end.
class AtomicWrite : public ::testing::Test {
 protected:
  void SetUp() override {
    char tmpl[] = "/tmp/nicsim_atomic_XXXXXX";
    ASSERT_NE(mkdtemp(tmpl), nullptr);
    dir_ = tmpl;
  }
  void TearDown() override {
    chmod(dir_.c_str(), 0700);
    nftw(
        dir_.c_str(), [](const char *p, const struct stat *, int, struct FTW *) { return remove(p); },
        16, FTW_DEPTH | FTW_PHYS);
  }
  std::set<std::string> entries() const {
    std::set<std::string> out;
    DIR *d = opendir(dir_.c_str());
    if (d == nullptr) return out;
    while (dirent *e = readdir(d))
      if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0) out.insert(e->d_name);
    closedir(d);
    return out;
  }
  std::string path(const char *name) const { return dir_ + "/" + name; }
  static std::string slurp(const std::string &p) {
    std::ifstream in(p, std::ios::binary);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
  }
  static void spit(const std::string &p, const std::string &text) {
    std::ofstream(p, std::ios::binary) << text;
  }
  std::string dir_;
};

// Emit callback writing the std::string at arg.
int emit_string(FILE *f, void *arg) {
  fputs(static_cast<std::string *>(arg)->c_str(), f);
  return 0;
}

// Emit callback that writes a little, then fails like a generator would.
int emit_then_fail(FILE *f, void *) {
  fputs("partial", f);
  return -EIO;
}

TEST_F(AtomicWrite, CreatesAFileWithTheUsualMode) {
  std::string text = "hello\n";
  ASSERT_EQ(nicsim_write_atomic(path("a.txt").c_str(), emit_string, &text), 0);
  EXPECT_EQ(slurp(path("a.txt")), text);
  EXPECT_EQ(entries(), std::set<std::string>{"a.txt"}) << "no temporary file left";
  mode_t mask = umask(0);
  umask(mask);
  struct stat st;
  ASSERT_EQ(stat(path("a.txt").c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0666 & ~mask);
}

TEST_F(AtomicWrite, ReplacesAndKeepsTheOldMode) {
  spit(path("a.txt"), "old contents, longer than the new ones\n");
  ASSERT_EQ(chmod(path("a.txt").c_str(), 0640), 0);
  std::string text = "new\n";
  ASSERT_EQ(nicsim_write_atomic(path("a.txt").c_str(), emit_string, &text), 0);
  EXPECT_EQ(slurp(path("a.txt")), "new\n");
  struct stat st;
  ASSERT_EQ(stat(path("a.txt").c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0640u);
  EXPECT_EQ(entries(), std::set<std::string>{"a.txt"});
}

TEST_F(AtomicWrite, RelativePathInTheCurrentDirectory) {
  char cwd[4096];
  ASSERT_NE(getcwd(cwd, sizeof cwd), nullptr);
  ASSERT_EQ(chdir(dir_.c_str()), 0);
  std::string text = "rel\n";
  int rc = nicsim_write_atomic("rel.txt", emit_string, &text);
  ASSERT_EQ(chdir(cwd), 0);
  ASSERT_EQ(rc, 0);
  EXPECT_EQ(slurp(path("rel.txt")), "rel\n");
}

TEST_F(AtomicWrite, FailingGeneratorLeavesThePreviousFile) {
  spit(path("a.txt"), "previous\n");
  EXPECT_EQ(nicsim_write_atomic(path("a.txt").c_str(), emit_then_fail, nullptr), -EIO);
  EXPECT_EQ(slurp(path("a.txt")), "previous\n");
  EXPECT_EQ(entries(), std::set<std::string>{"a.txt"});
}

TEST_F(AtomicWrite, MissingDirectoryIsENOENT) {
  std::string text = "x";
  EXPECT_EQ(nicsim_write_atomic(path("no/such/a.txt").c_str(), emit_string, &text), -ENOENT);
  EXPECT_TRUE(entries().empty());
}

TEST_F(AtomicWrite, ParentIsAFileIsENOTDIR) {
  spit(path("file"), "keep\n");
  std::string text = "x";
  EXPECT_EQ(nicsim_write_atomic(path("file/a.txt").c_str(), emit_string, &text), -ENOTDIR);
  EXPECT_EQ(slurp(path("file")), "keep\n");
}

TEST_F(AtomicWrite, TargetIsADirectory) {
  ASSERT_EQ(mkdir(path("d").c_str(), 0700), 0);
  spit(path("d/inside"), "keep\n");
  std::string text = "x";
  int rc = nicsim_write_atomic(path("d").c_str(), emit_string, &text);
  EXPECT_TRUE(rc == -EISDIR || rc == -ENOTEMPTY || rc == -EEXIST) << rc;
  EXPECT_EQ(slurp(path("d/inside")), "keep\n");
  EXPECT_EQ(entries(), std::set<std::string>{"d"});
  EXPECT_EQ(nicsim_write_atomic((dir_ + "/").c_str(), emit_string, &text), -EISDIR);
  EXPECT_EQ(nicsim_write_atomic("", emit_string, &text), -EINVAL);
}

// As root, the write runs in a child that drops to an unprivileged user
// (root ignores directory permissions).
TEST_F(AtomicWrite, UnwritableDirectoryIsEACCES) {
  spit(path("a.txt"), "previous\n");
  ASSERT_EQ(chmod(dir_.c_str(), 0555), 0);
  pid_t pid = fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    if (geteuid() == 0 && (setgid(65534) != 0 || setuid(65534) != 0)) _exit(100);
    std::string text = "new\n";
    _exit(nicsim_write_atomic(path("a.txt").c_str(), emit_string, &text) == -EACCES ? 0 : 101);
  }
  int status = 0;
  ASSERT_EQ(waitpid(pid, &status, 0), pid);
  ASSERT_EQ(chmod(dir_.c_str(), 0700), 0);
  ASSERT_TRUE(WIFEXITED(status));
  if (WEXITSTATUS(status) == 100) GTEST_SKIP() << "cannot drop root privileges here";
  EXPECT_EQ(WEXITSTATUS(status), 0) << "expected -EACCES";
  EXPECT_EQ(slurp(path("a.txt")), "previous\n");
  EXPECT_EQ(entries(), std::set<std::string>{"a.txt"});
}

// A write that fails part-way (here: the file-size limit, as a full disk
// would) leaves the previous file and no temporary. Runs in a child so the
// limit cannot leak into other tests.
TEST_F(AtomicWrite, WriteErrorPartWayLeavesThePreviousFile) {
  spit(path("a.txt"), "previous\n");
  pid_t pid = fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    signal(SIGXFSZ, SIG_IGN);
    struct rlimit rl = {4096, 4096};
    if (setrlimit(RLIMIT_FSIZE, &rl) != 0) _exit(100);
    std::string big(1 << 20, 'x');
    int rc = nicsim_write_atomic(path("a.txt").c_str(), emit_string, &big);
    _exit(rc == -EFBIG ? 0 : 101);
  }
  int status = 0;
  ASSERT_EQ(waitpid(pid, &status, 0), pid);
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 0) << "100: setrlimit failed; 101: wrong return code";
  EXPECT_EQ(slurp(path("a.txt")), "previous\n");
  EXPECT_EQ(entries(), std::set<std::string>{"a.txt"});
}

// A symlink is never written through (issue 35): the link itself is replaced
// by the new file, and the file it named is left as it was; a dangling link
// or a chain of links is replaced the same way.
TEST_F(AtomicWrite, SymlinkIsReplacedNeverWrittenThrough) {
  ASSERT_EQ(mkdir(path("sub").c_str(), 0700), 0);
  spit(path("sub/t.txt"), "previous\n");
  ASSERT_EQ(symlink("sub/t.txt", path("link").c_str()), 0);
  std::string text = "new\n";
  ASSERT_EQ(nicsim_write_atomic(path("link").c_str(), emit_string, &text), 0);
  struct stat st;
  ASSERT_EQ(lstat(path("link").c_str(), &st), 0);
  EXPECT_TRUE(S_ISREG(st.st_mode)) << "the link is still a link";
  EXPECT_EQ(slurp(path("link")), "new\n");
  EXPECT_EQ(slurp(path("sub/t.txt")), "previous\n") << "written through the link";
  EXPECT_EQ(entries(), (std::set<std::string>{"link", "sub"}));
  ASSERT_EQ(symlink(path("sub/new.txt").c_str(), path("dangling").c_str()), 0);
  ASSERT_EQ(symlink("dangling", path("chain").c_str()), 0);
  ASSERT_EQ(nicsim_write_atomic(path("chain").c_str(), emit_string, &text), 0);
  struct stat gone;
  EXPECT_NE(stat(path("sub/new.txt").c_str(), &gone), 0);
  ASSERT_EQ(lstat(path("chain").c_str(), &st), 0);
  EXPECT_TRUE(S_ISREG(st.st_mode));
  char real[4096];
  EXPECT_EQ(nicsim_output_target(path("dangling").c_str(), real, sizeof real), NICSIM_OUT_REPLACE);
  EXPECT_EQ(std::string(real), path("dangling"));
}

// An output that is a noted input of the command (nicsim_input_note), by its
// name or a hard link, is refused with -NICSIM_E_INPUT naming the input, and
// nothing is written; a symlink to it is replaced, the input untouched.
TEST_F(AtomicWrite, AnInputIsNeverReplaced) {
  spit(path("in.yaml"), "input\n");
  ASSERT_EQ(link(path("in.yaml").c_str(), path("hard").c_str()), 0);
  ASSERT_EQ(symlink("in.yaml", path("soft").c_str()), 0);
  nicsim_input_note(path("in.yaml").c_str(), "the scenario");
  std::string text = "out\n";
  for (const char *p : {"in.yaml", "hard"}) {
    EXPECT_EQ(nicsim_write_atomic(path(p).c_str(), emit_string, &text), -NICSIM_E_INPUT) << p;
    EXPECT_NE(std::string(nicsim_strerror(NICSIM_E_INPUT)).find("the scenario " + path("in.yaml")),
              std::string::npos);
  }
  EXPECT_EQ(nicsim_write_atomic(path("soft").c_str(), emit_string, &text), 0);
  EXPECT_EQ(slurp(path("in.yaml")), "input\n");
  nicsim_input_forget_all();
  EXPECT_EQ(nicsim_write_atomic(path("in.yaml").c_str(), emit_string, &text), 0);
}

// A stale temporary of nicsim's naming is removed by the next write in its
// directory; a live one (its writer holds its lock) and other names stay.
TEST_F(AtomicWrite, StaleTemporariesAreRemovedByTheNextWrite) {
  spit(path(".a.txt.tmp.AbC123"), "stale");
  spit(path(".b.tmp"), "other");
  int fd = open(path(".c.txt.tmp.Zz9Zz9").c_str(), O_CREAT | O_WRONLY, 0600);
  ASSERT_GE(fd, 0);
  ASSERT_EQ(flock(fd, LOCK_EX), 0);
  std::string text = "x";
  ASSERT_EQ(nicsim_write_atomic(path("a.txt").c_str(), emit_string, &text), 0);
  close(fd);
  EXPECT_EQ(entries(), (std::set<std::string>{"a.txt", ".b.tmp", ".c.txt.tmp.Zz9Zz9"}));
}

// A FIFO is written in place (a reader gets the bytes), never replaced; one
// without a reader is -ENXIO at once, never a wait.
TEST_F(AtomicWrite, FifoIsWrittenInPlace) {
  ASSERT_EQ(mkfifo(path("fifo").c_str(), 0600), 0);
  // A reader first (non-blocking: nothing hangs if the FIFO is not written).
  int fd = open(path("fifo").c_str(), O_RDONLY | O_NONBLOCK);
  ASSERT_GE(fd, 0);
  std::string text = "through the pipe\n";
  int rc = nicsim_write_atomic(path("fifo").c_str(), emit_string, &text);
  char buf[256];
  ssize_t n = read(fd, buf, sizeof buf);
  close(fd);
  std::string got(buf, n > 0 ? static_cast<size_t>(n) : 0);
  EXPECT_EQ(rc, 0);
  EXPECT_EQ(got, text);
  struct stat st;
  ASSERT_EQ(lstat(path("fifo").c_str(), &st), 0);
  EXPECT_TRUE(S_ISFIFO(st.st_mode)) << "the FIFO was replaced";
  EXPECT_EQ(entries(), std::set<std::string>{"fifo"});
  EXPECT_EQ(nicsim_write_atomic(path("fifo").c_str(), emit_string, &text), -ENXIO);
}

// The decision alone (nothing written): character devices, also through a
// symlink, are streamed; directories, sockets and loops are refused.
TEST_F(AtomicWrite, OutputTargetClassifiesWhatThePathNames) {
  char real[4096];
  EXPECT_EQ(nicsim_output_target("/dev/null", real, sizeof real), NICSIM_OUT_STREAM);
  EXPECT_STREQ(real, "/dev/null");
  ASSERT_EQ(symlink("/dev/null", path("null").c_str()), 0);
  EXPECT_EQ(nicsim_output_target(path("null").c_str(), real, sizeof real), NICSIM_OUT_STREAM);
  EXPECT_STREQ(real, "/dev/null");
  spit(path("f"), "x");
  EXPECT_EQ(nicsim_output_target(path("f").c_str(), real, sizeof real), NICSIM_OUT_REPLACE);
  EXPECT_EQ(std::string(real), path("f"));
  EXPECT_EQ(nicsim_output_target(path("absent").c_str(), real, sizeof real), NICSIM_OUT_REPLACE);
  ASSERT_EQ(mkdir(path("d").c_str(), 0700), 0);
  ASSERT_EQ(symlink("d", path("dlink").c_str()), 0);
  EXPECT_EQ(nicsim_output_target(path("d").c_str(), real, sizeof real), -EISDIR);
  EXPECT_EQ(nicsim_output_target(path("dlink").c_str(), real, sizeof real), -EISDIR);
  ASSERT_EQ(symlink("loop", path("loop").c_str()), 0);
  EXPECT_EQ(nicsim_output_target(path("loop").c_str(), real, sizeof real), -ELOOP);
  ASSERT_TRUE(nicsim_test::make_socket_file(path("sock")));
  EXPECT_EQ(nicsim_output_target(path("sock").c_str(), real, sizeof real), -EINVAL);
  std::string text = "x";
  EXPECT_EQ(nicsim_write_atomic(path("sock").c_str(), emit_string, &text), -EINVAL);
  EXPECT_EQ(nicsim_write_atomic(path("dlink").c_str(), emit_string, &text), -EISDIR);
  struct stat st;
  ASSERT_EQ(lstat(path("sock").c_str(), &st), 0);
  EXPECT_TRUE(S_ISSOCK(st.st_mode));
}

}  // namespace
