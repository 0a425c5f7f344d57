// atomic_file.hpp — crash-safe file output for skipstone host tools.
// Files are written to a temporary sibling, flushed, fsynced and then renamed
// onto the destination, so readers never observe a half-written file.
#pragma once

#include <filesystem>
#include <functional>
#include <ostream>
#include <string>

namespace skipstone::io {

// Calls `write` with a binary output stream attached to a temporary file in the
// same directory as `path` (".<filename>.tmp.<pid>.<counter>"), then flushes,
// fsyncs and renames it onto `path`. On any failure (temp file cannot be
// created, stream error, fsync/rename failure, exception from `write`) the
// temporary file is removed, `path` is left untouched, and std::runtime_error
// is thrown naming the path and the reason.
void write_file_atomically(const std::filesystem::path& path,
                           const std::function<void(std::ostream&)>& write);

// Convenience wrapper: atomically replaces `path` with exactly `text`.
void write_text_atomically(const std::filesystem::path& path, const std::string& text);

}  // namespace skipstone::io
