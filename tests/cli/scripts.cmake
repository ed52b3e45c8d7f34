# Context scripts from the command line: a failing statement is bad input
# (status 2) naming the file, the block, the script line and the statement;
# -p VAR=V overrides a variable the script assigns. (Regexes use [.] [(] [)]
# rather than backslashes, which the expect macros would unescape.)
include(${CMAKE_CURRENT_LIST_DIR}/lib/expect.cmake)
file(REMOVE_RECURSE "${WORK}")
file(MAKE_DIRECTORY "${WORK}")
set(D "${DATA}/diagrams")

expect_fail(2 "script_err_unknown[.]xml:12: block 'c'.*line 7 [(]K = nosuchfunction[(]a[)][)]: unknown function 'nosuchfunction'"
  check "${D}/script_err_unknown.xml")
expect_fail(2 "script_err_syntax[.]xml:9: block 'c'.*line 6 [(]g = [[]1 2 [+][]][)]"
  check "${D}/script_err_syntax.xml")
expect_fail(2 "line 6 [(]M = inv[(][[]1 2 3[]][)][)].*square matrix, got 1x3"
  check "${D}/script_err_size.xml")
expect_fail(2 "script_err_structure[.]xml:5: context script: line 7: this 'if' has no matching 'end'"
  check "${D}/script_err_structure.xml")
expect_fail(2 "rational functions are not supported"
  check "${D}/script_err_poly.xml")
expect_fail(2 "line 7 [(]K = nosuchfunction"
  run "${D}/script_err_unknown.xml" --tf 1)
# The user's value replaces the failed statement's.
expect_ok(run "${D}/script_err_unknown.xml" -p "K=[1 2]" --tf 1 --samples 2)
expect_ok(run "${D}/script_levels.xml" -p k=2 -p gain0=1 --tf 1 --samples 2)
