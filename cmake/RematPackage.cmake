# Installs headers, libraries, tools and the CMake package that lets another
# compiler write `find_package(Remat)` and link `Remat::Remat`.

# Paths in the package are relative to the prefix it is found in
# (PATH_VARS below), so a copied or moved prefix still finds its headers.
set(REMAT_INSTALL_INCLUDE_DIR include)

# One target for embedders: every Remat library and the registration entry
# points (remat/InitRemat.h). The runtime library of lowered code is exported
# on its own, as Remat::remat_runtime (shared) and Remat::remat_runtime_static
# (lib/Runtime/CMakeLists.txt installs both).
add_library(Remat INTERFACE)
target_link_libraries(Remat INTERFACE
  MLIRRemat
  RematRegistration
  RematSupport
  RematAnalysis
  RematPlanning
  RematInterfaces
  RematTransforms
  RematConversion
  RematPipelines
)
target_include_directories(Remat INTERFACE
  $<BUILD_INTERFACE:${PROJECT_SOURCE_DIR}/include>
  $<BUILD_INTERFACE:${PROJECT_BINARY_DIR}/include>
  $<INSTALL_INTERFACE:${REMAT_INSTALL_INCLUDE_DIR}>
)
install(TARGETS Remat EXPORT MLIRTargets)

install(DIRECTORY include/remat DESTINATION ${REMAT_INSTALL_INCLUDE_DIR}
  FILES_MATCHING PATTERN "*.h" PATTERN "*.td"
  # The synthetic graphs of tests and benchmarks are not the product.
  PATTERN "Testing" EXCLUDE)
install(DIRECTORY ${PROJECT_BINARY_DIR}/include/remat
  DESTINATION ${REMAT_INSTALL_INCLUDE_DIR}
  FILES_MATCHING PATTERN "*.h.inc" PATTERN "*.cpp.inc" PATTERN "*.md"
  PATTERN "CMakeFiles" EXCLUDE)

# add_mlir_library places every library in the MLIRTargets export set; this
# project's copy of that set is exported under the Remat:: namespace.
install(EXPORT MLIRTargets
  NAMESPACE Remat::
  FILE RematTargets.cmake
  DESTINATION ${REMAT_INSTALL_CMAKE_DIR})

include(CMakePackageConfigHelpers)
configure_package_config_file(
  ${PROJECT_SOURCE_DIR}/cmake/RematConfig.cmake.in
  ${PROJECT_BINARY_DIR}/RematConfig.cmake
  INSTALL_DESTINATION ${REMAT_INSTALL_CMAKE_DIR}
  PATH_VARS REMAT_INSTALL_INCLUDE_DIR)
write_basic_package_version_file(
  ${PROJECT_BINARY_DIR}/RematConfigVersion.cmake
  COMPATIBILITY SameMinorVersion)
install(FILES
  ${PROJECT_BINARY_DIR}/RematConfig.cmake
  ${PROJECT_BINARY_DIR}/RematConfigVersion.cmake
  DESTINATION ${REMAT_INSTALL_CMAKE_DIR})
