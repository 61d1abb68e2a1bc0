/* sc_main.cpp: libsystemc.so refers to sc_main (its own main() calls it), so a
 * SystemC test binary must define one; test_main.cpp's main() runs instead. */
#include <cstdio>

/* Never called: the binary's main() is tests/common/test_main.cpp's. */
extern "C" int sc_main(int, char **) {
  std::fprintf(stderr, "sc_main: not used by the model tests\n");
  return 1;
}
