// test_main.cpp: the main() of every nicsim GoogleTest binary.
// libsystemc.so defines main(); a binary linked with gtest_main could pick
// SystemC's and run zero tests. Each test binary links this file instead.
#include <gtest/gtest.h>

int main(int argc, char **argv) {
  ::testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
