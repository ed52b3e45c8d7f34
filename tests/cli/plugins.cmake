# Block plugins from the command line: --version, --blocks (repeatable),
# BLOCKSIM_PLUGIN_PATH, <library path> relative to the diagram, plugin
# types and engines listed with their origin, and status 2 with the path
# and the reason for every way loading can fail. The plugins are
# tests/plugins/*.c, built into PLUGINS.
#
# lag_poly.xml computes y = 3 (1 - e^(-t/2))^2 + 1; y(4) = 3.2429352172.
# IDA (rtol 1e-9) is within 1e-6 of it, the plugin's Heun engine with step
# 1e-3 within 1e-5 (error of order step^2).
include(${CMAKE_CURRENT_LIST_DIR}/lib/expect.cmake)
file(REMOVE_RECURSE "${WORK}")
file(MAKE_DIRECTORY "${WORK}")
set(good "${PLUGINS}/test_good.so")
set(lag_poly "${DATA}/plugins/lag_poly.xml")
unset(ENV{BLOCKSIM_PLUGIN_PATH})

expect_ok(--version)
expect_match("${RUN_OUT}" "^blocksim ${VERSION} [(]block ABI ${ABI}[)]"
             "--version names the version and the ABI")

function(expect_y4 what digits units)
  expect_csv("${RUN_OUT}" "time,y" 41 "${what}")
  list(GET CSV_ROWS 40 last)
  csv_field("${last}" 1 y)
  expect_near("${y}" "3.2429352172" ${digits} ${units} "${what}: y(4)")
endfunction()

# --blocks, before or after the diagram, with the built-in and the plugin's
# engine.
expect_ok(run "${lag_poly}" --blocks "${good}")
expect_y4("run --blocks" 6 1)
expect_ok(run --blocks "${good}" "${lag_poly}" --solver test-heun
          --solver-param step=1e-3)
expect_y4("run with the plugin's engine" 5 1)
expect_ok(check --blocks "${good}" "${lag_poly}")
expect_match("${RUN_OUT}" "states[^0-9\n]*1" "check with a plugin: 1 state")

# Listings name where plugin types and engines come from.
expect_ok(blocks --blocks "${good}")
expect_match("${RUN_OUT}" "TEST_LAG[^\n]*\n *from: [^\n]*test_good.so"
             "blocks lists TEST_LAG with its origin")
expect_ok(blocks TEST_POLY --blocks "${good}")
expect_match("${RUN_OUT}" "from: [^\n]*test_good.so" "blocks TEST_POLY: origin")
expect_ok(blocks GAINBLK --blocks "${good}")
expect_match("${RUN_OUT}" "from: standard" "blocks GAINBLK: standard")
expect_ok(solvers --blocks "${good}")
expect_match("${RUN_OUT}" "test-heun: [^\n]*[(]from [^\n]*test_good.so[)]"
             "solvers lists the plugin's engine with its origin")

# BLOCKSIM_PLUGIN_PATH: every *.so of each listed directory.
file(MAKE_DIRECTORY "${WORK}/plugdir")
file(COPY "${good}" DESTINATION "${WORK}/plugdir")
set(ENV{BLOCKSIM_PLUGIN_PATH} "${WORK}/empty_entry_is_skipped_below::${WORK}/plugdir")
expect_fail(2 "BLOCKSIM_PLUGIN_PATH: plugin directory '[^']*empty_entry_is_skipped_below': cannot read it"
            run "${lag_poly}")
set(ENV{BLOCKSIM_PLUGIN_PATH} ":${WORK}/plugdir:")
expect_ok(run "${lag_poly}")
expect_y4("run with BLOCKSIM_PLUGIN_PATH" 6 1)
# ... and one of them refused: the whole command is.
file(COPY "${PLUGINS}/test_bad_abi.so" DESTINATION "${WORK}/plugdir")
expect_fail(2 "BLOCKSIM_PLUGIN_PATH: [^\n]*test_bad_abi.so: plugin built for block ABI [0-9]+, but this blocksim [(]${VERSION}[)] has ABI ${ABI}"
            blocks)
unset(ENV{BLOCKSIM_PLUGIN_PATH})

# <library path="..."/>, relative to the diagram's folder.
file(MAKE_DIRECTORY "${WORK}/sub")
file(COPY "${good}" DESTINATION "${WORK}/sub")
file(READ "${lag_poly}" text)
string(REPLACE "<diagram name=\"lag_poly\">"
       "<diagram name=\"lag_poly\">\n  <library path=\"test_good.so\"/>" text "${text}")
file(WRITE "${WORK}/sub/uses_plugin.xml" "${text}")
expect_ok(run sub/uses_plugin.xml)
expect_y4("run with <library>" 6 1)
string(REPLACE "test_good.so" "missing.so" text "${text}")
file(WRITE "${WORK}/sub/uses_missing.xml" "${text}")
expect_fail(2 "uses_missing.xml:[0-9]+: <library path=\"missing.so\">: [^\n]*missing.so: cannot load plugin"
            run sub/uses_missing.xml)
file(WRITE "${WORK}/sub/library_bad.xml"
     "<diagram>\n  <library/>\n</diagram>\n")
expect_fail(2 "library_bad.xml:2: <library> lacks the required attribute 'path'"
            check sub/library_bad.xml)

# Without the plugin its types are unknown, and the hint says how to load it.
expect_fail(2 "unknown block type 'TEST_LAG'[^\n]*--blocks PLUGIN.so" run "${lag_poly}")

# Every way a plugin can be refused: status 2, the path, the reason.
expect_fail(2 "--blocks needs the path of a plugin" run "${lag_poly}" --blocks)
expect_fail(2 "no_such.so: cannot load plugin: [^\n]*No such file"
            blocks --blocks "${PLUGINS}/no_such.so")
expect_fail(2 "test_bad_no_abi.so: not a blocksim plugin: it does not export 'bsim_plugin_abi'"
            blocks --blocks "${PLUGINS}/test_bad_no_abi.so")
expect_fail(2 "test_bad_no_init.so: not a blocksim plugin: it does not export 'bsim_plugin_init'"
            blocks --blocks "${PLUGINS}/test_bad_no_init.so")
expect_fail(2 "test_bad_abi.so: plugin built for block ABI [0-9]+, but this blocksim [(]${VERSION}[)] has ABI ${ABI}"
            blocks --blocks "${PLUGINS}/test_bad_abi.so")
expect_fail(2 "test_bad_clash.so: block type 'GAINBLK' clashes with the registered type 'GAINBLK' [(]from standard[)]"
            blocks --blocks "${PLUGINS}/test_bad_clash.so")
expect_fail(2 "test_bad_init_fails.so: plugin initialisation failed: test: the licence server is down"
            blocks --blocks "${PLUGINS}/test_bad_init_fails.so")
# Two plugins with the same type name: the second is refused, naming the first.
expect_fail(2 "test_other.so: block type 'TEST_POLY' clashes with the registered type 'TEST_POLY' [(]from [^\n]*test_good.so[)]"
            blocks --blocks "${good}" --blocks "${PLUGINS}/test_other.so")
