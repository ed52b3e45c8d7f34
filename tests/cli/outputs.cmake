# The -o / --scopes contract (issue 10, items 4 to 9): outputs never damage
# what their path names (devices, links, permissions, the diagram itself),
# records stay inside their folder whatever the block ids, every failure
# reports its own cause, a failed run leaves no result file, a signal
# while writing leaves no temporary, and a reader closing stdout early ends
# the CSV without losing the rest of the run.
include(${CMAKE_CURRENT_LIST_DIR}/lib/expect.cmake)
file(REMOVE_RECURSE "${WORK}")
file(MAKE_DIRECTORY "${WORK}")
get_filename_component(examples "${DATA}/../../examples" ABSOLUTE)
set(pi "${examples}/sampled_pi.xml")

# no_temporaries(dir what): nothing named *.tmp* anywhere below dir.
function(no_temporaries dir what)
  file(GLOB_RECURSE tmps "${dir}/*.tmp*")
  if(tmps)
    message(FATAL_ERROR "${what}: temporaries left behind: ${tmps}")
  endif()
endfunction()

# mode_of(path out): the permission bits, octal ("644").
function(mode_of path out)
  execute_process(COMMAND stat -c %a "${path}" OUTPUT_VARIABLE m
    OUTPUT_STRIP_TRAILING_WHITESPACE)
  set(${out} "${m}" PARENT_SCOPE)
endfunction()

# Item 6: a successful run with an event at its final time used to leave
# "no consistent initial values at t=5" behind, reported (status 1) instead
# of the output's own failure.
expect_fail(2 "cannot create '${WORK}/nosuch/x.csv'" run "${pi}" -o "${WORK}/nosuch/x.csv")
if(RUN_ERR MATCHES "consistent")
  fail_run("an earlier, recovered failure was reported" run "${pi}")
endif()

# Item 4: a symbolic link is followed: the file it names gets the results,
# the link stays a link.
file(WRITE "${WORK}/real.csv" "old\n")
file(CREATE_LINK "real.csv" "${WORK}/link.csv" SYMBOLIC)
expect_ok(run "${pi}" -o "${WORK}/link.csv")
if(NOT IS_SYMLINK "${WORK}/link.csv")
  message(FATAL_ERROR "-o through a symbolic link replaced the link")
endif()
file(READ "${WORK}/real.csv" content)
expect_csv("${content}" "time,y,u" 501 "results through a link")
# ... also a dangling one: the file it names is created.
file(CREATE_LINK "made.csv" "${WORK}/dangling.csv" SYMBOLIC)
expect_ok(run "${pi}" -o "${WORK}/dangling.csv")
if(NOT IS_SYMLINK "${WORK}/dangling.csv" OR NOT EXISTS "${WORK}/made.csv")
  message(FATAL_ERROR "-o through a dangling link did not create its target")
endif()

# An existing file keeps its permissions.
file(WRITE "${WORK}/private.csv" "old\n")
execute_process(COMMAND chmod 600 "${WORK}/private.csv")
expect_ok(run "${pi}" -o "${WORK}/private.csv")
mode_of("${WORK}/private.csv" m)
if(NOT m STREQUAL "600")
  message(FATAL_ERROR "-o changed the permissions of an existing file: ${m}")
endif()

# A target that is not a regular file is written in place, not replaced:
# stdout (a pipe here) through /dev/stdout, a symbolic link to it.
expect_ok(run "${pi}" -o /dev/stdout)
expect_csv("${RUN_OUT}" "time,y,u" 501 "-o /dev/stdout")
if(NOT IS_SYMLINK /dev/stdout AND EXISTS /proc/self/fd)
  message(FATAL_ERROR "-o /dev/stdout replaced the link by a file")
endif()
# A FIFO is written in place and stays a FIFO (its reader gets the CSV).
execute_process(
  COMMAND sh -c "rm -f '${WORK}/out.fifo' && mkfifo '${WORK}/out.fifo' || exit 90
    cat '${WORK}/out.fifo' > '${WORK}/from_fifo.csv' &
    '${BLOCKSIM}' run '${pi}' -o '${WORK}/out.fifo'; st=\$?
    wait; exit \$st"
  RESULT_VARIABLE st ERROR_VARIABLE err TIMEOUT 120)
execute_process(COMMAND stat -c %F "${WORK}/out.fifo" OUTPUT_VARIABLE kind)
if(NOT st STREQUAL "0" OR NOT kind MATCHES "fifo")
  message(FATAL_ERROR "-o on a FIFO: status ${st}, now a '${kind}'\n${err}")
endif()
file(READ "${WORK}/from_fifo.csv" content)
expect_csv("${content}" "time,y,u" 501 "results through a FIFO")
file(REMOVE "${WORK}/out.fifo" "${WORK}/from_fifo.csv")

# A character device (like /dev/null) stays one; making one needs root.
execute_process(COMMAND mknod "${WORK}/null" c 1 3 RESULT_VARIABLE made
  ERROR_QUIET)
if(made STREQUAL "0")
  expect_ok(run "${pi}" -o "${WORK}/null")
  execute_process(COMMAND stat -c %F "${WORK}/null" OUTPUT_VARIABLE kind)
  expect_match("${kind}" "character special" "-o on a device")
  file(REMOVE "${WORK}/null")
else()
  message(STATUS "not root: the device case is skipped")
endif()

# Never over the diagram being run, nor through a link to it.
configure_file("${pi}" "${WORK}/d.xml" COPYONLY)
file(READ "${WORK}/d.xml" before)
expect_fail(2 "refusing to write '${WORK}/d.xml': it is the diagram being run" run "${WORK}/d.xml" -o "${WORK}/d.xml")
file(CREATE_LINK "d.xml" "${WORK}/d_link.xml" SYMBOLIC)
expect_fail(2 "it is the diagram being run" run "${WORK}/d.xml" -o "${WORK}/d_link.xml")
expect_fail(2 "it is the diagram being run" run "${WORK}/d_link.xml" -o "${WORK}/d.xml")
file(READ "${WORK}/d.xml" after)
if(NOT before STREQUAL after)
  message(FATAL_ERROR "the diagram was written over")
endif()

# Item 5: records stay inside --scopes DIR whatever the ids: "..", ".",
# a leading '-' and '%' are escaped as %XX.
file(MAKE_DIRECTORY "${WORK}/sc")
expect_ok(run "${DATA}/outputs/hostile_ids.xml" --scopes "${WORK}/sc/in")
file(GLOB_RECURSE made RELATIVE "${WORK}/sc" "${WORK}/sc/*")
list(SORT made)
if(NOT made STREQUAL "in/%2E%2E/%2Dscope.csv;in/%2E%2E/%2E/log%25.csv")
  message(FATAL_ERROR "records written as: ${made}")
endif()
file(READ "${WORK}/sc/in/%2E%2E/%2E/log%25.csv" rec)
expect_csv("${rec}" "time,u1" 1 "record of ../log%")

# Item 7: when --scopes fails, -o is not written either (and an existing
# -o file is left as it was); no temporary, no folder made for records.
file(WRITE "${WORK}/blocker" "a file where the records' folder should be\n")
expect_fail(2 "cannot create" run "${pi}" -o "${WORK}/all.csv" --scopes "${WORK}/blocker")
if(EXISTS "${WORK}/all.csv")
  message(FATAL_ERROR "a failed --scopes left the -o file")
endif()
file(WRITE "${WORK}/all.csv" "previous\n")
expect_fail(2 "cannot create" run "${pi}" -o "${WORK}/all.csv" --scopes "${WORK}/blocker")
file(READ "${WORK}/all.csv" content)
if(NOT content STREQUAL "previous\n")
  message(FATAL_ERROR "a failed --scopes changed the existing -o file")
endif()
# ... and the other way round: -o fails, the records' folder is removed.
expect_fail(2 "cannot create" run "${pi}" -o "${WORK}/nosuch/x.csv" --scopes "${WORK}/recs")
if(EXISTS "${WORK}/recs")
  message(FATAL_ERROR "a failed -o left the records' folder")
endif()
no_temporaries("${WORK}" "failed outputs")

# Item 9: a reader that stops early (| head -1) ends the CSV output; the
# run still finishes: --stats are printed, --scopes written, status 0.
execute_process(
  COMMAND "${BLOCKSIM}" run "${pi}" --samples 100000 --stats --scopes "${WORK}/pipe"
  COMMAND head -1
  WORKING_DIRECTORY "${WORK}"
  RESULTS_VARIABLE sts OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 120)
list(GET sts 0 st)
if(NOT st STREQUAL "0" OR NOT out STREQUAL "time,y,u\n" OR
   NOT err MATCHES "(^|\n)steps: [0-9]+" OR NOT EXISTS "${WORK}/pipe/samples.csv")
  message(FATAL_ERROR "| head -1: status '${st}', stdout '${out}', stderr:\n${err}")
endif()

# Item 8: SIGINT / SIGTERM / SIGHUP while writing. The CSV (1.1 MB) goes
# to a FIFO whose reader takes its first byte and then reads no more: once
# that byte has come, blocksim is writing the results (after the records'
# temporaries, which are complete by then), and it cannot finish, since
# the pipe holds 64 KB. So the signal provably arrives mid-write, however
# loaded the machine is. Every temporary and folder must be gone, the
# message must say so, and the command must die of the signal (sh reports
# 128 + its number). A background job of sh starts with SIGINT ignored,
# and blocksim rightly keeps a signal ignored on entry: env gives it back
# its default, as a terminal's foreground job has it.
set(signo_INT 2)
set(signo_TERM 15)
set(signo_HUP 1)
foreach(sig INT TERM HUP)
  set(dir "${WORK}/sig${sig}")
  execute_process(
    COMMAND sh -c "
      rm -f '${WORK}/fifo' && mkfifo '${WORK}/fifo' || exit 90
      env --default-signal=INT '${BLOCKSIM}' run '${pi}' --samples 20000 --scopes '${dir}' > '${WORK}/fifo' &
      pid=\$!
      exec 3< '${WORK}/fifo'
      [ \"\$(dd bs=1 count=1 <&3 2> /dev/null | wc -c)\" -eq 1 ] || exit 91
      kill -${sig} \$pid
      wait \$pid; st=\$?
      exec 3<&-
      exit \$st"
    WORKING_DIRECTORY "${WORK}"
    RESULT_VARIABLE st ERROR_VARIABLE err TIMEOUT 180)
  math(EXPR want "128 + ${signo_${sig}}")
  if(NOT st STREQUAL "${want}")
    message(FATAL_ERROR "SIG${sig} while writing: status ${st}, not ${want} (90: no FIFO, 91: no CSV came)\n${err}")
  endif()
  if(EXISTS "${dir}")
    file(GLOB_RECURSE left "${dir}/*")
    message(FATAL_ERROR "SIG${sig} while writing left: ${dir} ${left}")
  endif()
  expect_match("${err}" "interrupted while writing the results" "SIG${sig} while writing")
endforeach()
file(REMOVE "${WORK}/fifo")
no_temporaries("${WORK}" "signals")

# A signal during the run itself: the run stops at its next step with
# "interrupted at t=...", nothing is written, and the command dies of the
# signal. The clock below would take hours (5e9 legal events). blocksim
# installs its handlers just before the run, so the signal is sent once
# /proc shows blocksim itself (not the shell's fork before exec) catching
# SIGINT (bit 2 of SigCgt): it is then in the run, whatever the load.
execute_process(
  COMMAND sh -c "
    env --default-signal=INT '${BLOCKSIM}' run '${DATA}/outputs/slow_clock.xml' -o '${WORK}/slow.csv' &
    pid=\$!
    i=0
    until [ \"\$(cat /proc/\$pid/comm 2> /dev/null)\" = blocksim ] &&
          [ \$((0x\$(sed -n 's/^SigCgt:[[:space:]]*//p' /proc/\$pid/status) >> 1 & 1)) -eq 1 ]; do
      sleep 0.02; i=\$((i + 1)); [ \$i -lt 6000 ] || { kill -KILL \$pid; exit 91; }
    done
    kill -INT \$pid
    wait \$pid"
  WORKING_DIRECTORY "${WORK}"
  RESULT_VARIABLE st ERROR_VARIABLE err TIMEOUT 180)
if(NOT st STREQUAL "130" OR EXISTS "${WORK}/slow.csv")
  message(FATAL_ERROR "SIGINT during the run: status ${st}, not 130 (91: never caught SIGINT)\n${err}")
endif()
expect_match("${err}" "interrupted at t=" "SIGINT during the run")
no_temporaries("${WORK}" "SIGINT during the run")
