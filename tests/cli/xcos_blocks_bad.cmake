# Bad parameters of the Xcos blocks of blocks/basic_f.c ... expression.c:
# status 2, a message naming the file, the block and what is wrong.
include(${CMAKE_CURRENT_LIST_DIR}/lib/expect.cmake)
set(bad "${DATA}/xcos/cont/bad")
expect_fail(2 "expr_var\\.xml:[0-9]+: block 'e' \\(EXPRESSION\\).*variable v is not a scalar"
  check "${bad}/expr_var.xml")
expect_fail(2 "expr_fn\\.xml:[0-9]+: block 'e' \\(EXPRESSION\\).*function sqrt is not supported"
  run "${bad}/expr_fn.xml")
expect_fail(2 "matmul_rule\\.xml:[0-9]+: block 'm' \\(MATMUL\\).*'rule' must be 1, 2 or 3"
  check "${bad}/matmul_rule.xml")
expect_fail(2 "curve_points\\.xml:[0-9]+: block 'c' \\(CURVE_c\\).*at least 3 points"
  check "${bad}/curve_points.xml")
expect_fail(2 "mateig_size\\.xml.*e:1 \\(3x3\\).*e \\(MATEIG\\)"
  run "${bad}/mateig_size.xml")
