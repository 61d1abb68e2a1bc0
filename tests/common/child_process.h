/* child_process.h: runs a function in a forked child process and brings its
 * result (plain data) back through a pipe. SystemC elaborates once per
 * process, so a test that simulates more than once runs each simulation in
 * a child of its own. */
#ifndef NICSIM_TESTS_COMMON_CHILD_PROCESS_H
#define NICSIM_TESTS_COMMON_CHILD_PROCESS_H

#include <sys/wait.h>
#include <unistd.h>

#include <type_traits>

namespace nicsim_test {

/* Calls fn(&r) in a child process (fn returns 0 on success, else the
 * child's exit status) and, on success, copies the child's r into *out.
 * True if the child succeeded and its whole result arrived; *out is left
 * as it was otherwise. */
template <typename T, typename Fn>
bool in_child_process(Fn fn, T *out) {
  static_assert(std::is_trivially_copyable<T>::value, "the result crosses a pipe as bytes");
  int fd[2];
  if (pipe(fd) != 0) return false;
  const pid_t pid = fork();
  if (pid < 0) {
    close(fd[0]);
    close(fd[1]);
    return false;
  }
  if (pid == 0) {
    close(fd[0]);
    T r;
    const int rc = fn(&r);
    if (rc == 0) {
      const char *p = reinterpret_cast<const char *>(&r);
      size_t left = sizeof r;
      while (left) {
        const ssize_t n = write(fd[1], p, left);
        if (n <= 0) _exit(2);
        p += n;
        left -= static_cast<size_t>(n);
      }
    }
    _exit(rc);
  }
  close(fd[1]);
  T r;
  char *p = reinterpret_cast<char *>(&r);
  size_t got = 0;
  while (got < sizeof r) {
    const ssize_t n = read(fd[0], p + got, sizeof r - got);
    if (n <= 0) break;
    got += static_cast<size_t>(n);
  }
  close(fd[0]);
  int status = 0;
  waitpid(pid, &status, 0);
  if (got != sizeof r || !WIFEXITED(status) || WEXITSTATUS(status) != 0) return false;
  *out = r;
  return true;
}

}  // namespace nicsim_test
#endif
