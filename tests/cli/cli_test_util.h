// cli_test_util.h: runs the built nicsim binary (posix_spawn) with its
// stdout and stderr captured, in a scratch directory per test.
#ifndef NICSIM_TESTS_CLI_TEST_UTIL_H
#define NICSIM_TESTS_CLI_TEST_UTIL_H

#include <dirent.h>
#include <fcntl.h>
#include <gtest/gtest.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fstream>
#include <initializer_list>
#include <set>
#include <sstream>
#include <string>
#include <vector>

extern char **environ;

namespace nicsim_cli_test {

// What one nicsim invocation did.
struct Result {
  int status = -1;  // exit status, or 128 + signal
  std::string out, err;
};

inline std::string slurp(const std::string &p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// Text with ASan's warning about SystemC's coroutine stack switches removed
// (three lines, printed once per process under the asan preset; benign, see
// docs/robustness.md). Everything else, real sanitizer reports included, stays.
inline std::string without_sanitizer_noise(const std::string &text) {
  std::string out;
  std::istringstream in(text);
  std::string line;
  int skip = 0;
  while (std::getline(in, line)) {
    if (line.find("WARNING: ASan is ignoring requested __asan_handle_no_return") != std::string::npos) {
      skip = 2;  // "False positive error reports may follow", "For details see ..."
      continue;
    }
    if (skip > 0) {
      skip--;
      continue;
    }
    out += line;
    out += '\n';
  }
  return out;
}

inline bool exists(const std::string &p) {
  struct stat st;
  return stat(p.c_str(), &st) == 0;
}

// Names in a directory, sorted.
inline std::set<std::string> list_dir(const std::string &dir) {
  std::set<std::string> out;
  if (DIR *d = opendir(dir.c_str())) {
    while (dirent *e = readdir(d))
      if (e->d_name[0] != '.') out.insert(e->d_name);
    closedir(d);
  }
  return out;
}

inline std::vector<std::string> lines_of(const std::string &s) {
  std::vector<std::string> out;
  std::stringstream ss(s);
  std::string line;
  while (std::getline(ss, line)) out.push_back(line);
  return out;
}

// Process ids whose parent is ppid (scanning /proc).
inline std::vector<pid_t> children_of(pid_t ppid) {
  std::vector<pid_t> out;
  if (DIR *d = opendir("/proc")) {
    while (dirent *e = readdir(d)) {
      char *end;
      long pid = strtol(e->d_name, &end, 10);
      if (*end != '\0' || pid <= 0) continue;
      std::string stat = slurp(std::string("/proc/") + e->d_name + "/stat");
      size_t paren = stat.rfind(')');
      if (paren == std::string::npos) continue;
      char state;
      long parent = 0;
      if (sscanf(stat.c_str() + paren + 1, " %c %ld", &state, &parent) == 2 && parent == ppid)
        out.push_back(static_cast<pid_t>(pid));
    }
    closedir(d);
  }
  return out;
}

// An execv argument vector over a (which must outlive it), NULL-terminated.
inline std::vector<char *> argv_of(std::vector<std::string> &a) {
  std::vector<char *> argv;
  for (std::string &s : a) argv.push_back(&s[0]);
  argv.push_back(nullptr);
  return argv;
}

inline std::string data(const char *name) { return std::string(NICSIM_CLI_DATA) + "/" + name; }

// Each test runs in a fresh scratch directory (the current directory while
// it runs; nicsim inherits it), removed afterwards.
class Cli : public ::testing::Test {
 protected:
  void SetUp() override {
    char tmpl[] = "/tmp/nicsim_cli_XXXXXX";
    ASSERT_NE(mkdtemp(tmpl), nullptr);
    dir_ = tmpl;
    ASSERT_NE(getcwd(old_cwd_, sizeof old_cwd_), nullptr);
    ASSERT_EQ(chdir(dir_.c_str()), 0);
  }
  void TearDown() override {
    if (chdir(old_cwd_) != 0) ADD_FAILURE() << "chdir back failed";
    if (!HasFailure()) {
      std::string cmd = "rm -rf '" + dir_ + "'";
      if (system(cmd.c_str()) != 0) ADD_FAILURE() << cmd;
    } else {
      fprintf(stderr, "kept scratch directory %s\n", dir_.c_str());
    }
  }

  // Starts nicsim with args, stdout and stderr into files; -1 on failure.
  pid_t start(std::initializer_list<std::string> args) {
    return start(std::vector<std::string>(args));
  }
  pid_t start(const std::vector<std::string> &args) {
    std::vector<std::string> a = {NICSIM_BIN};
    a.insert(a.end(), args.begin(), args.end());
    std::vector<char *> argv = argv_of(a);
    std::string out = dir_ + "/.stdout", err = dir_ + "/.stderr";
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_addopen(&fa, 1, out.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    posix_spawn_file_actions_addopen(&fa, 2, err.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    pid_t pid;
    int rc = posix_spawn(&pid, NICSIM_BIN, &fa, nullptr, argv.data(), environ);
    posix_spawn_file_actions_destroy(&fa);
    if (rc != 0) {
      ADD_FAILURE() << "posix_spawn " << NICSIM_BIN << ": " << strerror(rc);
      return -1;
    }
    return pid;
  }

  // Waits for a process from start() and collects what it printed.
  Result finish(pid_t pid) {
    Result r;
    int st = 0;
    if (pid < 0 || waitpid(pid, &st, 0) != pid) {
      ADD_FAILURE() << "waitpid failed";
      return r;
    }
    r.status = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
    std::string out = dir_ + "/.stdout", err = dir_ + "/.stderr";
    r.out = slurp(out);
    r.err = slurp(err);
    unlink(out.c_str());
    unlink(err.c_str());
    return r;
  }

  // Runs nicsim with args to completion.
  Result run(std::initializer_list<std::string> args) { return finish(start(args)); }

  std::string path(const std::string &name) const { return dir_ + "/" + name; }

  std::string dir_;
  char old_cwd_[4096];
};

}  // namespace nicsim_cli_test

// Prints a Result on failure.
#define NICSIM_SHOW(r) \
  "exit " << (r).status << "\n--- stdout:\n" << (r).out << "--- stderr:\n" << (r).err

#endif
