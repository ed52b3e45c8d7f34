# `mpirun -n 2 blocksim sweep --mpi` (registered only when blocksim is
# built with MPI): the study equals the one a single process writes, every
# rank ran members (dynamic load balancing hands them out in chunks). Run
# with MPIEXEC (mpirun), as root too (OMPI_ALLOW_RUN_AS_ROOT in the test's
# environment).
include(${CMAKE_CURRENT_LIST_DIR}/../cli/lib/expect.cmake)
file(REMOVE_RECURSE "${WORK}")
file(MAKE_DIRECTORY "${WORK}")
set(member "${DATA}/batch/member.xml")
find_program(H5DIFF h5diff REQUIRED)
set(grid --param "Kp=linspace(1,3,8)" --param "Ki=linspace(1,3,8)")

expect_ok(sweep "${member}" ${grid} -o "${WORK}/one.h5" --jobs 2)
execute_process(COMMAND "${MPIEXEC}" --allow-run-as-root --oversubscribe -n 2
                        "${BLOCKSIM}" sweep "${member}" ${grid}
                        -o "${WORK}/mpi.h5" --mpi --progress
                RESULT_VARIABLE st OUTPUT_VARIABLE out ERROR_VARIABLE err
                TIMEOUT 300)
if(NOT st EQUAL 0)
  message(FATAL_ERROR "mpirun -n 2 blocksim sweep --mpi: status ${st}\n${out}${err}")
endif()
if(NOT err MATCHES "members per rank: 0:([0-9]+) 1:([0-9]+)")
  message(FATAL_ERROR "no per-rank count in:\n${err}")
endif()
math(EXPR total "${CMAKE_MATCH_1} + ${CMAKE_MATCH_2}")
if(NOT total EQUAL 64 OR CMAKE_MATCH_2 EQUAL 0)
  message(FATAL_ERROR "ranks ran ${CMAKE_MATCH_1} and ${CMAKE_MATCH_2} of 64 members")
endif()
execute_process(COMMAND "${H5DIFF}" --exclude-path /summary/wall_seconds
                        "${WORK}/one.h5" "${WORK}/mpi.h5"
                RESULT_VARIABLE st OUTPUT_VARIABLE out)
if(NOT st EQUAL 0)
  message(FATAL_ERROR "the MPI study differs from one process's:\n${out}")
endif()
