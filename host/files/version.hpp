// The skipstone version string, SKIPSTONE_VERSION: CMake sets it from the project version on
// skipstone_files and everything built on it; a translation unit built without that
// definition reads "unknown".
#pragma once

#ifndef SKIPSTONE_VERSION
#define SKIPSTONE_VERSION "unknown"
#endif
