/* special_files.h: makes file-system objects that are neither regular files
 * nor directories, for tests of how outputs are written to them. */
#ifndef NICSIM_TESTS_COMMON_SPECIAL_FILES_H
#define NICSIM_TESTS_COMMON_SPECIAL_FILES_H

#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <cstdio>
#include <string>

namespace nicsim_test {

/* Creates a Unix-domain socket file at path (bound, then closed: the file
 * stays). True on success. */
inline bool make_socket_file(const std::string &path) {
  int s = socket(AF_UNIX, SOCK_STREAM, 0);
  if (s < 0) return false;
  struct sockaddr_un sa = {};
  sa.sun_family = AF_UNIX;
  snprintf(sa.sun_path, sizeof sa.sun_path, "%s", path.c_str());
  bool ok = path.size() < sizeof sa.sun_path &&
            bind(s, reinterpret_cast<struct sockaddr *>(&sa), sizeof sa) == 0;
  close(s);
  return ok;
}

}  // namespace nicsim_test

#endif
