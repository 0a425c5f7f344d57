# io_tests.cmake — GoogleTest executable for the skipstone_files host output library (host/files).
# Included from tests/CMakeLists.txt, after skipstone_test_labels is defined.
if(NOT TARGET GTest::gtest_main)
  find_package(GTest REQUIRED)
endif()
include(GoogleTest)

add_executable(test_io ${PROJECT_SOURCE_DIR}/tests/test_io.cpp)
target_link_libraries(test_io PRIVATE skipstone_files GTest::gtest_main PNG::PNG)
target_compile_features(test_io PRIVATE cxx_std_17)
target_compile_options(test_io PRIVATE
  $<$<COMPILE_LANG_AND_ID:CXX,GNU,Clang,AppleClang>:-Wall -Wextra>)
gtest_discover_tests(test_io)
skipstone_test_labels(test_io LABELS fast)
