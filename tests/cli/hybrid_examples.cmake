# The hybrid examples run with `blocksim run`, print the hybrid counters
# with --stats, write their scopes, and show what their comments promise
# (loosely: tests/unit/test_hybrid_*.c own the precision).
include(${CMAKE_CURRENT_LIST_DIR}/lib/expect.cmake)
file(REMOVE_RECURSE "${WORK}")
file(MAKE_DIRECTORY "${WORK}")
get_filename_component(examples "${DATA}/../../examples" ABSOLUTE)

# stat(name out): the value of one --stats line of the last run.
function(stat name out)
  if(NOT RUN_ERR MATCHES "(^|\n)${name}: ([0-9.e+-]+)")
    message(FATAL_ERROR "--stats: no '${name}' in:\n${RUN_ERR}")
  endif()
  set(${out} "${CMAKE_MATCH_2}" PARENT_SCOPE)
endfunction()

# Bouncing ball: 7 bounces before t = 10, each one event and one cold
# restart; the first at sqrt(2 h0/g) = 1.4278 s with v = -sqrt(2 g h0).
expect_ok(run "${examples}/bouncing_ball.xml" --stats --scopes "${WORK}/ball")
expect_csv("${RUN_OUT}" "time,h,v" 501 "bouncing_ball")
stat(events ev)
if(NOT ev EQUAL 7)
  message(FATAL_ERROR "bouncing_ball: ${ev} events, want 7 bounces")
endif()
stat(cold-restarts cold)
if(cold LESS 8)
  message(FATAL_ERROR "bouncing_ball: ${cold} cold restarts, want >= 8")
endif()
file(READ "${WORK}/ball/bounces.csv" scope)
expect_csv("${scope}" "time,u1" 7 "bouncing_ball scope")
list(GET CSV_ROWS 0 r)
csv_field("${r}" 0 t)
expect_near("${t}" 1.4278431229270645 5 1 "first bounce")
# h stays >= 0 up to the root-finding tolerance: a negative sample must
# be tiny (exponent -7 or below).
csv_rows("${RUN_OUT}" rows)
list(REMOVE_AT rows 0)
foreach(r ${rows})
  csv_field("${r}" 1 h)
  if(h MATCHES "^-" AND NOT h MATCHES "e-([0-9][0-9]|[7-9])$")
    message(FATAL_ERROR "bouncing_ball: h = ${h} below the floor (row ${r})")
  endif()
endforeach()

# Thermostat: the heater switches 13 times in 30 s (off at 4.58 s, then
# every 2.03 s: the last at 4.58 + 12 x 2.03 = 28.9 s); each switch is one
# cold restart.
expect_ok(run "${examples}/thermostat.xml" --stats)
expect_csv("${RUN_OUT}" "time,T,heater" 301 "thermostat")
stat(cold-restarts cold)
if(NOT cold EQUAL 14)
  message(FATAL_ERROR "thermostat: ${cold} cold restarts, want 14 (start + 13 switches)")
endif()
# at t = 4.5 the heater is still on (P = 20), at t = 4.7 off; T in [18, 22]
# after the first switch.
list(GET CSV_ROWS 45 r)
csv_field("${r}" 2 q)
expect_match("${q}" "^20$" "thermostat: heater on at 4.5")
list(GET CSV_ROWS 47 r)
csv_field("${r}" 2 q)
expect_match("${q}" "^0$" "thermostat: heater off at 4.7")
list(GET CSV_ROWS 300 r)
csv_field("${r}" 1 T)
scaled_int("${T}" 3 Tm)
if(Tm LESS 17999 OR Tm GREATER 22001)
  message(FATAL_ERROR "thermostat: T(30) = ${T} outside [18, 22]")
endif()

# Sampled PI: ticks at 0, 0.1, .., 4.9 (the tick due at the final time 5
# is not served, as in Xcos); the one at 0 comes before the start (the one
# cold restart), each later one changes the held input of the linear plant
# and is carried across; y settles at 1.
expect_ok(run "${examples}/sampled_pi.xml" --stats --scopes "${WORK}/pi")
expect_csv("${RUN_OUT}" "time,y,u" 501 "sampled_pi")
stat(events ev)
stat(cold-restarts cold)
stat(carried carried)
if(NOT ev EQUAL 50 OR NOT cold EQUAL 1 OR NOT carried EQUAL 49)
  message(FATAL_ERROR "sampled_pi: ${ev} events, ${cold} cold restarts, "
    "${carried} carried, want 50, 1 and 49")
endif()
list(GET CSV_ROWS 500 r)
csv_field("${r}" 1 y)
expect_near("${y}" 1 3 1 "sampled_pi: y(5) settled at r = 1")
file(READ "${WORK}/pi/samples.csv" scope)
expect_csv("${scope}" "time,u1,u2" 50 "sampled_pi scope")
# sample 1 (t = 0.1): y_1 = (1 - e^-0.2) u_0 with u_0 = Kp + Ki T = 2.3
list(GET CSV_ROWS 1 r)
csv_field("${r}" 1 y1)
expect_near("${y1}" 0.41691926792064177 6 1 "sampled_pi: y_1")
