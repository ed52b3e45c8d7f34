# C blocks carrying their source (CBLOCK) from the command line: compiled
# into $XDG_CACHE_HOME/blocksim when the diagram loads, then run;
# compiler problems are status 2 with the compiler's words.
# cblock.xml: x = 1 - exp(-2 t), x(3) = 0.99752124782 (rtol 1e-9: 1e-6).
include(${CMAKE_CURRENT_LIST_DIR}/lib/expect.cmake)
file(REMOVE_RECURSE "${WORK}")
file(MAKE_DIRECTORY "${WORK}")
set(ENV{XDG_CACHE_HOME} "${WORK}/cache")
unset(ENV{CC})
set(diagram "${DATA}/cblock/cblock.xml")

expect_ok(run "${diagram}")
expect_csv("${RUN_OUT}" "time,x" 31 "CBLOCK run")
list(GET CSV_ROWS 30 last)
csv_field("${last}" 1 x)
expect_near("${x}" "0.99752124782" 6 1 "x(3)")
file(GLOB cached "${WORK}/cache/blocksim/my_lag-*.so")
list(LENGTH cached n)
if(NOT n EQUAL 1)
  message(FATAL_ERROR "expected one compiled object in the cache, found: ${cached}")
endif()
expect_ok(blocks CBLOCK)
expect_match("${RUN_OUT}" "function +string +default [(]required[)]"
             "blocks CBLOCK lists 'function'")

set(ENV{CC} "${WORK}/no-such-compiler")
file(REMOVE_RECURSE "${WORK}/cache")
expect_fail(2 "cblock.xml:[0-9]+: block 'lag' [(]CBLOCK[)]: cannot run the C compiler '[^']*no-such-compiler'"
            run "${diagram}")
unset(ENV{CC})

file(READ "${diagram}" text)
string(REPLACE "(u[0] - x[0])" "(u[0] - x[0]) * not_declared" text "${text}")
file(WRITE "${WORK}/broken.xml" "${text}")
expect_fail(2 "broken.xml:[0-9]+: block 'lag' [(]CBLOCK[)]: compiling its C code failed[^\n]*\nblock.c[^\n]*\nblock.c:9:[0-9]+: error: [^\n]*not_declared"
            check "${WORK}/broken.xml")
