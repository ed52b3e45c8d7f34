# SUNDIALS for the library: Debian's package gives the API (headers, the
# version found above), but its binaries are compiled without optimisation
# (-O0: every SUNMatGetID a stack frame, 22 instructions per element in a
# vector operation), and the integrators' own code is most of what a run
# of a small diagram does. So, unless BSIM_BUILD_SUNDIALS is OFF, the
# same version is compiled here from Debian's source archive of it
# (checked against the SHA-256 of Debian's .dsc), at -O2, as static
# position-independent archives that the library links in and hides.
# Same code, same options that matter (double precision, 64-bit indices),
# so the same results bit for bit; whole runs take 15% to 30% fewer
# instructions (docs/architecture.md). When the archive cannot be had or
# built, the build says why and uses Debian's binaries.
#
# Sets BSIM_SUNDIALS_LIBS, what the library links (in the build tree the
# archives, in the installed package Debian's targets), and
# BSIM_SUNDIALS_DEBIAN, Debian's targets (for the modules: the klu one
# needs Debian's KLU solver, which is built against Debian's SUNDIALS).
option(BSIM_BUILD_SUNDIALS
  "Compile SUNDIALS from Debian's source archive at -O2 (Debian's binaries are -O0)" ON)
set(BSIM_SUNDIALS_MIRROR "http://deb.debian.org/debian/pool/main/s/sundials"
  CACHE STRING "where Debian's SUNDIALS source archives are")
# A copy of the archive already on the machine (offline builds).
set(BSIM_SUNDIALS_ARCHIVE "" CACHE FILEPATH
  "Debian's SUNDIALS source archive (.orig.tar.xz), instead of downloading it")

set(BSIM_SUNDIALS_DEBIAN SUNDIALS::ida SUNDIALS::cvode SUNDIALS::nvecserial
    SUNDIALS::sunlinsoldense SUNDIALS::sunlinsolband
    SUNDIALS::sunmatrixdense SUNDIALS::sunmatrixband SUNDIALS::sunmatrixsparse)
set(BSIM_SUNDIALS_LIBS ${BSIM_SUNDIALS_DEBIAN})

# Debian's source archives of the versions we know, with their SHA-256.
set(bsim_sundials_6.4.1_archive sundials_6.4.1+dfsg1.orig.tar.xz)
set(bsim_sundials_6.4.1_sha256
    c61157f1d4be06c704bea40cb131eb63ba2dada161989071604d0a0959cdf04a)

function(bsim_build_sundials result)
  set(${result} FALSE PARENT_SCOPE)
  set(v ${SUNDIALS_VERSION})
  if(NOT DEFINED bsim_sundials_${v}_archive)
    message(STATUS "SUNDIALS ${v}: no known source archive, using Debian's binaries")
    return()
  endif()
  set(dir ${CMAKE_BINARY_DIR}/_sundials)
  set(prefix ${dir}/install)
  if(EXISTS ${prefix}/lib/libsundials_ida.a
     AND EXISTS ${prefix}/lib/libsundials_cvode.a
     AND EXISTS ${prefix}/include/ida/ida_impl.h
     AND EXISTS ${prefix}/include/cvode/cvode_impl.h)
    set(${result} TRUE PARENT_SCOPE)
    return()
  endif()
  file(MAKE_DIRECTORY ${dir})
  set(archive ${dir}/${bsim_sundials_${v}_archive})
  set(sha ${bsim_sundials_${v}_sha256})
  if(BSIM_SUNDIALS_ARCHIVE)
    file(SHA256 ${BSIM_SUNDIALS_ARCHIVE} got)
    if(NOT got STREQUAL sha)
      message(WARNING "${BSIM_SUNDIALS_ARCHIVE} is not Debian's "
        "${bsim_sundials_${v}_archive} (SHA-256 differs): using Debian's binaries")
      return()
    endif()
    file(COPY_FILE ${BSIM_SUNDIALS_ARCHIVE} ${archive})
  elseif(NOT EXISTS ${archive})
    message(STATUS "SUNDIALS ${v}: downloading Debian's source archive")
    # (EXPECTED_HASH would make a failed download an error of the build)
    file(DOWNLOAD ${BSIM_SUNDIALS_MIRROR}/${bsim_sundials_${v}_archive}
      ${archive}.part TIMEOUT 600 STATUS st)
    list(GET st 0 code)
    list(GET st 1 why)
    if(code EQUAL 0)
      file(SHA256 ${archive}.part got)
      if(NOT got STREQUAL sha)
        set(code 1)
        set(why "not the archive of Debian's .dsc: SHA-256 ${got}")
      endif()
    endif()
    if(NOT code EQUAL 0)
      file(REMOVE ${archive}.part)
      message(WARNING "SUNDIALS ${v}: cannot download ${bsim_sundials_${v}_archive} "
        "from ${BSIM_SUNDIALS_MIRROR} (${why}): using Debian's binaries, "
        "which are unoptimised (hint: -DBSIM_SUNDIALS_ARCHIVE=FILE)")
      return()
    endif()
    file(RENAME ${archive}.part ${archive})
  endif()
  message(STATUS "SUNDIALS ${v}: compiling IDA and CVODE at -O2")
  file(REMOVE_RECURSE ${dir}/src ${dir}/build)
  file(ARCHIVE_EXTRACT INPUT ${archive} DESTINATION ${dir}/src)
  file(GLOB src LIST_DIRECTORIES true ${dir}/src/sundials-*)
  # Only what the library uses: no Fortran, MPI, examples or shared
  # objects; release flags without -g, so that the archives stay small.
  execute_process(
    COMMAND ${CMAKE_COMMAND} -S ${src} -B ${dir}/build
      -DCMAKE_C_COMPILER=${CMAKE_C_COMPILER}
      -DCMAKE_BUILD_TYPE=Release -DCMAKE_C_FLAGS_RELEASE=-O2
      -DCMAKE_POSITION_INDEPENDENT_CODE=ON
      -DBUILD_SHARED_LIBS=OFF -DBUILD_STATIC_LIBS=ON
      -DBUILD_ARKODE=OFF -DBUILD_CVODES=OFF -DBUILD_IDAS=OFF
      -DBUILD_KINSOL=OFF -DEXAMPLES_ENABLE_C=OFF -DEXAMPLES_INSTALL=OFF
      -DSUNDIALS_INDEX_SIZE=64 -DSUNDIALS_PRECISION=double
      -DCMAKE_INSTALL_PREFIX=${prefix} -DCMAKE_INSTALL_LIBDIR=lib
    OUTPUT_FILE ${dir}/configure.log ERROR_FILE ${dir}/configure.log
    RESULT_VARIABLE rc)
  if(rc EQUAL 0)
    cmake_host_system_information(RESULT ncpu QUERY NUMBER_OF_LOGICAL_CORES)
    execute_process(
      COMMAND ${CMAKE_COMMAND} --build ${dir}/build --target install
        --parallel ${ncpu}
      OUTPUT_FILE ${dir}/build.log ERROR_FILE ${dir}/build.log
      RESULT_VARIABLE rc)
  endif()
  if(NOT rc EQUAL 0)
    message(WARNING "SUNDIALS ${v}: building it failed (see ${dir}/*.log): "
      "using Debian's binaries")
    return()
  endif()
  # solvers/ida_carry.c and cvode_carry.c read IDA's and CVODE's private
  # memory, whose headers SUNDIALS' own install leaves out (Debian installs
  # IDA's, not CVODE's).
  file(COPY ${src}/src/ida/ida_impl.h DESTINATION ${prefix}/include/ida)
  file(COPY ${src}/src/cvode/cvode_impl.h ${src}/src/cvode/cvode_proj_impl.h
    DESTINATION ${prefix}/include/cvode)
  file(REMOVE_RECURSE ${dir}/src ${dir}/build)
  set(${result} TRUE PARENT_SCOPE)
endfunction()

if(BSIM_BUILD_SUNDIALS)
  bsim_build_sundials(bsim_sundials_ok)
  if(bsim_sundials_ok)
    set(prefix ${CMAKE_BINARY_DIR}/_sundials/install)
    # Each archive holds the shared parts too (vectors, matrices, linear
    # and nonlinear solvers); the linker takes each object once.
    add_library(bsim_sundials INTERFACE)
    target_include_directories(bsim_sundials SYSTEM BEFORE INTERFACE
      ${prefix}/include)
    target_link_libraries(bsim_sundials INTERFACE
      ${prefix}/lib/libsundials_ida.a ${prefix}/lib/libsundials_cvode.a m)
    set(BSIM_SUNDIALS_LIBS $<BUILD_INTERFACE:bsim_sundials>)
    foreach(t ${BSIM_SUNDIALS_DEBIAN})
      list(APPEND BSIM_SUNDIALS_LIBS $<INSTALL_INTERFACE:${t}>)
    endforeach()
  endif()
endif()
