# `blocksim run -o` in each format, chosen by extension or --format, and
# --scopes likewise; the files' contents are checked number by number in
# tests/unit/test_result_files.c, here the choice of format, the files
# made, and the refusals (status 2, a message, no file left).
include(${CMAKE_CURRENT_LIST_DIR}/lib/expect.cmake)
file(REMOVE_RECURSE "${WORK}")
file(MAKE_DIRECTORY "${WORK}")
set(member "${DATA}/batch/member.xml")


set(HDF5_MAGIC "894844460d0a1a0a") # \211HDF\r\n\032\n
set(MAT_MAGIC "4d41544c414220352e30") # "MATLAB 5.0"

# By extension.
expect_ok(run "${member}" -o "${WORK}/a.mat" --scopes "${WORK}/sm")
expect_file_head("${WORK}/a.mat" "${MAT_MAGIC}" "-o a.mat")
expect_file_head("${WORK}/sm/samples.mat" "${MAT_MAGIC}" "--scopes with -o .mat")
expect_ok(run "${member}" -o "${WORK}/a.h5" --scopes "${WORK}/sh")
expect_file_head("${WORK}/a.h5" "${HDF5_MAGIC}" "-o a.h5")
expect_file_head("${WORK}/sh/samples.h5" "${HDF5_MAGIC}" "--scopes with -o .h5")
expect_ok(run "${member}" -o "${WORK}/a.hdf5")
expect_file_head("${WORK}/a.hdf5" "${HDF5_MAGIC}" "-o a.hdf5")

# --format wins over the extension, and sets the scopes' format too.
expect_ok(run "${member}" -o "${WORK}/b.out" --format h5 --scopes "${WORK}/sb")
expect_file_head("${WORK}/b.out" "${HDF5_MAGIC}" "--format h5 -o b.out")
expect_file_head("${WORK}/sb/samples.h5" "${HDF5_MAGIC}" "--format h5 --scopes")
expect_ok(run "${member}" --format csv -o "${WORK}/c.mat")
file(READ "${WORK}/c.mat" text)
expect_match("${text}" "^time,y,u\n" "--format csv -o c.mat is CSV")
# An unknown extension stays CSV, as -o always wrote.
expect_ok(run "${member}" -o "${WORK}/d.txt" --scopes "${WORK}/sd")
file(READ "${WORK}/d.txt" text)
expect_match("${text}" "^time,y,u\n" "-o d.txt is CSV")
# y(3) = 0.99471024822 exactly (the discretised loop); rtol 1e-8 gives 7
# digits
expect_match("${text}" "\n3,0\\.994710[0-9]*," "last row of d.txt")
file(READ "${WORK}/sd/samples.csv" text)
expect_match("${text}" "^time,u1,u2\n" "--scopes without a format: CSV")

# Refusals: nothing is written.
expect_fail(2 "unknown --format 'xls'.*csv, mat, h5" run "${member}" --format xls -o "${WORK}/e.xls")
expect_fail(2 "--format mat writes a file.*-o" run "${member}" --format mat)
expect_fail(2 "cannot create '.*nodir/f\\.mat'.*hint" run "${member}" -o "${WORK}/nodir/f.mat")
expect_fail(2 "cannot create '.*nodir/f\\.h5'.*hint" run "${member}" -o "${WORK}/nodir/f.h5")
expect_fail(2 "cannot write a HDF5 file to '/dev/null'" run "${member}" -o /dev/null --format h5)
if(EXISTS "${WORK}/e.xls" OR EXISTS "${WORK}/nodir")
  message(FATAL_ERROR "a refused run left a file behind")
endif()
file(GLOB left "${WORK}/*tmp*")
if(left)
  message(FATAL_ERROR "temporary files left: ${left}")
endif()
