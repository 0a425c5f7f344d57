// atomic_file.hpp — crash-safe file output for skipstone host tools.
// Files are written to a temporary sibling, flushed, fsynced and then renamed
// onto the destination, so readers never observe a half-written file; links are
// followed, devices, pipes and standard output ("-") written directly.
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
//
// A symbolic link is followed: the temporary file goes beside the link's final target and
// replaces that, so the link stays. A destination that exists and is not a regular file (a
// device, a pipe) is written in place, as is "-" (standard output) and any name of the file
// that standard output or standard error is open on (e.g. /dev/stdout); a failure there may
// leave part of the bytes written. A FIFO without a reader is an error ("no reader on FIFO"),
// not a wait for one. A folder is an error.
void write_file_atomically(const std::filesystem::path& path,
                           const std::function<void(std::ostream&)>& write);

// Whether write_file_atomically(path, ...) writes to this process's standard output.
bool writes_to_standard_output(const std::filesystem::path& path);

// What write_file_atomically(path, ...) would write to, as things are now: a file it creates
// (nothing there, or a link to nothing), an existing regular file it replaces (links
// followed), something written in place (standard output, a device, a pipe), or a folder,
// which it refuses. A path it cannot look at (e.g. under a file) counts as new_file: the
// write itself reports why it fails.
enum class WriteTarget { new_file, existing_file, in_place, folder };
WriteTarget write_target(const std::filesystem::path& path);

// Convenience wrapper: atomically replaces `path` with exactly `text`.
void write_text_atomically(const std::filesystem::path& path, const std::string& text);

}  // namespace skipstone::io
