# Helpers shared by the command-line tests (tests/cli/*.cmake, run with
# cmake -P and the variables BLOCKSIM, DATA, WORK). They run the command,
# check its exit status and output, and read numbers out of its CSV: CMake
# has integer arithmetic only, so decimals are compared as scaled integers.

if(NOT BLOCKSIM OR NOT DATA OR NOT WORK)
  message(FATAL_ERROR "run with -DBLOCKSIM=<command> -DDATA=<tests/data> -DWORK=<scratch dir>")
endif()
set(E2E "${DATA}/e2e")
file(MAKE_DIRECTORY "${WORK}")

# run_blocksim(args...): runs the command in WORK; sets RUN_STATUS, RUN_OUT,
# RUN_ERR and RUN_ALL (stdout and stderr together) in the caller's scope.
function(run_blocksim)
  execute_process(COMMAND "${BLOCKSIM}" ${ARGN}
    WORKING_DIRECTORY "${WORK}"
    RESULT_VARIABLE st OUTPUT_VARIABLE out ERROR_VARIABLE err
    TIMEOUT 120)
  set(RUN_STATUS "${st}" PARENT_SCOPE)
  set(RUN_OUT "${out}" PARENT_SCOPE)
  set(RUN_ERR "${err}" PARENT_SCOPE)
  set(RUN_ALL "${out}${err}" PARENT_SCOPE)
endfunction()

function(fail_run what)
  string(REPLACE ";" " " shown "${ARGN}")
  message(FATAL_ERROR "${what}\n  command: blocksim ${shown}\n"
    "  status: ${RUN_STATUS}\n  stdout:\n${RUN_OUT}\n  stderr:\n${RUN_ERR}")
endfunction()

# expect_ok(args...): the command must exit 0. Outputs left in RUN_*.
macro(expect_ok)
  run_blocksim(${ARGN})
  if(NOT RUN_STATUS STREQUAL "0")
    fail_run("expected exit status 0" ${ARGN})
  endif()
endmacro()

# expect_fail(status regex args...): the command must exit with `status`
# and print (on stdout or stderr) something matching `regex`. Bad input
# must also be explained, so an empty message fails too.
macro(expect_fail want_status want_regex)
  run_blocksim(${ARGN})
  if(NOT RUN_STATUS STREQUAL "${want_status}")
    fail_run("expected exit status ${want_status}" ${ARGN})
  endif()
  if(NOT RUN_ALL MATCHES "${want_regex}")
    fail_run("expected a message matching '${want_regex}'" ${ARGN})
  endif()
endmacro()

# expect_match(text regex what): text must match regex.
function(expect_match text regex what)
  if(NOT "${text}" MATCHES "${regex}")
    message(FATAL_ERROR "${what}: '${regex}' not found in:\n${text}")
  endif()
endfunction()

# csv_rows(text out): the lines of CSV text as a list (last newline dropped).
function(csv_rows text out)
  string(REGEX REPLACE "\r" "" text "${text}")
  string(REGEX REPLACE "\n+$" "" text "${text}")
  string(REPLACE "\n" ";" rows "${text}")
  set(${out} "${rows}" PARENT_SCOPE)
endfunction()

# csv_field(row index out): field `index` (0 = time) of a CSV row.
function(csv_field row index out)
  string(REPLACE "," ";" fields "${row}")
  list(LENGTH fields n)
  if(index GREATER_EQUAL n)
    message(FATAL_ERROR "CSV row '${row}' has no field ${index}")
  endif()
  list(GET fields ${index} v)
  set(${out} "${v}" PARENT_SCOPE)
endfunction()

# scaled_int(value digits out): trunc(value * 10^digits) as an integer, from
# the decimal text (plain or with an exponent) without floating point.
function(scaled_int value digits out)
  string(STRIP "${value}" value)
  if(NOT value MATCHES "^([-+]?)([0-9]*)\\.?([0-9]*)([eE]([-+]?[0-9]+))?$")
    message(FATAL_ERROR "'${value}' is not a number")
  endif()
  set(sign "${CMAKE_MATCH_1}")
  set(ipart "${CMAKE_MATCH_2}")
  set(fpart "${CMAKE_MATCH_3}")
  set(ex "${CMAKE_MATCH_5}")
  if(ex STREQUAL "")
    set(ex 0)
  endif()
  string(REGEX REPLACE "^\\+" "" ex "${ex}")
  string(LENGTH "${ipart}" ilen)
  set(all "${ipart}${fpart}")
  math(EXPR keep "${ilen} + ${ex} + ${digits}") # digits left of the cut
  string(LENGTH "${all}" alen)
  if(keep LESS_EQUAL 0)
    set(${out} 0 PARENT_SCOPE)
    return()
  endif()
  while(alen LESS keep)
    string(APPEND all "0")
    math(EXPR alen "${alen} + 1")
  endwhile()
  string(SUBSTRING "${all}" 0 ${keep} all)
  string(REGEX REPLACE "^0+" "" all "${all}")
  if(all STREQUAL "")
    set(all 0)
  endif()
  string(LENGTH "${all}" alen)
  if(alen GREATER 18)
    message(FATAL_ERROR "'${value}' too large to compare at ${digits} digits")
  endif()
  if(sign STREQUAL "-")
    set(all "-${all}")
  endif()
  set(${out} "${all}" PARENT_SCOPE)
endfunction()

# expect_near(got want digits units what): |got - want| <= units x 10^-digits.
function(expect_near got want digits units what)
  scaled_int("${got}" ${digits} g)
  scaled_int("${want}" ${digits} w)
  math(EXPR d "${g} - ${w}")
  if(d LESS 0)
    math(EXPR d "-(${d})")
  endif()
  if(d GREATER units)
    message(FATAL_ERROR "${what}: got ${got}, want ${want} "
      "(allowed ${units}e-${digits})")
  endif()
endfunction()

# expect_csv(text header nrows): header line exactly, then nrows data rows.
# Sets CSV_ROWS (data rows only) in the caller's scope.
function(expect_csv text header nrows what)
  csv_rows("${text}" rows)
  list(LENGTH rows n)
  if(n EQUAL 0)
    message(FATAL_ERROR "${what}: no CSV output")
  endif()
  list(GET rows 0 h)
  if(NOT h STREQUAL "${header}")
    message(FATAL_ERROR "${what}: header '${h}', want '${header}'")
  endif()
  list(REMOVE_AT rows 0)
  list(LENGTH rows n)
  if(NOT n EQUAL nrows)
    message(FATAL_ERROR "${what}: ${n} data rows, want ${nrows}")
  endif()
  set(CSV_ROWS "${rows}" PARENT_SCOPE)
endfunction()

# expect_file_head(file hex what): the file exists and starts with these
# bytes (hex), e.g. a format's signature.
function(expect_file_head file hex what)
  if(NOT EXISTS "${file}")
    message(FATAL_ERROR "${what}: ${file} not written")
  endif()
  string(LENGTH "${hex}" n)
  math(EXPR bytes "${n} / 2")
  file(READ "${file}" head LIMIT ${bytes} HEX)
  if(NOT head STREQUAL "${hex}")
    message(FATAL_ERROR "${what}: ${file} starts with ${head}, not ${hex}")
  endif()
endfunction()
