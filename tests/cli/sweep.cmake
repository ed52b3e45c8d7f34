# `blocksim sweep` and `blocksim merge` end to end (the numbers of each
# member against separate runs are checked in tests/unit/test_sweep.c):
# a member's CSV equals `blocksim run -p` of its values byte for byte; the
# study is the same whatever the number of jobs; failing members are
# recorded and the exit status says so; a sweep killed with SIGKILL and
# started again loses nothing and equals an uninterrupted one; shards
# merged equal the whole sweep; bad arguments are refused with status 2.
# HDF5 files are compared with h5diff (hdf5-tools), leaving out the only
# dataset that may differ, the members' wall-clock times.
cmake_policy(SET CMP0007 NEW) # lists keep empty fields (a CSV's empty message)
include(${CMAKE_CURRENT_LIST_DIR}/lib/expect.cmake)
file(REMOVE_RECURSE "${WORK}")
file(MAKE_DIRECTORY "${WORK}")
set(member "${DATA}/batch/member.xml")
set(fragile "${DATA}/batch/fragile.xml")
find_program(H5DIFF h5diff REQUIRED)

# same_h5(a b what): the two studies hold the same data.
function(same_h5 a b what)
  execute_process(COMMAND "${H5DIFF}" --exclude-path /summary/wall_seconds
                          "${a}" "${b}"
                  RESULT_VARIABLE st OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT st EQUAL 0)
    message(FATAL_ERROR "${what}: ${a} and ${b} differ:\n${out}${err}")
  endif()
endfunction()

# same_csv_study(a b what): same run and scope files, same summary but for
# its last column (wall_seconds).
function(same_csv_study a b what)
  file(GLOB_RECURSE fa RELATIVE "${a}" "${a}/runs/*" "${a}/scopes/*")
  file(GLOB_RECURSE fb RELATIVE "${b}" "${b}/runs/*" "${b}/scopes/*")
  list(SORT fa)
  list(SORT fb)
  if(NOT fa STREQUAL fb)
    message(FATAL_ERROR "${what}: other files:\n${fa}\n${fb}")
  endif()
  foreach(f ${fa})
    file(READ "${a}/${f}" ta)
    file(READ "${b}/${f}" tb)
    if(NOT ta STREQUAL tb)
      message(FATAL_ERROR "${what}: ${f} differs")
    endif()
  endforeach()
  foreach(d a b)
    file(STRINGS "${${d}}/summary.csv" lines)
    set(cut "")
    foreach(l ${lines})
      string(REGEX REPLACE ",[^,]*$" "" l "${l}")
      list(APPEND cut "${l}")
    endforeach()
    set(sum_${d} "${cut}")
  endforeach()
  if(NOT sum_a STREQUAL sum_b)
    message(FATAL_ERROR "${what}: summaries differ:\n${sum_a}\n${sum_b}")
  endif()
endfunction()

set(grid --param "Kp=linspace(1,3,4)" --param "plant.tau=[0.25 0.5 0.9]")

# A member is the single run with the same -p, byte for byte.
expect_ok(sweep "${member}" ${grid} -o "${WORK}/csv1" --jobs 1)
file(STRINGS "${WORK}/csv1/summary.csv" rows)
list(LENGTH rows n)
if(NOT n EQUAL 13)
  message(FATAL_ERROR "12 members and a header expected, got ${n} lines")
endif()
foreach(k 0 5 11)
  math(EXPR line "${k} + 1")
  list(GET rows ${line} row)
  string(REPLACE "," ";" f "${row}")
  list(GET f 3 kp)
  list(GET f 4 tau)
  expect_ok(run "${member}" -p "Kp=${kp}" -p "plant.tau=${tau}" -o "${WORK}/one.csv")
  file(READ "${WORK}/one.csv" want)
  string(LENGTH "${k}" w)
  math(EXPR pad "6 - ${w}")
  string(REPEAT "0" ${pad} zeros)
  file(READ "${WORK}/csv1/runs/${zeros}${k}.csv" got)
  if(NOT got STREQUAL want)
    message(FATAL_ERROR "member ${k} differs from blocksim run -p Kp=${kp} -p plant.tau=${tau}")
  endif()
endforeach()

# -p applies to every member, including one compiled on its own because
# its values change the structure (a saturated integrator).
file(WRITE "${WORK}/sat.csv" "Kp,plant/y.satur\n3,0\n3,1\n")
expect_ok(sweep "${member}" -p "plant.tau=0.8" -p "plant/y.max=0.9" --manifest "${WORK}/sat.csv" -o "${WORK}/sat")
foreach(k 0 1)
  expect_ok(run "${member}" -p "plant.tau=0.8" -p "plant/y.max=0.9" -p Kp=3 -p "plant/y.satur=${k}" -o "${WORK}/one.csv")
  file(READ "${WORK}/one.csv" want)
  file(READ "${WORK}/sat/runs/00000${k}.csv" got)
  if(NOT got STREQUAL want)
    message(FATAL_ERROR "member ${k} with -p differs from blocksim run")
  endif()
endforeach()

# The same study whatever the number of jobs, in either format.
expect_ok(sweep "${member}" ${grid} -o "${WORK}/csv3" --jobs 3)
same_csv_study("${WORK}/csv1" "${WORK}/csv3" "--jobs 1 vs 3 (CSV)")
expect_ok(sweep "${member}" ${grid} -o "${WORK}/j1.h5" --jobs 1)
expect_ok(sweep "${member}" ${grid} -o "${WORK}/j4.h5" --jobs 4)
same_h5("${WORK}/j1.h5" "${WORK}/j4.h5" "--jobs 1 vs 4")
# a complete study: started again, nothing to do
expect_ok(sweep "${member}" ${grid} -o "${WORK}/j4.h5" --jobs 2)
same_h5("${WORK}/j1.h5" "${WORK}/j4.h5" "a complete study run again")

# One member of a study plotted: its signals, the study's time axis.
expect_ok(plot "${WORK}/j1.h5" --run 5 -o "${WORK}/run5.svg")
file(READ "${WORK}/run5.svg" svg)
string(REGEX MATCHALL "stroke-width:1\\.5" curves "${svg}")
list(LENGTH curves n)
if(NOT n EQUAL 4) # y and u, and the record's u1 and u2
  message(FATAL_ERROR "plot --run 5: ${n} curves, want 4")
endif()
expect_fail(2 "is a sweep's study file: choose a run" plot "${WORK}/j1.h5" -o "${WORK}/x.png")
expect_fail(2 "has no run 12" plot "${WORK}/j1.h5" --run 12 -o "${WORK}/x.png")

# Failing members: recorded with status and message, the others done, exit 1.
file(WRITE "${WORK}/m.csv" "a\n-1\n100\n1 +\n0.5\n")
expect_fail(1 "2 of 4 members failed" sweep "${fragile}" --manifest "${WORK}/m.csv" -o "${WORK}/fr")
file(READ "${WORK}/fr/summary.csv" text)
expect_match("${text}" "\n0,0,,-1,4\\.54000294" "member 0 ran: e^-10")
expect_match("${text}" "\n1,1,\"?ida: integrating failed" "member 1 failed in the run")
expect_match("${text}" "\n2,2,[^\n]*context variable 'a' \\(set by override\\)" "member 2 is bad input")
expect_match("${text}" "\n3,0,,0\\.5,148\\.4131776" "member 3 ran: e^5")
if(NOT EXISTS "${WORK}/fr/runs/000003.csv" OR EXISTS "${WORK}/fr/runs/000001.csv")
  message(FATAL_ERROR "run files of failed and good members")
endif()

# Killed with SIGKILL mid-way, started again: nothing lost.
set(big --param "Kp=linspace(1,3,30)" --param "Ki=linspace(1,3,30)")
string(REPLACE ";" "' '" bigq "${big}")
execute_process(COMMAND sh -c "
  '${BLOCKSIM}' sweep '${member}' '${bigq}' -o '${WORK}/k.h5' --jobs 2 &
  pid=$!; s=0; i=0
  while [ $i -lt 3000 ]; do
    s=$(stat -c %s '${WORK}/k.h5.journal' 2>/dev/null || echo 0)
    [ \"$s\" -gt 30000 ] && break
    sleep 0.01; i=$((i+1))
  done
  kill -9 $pid; wait $pid; echo journal=$s"
  OUTPUT_VARIABLE killed)
message(STATUS "kill: ${killed}")
if(EXISTS "${WORK}/k.h5" OR NOT EXISTS "${WORK}/k.h5.journal")
  message(FATAL_ERROR "the sweep was not killed mid-way (${killed})")
endif()
expect_ok(sweep "${member}" ${big} -o "${WORK}/k.h5" --jobs 2)
if(EXISTS "${WORK}/k.h5.journal" OR EXISTS "${WORK}/k.h5.part")
  message(FATAL_ERROR "journal or .part left after the resumed sweep")
endif()
expect_ok(sweep "${member}" ${big} -o "${WORK}/whole.h5" --jobs 2)
same_h5("${WORK}/k.h5" "${WORK}/whole.h5" "killed and resumed vs uninterrupted")

# Shards, merged, equal the whole sweep (HDF5 and CSV).
foreach(i 1 2 3)
  expect_ok(sweep "${member}" ${grid} -o "${WORK}/sh${i}.h5" --shard ${i}/3)
endforeach()
expect_ok(merge -o "${WORK}/merged.h5" "${WORK}/sh2.h5" "${WORK}/sh1.h5" "${WORK}/sh3.h5")
same_h5("${WORK}/merged.h5" "${WORK}/j1.h5" "3 shards merged vs the whole sweep")
foreach(i 1 2)
  expect_ok(sweep "${member}" ${grid} -o "${WORK}/cs${i}" --shard ${i}/2)
endforeach()
expect_ok(merge -o "${WORK}/cmerged" "${WORK}/cs1" "${WORK}/cs2")
same_csv_study("${WORK}/cmerged" "${WORK}/csv1" "2 CSV shards merged vs whole")
expect_fail(2 "2 of 3 shards given" merge -o "${WORK}/bad.h5" "${WORK}/sh1.h5" "${WORK}/sh3.h5")
expect_fail(2 "not one of format|not of one format" merge -o "${WORK}/bad.h5" "${WORK}/sh1.h5" "${WORK}/cs1")
expect_fail(2 "is not a shard of the same sweep|is a whole sweep" merge -o "${WORK}/bad.h5" "${WORK}/sh1.h5" "${WORK}/j1.h5" "${WORK}/sh3.h5")

# Refusals.
expect_fail(2 "not the output of this sweep" sweep "${member}" --param "Kp=[1 2]" -o "${WORK}/j1.h5")
expect_fail(2 "nothing to vary" sweep "${member}" -o "${WORK}/x.h5")
expect_fail(2 "needs -o" sweep "${member}" --param "Kp=[1 2]")
expect_fail(2 "--shard takes I/N" sweep "${member}" --param "Kp=[1 2]" -o "${WORK}/x.h5" --shard 4/3)
expect_fail(2 "not a distribution" sweep "${member}" --param "Kp=[1 2]" --random 5 -o "${WORK}/x.h5")
expect_fail(2 "--zip pairs lists of one length" sweep "${member}" --param "Kp=[1 2]" --param "Ki=[1 2 3]" --zip -o "${WORK}/x.h5")
expect_fail(2 "not MAT" sweep "${member}" --param "Kp=[1 2]" -o "${WORK}/x.mat")
expect_fail(2 "no block 'nosuch'" sweep "${member}" --param "nosuch.gain=[1 2]" -o "${WORK}/x.h5")
if(EXISTS "${WORK}/x.h5")
  message(FATAL_ERROR "a refused sweep left its output")
endif()
