# The optional modules (modules/module.h): a blocksim whose modules folder
# is missing still runs everything that needs none of them, and each
# feature that needs one refuses with status 2, naming the feature, the
# module and the file it looked for, before writing anything. The command
# and its library are copied into a folder of their own and run from
# there (LD_LIBRARY_PATH takes the copied library before the build tree's
# RUNPATH), as an installation without its modules would be.
# Run with -DBLOCKSIM=<command> -DLIB=<libblocksim.so> -DSONAME=<its
# soname> -DDATA=<tests/data> -DPLUGINS=<test plugins> -DWORK=<scratch>.
file(REMOVE_RECURSE "${WORK}")
set(bare "${WORK}/bare")
file(MAKE_DIRECTORY "${bare}")
file(COPY "${BLOCKSIM}" DESTINATION "${bare}")
file(COPY_FILE "${LIB}" "${bare}/${SONAME}")
get_filename_component(name "${BLOCKSIM}" NAME)
set(BLOCKSIM "${bare}/${name}")
set(ENV{LD_LIBRARY_PATH} "${bare}")
include(${CMAKE_CURRENT_LIST_DIR}/../cli/lib/expect.cmake)

set(member "${DATA}/batch/member.xml")
set(where "${bare}/blocksim-modules")

# what needs no module: CSV results and records, native and .xcos files
expect_ok(run "${member}" -o "${WORK}/member.csv" --scopes "${WORK}/scopes")
expect_ok(run "${DATA}/xcos/cont/pid.xcos")

# a missing module: status 2, what needs it, the file tried, no output
function(expect_missing module feature)
  expect_fail(2 "${feature}blocksim's '${module}' module(, which)? cannot be loaded: ${where}/${module}.so: cannot open" ${ARGN})
  file(GLOB left "${WORK}/out*")
  if(left)
    message(FATAL_ERROR "a refused run left ${left}")
  endif()
endfunction()
expect_missing(hdf5 "the HDF5 format needs " run "${member}" -o "${WORK}/out.h5")
expect_missing(hdf5 "the HDF5 format needs " run "${member}" --scopes
               "${WORK}/out" -o "${WORK}/out.h5")
expect_missing(mat "the MAT format needs " run "${member}" -o "${WORK}/out.mat")
expect_missing(plot "--plot: " run "${member}" --plot
               "${WORK}/out.png")
expect_missing(plot "plotting needs " plot "${WORK}/member.csv" -o "${WORK}/out.svg")
expect_missing(hdf5 "the HDF5 format needs " sweep "${member}" --param
               "Kp=linspace(1,2,2)" -o "${WORK}/out.h5")
expect_missing(mpi "--mpi: " sweep "${member}" --param
               "Kp=linspace(1,2,2)" -o "${WORK}/out" --mpi)
expect_missing(klu "linear-solver=klu needs " run "${member}" --solver-param
               linear-solver=klu)
set(zcos "${DATA}/xcos/demos/OldGainTest/OldGainTest.orig.zcos")
expect_missing(zcos "OldGainTest.orig.zcos: reading a .zcos needs " run "${zcos}")
file(WRITE "${WORK}/eig.xml" [[<?xml version="1.0"?>
<diagram name="eig">
  <block id="a" type="CONST_m"><param name="value" value="[1 2;3 4]"/></block>
  <block id="e" type="MATEIG"/>
  <link from="a:1" to="e:1"/>
  <observe name="l" signal="e:1"/>
</diagram>
]])
expect_missing(lapack "eig.xml:4: block 'e' .MATEIG.: computing eigenvalues with LAPACK needs "
               run "${WORK}/eig.xml")

# a file that is no module of this blocksim
file(MAKE_DIRECTORY "${where}")
file(COPY_FILE "${PLUGINS}/test_good.so" "${where}/hdf5.so")
expect_fail(2 "the HDF5 format needs blocksim's 'hdf5' module, which cannot be loaded: ${where}/hdf5.so belongs to no blocksim, not to this library"
            run "${member}" -o "${WORK}/out.h5")
