# The installed package works on its own: blocksim is installed into a
# temporary prefix, examples/plugin is configured and built against that
# prefix only (find_package(blocksim), CMake's package registry off), and
# the installed command and the example's embedding program run the
# example's diagram with the example's plugin. run_tank checks every
# sample against the closed form to 1e-6; the command's last row is
# checked here too (h(20) = 0.98502, the same 1e-6). pkg-config's file is
# checked by compiling the embedding program with its flags alone. The
# installed command finds its optional modules (HDF5 files, plots) in the
# prefix.
# Run with -DBUILD=<blocksim build> -DSOURCE=<source> -DWORK=<scratch>
# -DGENERATOR=<generator> [-DFLAGS=<C flags, e.g. sanitizers>]
# [-DCC=<the library's C compiler>: a sanitizer build's plugin must link
# the same sanitizer runtime as the command that loads it].
file(REMOVE_RECURSE "${WORK}")
set(prefix "${WORK}/prefix")

function(run what)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out
    ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${what} failed (${rc}):\n${out}\n${err}")
  endif()
  set(RUN_OUT "${out}" PARENT_SCOPE)
endfunction()

run("install" "${CMAKE_COMMAND}" --install "${BUILD}" --prefix "${prefix}")
foreach(f bin/blocksim include/blocksim/blocksim.h include/blocksim/version.h
          include/blocksim/scicos/scicos_block4.h share/man/man1/blocksim.1
          share/doc/blocksim/extending.md)
  if(NOT EXISTS "${prefix}/${f}")
    message(FATAL_ERROR "not installed: ${f}")
  endif()
endforeach()
file(GLOB libdir "${prefix}/lib*")
file(GLOB_RECURSE pc "${prefix}/*/blocksim.pc")
file(GLOB_RECURSE static "${prefix}/*/libblocksim.a")
file(GLOB_RECURSE shared "${prefix}/*/libblocksim.so.*")
if(NOT pc OR NOT static OR NOT shared)
  message(FATAL_ERROR "missing from ${libdir}: blocksim.pc, libblocksim.a or "
    "libblocksim.so.N (${pc} ${static} ${shared})")
endif()

set(ex "${WORK}/example")
set(compiler "")
if(CC)
  set(compiler "-DCMAKE_C_COMPILER=${CC}")
endif()
run("configure the example" "${CMAKE_COMMAND}" -S "${SOURCE}/examples/plugin"
  -B "${ex}" -G "${GENERATOR}" "-DCMAKE_PREFIX_PATH=${prefix}"
  -DCMAKE_FIND_USE_PACKAGE_REGISTRY=OFF -DCMAKE_BUILD_TYPE=Release
  "-DCMAKE_C_FLAGS=${FLAGS}" ${compiler})
run("build the example" "${CMAKE_COMMAND}" --build "${ex}")

set(plugin "${ex}/tank_blocks.so")
run("run_tank" "${ex}/run_tank" "${SOURCE}/examples/plugin/tank.xml" "${plugin}")
message(STATUS "${RUN_OUT}")
run("the installed blocksim" "${prefix}/bin/blocksim" run
  "${SOURCE}/examples/plugin/tank.xml" --blocks "${plugin}")
string(REGEX MATCH "\n20,([0-9.e+-]+)" last "${RUN_OUT}")
if(NOT CMAKE_MATCH_1 MATCHES "^0\\.98(5019|5020)")
  message(FATAL_ERROR "h(20) = '${CMAKE_MATCH_1}', want 0.9850200 (1e-6)")
endif()
file(GLOB modules "${prefix}/lib*/blocksim-modules/*.so"
     "${prefix}/lib*/*/blocksim-modules/*.so")
if(NOT modules MATCHES "/hdf5\\.so" OR NOT modules MATCHES "/plot\\.so")
  message(FATAL_ERROR "the optional modules are not installed: ${modules}")
endif()
run("the installed blocksim's modules" "${prefix}/bin/blocksim" run
  "${SOURCE}/examples/plugin/tank.xml" --blocks "${plugin}"
  -o "${WORK}/tank.h5" --plot "${WORK}/tank.png")
if(NOT EXISTS "${WORK}/tank.h5" OR NOT EXISTS "${WORK}/tank.png")
  message(FATAL_ERROR "the installed blocksim wrote no tank.h5 or tank.png")
endif()
run("blocksim --version" "${prefix}/bin/blocksim" --version)
if(NOT RUN_OUT MATCHES "^blocksim ${VERSION} ")
  message(FATAL_ERROR "installed --version says: ${RUN_OUT}")
endif()

find_program(PKG_CONFIG pkg-config)
if(PKG_CONFIG)
  get_filename_component(pcdir "${pc}" DIRECTORY)
  set(ENV{PKG_CONFIG_PATH} "${pcdir}")
  run("pkg-config" "${PKG_CONFIG}" --cflags --libs blocksim)
  string(STRIP "${RUN_OUT}" flags)
  separate_arguments(flags UNIX_COMMAND "${flags}")
  separate_arguments(extra UNIX_COMMAND "${FLAGS}")
  if(NOT CC)
    set(CC cc)
  endif()
  run("cc with pkg-config's flags" "${CC}" ${extra}
    "${SOURCE}/examples/plugin/run_tank.c" ${flags} -lm
    "-Wl,-rpath,${pcdir}/.." -o "${WORK}/run_tank_pc")
  run("run_tank built with pkg-config" "${WORK}/run_tank_pc"
    "${SOURCE}/examples/plugin/tank.xml" "${plugin}")
endif()
