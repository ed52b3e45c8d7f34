# `blocksim run --scopes DIR` with the sinks of Xcos's Sinks palette: the
# columns of each record are named as Xcos's recorder (xcos_ref) names
# them, and a sink that is never activated still gets its file, header
# only (as Scilab's recorder writes one). tests/unit/test_blocks_sinks*.c
# hold the blocks' own numbers.
include(${CMAKE_CURRENT_LIST_DIR}/lib/expect.cmake)
file(REMOVE_RECURSE "${WORK}")
file(MAKE_DIRECTORY "${WORK}")
set(S "${DATA}/sinks")

# A 2-vector into CSCOPE: u1_1, u1_2; rows at 0.5, 1, 1.5 (the tick due at
# tf = 2 is not served, as in Xcos).
expect_ok(run "${S}/names.xml" --scopes "${WORK}/names")
file(READ "${WORK}/names/vec.csv" vec)
expect_csv("${vec}" "time,u1_1,u1_2" 3 "vector scope")
list(GET CSV_ROWS 0 r)
expect_match("${r}" "^0[.]5,0[.]5,7$" "vector scope: first row")
# The CMSCOPE's clock first ticks at t = 100: header, no rows.
file(READ "${WORK}/names/never.csv" never)
expect_csv("${never}" "time,u1,u2" 0 "never-activated scope")

# A CFSCOPE link number beyond the diagram's last signal element is bad
# input naming the block, the number and how many there are.
expect_fail(2 "cfscope_range.xml:9: block .probe.: signal element 4 does not exist.*3 elements"
  run "${S}/cfscope_range.xml")
# Element 3 is the constant's second entry: recorded as link3 at each tick.
run_blocksim(run "${S}/cfscope_range.xml" -p probe.links=[3 1]
  --scopes "${WORK}/range")
if(NOT RUN_STATUS STREQUAL "0")
  fail_run("expected exit status 0" run cfscope_range.xml -p probe.links)
endif()
file(READ "${WORK}/range/probe.csv" probe)
# ticks at 0 and 0.5; the one due at the final time 1 is not served
expect_csv("${probe}" "time,link3,link1" 2 "CFSCOPE record")
list(GET CSV_ROWS 1 r)
expect_match("${r}" "^0[.]5,2,0[.]479425538604203" "CFSCOPE: [c(2), sin 0.5]")
