# `blocksim run`: CSV on stdout and in -o files, --stats, -p overrides and
# the sampling options, on the decay diagram x' = -k x (k = 0.5, x0 = 1,
# rtol 1e-8). Numbers are checked loosely (1e-6 relative, a hundred rtol:
# the unit tests hold the tight checks); here we check the plumbing.
include(${CMAKE_CURRENT_LIST_DIR}/lib/expect.cmake)
file(REMOVE_RECURSE "${WORK}")
file(MAKE_DIRECTORY "${WORK}")
set(decay "${E2E}/decay.xml")

# CSV on stdout: header, 101 rows from 0 to 10, values e^-t/2.
expect_ok(run "${decay}")
set(stdout_csv "${RUN_OUT}")
expect_csv("${RUN_OUT}" "time,x" 101 "run decay")
list(GET CSV_ROWS 0 r)
expect_match("${r}" "^0,1$" "first row (t = 0, x = x0 exactly)")
list(GET CSV_ROWS 10 r)
csv_field("${r}" 0 t)
csv_field("${r}" 1 x)
expect_near("${t}" 1 12 1 "time of row 10")
expect_near("${x}" 0.60653065971263342 9 607 "x(1) = e^-0.5 to 1e-6 relative")
list(GET CSV_ROWS 100 r)
csv_field("${r}" 0 t)
csv_field("${r}" 1 x)
expect_match("${t}" "^10$" "last time is final-time exactly")
expect_near("${x}" 0.006737946999085467 12 6738 "x(10) = e^-5 to 1e-6 relative")
# %.17g: a value like x(10) prints with at least 15 significant digits.
expect_match("${x}" "^0\\.00673794[0-9][0-9][0-9][0-9][0-9][0-9][0-9]" "full precision (%.17g)")

# -o writes the same CSV to the file, and nothing else is left behind
# (the temporary file was renamed).
expect_ok(run "${decay}" -o "${WORK}/decay.csv")
if(NOT EXISTS "${WORK}/decay.csv")
  message(FATAL_ERROR "-o ${WORK}/decay.csv: file not written")
endif()
file(READ "${WORK}/decay.csv" file_csv)
if(NOT file_csv STREQUAL stdout_csv)
  message(FATAL_ERROR "-o file differs from the CSV written to stdout:\n${file_csv}")
endif()
file(GLOB left "${WORK}/*")
if(NOT left STREQUAL "${WORK}/decay.csv")
  message(FATAL_ERROR "files left in ${WORK} after -o: ${left}")
endif()

# --stats: every statistic as "name: value" on stderr; CSV unchanged.
expect_ok(run "${decay}" --stats)
expect_csv("${RUN_OUT}" "time,x" 101 "run --stats")
foreach(stat steps residual-evals jacobian-evals nonlinear-iterations
             error-test-failures wall-seconds)
  expect_match("${RUN_ERR}" "(^|\n)${stat}: [0-9]" "--stats prints ${stat}")
endforeach()

# -p: a context variable, a block parameter, several at once.
expect_ok(run "${decay}" --tf 1 -p k=2)
expect_csv("${RUN_OUT}" "time,x" 101 "-p k=2")
list(GET CSV_ROWS 100 r)
csv_field("${r}" 0 t)
csv_field("${r}" 1 x)
expect_match("${t}" "^1$" "--tf 1: last time")
expect_near("${x}" 0.1353352832366127 9 136 "-p k=2: x(1) = e^-2")

expect_ok(run "${decay}" --tf 1 -p g.gain=-3)
expect_csv("${RUN_OUT}" "time,x" 101 "-p g.gain=-3")
list(GET CSV_ROWS 100 r)
csv_field("${r}" 1 x)
expect_near("${x}" 0.049787068367863944 9 50 "-p g.gain=-3: x(1) = e^-3")

expect_ok(run "${decay}" --tf 2 -p k=1 -p x.x0=2 -p g.gain=-k)
expect_csv("${RUN_OUT}" "time,x" 101 "several -p")
list(GET CSV_ROWS 100 r)
csv_field("${r}" 1 x)
expect_near("${x}" 0.2706705664732254 9 271 "-p k=1 -p x.x0=2: x(2) = 2 e^-2")

# --samples and --tf: times 0, 0.5, ..., 2.
expect_ok(run "${decay}" --samples 5 --tf 2)
expect_csv("${RUN_OUT}" "time,x" 5 "--samples 5 --tf 2")
set(i 0)
foreach(want 0 0.5 1 1.5 2)
  list(GET CSV_ROWS ${i} r)
  csv_field("${r}" 0 t)
  expect_near("${t}" ${want} 12 2 "--samples 5 --tf 2: time ${i}")
  math(EXPR i "${i} + 1")
endforeach()
list(GET CSV_ROWS 4 r)
csv_field("${r}" 1 x)
expect_near("${x}" 0.36787944117144233 9 368 "x(2) = e^-1")

# --log-spacing: 0, then tf 1e-3 .. tf with a constant ratio (10 here).
expect_ok(run "${decay}" --log-spacing --samples 5)
expect_csv("${RUN_OUT}" "time,x" 5 "--log-spacing --samples 5")
set(i 0)
foreach(want 0 0.01 0.1 1 10)
  list(GET CSV_ROWS ${i} r)
  csv_field("${r}" 0 t)
  expect_near("${t}" ${want} 12 5 "--log-spacing: time ${i}")
  math(EXPR i "${i} + 1")
endforeach()
list(GET CSV_ROWS 2 r)
csv_field("${r}" 1 x)
expect_near("${x}" 0.951229424500714 9 952 "log-spaced x(0.1) = e^-0.05")

# --rtol / --atol accepted.
expect_ok(run "${decay}" --rtol 1e-6 --atol 1e-9 --samples 3)
expect_csv("${RUN_OUT}" "time,x" 3 "--rtol --atol")

# Vector signals give one column per element.
expect_ok(run "${E2E}/clss.xml" --samples 3)
expect_csv("${RUN_OUT}" "time,y,x[1],x[2]" 3 "vector columns")

# --allow-nonfinite: a block output that overflows (1e308 t at t = 2) is
# written as inf instead of failing the run (tests/bad_input/
# output_inf_late.xml is the same diagram without the option: status 1).
get_filename_component(corpus "${DATA}/../bad_input" ABSOLUTE)
expect_ok(run "${corpus}/output_inf_late.xml" --allow-nonfinite)
expect_csv("${RUN_OUT}" "time,y" 4 "--allow-nonfinite")
list(GET CSV_ROWS 2 r)
expect_match("${r}" "^2,inf$" "--allow-nonfinite: y(2)")
