# Xcos's c_block (C source of a type-1 function in the diagram) from the
# command line: compiled into $XDG_CACHE_HOME/blocksim when the diagram
# loads, then run; a compiler error is status 2 with the compiler's words.
# c_block.xml: y = 3 - 2 exp(-2 t), y(2) = 2.96336872282 (rtol 1e-9:
# 1e-6); n(2) = floor(2 / 0.23) + 1 = 9 events, exactly.
include(${CMAKE_CURRENT_LIST_DIR}/lib/expect.cmake)
file(REMOVE_RECURSE "${WORK}")
file(MAKE_DIRECTORY "${WORK}")
set(ENV{XDG_CACHE_HOME} "${WORK}/cache")
unset(ENV{CC})
set(diagram "${DATA}/c_block/c_block.xml")

expect_ok(run "${diagram}")
expect_csv("${RUN_OUT}" "time,y,n" 21 "c_block run")
list(GET CSV_ROWS 20 last)
csv_field("${last}" 1 y)
expect_near("${y}" "2.96336872282" 6 1 "y(2)")
csv_field("${last}" 2 n)
if(NOT n STREQUAL "9")
  message(FATAL_ERROR "n(2) = ${n}, expected 9")
endif()
expect_ok(blocks c_block)
expect_match("${RUN_OUT}" "type-1 computational function"
             "blocks c_block documents the convention")

file(READ "${diagram}" text)
string(REPLACE "/ rpar[0];" "/ rpar[0] * not_declared;" text "${text}")
file(WRITE "${WORK}/broken.xml" "${text}")
expect_fail(2 "broken.xml:[0-9]+: block 'lag' [(]c_block[)]: compiling its C code failed[^\n]*\nblock.c[^\n]*\nblock.c:14:[0-9]+: error: [^\n]*not_declared"
            check "${WORK}/broken.xml")

# The native format cannot hold a compiled C block: convert refuses it
# (and writes nothing).
expect_fail(2 "c_block.xcos:[0-9]+: block 'c_block_1' [(]c_block[)]: a C block compiled from its source"
            convert "${DATA}/c_block/c_block.xcos" -o "${WORK}/converted.xml")
if(EXISTS "${WORK}/converted.xml")
  message(FATAL_ERROR "convert wrote a file for a diagram it refused")
endif()
