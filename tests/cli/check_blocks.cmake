# `blocksim check` (system sizes) and `blocksim blocks` (the block library).
include(${CMAKE_CURRENT_LIST_DIR}/lib/expect.cmake)

# Sizes: "states", "algebraic" and "blocks" each followed by the number
# (on the same line, after any label text such as "unknowns:").
expect_ok(check "${E2E}/decay.xml")
expect_match("${RUN_OUT}" "states[^0-9\n]*1" "check decay: 1 state")
expect_match("${RUN_OUT}" "algebraic[^0-9\n]*0" "check decay: 0 algebraic")
expect_match("${RUN_OUT}" "blocks[^0-9\n]*2" "check decay: 2 blocks")

expect_ok(check "${E2E}/alg_loop.xml")
expect_match("${RUN_OUT}" "states[^0-9\n]*0" "check alg_loop: 0 states")
expect_match("${RUN_OUT}" "algebraic[^0-9\n]*1" "check alg_loop: 1 algebraic unknown")
expect_match("${RUN_OUT}" "blocks[^0-9\n]*3" "check alg_loop: 3 blocks")

expect_ok(check "${E2E}/super_nested.xml")
expect_match("${RUN_OUT}" "states[^0-9\n]*2" "check super_nested: 2 states")
expect_match("${RUN_OUT}" "blocks[^0-9\n]*6" "check super_nested: 6 leaf blocks")

expect_fail(2 "NOSUCHBLOCK" check "${E2E}/cli_bad_type.xml")

# The library lists every standard type.
expect_ok(blocks)
foreach(type CONST_m GENSIN_f STEP_FUNCTION TIME_f GAINBLK SUMMATION PRODUCT
             INTEGRAL_m CLSS CLR MUX DEMUX TrigFun EXPBLK_m ABS_VALUE IN_f OUT_f)
  expect_match("${RUN_OUT}" "(^|[^A-Za-z_])${type}([^A-Za-z_]|$)" "blocks lists ${type}")
endforeach()

# One type in full: its parameters.
expect_ok(blocks CLSS)
foreach(p A B C D x0)
  expect_match("${RUN_OUT}" "(^|[^A-Za-z0-9_])${p}([^A-Za-z0-9_]|$)" "blocks CLSS shows parameter ${p}")
endforeach()
expect_ok(blocks GAINBLK)
expect_match("${RUN_OUT}" "gain" "blocks GAINBLK shows parameter gain")

expect_fail(2 "NOSUCH" blocks NOSUCH)
