# io.cmake — builds skipstone_io, the host-side output library (atomic file
# writes, NumPy .npy arrays, PNG heat maps). Included from the top-level CMakeLists.txt.
find_package(PNG REQUIRED)

add_library(skipstone_io STATIC
  ${PROJECT_SOURCE_DIR}/host/atomic_file.cpp
  ${PROJECT_SOURCE_DIR}/host/npy_writer.cpp
  ${PROJECT_SOURCE_DIR}/host/png_heatmap.cpp
  ${PROJECT_SOURCE_DIR}/host/bitmap_font.cpp)
target_include_directories(skipstone_io PUBLIC ${PROJECT_SOURCE_DIR}/host)
target_link_libraries(skipstone_io PUBLIC PNG::PNG)
target_compile_features(skipstone_io PUBLIC cxx_std_17)
set_target_properties(skipstone_io PROPERTIES CXX_EXTENSIONS OFF POSITION_INDEPENDENT_CODE ON)
target_compile_options(skipstone_io PRIVATE
  $<$<COMPILE_LANG_AND_ID:CXX,GNU,Clang,AppleClang>:-Wall -Wextra>)
