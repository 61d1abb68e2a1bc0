# The drivers' and the kernel layer's own instructions, weighed by each target
# ISA's compiled code (docs/host.md, "The code's own instructions";
# src/kernel/icount.h).
#
# nicsim_counted_sources(OUT_OBJECTS OUT_SOURCES src...) compiles each C file
#  - natively, with clang-14 at -O2 and SanitizerCoverage's block counters,
#    which scripts/icount/rewrite_ll.py turns into adds of each block's weight;
#  - for every ISA in NICSIM_ISAS (clang --target, -O2 -fno-pic), the block
#    counters turned into labels, so that scripts/icount/weights.py can count
#    each block's instructions in that ISA's object code;
# and returns the native objects (OUT_OBJECTS) and the generated weight
# tables (OUT_SOURCES, C files to compile into the same library).
# The native code is always built at -O2 by clang-14, whatever the build
# type and compiler: its blocks must be the blocks the ISAs' weights follow.
find_program(NICSIM_CLANG NAMES clang-14 REQUIRED)
find_program(NICSIM_LLVM_OBJDUMP NAMES llvm-objdump-14 REQUIRED)
find_package(Python3 REQUIRED COMPONENTS Interpreter)
execute_process(COMMAND ${NICSIM_CLANG} -print-resource-dir
                OUTPUT_VARIABLE NICSIM_CLANG_RESOURCE_DIR OUTPUT_STRIP_TRAILING_WHITESPACE)

# enum nk_isa's order (src/kernel/icount.h); the target and its C library headers
# (Debian's libc6-dev-*-cross packages, scripts/install-deps.sh).
set(NICSIM_ISAS x86_64 arm64 armv7 riscv64 sparc64 mips32)
set(NICSIM_ISA_x86_64 --target=x86_64-linux-gnu -isystem /usr/include/x86_64-linux-gnu -isystem /usr/include)
set(NICSIM_ISA_arm64 --target=aarch64-linux-gnu -isystem /usr/aarch64-linux-gnu/include)
set(NICSIM_ISA_armv7 --target=arm-linux-gnueabihf -march=armv7-a -mthumb -isystem /usr/arm-linux-gnueabihf/include)
set(NICSIM_ISA_riscv64 --target=riscv64-linux-gnu -march=rv64gc -isystem /usr/riscv64-linux-gnu/include)
set(NICSIM_ISA_sparc64 --target=sparc64-linux-gnu -isystem /usr/sparc64-linux-gnu/include)
set(NICSIM_ISA_mips32 --target=mipsel-linux-gnu -march=mips32r2 -isystem /usr/mipsel-linux-gnu/include)
foreach(isa ${NICSIM_ISAS})
  list(GET NICSIM_ISA_${isa} 0 t)
  string(REPLACE "--target=" "" t "${t}")
  list(GET NICSIM_ISA_${isa} -1 inc)
  if(NOT EXISTS "${inc}/stdio.h")
    message(FATAL_ERROR "nicsim: ${inc}/stdio.h is missing: instruction counting compiles for ${t} "
                        "and needs its C library headers (scripts/install-deps.sh installs them)")
  endif()
endforeach()

set(NICSIM_ICOUNT_COMMON -std=c11 -O2 -fexceptions -DNDEBUG -I${CMAKE_SOURCE_DIR}/src -Wall -Wextra
    -fsanitize-coverage=inline-8bit-counters -mllvm -sanitizer-coverage-prune-blocks=0)
if(NICSIM_WERROR)
  list(APPEND NICSIM_ICOUNT_COMMON -Werror)
endif()
set(NICSIM_ICOUNT_NATIVE -fPIC)
if(CMAKE_BUILD_TYPE MATCHES "Deb")
  list(APPEND NICSIM_ICOUNT_NATIVE -g)
endif()
# The counted code is built without sanitizers, even in the asan preset:
# ASan's and UBSan's checks change which blocks clang makes, so the blocks
# would no longer be the ISAs' blocks and the results would differ from the
# ordinary build's (docs/robustness.md). ASan still sees its heap (malloc
# and free are intercepted whole-process) and everything the C++ models do.

set(NICSIM_ICOUNT_REWRITE ${CMAKE_SOURCE_DIR}/scripts/icount/rewrite_ll.py)
set(NICSIM_ICOUNT_WEIGHTS ${CMAKE_SOURCE_DIR}/scripts/icount/weights.py)

function(nicsim_counted_sources out_objects out_sources)
  set(objs)
  set(srcs)
  set(d ${CMAKE_BINARY_DIR}/icount)
  file(MAKE_DIRECTORY ${d})
  foreach(src ${ARGN})
    get_filename_component(tu ${src} NAME_WE)
    set(b ${d}/${tu})
    add_custom_command(
      OUTPUT ${b}.o ${b}.map
      COMMAND ${NICSIM_CLANG} ${NICSIM_ICOUNT_COMMON} ${NICSIM_ICOUNT_NATIVE} -MD -MF ${b}.d -MT ${b}.o
              -S -emit-llvm -o ${b}.sancov.ll ${src}
      COMMAND ${Python3_EXECUTABLE} ${CMAKE_SOURCE_DIR}/scripts/icount/rewrite_ll.py
              ${b}.sancov.ll ${b}.counted.ll ${b}.map ${tu}
      COMMAND ${NICSIM_CLANG} -O2 ${NICSIM_ICOUNT_NATIVE} -c ${b}.counted.ll -o ${b}.o
      DEPENDS ${src} ${NICSIM_ICOUNT_REWRITE}
      DEPFILE ${b}.d
      COMMENT "Counting ${tu}.c (native, clang -O2)"
      VERBATIM)
    set(isa_args)
    set(isa_outs)
    foreach(isa ${NICSIM_ISAS})
      set(i ${b}.${isa})
      add_custom_command(
        OUTPUT ${i}.o ${i}.map
        COMMAND ${NICSIM_CLANG} ${NICSIM_ISA_${isa}} -nostdinc -isystem ${NICSIM_CLANG_RESOURCE_DIR}/include
                -fintegrated-as -fno-pic ${NICSIM_ICOUNT_COMMON} -MD -MF ${i}.d -MT ${i}.o
                -S -emit-llvm -o ${i}.sancov.ll ${src}
        COMMAND ${Python3_EXECUTABLE} ${CMAKE_SOURCE_DIR}/scripts/icount/rewrite_ll.py --marker
                ${i}.sancov.ll ${i}.marked.ll ${i}.map ${tu}
        COMMAND ${NICSIM_CLANG} ${NICSIM_ISA_${isa}} -fintegrated-as -fno-pic -O2 -ffunction-sections
                -c ${i}.marked.ll -o ${i}.o
        DEPENDS ${src} ${NICSIM_ICOUNT_REWRITE}
        DEPFILE ${i}.d
        COMMENT "Weighing ${tu}.c for ${isa}"
        VERBATIM)
      list(APPEND isa_args ${isa}=${i}.map=${i}.o)
      list(APPEND isa_outs ${i}.o ${i}.map)
    endforeach()
    add_custom_command(
      OUTPUT ${b}.weights.c
      COMMAND ${CMAKE_COMMAND} -E env NICSIM_LLVM_OBJDUMP=${NICSIM_LLVM_OBJDUMP}
              ${Python3_EXECUTABLE} ${CMAKE_SOURCE_DIR}/scripts/icount/weights.py
              ${tu} ${b}.map ${b}.weights.c ${isa_args}
      DEPENDS ${b}.map ${isa_outs} ${NICSIM_ICOUNT_WEIGHTS}
      COMMENT "Weight table of ${tu}.c"
      VERBATIM)
    set_source_files_properties(${b}.o PROPERTIES EXTERNAL_OBJECT TRUE GENERATED TRUE)
    list(APPEND objs ${b}.o)
    list(APPEND srcs ${b}.weights.c)
  endforeach()
  set(${out_objects} ${objs} PARENT_SCOPE)
  set(${out_sources} ${srcs} PARENT_SCOPE)
endfunction()
