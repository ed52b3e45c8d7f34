# What `cmake --install` puts under the prefix: the shared and static
# libraries, the public headers (with the generated version.h and Xcos's
# header names in include/blocksim/scicos), the blocksim command, its man
# page and the documentation, a CMake package (find_package(blocksim)) and
# a pkg-config file (blocksim.pc).
include(CMakePackageConfigHelpers)

set(BSIM_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/blocksim)

# Headers only, for plugins: the program that loads a plugin provides
# blocksim's functions, so a plugin must not link a second copy.
add_library(blocksim_plugin INTERFACE)
target_include_directories(blocksim_plugin INTERFACE
  $<BUILD_INTERFACE:${CMAKE_SOURCE_DIR}/include>
  $<BUILD_INTERFACE:${CMAKE_SOURCE_DIR}/include/blocksim/scicos>
  $<BUILD_INTERFACE:${CMAKE_BINARY_DIR}/generated/include>
  $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>
  $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}/blocksim/scicos>)

set_target_properties(blocksim_shared PROPERTIES EXPORT_NAME blocksim)
set_target_properties(blocksim_lib PROPERTIES EXPORT_NAME static)
set_target_properties(blocksim_plugin PROPERTIES EXPORT_NAME plugin)
# The installed command finds the library next to it, wherever the prefix.
set_target_properties(blocksim PROPERTIES
  INSTALL_RPATH "$ORIGIN/../${CMAKE_INSTALL_LIBDIR}")

install(TARGETS blocksim_shared blocksim_plugin EXPORT blocksimTargets
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR})
install(TARGETS blocksim_lib EXPORT blocksimStaticTargets
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR})
install(TARGETS blocksim RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(DIRECTORY ${CMAKE_SOURCE_DIR}/include/blocksim
  DESTINATION ${CMAKE_INSTALL_INCLUDEDIR} FILES_MATCHING PATTERN "*.h")
install(FILES ${CMAKE_BINARY_DIR}/generated/include/blocksim/version.h
  DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/blocksim)

install(EXPORT blocksimTargets NAMESPACE blocksim::
  DESTINATION ${BSIM_CMAKE_DIR})
install(EXPORT blocksimStaticTargets NAMESPACE blocksim::
  DESTINATION ${BSIM_CMAKE_DIR})
configure_package_config_file(${CMAKE_SOURCE_DIR}/cmake/blocksimConfig.cmake.in
  ${CMAKE_BINARY_DIR}/blocksimConfig.cmake INSTALL_DESTINATION ${BSIM_CMAKE_DIR})
# 0.x: a minor version may break the API, so only the same one matches.
write_basic_package_version_file(${CMAKE_BINARY_DIR}/blocksimConfigVersion.cmake
  COMPATIBILITY SameMinorVersion)
install(FILES ${CMAKE_BINARY_DIR}/blocksimConfig.cmake
  ${CMAKE_BINARY_DIR}/blocksimConfigVersion.cmake DESTINATION ${BSIM_CMAKE_DIR})

# Relocatable: the prefix is found from where the .pc file lies, so that
# `cmake --install build --prefix DIR` gives a usable file for any DIR.
file(RELATIVE_PATH BSIM_PC_TO_PREFIX "/${CMAKE_INSTALL_LIBDIR}/pkgconfig" "/")
string(REGEX REPLACE "/$" "" BSIM_PC_TO_PREFIX "${BSIM_PC_TO_PREFIX}")
configure_file(${CMAKE_SOURCE_DIR}/cmake/blocksim.pc.in
  ${CMAKE_BINARY_DIR}/blocksim.pc @ONLY)
install(FILES ${CMAKE_BINARY_DIR}/blocksim.pc
  DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)

install(FILES ${CMAKE_SOURCE_DIR}/docs/blocksim.1
  DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)
file(GLOB BSIM_DOCS ${CMAKE_SOURCE_DIR}/docs/*.md)
install(FILES ${CMAKE_SOURCE_DIR}/README.md ${BSIM_DOCS}
  DESTINATION ${CMAKE_INSTALL_DOCDIR})
