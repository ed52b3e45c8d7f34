# `blocksim run --scopes DIR` with the sinks of Xcos's Sinks palette: the
# columns of each record are named as Xcos's recorder (xcos_ref) names
# them, and a sink that is never activated still gets its file, header
# only (as Scilab's recorder writes one). tests/unit/test_blocks_sinks*.c
# hold the blocks' own numbers.
include(${CMAKE_CURRENT_LIST_DIR}/lib/expect.cmake)
file(REMOVE_RECURSE "${WORK}")
file(MAKE_DIRECTORY "${WORK}")
set(S "${DATA}/sinks")

# A 2-vector into CSCOPE: u1_1, u1_2; rows at 0.5, 1, 1.5, 2 (tf = 2).
expect_ok(run "${S}/names.xml" --scopes "${WORK}/names")
file(READ "${WORK}/names/vec.csv" vec)
expect_csv("${vec}" "time,u1_1,u1_2" 4 "vector scope")
list(GET CSV_ROWS 0 r)
expect_match("${r}" "^0[.]5,0[.]5,7$" "vector scope: first row")
# The CMSCOPE's clock first ticks at t = 100: header, no rows.
file(READ "${WORK}/names/never.csv" never)
expect_csv("${never}" "time,u1,u2" 0 "never-activated scope")
