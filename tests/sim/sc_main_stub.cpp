// sc_main_stub.cpp: libsystemc.so's own main() calls sc_main, so the library
// leaves sc_main undefined; these test binaries have their own main()
// (tests/common/test_main.cpp) and define this only to satisfy the link.
#include <systemc>

int sc_main(int, char **) { return 0; }
