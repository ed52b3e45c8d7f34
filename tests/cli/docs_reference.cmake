# docs/block-reference.md is generated from the block descriptors
# (`blocksim blocks --markdown`); it must not go stale.
include(${CMAKE_CURRENT_LIST_DIR}/lib/expect.cmake)
expect_ok(blocks --markdown)
file(READ "${CMAKE_CURRENT_LIST_DIR}/../../docs/block-reference.md" ON_DISK)
if(NOT RUN_OUT STREQUAL ON_DISK)
  message(FATAL_ERROR "docs/block-reference.md is stale: run `make docs`")
endif()
