# `blocksim plot` and `blocksim run --plot`: files of each image format
# from result files of each format; the options and the refusals (status
# 2 with a message). The pictures themselves are checked in
# tests/unit/test_plot.c.
include(${CMAKE_CURRENT_LIST_DIR}/lib/expect.cmake)
file(REMOVE_RECURSE "${WORK}")
file(MAKE_DIRECTORY "${WORK}")
set(member "${DATA}/batch/member.xml")

set(PNG "89504e470d0a1a0a")
set(PDF "255044462d") # %PDF-
set(SVG "3c3f786d6c") # <?xml

expect_ok(run "${member}" -o "${WORK}/r.h5" --plot "${WORK}/run.png")
expect_file_head("${WORK}/run.png" "${PNG}" "run --plot")
expect_ok(run "${member}" -o "${WORK}/r.csv")
expect_ok(run "${member}" -o "${WORK}/r.mat")
expect_ok(plot "${WORK}/r.h5" -o "${WORK}/a.svg")
expect_file_head("${WORK}/a.svg" "${SVG}" "plot h5 -> svg")
expect_ok(plot "${WORK}/r.mat" -o "${WORK}/b.pdf" --panels each --title T)
expect_file_head("${WORK}/b.pdf" "${PDF}" "plot mat -> pdf")
expect_ok(plot "${WORK}/r.csv" -o "${WORK}/c.png" --signals y --size 400x300)
expect_file_head("${WORK}/c.png" "${PNG}" "plot csv -> png")
file(READ "${WORK}/c.png" ihdr OFFSET 16 LIMIT 8 HEX)
expect_match("${ihdr}" "^0000019000000" "--size 400x300: width 400 (0x190)")

expect_fail(2 "no signal 'z'.*valid: y, u" plot "${WORK}/r.csv" -o "${WORK}/d.png" --signals z)
expect_fail(2 "\\.png, \\.svg or \\.pdf" plot "${WORK}/r.csv" -o "${WORK}/d.bmp")
expect_fail(2 "\\.png, \\.svg or \\.pdf" run "${member}" --plot "${WORK}/d.jpg")
expect_fail(2 "RESULT.*-o|[Uu]sage" plot "${WORK}/r.csv")
expect_fail(2 "--panels takes" plot "${WORK}/r.csv" -o "${WORK}/d.png" --panels many)
expect_fail(2 "--size takes" plot "${WORK}/r.csv" -o "${WORK}/d.png" --size 10)
expect_fail(2 "cannot open.*nosuch" plot "${WORK}/nosuch.h5" -o "${WORK}/d.png")
expect_fail(2 "run number needs a sweep" plot "${WORK}/r.csv" --run 3 -o "${WORK}/d.png")
expect_fail(2 "has no run 3" plot "${WORK}/r.h5" --run 3 -o "${WORK}/d.png")
if(EXISTS "${WORK}/d.png" OR EXISTS "${WORK}/d.bmp" OR EXISTS "${WORK}/d.jpg")
  message(FATAL_ERROR "a refused plot left a file")
endif()
