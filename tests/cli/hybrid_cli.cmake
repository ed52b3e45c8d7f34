# `blocksim run` on hybrid diagrams: --scopes writes one CSV per scope,
# END_c cuts the results short, the chattering guards stop a run with
# status 1 and say where, their options are honoured, and bad values for
# them are bad input (status 2). The unit tests (test_hybrid_*.c) hold
# the tight numbers; here we check the command's plumbing.
include(${CMAKE_CURRENT_LIST_DIR}/lib/expect.cmake)
file(REMOVE_RECURSE "${WORK}")
file(MAKE_DIRECTORY "${WORK}")
set(H "${DATA}/hybrid")

# --scopes DIR: DIR/<block path>.csv with "time,u1" and one row per
# activation (10 bounces before t = 11.5), while the results go to stdout.
expect_ok(run "${H}/bounce.xml" --scopes "${WORK}/scopes" --stats)
expect_csv("${RUN_OUT}" "time,h,v" 1151 "bounce results")
if(NOT EXISTS "${WORK}/scopes/log.csv")
  message(FATAL_ERROR "--scopes: ${WORK}/scopes/log.csv not written")
endif()
file(READ "${WORK}/scopes/log.csv" scope)
expect_csv("${scope}" "time,u1" 10 "bounce scope")
list(GET CSV_ROWS 0 r)
csv_field("${r}" 0 t)
# first bounce at sqrt(2 h0 / g) = 1.42784312292706 (1e-6)
expect_near("${t}" 1.4278431229270645 6 1 "first bounce time")
file(GLOB left "${WORK}/scopes/*")
if(NOT left STREQUAL "${WORK}/scopes/log.csv")
  message(FATAL_ERROR "--scopes left other files: ${left}")
endif()
# the hybrid counters are all printed
foreach(stat steps events roots hot-continues cold-restarts downgrades)
  expect_match("${RUN_ERR}" "(^|\n)${stat}: [0-9]" "--stats prints ${stat}")
endforeach()
expect_match("${RUN_ERR}" "(^|\n)events: 10\n" "bounce: 10 events")

# Scopes in superblocks would go to sub-folders; a sample run with a CMSCOPE:
# two inputs give time,u1,u2.
expect_ok(run "${H}/sampled_pi.xml" --scopes "${WORK}/pi")
file(READ "${WORK}/pi/log.csv" scope)
csv_rows("${scope}" rows)
list(GET rows 0 h)
expect_match("${h}" "^time,u1,u2$" "CMSCOPE header")

# END_c at 2.5 with a final time of 5: rows stop at 2.5.
expect_ok(run "${H}/end_c.xml")
expect_csv("${RUN_OUT}" "time,x" 26 "END_c run")
list(GET CSV_ROWS 25 r)
csv_field("${r}" 0 t)
expect_match("${t}" "^2\\.5$" "END_c: last row at 2.5")
csv_field("${r}" 1 x)
expect_near("${x}" 0.0820849986238988 9 83 "END_c: x(2.5) = e^-2.5 (1e-6)")

# Chattering: a jump that re-arms its own crossing at t = 1.
expect_fail(1 "chatters.*t=1[.].*'up'" run "${H}/zeno_jump.xml")
expect_fail(1 "5 cold restarts" run "${H}/zeno_jump.xml" --max-restarts 5)
# An event loop with no delay at t = 0.5.
expect_fail(1 "more than 1000 events at t=0[.]5.*'loop'" run "${H}/event_storm.xml")
expect_fail(1 "more than 50 events" run "${H}/event_storm.xml" --max-events 50)
# A synchronous router deciding on what its own activation computes.
expect_fail(2 "err_sync_loop[.]xml.*'route'.*'hold'.*algebraic loop through event routing"
            run "${H}/err_sync_loop.xml")
expect_fail(2 "err_ttol[.]xml:4:.*time-tolerance.*>= 0" run "${H}/err_ttol.xml")
# A failed run leaves no result file behind.
expect_fail(1 "chatters" run "${H}/zeno_jump.xml" -o "${WORK}/zeno.csv")
if(EXISTS "${WORK}/zeno.csv")
  message(FATAL_ERROR "a failed run left ${WORK}/zeno.csv")
endif()

# Bad values for the guards are bad input.
foreach(bad abc 0 -3 1.5)
  expect_fail(2 "max-events" run "${H}/end_c.xml" --max-events ${bad})
  expect_fail(2 "max-restarts" run "${H}/end_c.xml" --max-restarts ${bad})
endforeach()
expect_fail(2 "max-events" run "${H}/end_c.xml" --max-events)
