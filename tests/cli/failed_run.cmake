# A run that fails (exit status 1) or is refused (2) must not leave a
# half-written -o file, and must not clobber a file already there: results
# go to a temporary name renamed only on success.
include(${CMAKE_CURRENT_LIST_DIR}/lib/expect.cmake)
file(REMOVE_RECURSE "${WORK}")
file(MAKE_DIRECTORY "${WORK}")
set(out "${WORK}/out.csv")

# Division by zero at start-up: PRODUCT [1 -1] of 1 and 0.
expect_fail(1 "div" run "${E2E}/cli_fail_divzero.xml" -o "${out}")
if(EXISTS "${out}")
  message(FATAL_ERROR "a failed run (division by zero) left ${out}")
endif()

# Finite-time blow-up: x' = x^2, x(0) = 1 explodes at t = 1 < final time 2.
expect_fail(1 "." run "${E2E}/cli_fail_blowup.xml" -o "${out}")
if(EXISTS "${out}")
  message(FATAL_ERROR "a failed run (blow-up) left ${out}")
endif()

# Bad input with -o: no file either.
expect_fail(2 "NOSUCHBLOCK" run "${E2E}/cli_bad_type.xml" -o "${out}")
if(EXISTS "${out}")
  message(FATAL_ERROR "a refused run (bad input) left ${out}")
endif()

# An existing file is left as it was by a failed run.
file(WRITE "${out}" "previous\n")
expect_fail(1 "div" run "${E2E}/cli_fail_divzero.xml" -o "${out}")
file(READ "${out}" content)
if(NOT content STREQUAL "previous\n")
  message(FATAL_ERROR "a failed run changed the existing ${out}:\n${content}")
endif()
file(GLOB left "${WORK}/*")
if(NOT left STREQUAL "${out}")
  message(FATAL_ERROR "temporary files left in ${WORK}: ${left}")
endif()
