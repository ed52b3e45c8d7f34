# Solver choice from the command line: `blocksim solvers [NAME]`, --solver
# and --solver-param (which win over the diagram's <solver-param> per name),
# and status 2 with the list of valid choices for every kind of mistake.
include(${CMAKE_CURRENT_LIST_DIR}/lib/expect.cmake)
file(REMOVE_RECURSE "${WORK}")
file(MAKE_DIRECTORY "${WORK}")
set(decay "${E2E}/decay.xml")
set(klu "${DATA}/solvers/klu_decay.xml")

# The listing names ida with its parameters, one line each.
expect_ok(solvers)
expect_match("${RUN_OUT}" "ida: SUNDIALS IDA" "solvers lists ida")
expect_match("${RUN_OUT}" "linear-solver [(]dense[|]band[|]klu[|]spgmr, default dense[)]"
             "solvers shows linear-solver's choices and default")
expect_ok(solvers ida)
expect_match("${RUN_OUT}" "max-order +int +default 5" "solvers ida in full")
expect_fail(2 "nosuch.*valid: ida" solvers nosuch)

# x' = -x/2 from x(0) = 1: x(10) = e^-5 = 0.006737947 with every linear
# solver (rtol 1e-8 in the file; 1e-7 absolute allows for its global error).
foreach(ls dense band klu spgmr)
  expect_ok(run "${decay}" --solver ida --solver-param linear-solver=${ls})
  expect_csv("${RUN_OUT}" "time,x" 101 "decay with ${ls}")
  list(GET CSV_ROWS 100 last)
  csv_field("${last}" 1 x)
  expect_near("${x}" "0.006737947" 7 1 "x(10) with ${ls}")
endforeach()

# The ODE engines take the same linear solvers (issue 13): x(10) again,
# and --stats shows what the Jacobians cost. x' = -x/2 has a 1x1 pattern:
# one color, so each finite-difference Jacobian costs one call.
foreach(engine cvode-bdf msbdf)
  if(engine STREQUAL "msbdf")
    set(lss none)
  else()
    set(lss dense band klu spgmr)
  endif()
  foreach(ls ${lss})
    set(opts --solver ${engine} --solver-param jacobian=fd --stats)
    if(NOT ls STREQUAL "none")
      list(APPEND opts --solver-param linear-solver=${ls})
    endif()
    expect_ok(run "${decay}" ${opts})
    expect_csv("${RUN_OUT}" "time,x" 101 "decay, ${engine} ${ls}")
    list(GET CSV_ROWS 100 last)
    csv_field("${last}" 1 x)
    expect_near("${x}" "0.006737947" 7 1 "x(10), ${engine} ${ls}")
    foreach(stat jacobian-evals jacobian-residual-evals jacobian-colors)
      expect_match("${RUN_ERR}" "(^|\n)${stat}: [0-9]" "--stats prints ${stat}")
    endforeach()
    if(NOT ls STREQUAL "dense")
      expect_match("${RUN_ERR}" "(^|\n)jacobian-colors: 1\n"
                   "${engine} ${ls}: one color")
    endif()
  endforeach()
endforeach()
expect_fail(2 "cvode-bdf: linear-solver applies to iteration=newton only"
            run "${decay}" --solver cvode-bdf --solver-param iteration=fixed-point
            --solver-param linear-solver=klu)
expect_fail(2 "cvode-adams: preconditioner applies to iteration=newton only"
            run "${decay}" --solver cvode-adams --solver-param preconditioner=none)
expect_fail(2 "cvode-bdf: krylov-dim must be between 1 and 500"
            run "${decay}" --solver cvode-bdf --solver-param linear-solver=spgmr
            --solver-param krylov-dim=0)
expect_fail(2 "msbdf: jacobian must be one of auto[|]fd"
            run "${decay}" --solver msbdf --solver-param jacobian=exact)
expect_ok(solvers cvode-bdf)
expect_match("${RUN_OUT}" "linear-solver +dense[|]band[|]klu[|]spgmr default dense"
             "solvers cvode-bdf lists klu and spgmr")
expect_match("${RUN_OUT}" "band-upper +int +default -1 +upper half-bandwidth for linear-solver=band; -1 = from the system's sparsity pattern"
             "solvers cvode-bdf: band widths from the pattern")

# spgmr with each preconditioner and both kinds of Jacobian.
foreach(pc diagonal none block-jacobi)
  expect_ok(run "${decay}" --solver-param linear-solver=spgmr
            --solver-param preconditioner=${pc} --solver-param jacobian=fd)
  expect_csv("${RUN_OUT}" "time,x" 101 "decay with spgmr/${pc}")
  list(GET CSV_ROWS 100 last)
  csv_field("${last}" 1 x)
  expect_near("${x}" "0.006737947" 7 1 "x(10) with spgmr/${pc}")
endforeach()
expect_fail(2 "preconditioner must be one of block-jacobi[|]diagonal[|]none, not 'ilu'"
            run "${decay}" --solver-param linear-solver=spgmr
            --solver-param preconditioner=ilu)
expect_fail(2 "jacobian must be one of auto[|]fd"
            run "${decay}" --solver-param jacobian=exact)
expect_fail(2 "krylov-dim must be between 1 and 500"
            run "${decay}" --solver-param krylov-dim=0)

# The file asks for klu; the command line wins per name.
expect_ok(run "${klu}" --solver-param linear-solver=dense --stats)
expect_csv("${RUN_OUT}" "time,x" 5 "klu_decay overridden")
list(GET CSV_ROWS 4 last)
csv_field("${last}" 1 x)
expect_near("${x}" "0.3678794412" 8 2 "x(2) = e^-1")

# Mistakes: engine, parameter name, value, shape of the option, and a
# mistake in the file naming its line.
expect_fail(2 "nosuch.*valid: ida" run "${decay}" --solver nosuch)
expect_fail(2 "max-ordr.*valid parameters: linear-solver.*max-order"
            run "${decay}" --solver-param max-ordr=3)
expect_fail(2 "linear-solver must be one of dense[|]band[|]klu[|]spgmr, not 'sparse'"
            run "${decay}" --solver-param linear-solver=sparse)
expect_fail(2 "max-order must be between 1 and 5"
            run "${decay}" --solver-param max-order=9)
expect_fail(2 "KEY=VALUE" run "${decay}" --solver-param linear-solver)
expect_fail(2 "--solver" run "${decay}" --solver)
expect_fail(2 "bad_param[.]xml:6.*max-ordr.*max-order"
            run "${DATA}/solvers/bad_param.xml")
expect_fail(2 "bad_value[.]xml:5.*dense[|]band[|]klu[|]spgmr"
            run "${DATA}/solvers/bad_value.xml")

file(GLOB left "${WORK}/*")
if(left)
  message(FATAL_ERROR "bad input left files behind: ${left}")
endif()

# Solver "auto" (docs/solvers.md): x' = -x/2 is a non-stiff ODE, so
# cvode-adams, and --stats says why; x(10) = e^-5 as with every engine.
expect_ok(run "${decay}" --solver auto --stats)
expect_match("${RUN_ERR}" "solver: cvode-adams\nsolver-choice: auto: an ODE, not stiff"
             "auto picks cvode-adams and says why")
expect_csv("${RUN_OUT}" "time,x" 101 "decay with auto")
list(GET CSV_ROWS 100 last)
csv_field("${last}" 1 x)
expect_near("${x}" "0.006737947" 7 1 "x(10) with auto")

# Nothing to integrate (no continuous unknowns, no zero-crossing surface):
# engine "none" whatever the solver named, no step, the same samples as an
# integrator gives (n = 2t - 1 after t = 0: the data file says why); the
# named solver's parameters are still checked, and a native diagram
# written from it names that solver. A surface alone keeps the integrator.
set(counter "${DATA}/solvers/discrete_counter.xml")
expect_ok(run "${counter}" --stats)
expect_match("${RUN_ERR}" "solver: none\nsolver-choice: no continuous unknowns or zero-crossing surfaces: nothing to integrate\nsteps: 0\n"
             "a discrete diagram is not integrated")
expect_csv("${RUN_OUT}" "time,n" 11 "counter")
foreach(k 0 1 5 10)
  list(GET CSV_ROWS ${k} row)
  csv_field("${row}" 1 n)
  if(k EQUAL 0)
    set(want 0)
  else()
    math(EXPR want "2 * ${k} - 1")
  endif()
  if(NOT n STREQUAL want)
    message(FATAL_ERROR "counter at t=${k}: got ${n}, want ${want}")
  endif()
endforeach()
expect_fail(2 "cvode-bdf: unknown parameter 'max-ordr'"
            run "${counter}" --solver-param max-ordr=3)
expect_ok(convert "${counter}")
expect_match("${RUN_OUT}" "<simulation final-time=\"10\" solver=\"cvode-bdf\"/>"
             "convert names the diagram's solver, not none")
expect_ok(run "${DATA}/solvers/stateless_crossing.xml" --stats)
expect_match("${RUN_ERR}" "solver: ida\n" "a zero-crossing surface needs an integrator")
expect_csv("${RUN_OUT}" "time,sign" 5 "sign of t - 1")
list(GET CSV_ROWS 3 row)
csv_field("${row}" 1 s)
if(NOT s STREQUAL "1")
  message(FATAL_ERROR "sign(t - 1) at t=1.5: got ${s}, want 1")
endif()
