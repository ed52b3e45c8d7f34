# Every class of bad input exits with status 2 and says what is wrong,
# naming the file and line, the block, the parameter or the option.
include(${CMAKE_CURRENT_LIST_DIR}/lib/expect.cmake)
file(REMOVE_RECURSE "${WORK}")
file(MAKE_DIRECTORY "${WORK}")
set(decay "${E2E}/decay.xml")

# Usage errors.
expect_fail(2 "[Uu]sage")
expect_fail(2 "frobnicate|[Uu]sage" frobnicate "${decay}")
expect_fail(2 "[Uu]nknown option.*--bogus.*[Uu]sage" run "${decay}" --bogus 1)
expect_fail(2 "--bogus" run "${decay}" --bogus)
expect_fail(2 "[Uu]sage|DIAGRAM|diagram" run)
expect_fail(2 "-o|[Uu]sage" run "${decay}" -o)
expect_fail(2 "-p|[Uu]sage|=" run "${decay}" -p k)

# Files.
expect_fail(2 "nosuch\\.xml" run "${WORK}/nosuch.xml")
expect_fail(2 "cli_bad_xml\\.xml:[0-9]+" run "${E2E}/cli_bad_xml.xml")
expect_fail(2 "cli_bad_schema\\.xml:[0-9]+" run "${E2E}/cli_bad_schema.xml")

# Blocks and parameters.
expect_fail(2 "NOSUCHBLOCK" run "${E2E}/cli_bad_type.xml")
expect_fail(2 "gainz" run "${E2E}/cli_bad_param.xml")
expect_fail(2 "cli_bad_expr\\.xml:[0-9]+.*gain" run "${E2E}/cli_bad_expr.xml")
expect_fail(2 "kk" run "${E2E}/cli_bad_var.xml")

# Connections.
expect_fail(2 "mismatch" run "${E2E}/cli_bad_size.xml")
expect_fail(2 "not connected" run "${E2E}/cli_bad_unconnected.xml")
expect_fail(2 "nosuch" run "${E2E}/cli_bad_link.xml")

# Options with bad values.
expect_fail(2 "nosuch" run "${decay}" -p nosuch.gain=1)
expect_fail(2 "gainz" run "${decay}" -p g.gainz=1)
expect_fail(2 "rtol" run "${decay}" --rtol abc)
expect_fail(2 "rtol|-1" run "${decay}" --rtol -1)
expect_fail(2 "samples" run "${decay}" --samples many)
expect_fail(2 "kk|column" run "${decay}" -p k=2*kk)

# An empty solver name silently meant the default engine (issue 10, item
# 14). CMake drops empty list elements, so the command is spelt out.
execute_process(COMMAND "${BLOCKSIM}" run "${decay}" --solver ""
  WORKING_DIRECTORY "${WORK}" RESULT_VARIABLE st ERROR_VARIABLE err
  OUTPUT_QUIET TIMEOUT 60)
if(NOT st STREQUAL "2" OR NOT err MATCHES "unknown solver ''")
  message(FATAL_ERROR "--solver \"\": status ${st}, stderr:\n${err}")
endif()

# None of these may leave anything behind in the working directory.
file(GLOB left "${WORK}/*")
if(left)
  message(FATAL_ERROR "bad input left files behind: ${left}")
endif()
