# run_install_test.cmake: the install_embed test (cmake -P). Installs the
# build tree BUILD_DIR into WORK_DIR/prefix, checks the layout, builds the
# installed examples/embed with find_package(nicsim) (and main.cpp again with
# `pkg-config nicsim`), runs it and compares every metric it prints with the
# installed `nicsim run` on the same scenario: the example's own memory target
# must give exactly nicsim's results. Then runs the example's sweep program
# (sweep.c, the study library from C) and compares its results.csv with the
# installed `nicsim sweep`'s. Prints "install test: OK" on success.
cmake_minimum_required(VERSION 3.25)

function(fail msg)
  message(FATAL_ERROR "install test: ${msg}")
endfunction()

# run(<what> COMMAND...): runs a command, fails with its output unless it exits 0.
function(run what)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    fail("${what} failed (${rc}):\n${out}\n${err}")
  endif()
  set(run_out "${out}" PARENT_SCOPE)
endfunction()

set(prefix ${WORK_DIR}/prefix)
file(REMOVE_RECURSE ${WORK_DIR})
file(MAKE_DIRECTORY ${WORK_DIR})

# 1. Install.
run("cmake --install" ${CMAKE_COMMAND} --install ${BUILD_DIR} --prefix ${prefix} --config ${CONFIG})
set(libdir ${LIBDIR}) # CMAKE_INSTALL_LIBDIR of the build
foreach(f bin/nicsim ${libdir}/libnicsim_models.a ${libdir}/libnicsim_kernel.a ${libdir}/libnicsim_drivers.a
          ${libdir}/libnicsim_study.a include/nicsim/study/study.h
          ${libdir}/cmake/nicsim/nicsimConfig.cmake ${libdir}/cmake/nicsim/nicsimConfigVersion.cmake
          ${libdir}/pkgconfig/nicsim.pc
          include/nicsim/common/tlp.h include/nicsim/nic/nic_device.h include/nicsim/pcie/pcie_link.h
          include/nicsim/cpu/cpu_core.h include/nicsim/memory/host_memory_if.h include/nicsim/config/config.h
          include/nicsim/kernel/kernel.h
          share/man/man1/nicsim.1 share/nicsim/configs/platforms/x86-gen3.yaml share/nicsim/scenarios/default.yaml
          share/nicsim/scenarios/seeds/lan743x-dspace.yaml share/nicsim/examples/embed/CMakeLists.txt)
  if(NOT EXISTS ${prefix}/${f})
    fail("${f} is not installed")
  endif()
endforeach()
# Internal headers stay out.
foreach(f kernel/kernel_priv.h config/config_internal.h results/output_private.h sim/top.h sim/sim.h cli/cli.h
          drivers/driver.h study/study_internal.h study/regress_suite.h)
  if(EXISTS ${prefix}/include/nicsim/${f})
    fail("internal header ${f} is installed")
  endif()
endforeach()
file(READ ${prefix}/share/man/man1/nicsim.1 man)
if(NOT man MATCHES "\\.TH NICSIM 1")
  fail("share/man/man1/nicsim.1 is not a section-1 man page")
endif()
run("installed nicsim --version" ${prefix}/bin/nicsim --version)

# 2. Build the installed example against the prefix only (no source tree).
set(launcher "")
if(LAUNCHER)
  set(launcher -DCMAKE_CXX_COMPILER_LAUNCHER=${LAUNCHER} -DCMAKE_C_COMPILER_LAUNCHER=${LAUNCHER})
endif()
run("configuring examples/embed"
    ${CMAKE_COMMAND} -S ${prefix}/share/nicsim/examples/embed -B ${WORK_DIR}/embed
    -DCMAKE_PREFIX_PATH=${prefix} -DCMAKE_CXX_COMPILER=${CXX} -DCMAKE_C_COMPILER=${CC} ${launcher}
    -DCMAKE_BUILD_TYPE=${BUILD_TYPE} "-DCMAKE_CXX_FLAGS=-Wall -Wextra -Werror ${EXTRA_FLAGS}"
    "-DCMAKE_C_FLAGS=-Wall -Wextra -Werror ${EXTRA_FLAGS}")
run("building examples/embed" ${CMAKE_COMMAND} --build ${WORK_DIR}/embed)
set(embed ${WORK_DIR}/embed/nicsim_embed)

# The same example through pkg-config alone.
find_program(PKG_CONFIG pkg-config REQUIRED)
set(ENV{PKG_CONFIG_PATH} "${prefix}/${libdir}/pkgconfig:$ENV{PKG_CONFIG_PATH}")
run("pkg-config nicsim" ${PKG_CONFIG} --cflags --libs nicsim)
string(STRIP "${run_out}" pc_flags)
separate_arguments(pc_flags UNIX_COMMAND "${pc_flags}")
separate_arguments(extra UNIX_COMMAND "${EXTRA_FLAGS}")
run("building examples/embed with pkg-config"
    ${LAUNCHER} ${CXX} -std=c++17 ${extra} -o ${WORK_DIR}/nicsim_embed_pc
    ${prefix}/share/nicsim/examples/embed/main.cpp ${pc_flags})

# 3. Run both and compare with the installed nicsim: every metric the example
# reports must equal nicsim's (same scenario, same --set values), but the two
# that measure the simulator rather than the model: wall-clock time and the
# SystemC kernel's activations (another platform, another count).
set(ENV{SYSTEMC_DISABLE_COPYRIGHT_MESSAGE} 1)
set(short --set run.duration_us=300 --set run.warmup_us=50)
# Cases: scenario[:point]. The generic driver on RX; lan743x (bidirectional,
# PCIe Gen1 x1); i40e with relaxed ordering on a serialising root complex (RO
# TLPs); stmmac on TX with coalescing.
set(cases "default" "seeds/lan743x-dspace:after/x64" "seeds/i40e-relaxed-ordering:after/sparc"
    "seeds/stmmac-coalesce:after/xgmac")
foreach(c IN LISTS cases)
  string(REPLACE ":" ";" parts "${c}")
  list(GET parts 0 scenario)
  set(point "")
  list(LENGTH parts np)
  if(np GREATER 1)
    list(GET parts 1 label)
    set(point --point ${label})
  endif()
  string(MAKE_C_IDENTIFIER "${c}" tag)
  set(sc ${prefix}/share/nicsim/scenarios/${scenario}.yaml)
  run("nicsim run ${c}" ${prefix}/bin/nicsim run ${sc} ${point} ${short} -q --json ${WORK_DIR}/${tag}.ref.json)
  run("nicsim_embed ${c}" ${embed} ${sc} ${point} ${short} --json ${WORK_DIR}/${tag}.embed.json)
  if(NOT run_out MATCHES "Throughput" OR NOT run_out MATCHES "\n  rx.gbps [0-9.]+ Gbit/s\n")
    fail("nicsim_embed ${c} printed no summary or metrics:\n${run_out}")
  endif()
  file(READ ${WORK_DIR}/${tag}.ref.json ref)
  file(READ ${WORK_DIR}/${tag}.embed.json got)
  string(JSON n LENGTH "${got}" metrics)
  if(n LESS 90)
    fail("nicsim_embed ${c} reported only ${n} metrics")
  endif()
  math(EXPR last "${n} - 1")
  foreach(i RANGE ${last})
    string(JSON name MEMBER "${got}" metrics ${i})
    if(name STREQUAL "sim.wall_s" OR name STREQUAL "sim.events")
      continue()
    endif()
    string(JSON v GET "${got}" metrics ${name})
    string(JSON r ERROR_VARIABLE e GET "${ref}" metrics ${name})
    if(e OR NOT v STREQUAL r)
      fail("${c}: ${name} is ${v} embedded but ${r} in nicsim run")
    endif()
  endforeach()
  string(JSON frames GET "${got}" metrics total.rx.received)
  string(JSON sent GET "${got}" metrics total.tx.sent)
  if(frames EQUAL 0 AND sent EQUAL 0)
    fail("${c}: no traffic moved")
  endif()
  string(JSON rx GET "${got}" metrics rx.gbps)
  string(JSON tx GET "${got}" metrics tx.gbps)
  string(JSON ro GET "${got}" metrics pcie.up.ro_tlps)
  message(STATUS "${c}: ${n} metrics equal nicsim run's (rx.gbps ${rx}, tx.gbps ${tx}, pcie.up.ro_tlps ${ro})")
endforeach()
run("pkg-config build of nicsim_embed" ${WORK_DIR}/nicsim_embed_pc ${short} --json ${WORK_DIR}/pc.json)
file(READ ${WORK_DIR}/pc.json pc)
file(READ ${WORK_DIR}/default.embed.json cm) # the first case
string(JSON a GET "${pc}" metrics rx.gbps)
string(JSON b GET "${cm}" metrics rx.gbps)
if(NOT a STREQUAL b)
  fail("the pkg-config build gives rx.gbps ${a}, the CMake build ${b}")
endif()

# A platform on the SoC bus is refused with a clear error (exit 2).
execute_process(COMMAND ${embed} ${prefix}/share/nicsim/scenarios/seeds/stmmac-rx-align.yaml
                RESULT_VARIABLE rc OUTPUT_QUIET ERROR_VARIABLE err)
if(NOT rc EQUAL 2 OR NOT err MATCHES "bus.enabled")
  fail("nicsim_embed on a bus platform: exit ${rc}, expected 2 with a message:\n${err}")
endif()
# 4. The study library from C: the installed examples/embed/sweep.c runs a
# two-point sweep; its results.csv must equal the installed `nicsim sweep`'s
# (but for the wall-clock column).
file(WRITE ${WORK_DIR}/two.yaml
     "name: install-two\nplatform: x86-gen3\nrun: {duration_us: 100, warmup_us: 20, drain_us: 1000}\n"
     "sweep:\n  axes:\n    nic.desc_spacing: [16, 64]\n")
run("nicsim_embed_sweep" ${WORK_DIR}/embed/nicsim_embed_sweep ${WORK_DIR}/two.yaml ${WORK_DIR}/two-embed
    traffic.frame_bytes=256)
if(NOT run_out MATCHES "nic.desc_spacing=64" OR NOT EXISTS ${WORK_DIR}/two-embed/report.md)
  fail("nicsim_embed_sweep printed no sweep table or wrote no report:\n${run_out}")
endif()
run("nicsim sweep" ${prefix}/bin/nicsim sweep ${WORK_DIR}/two.yaml -q -j 2 -o ${WORK_DIR}/two-ref
    --set traffic.frame_bytes=256)
# The CSV without its sim.wall_s column (no field holds a comma or a semicolon).
function(csv_without_wall path out)
  file(STRINGS ${path} lines)
  list(GET lines 0 head)
  string(REPLACE "," ";" head "${head}")
  list(FIND head sim.wall_s col)
  if(col LESS 0)
    fail("${path} has no sim.wall_s column")
  endif()
  set(text "")
  foreach(l IN LISTS lines)
    string(REPLACE "," ";" f "${l}")
    list(REMOVE_AT f ${col})
    string(APPEND text "${f}\n")
  endforeach()
  set(${out} "${text}" PARENT_SCOPE)
endfunction()
csv_without_wall(${WORK_DIR}/two-embed/results.csv got)
csv_without_wall(${WORK_DIR}/two-ref/results.csv ref)
if(NOT got STREQUAL ref)
  fail("nicsim_embed_sweep's results.csv differs from nicsim sweep's:\n${got}\n---\n${ref}")
endif()
string(REGEX MATCHALL "\n" rows "${got}")
list(LENGTH rows nrows)
if(NOT nrows EQUAL 3)
  fail("nicsim_embed_sweep's results.csv has ${nrows} lines, not 3:\n${got}")
endif()
message(STATUS "study library: nicsim_embed_sweep's results.csv equals nicsim sweep's")
message("install test: OK")
