# What an engine cannot do is said clearly: an ODE-only engine on a diagram
# with an algebraic loop, and a relative tolerance below what double
# precision can meet (Xcos's "too much accuracy requested"), are both bad
# input (status 2) with the fix in the message.
include(${CMAKE_CURRENT_LIST_DIR}/lib/expect.cmake)
file(REMOVE_RECURSE "${WORK}")
file(MAKE_DIRECTORY "${WORK}")
set(loop "${E2E}/alg_loop.xml")
set(decay "${E2E}/decay.xml")

foreach(engine cvode-bdf cvode-adams rk45 rk8pd msbdf rk4 euler)
  expect_fail(2 "solver '${engine}' integrates ODEs only.*algebraic.*use solver \"ida\""
              run "${loop}" --solver ${engine})
endforeach()

expect_fail(2 "rtol=1e-20 asks for more accuracy than double precision.*rtol >= "
            run "${decay}" --rtol 1e-20)

