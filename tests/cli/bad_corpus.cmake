# The bad-input corpus (tests/bad_input/): every file there is a diagram, or
# an input of another kind, that blocksim must refuse or fail cleanly. Each
# file opens with a comment (or has a NAME.expect sidecar, for files that
# cannot carry one) giving the expected exit status and a fragment of the
# message, literally, and optionally the command line ({} = the file, {dir}
# = the corpus folder):
#   status: 2
#   message: block 'tf' (CLR)
#   command: check {}          (default: run {})
#   stderr-lines: 1            (optional: exactly so many lines on stderr,
#                               for cases where libraries used to print)
# A NAME.args file is a case whose bad input is the command line itself
# (XML comments cannot hold "--"): it holds only these lines, and its
# command names a valid diagram from inputs/.
# A run must also finish within its timeout (no hang) and leave nothing
# behind in its working folder.
include(${CMAKE_CURRENT_LIST_DIR}/lib/expect.cmake)
# Some cases make allocations fail on purpose (a 320 GB matrix): under
# AddressSanitizer malloc must then return NULL, as glibc's does, instead
# of aborting, so that the library's handling is what is tested.
set(ENV{ASAN_OPTIONS} "$ENV{ASAN_OPTIONS}:allocator_may_return_null=1")
get_filename_component(corpus "${DATA}/../bad_input" ABSOLUTE)
file(GLOB cases LIST_DIRECTORIES false "${corpus}/*")
list(FILTER cases EXCLUDE REGEX "\\.expect$|/README\\.md$")
set(count 0)
foreach(case ${cases})
  get_filename_component(name "${case}" NAME)
  set(spec "${case}")
  if(EXISTS "${case}.expect")
    set(spec "${case}.expect")
  endif()
  # CMake lists split at ';' and group at '[' ']', both common in
  # messages: they stand in as <SC>, <LB>, <RB> until a line is parsed.
  file(READ "${spec}" head LIMIT 4096)
  string(REPLACE ";" "<SC>" head "${head}")
  string(REPLACE "[" "<LB>" head "${head}")
  string(REPLACE "]" "<RB>" head "${head}")
  string(REPLACE "\n" ";" lines "${head}")
  set(status "")
  set(fragment "")
  set(command "run {}")
  set(nlines "")
  foreach(line ${lines})
    string(REPLACE "<SC>" ";" line "${line}")
    string(REPLACE "<LB>" "[" line "${line}")
    string(REPLACE "<RB>" "]" line "${line}")
    string(REGEX REPLACE "[ \t]*-->.*$" "" line "${line}")
    if(line MATCHES "^[ \t]*status: ([0-9]+)")
      set(status "${CMAKE_MATCH_1}")
    elseif(line MATCHES "^[ \t]*message: (.*[^ \t])[ \t]*$")
      set(fragment "${CMAKE_MATCH_1}")
    elseif(line MATCHES "^[ \t]*command: (.*[^ \t])[ \t]*$")
      set(command "${CMAKE_MATCH_1}")
    elseif(line MATCHES "^[ \t]*stderr-lines: ([0-9]+)")
      set(nlines "${CMAKE_MATCH_1}")
    endif()
  endforeach()
  if(status STREQUAL "" OR fragment STREQUAL "")
    message(FATAL_ERROR "${name}: no 'status:' and 'message:' lines")
  endif()
  string(REPLACE "{}" "${case}" command "${command}")
  string(REPLACE "{dir}" "${corpus}" command "${command}")
  separate_arguments(args UNIX_COMMAND "${command}")
  set(dir "${WORK}/${name}.d")
  file(MAKE_DIRECTORY "${dir}")
  execute_process(COMMAND "${BLOCKSIM}" ${args}
    WORKING_DIRECTORY "${dir}"
    RESULT_VARIABLE st OUTPUT_VARIABLE out ERROR_VARIABLE err
    TIMEOUT 30)
  if(NOT st STREQUAL "${status}")
    message(FATAL_ERROR "${name}: exit status '${st}', want ${status}\n"
      "  command: blocksim ${command}\n  stderr:\n${err}")
  endif()
  string(FIND "${out}${err}" "${fragment}" at)
  if(at LESS 0)
    message(FATAL_ERROR "${name}: message lacks '${fragment}'\n"
      "  command: blocksim ${command}\n  stderr:\n${err}")
  endif()
  if(NOT nlines STREQUAL "")
    string(REGEX MATCHALL "\n" newlines "${err}")
    list(LENGTH newlines got)
    if(NOT got EQUAL nlines)
      message(FATAL_ERROR "${name}: ${got} lines on stderr, want ${nlines}:\n${err}")
    endif()
  endif()
  file(GLOB left "${dir}/*")
  if(left)
    message(FATAL_ERROR "${name}: left files behind: ${left}")
  endif()
  math(EXPR count "${count} + 1")
endforeach()
message(STATUS "bad-input corpus: ${count} cases")
