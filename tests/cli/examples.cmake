# Every example in examples/ runs with `blocksim run`, and a few facts the
# examples' comments promise hold (loosely: the unit tests own precision).
include(${CMAKE_CURRENT_LIST_DIR}/lib/expect.cmake)
get_filename_component(examples "${DATA}/../../examples" ABSOLUTE)

file(GLOB files "${examples}/*.xml")
list(LENGTH files n)
if(n LESS 5)
  message(FATAL_ERROR "expected at least 5 examples in ${examples}, found ${n}")
endif()
foreach(f ${files})
  expect_ok(run "${f}")
  expect_match("${RUN_OUT}" "^time," "CSV header of ${f}")
endforeach()

# decay: x(10) = e^-5 (1e-6 relative).
expect_ok(run "${examples}/decay.xml")
expect_csv("${RUN_OUT}" "time,x" 101 "examples/decay.xml")
list(GET CSV_ROWS 100 r)
csv_field("${r}" 1 x)
expect_near("${x}" 0.006737946999085467 12 6738 "decay example x(10)")

# oscillator: back at x = 1, v = 0 after 5 whole periods (1e-5: ten
# periods of phase error at rtol 1e-9 stay well inside).
expect_ok(run "${examples}/oscillator.xml")
expect_csv("${RUN_OUT}" "time,x,v" 201 "examples/oscillator.xml")
list(GET CSV_ROWS 200 r)
csv_field("${r}" 1 x)
csv_field("${r}" 2 v)
expect_near("${x}" 1 6 10 "oscillator x(5)")
expect_near("${v}" 0 5 10 "oscillator v(5)")

# CLR step: unit DC gain, settled by t = 15 (envelope e^-0.6*14 = 2e-4).
expect_ok(run "${examples}/clr_step.xml")
expect_csv("${RUN_OUT}" "time,u,y" 151 "examples/clr_step.xml")
list(GET CSV_ROWS 150 r)
csv_field("${r}" 2 y)
expect_near("${y}" 1 3 1 "clr_step y(15)")
list(GET CSV_ROWS 5 r)
csv_field("${r}" 2 y)
expect_near("${y}" 0 9 1 "clr_step y(0.5) before the step")

# superblock: observes through superblock outputs and into them.
expect_ok(run "${examples}/superblock.xml")
expect_csv("${RUN_OUT}" "time,force,x,v,spring_force" 201 "examples/superblock.xml")
expect_ok(check "${examples}/superblock.xml")
expect_match("${RUN_OUT}" "states[^0-9\n]*2" "superblock example: 2 states")
expect_match("${RUN_OUT}" "blocks[^0-9\n]*7" "superblock example: 7 leaf blocks")

# algebraic loop: one algebraic unknown; x -> r/(2 + a) = 0.25 (rate 8/3,
# e^-13 = 2e-6 left at t = 5).
expect_ok(check "${examples}/algebraic_loop.xml")
expect_match("${RUN_OUT}" "algebraic[^0-9\n]*1" "algebraic_loop example: 1 algebraic unknown")
expect_ok(run "${examples}/algebraic_loop.xml")
expect_csv("${RUN_OUT}" "time,x,w" 101 "examples/algebraic_loop.xml")
list(GET CSV_ROWS 100 r)
csv_field("${r}" 1 x)
csv_field("${r}" 2 w)
expect_near("${x}" 0.25 5 1 "algebraic_loop x(5)")
expect_near("${w}" 0.25 5 1 "algebraic_loop w(5)")
