// sc_main.cpp: libsystemc.so's own main() calls sc_main, so the library
// leaves it undefined. nicsim's programs have their own main() and call
// nicsim_simulate; this definition satisfies the link and is never called.
// It lives alone so that every program linking nicsim_sim gets it (the
// target asks the linker for it with --undefined), whether or not that
// program pulls in the simulation itself: a program that links the study
// library only for its analytic code still carries libsystemc.so when the
// linker keeps it (no --as-needed, as in the Debug/ASan build).
extern "C" int sc_main(int, char **) { return 0; }  // as systemc.h declares it
