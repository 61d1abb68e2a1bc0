# install.cmake: `cmake --install` rules (docs/embedding.md): the static
# libraries as the exported targets nicsim::{study,models,sim,results,drivers,
# kernel,config,net}, the public headers under include/nicsim/, the CMake package
# (find_package(nicsim)), nicsim.pc, the nicsim binary, the example platforms
# and scenarios (share/nicsim/) and the man page. Included by the top-level
# CMakeLists.txt after every library target exists.
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

set(NICSIM_INSTALL_CMAKEDIR ${CMAKE_INSTALL_LIBDIR}/cmake/nicsim
    CACHE STRING "Where the CMake package (nicsimConfig.cmake) is installed, relative to the prefix")
mark_as_advanced(NICSIM_INSTALL_CMAKEDIR)

# Libraries: nicsim_study and everything it links that is built here (sim,
# models, drivers, kernel, results, config, net, and any library added later), found
# by walking LINK_LIBRARIES, so a new dependency cannot break the export.
# Each is exported as nicsim::<name without the nicsim_ prefix>.
function(nicsim_collect_libs target)
  get_target_property(type ${target} TYPE)
  if(NOT type MATCHES "LIBRARY$" OR type STREQUAL "INTERFACE_LIBRARY" OR ${target} IN_LIST NICSIM_INSTALL_LIBS)
    return()
  endif()
  get_target_property(imported ${target} IMPORTED)
  if(imported)
    return()
  endif()
  list(APPEND NICSIM_INSTALL_LIBS ${target})
  set(NICSIM_INSTALL_LIBS ${NICSIM_INSTALL_LIBS} PARENT_SCOPE)
  get_target_property(deps ${target} LINK_LIBRARIES)
  foreach(d IN LISTS deps)
    if(TARGET ${d})
      nicsim_collect_libs(${d})
    endif()
  endforeach()
  # Post-order: a library comes after everything it uses.
  list(APPEND NICSIM_INSTALL_LIBS_POST ${target})
  set(NICSIM_INSTALL_LIBS ${NICSIM_INSTALL_LIBS} PARENT_SCOPE)
  set(NICSIM_INSTALL_LIBS_POST ${NICSIM_INSTALL_LIBS_POST} PARENT_SCOPE)
endfunction()
set(NICSIM_INSTALL_LIBS "")
set(NICSIM_INSTALL_LIBS_POST "")
nicsim_collect_libs(nicsim_study)
# Static link order for nicsim.pc: users first (-lnicsim_sim ... -lnicsim_net).
set(NICSIM_PC_LIBS "")
list(REVERSE NICSIM_INSTALL_LIBS_POST)
foreach(lib IN LISTS NICSIM_INSTALL_LIBS_POST)
  string(APPEND NICSIM_PC_LIBS " -l${lib}")
endforeach()

# The libraries name the source tree as their include directory; in the
# installed package that is include/nicsim (headers keep their paths, e.g.
# "pcie/pcie_link.h") plus include (for <nicsim/pcie/pcie_link.h>).
foreach(lib IN LISTS NICSIM_INSTALL_LIBS)
  get_target_property(dirs ${lib} INTERFACE_INCLUDE_DIRECTORIES)
  set(wrapped "")
  foreach(d IN LISTS dirs)
    if(d MATCHES "^\\$<")
      list(APPEND wrapped "${d}")
    else()
      list(APPEND wrapped "$<BUILD_INTERFACE:${d}>")
    endif()
  endforeach()
  list(APPEND wrapped "$<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}/nicsim>"
       "$<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>")
  set_property(TARGET ${lib} PROPERTY INTERFACE_INCLUDE_DIRECTORIES "${wrapped}")
  string(REGEX REPLACE "^nicsim_" "" short ${lib})
  set_property(TARGET ${lib} PROPERTY EXPORT_NAME ${short})
endforeach()

install(TARGETS ${NICSIM_INSTALL_LIBS} EXPORT nicsimTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR})
install(EXPORT nicsimTargets NAMESPACE nicsim:: FILE nicsimTargets.cmake
        DESTINATION ${NICSIM_INSTALL_CMAKEDIR})
set(NICSIM_INSTALL_DATADIR ${CMAKE_INSTALL_DATADIR}/nicsim) # platforms, scenarios, examples
configure_package_config_file(${CMAKE_SOURCE_DIR}/cmake/nicsimConfig.cmake.in
                              ${CMAKE_BINARY_DIR}/generated/nicsimConfig.cmake
                              INSTALL_DESTINATION ${NICSIM_INSTALL_CMAKEDIR}
                              PATH_VARS NICSIM_INSTALL_DATADIR)
# 0.x: minor versions may change the API (docs/embedding.md, "Stability").
write_basic_package_version_file(${CMAKE_BINARY_DIR}/generated/nicsimConfigVersion.cmake
                                 VERSION ${PROJECT_VERSION} COMPATIBILITY SameMinorVersion)
install(FILES ${CMAKE_BINARY_DIR}/generated/nicsimConfig.cmake
              ${CMAKE_BINARY_DIR}/generated/nicsimConfigVersion.cmake
        DESTINATION ${NICSIM_INSTALL_CMAKEDIR})

# pkg-config: the prefix is the install prefix at install time (CMAKE_INSTALL_PREFIX,
# or `cmake --install --prefix P`), so the file is written by an install script.
install(CODE "
  set(NICSIM_PC_PREFIX \"\${CMAKE_INSTALL_PREFIX}\")
  set(NICSIM_PC_LIBDIR \"${CMAKE_INSTALL_LIBDIR}\")
  set(NICSIM_PC_INCLUDEDIR \"${CMAKE_INSTALL_INCLUDEDIR}\")
  set(NICSIM_PC_DATADIR \"${CMAKE_INSTALL_DATADIR}\")
  set(NICSIM_PC_LIBS \"${NICSIM_PC_LIBS}\")
  set(NICSIM_PC_VERSION \"${PROJECT_VERSION}\")
  configure_file(\"${CMAKE_SOURCE_DIR}/cmake/nicsim.pc.in\" \"${CMAKE_BINARY_DIR}/generated/nicsim.pc\" @ONLY)
  file(INSTALL \"${CMAKE_BINARY_DIR}/generated/nicsim.pc\"
       DESTINATION \"\${CMAKE_INSTALL_PREFIX}/${CMAKE_INSTALL_LIBDIR}/pkgconfig\")
")

# Public headers (docs/embedding.md, "Stable public API"): the module classes
# and their parameters, the TLM boundary (TlpExt), the config API, the kernel
# API and platform ops the CPU core runs the C driver on, the metric
# catalogue and writers, the statistics framework and a run's fill
# (sim/stats_results.h), and the study library's API (study.h). This list is closed under #include: the install test
# builds examples/embed against the installed tree only. Internal headers
# (kernel_priv.h, config_internal.h, the drivers, the CLI, sim/top.h,
# study_internal.h) stay out.
set(NICSIM_PUBLIC_HEADERS
    models/bus/axi_bus.h
    models/bus/axi_counters.h
    models/bus/axi_reg_port.h
    models/common/dma_path_stats.h
    models/common/dma_purpose.h
    models/common/lookahead.h
    models/common/mem_access.h
    models/common/params.h
    models/common/split_read.h
    models/common/stats.h
    models/common/tlp.h
    models/common/waited_event.h
    models/cpu/cache.h
    models/cpu/cpu_core.h
    models/cpu/cpu_counters.h
    models/cpu/cpu_stats.h
    models/cpu/host_app.h
    models/cpu/host_stack.h
    models/cpu/irq_controller.h
    models/cpu/kernel_locks.h
    models/cpu/kernel_scheduler.h
    models/cpu/memcpy_cost.h
    models/cpu/softirq.h
    models/cpu/quantum_keeper.h
    models/cpu/wc_buffers.h
    models/dma/desc_codec.h
    models/dma/desc_ring.h
    models/dma/dma_arbiter.h
    models/dma/dma_counters.h
    models/dma/dma_engine.h
    models/dma/dma_xfer.h
    models/dma/irq_moderator.h
    models/dma/nic_clock.h
    models/dma/read_tag_pool.h
    models/mac/byte_fifo.h
    models/mac/frame_sink.h
    models/mac/mac.h
    models/mac/mac_counters.h
    models/memory/dram_channel.h
    models/memory/host_memory.h
    models/memory/host_memory_if.h
    models/memory/iommu.h
    models/memory/region_map.h
    models/nic/nic_device.h
    models/common/ps_time.h
    models/pcie/flow_control.h
    models/pcie/latency_hist.h
    models/pcie/pcie_counters.h
    models/pcie/pcie_direction.h
    models/pcie/pcie_link.h
    models/pcie/pcie_params.h
    models/pcie/posted_write_queue.h
    models/pcie/time_ring.h
    models/pcie/tlp_format.h
    models/traffic/tcp_sack.h
    models/traffic/wire_peer.h
    models/traffic/wire_peer_counters.h
    models/workload/dma_bench.h
    src/config/config.h
    src/config/schema.h
    src/kernel/dql.h
    src/kernel/icount.h
    src/kernel/kernel.h
    src/kernel/platform.h
    src/net/frame.h
    src/results/metrics.h
    src/results/output.h
    src/sim/model_params.h
    src/sim/stats_results.h
    src/study/study.h)
foreach(h IN LISTS NICSIM_PUBLIC_HEADERS)
  string(REGEX REPLACE "^(models|src)/" "" rel ${h})
  get_filename_component(dir ${rel} DIRECTORY)
  install(FILES ${CMAKE_SOURCE_DIR}/${h} DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/nicsim/${dir})
endforeach()

install(TARGETS nicsim RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(DIRECTORY ${CMAKE_SOURCE_DIR}/configs/platforms DESTINATION ${CMAKE_INSTALL_DATADIR}/nicsim/configs
        FILES_MATCHING PATTERN "*.yaml")
install(DIRECTORY ${CMAKE_SOURCE_DIR}/scenarios/ DESTINATION ${CMAKE_INSTALL_DATADIR}/nicsim/scenarios
        FILES_MATCHING PATTERN "*.yaml")
install(DIRECTORY ${CMAKE_SOURCE_DIR}/examples/embed/ DESTINATION ${CMAKE_INSTALL_DATADIR}/nicsim/examples/embed)
install(FILES ${CMAKE_SOURCE_DIR}/docs/nicsim.1 DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)
install(FILES ${CMAKE_SOURCE_DIR}/docs/embedding.md DESTINATION ${CMAKE_INSTALL_DOCDIR})
