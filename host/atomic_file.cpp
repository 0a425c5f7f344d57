// atomic_file.cpp — implementation of write-to-temp + fsync + rename file output.
#include "atomic_file.hpp"

#include <atomic>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <stdexcept>
#include <system_error>

#include <fcntl.h>
#include <unistd.h>

namespace skipstone::io {
namespace {

std::atomic<unsigned long long> g_temp_counter{0};

std::filesystem::path make_temp_path(const std::filesystem::path& path) {
    std::string name = "." + path.filename().string() + ".tmp." +
                       std::to_string(static_cast<long long>(::getpid())) + "." +
                       std::to_string(g_temp_counter.fetch_add(1));
    return path.parent_path() / name;
}

[[noreturn]] void fail(const std::filesystem::path& path, const std::string& what,
                       int err) {
    std::string msg = "write_file_atomically: " + what + " for '" + path.string() + "'";
    if (err != 0) msg += ": " + std::string(std::strerror(err));
    throw std::runtime_error(msg);
}

void remove_quietly(const std::filesystem::path& p) {
    std::error_code ec;
    std::filesystem::remove(p, ec);
}

// Re-opens the (already closed) file and fsyncs its data to stable storage.
void fsync_path(const std::filesystem::path& tmp, const std::filesystem::path& path) {
    int fd = ::open(tmp.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) fail(path, "cannot reopen temporary file to fsync", errno);
    if (::fsync(fd) != 0) {
        int err = errno;
        ::close(fd);
        fail(path, "fsync failed", err);
    }
    if (::close(fd) != 0) fail(path, "close after fsync failed", errno);
}

// Best effort: persist the directory entry created by rename.
void fsync_directory(const std::filesystem::path& dir) {
    int fd = ::open(dir.empty() ? "." : dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0) return;
    (void)::fsync(fd);
    (void)::close(fd);
}

}  // namespace

void write_file_atomically(const std::filesystem::path& path,
                           const std::function<void(std::ostream&)>& write) {
    if (path.empty() || !path.has_filename())
        throw std::runtime_error("write_file_atomically: invalid destination path '" +
                                 path.string() + "'");

    const std::filesystem::path tmp = make_temp_path(path);
    bool created = false;
    try {
        {
            errno = 0;
            std::ofstream out(tmp, std::ios::binary | std::ios::out | std::ios::trunc);
            if (!out.is_open()) {
                int err = errno != 0 ? errno : EIO;
                fail(path, "cannot create temporary file '" + tmp.string() + "'", err);
            }
            created = true;
            try {
                write(out);
            } catch (const std::exception& e) {
                throw std::runtime_error("write_file_atomically: writer failed for '" +
                                         path.string() + "': " + e.what());
            } catch (...) {
                throw std::runtime_error("write_file_atomically: writer failed for '" +
                                         path.string() + "': unknown exception");
            }
            errno = 0;
            out.flush();
            if (!out) fail(path, "write error", errno != 0 ? errno : EIO);
            errno = 0;
            out.close();
            if (out.fail())
                fail(path, "error closing temporary file", errno != 0 ? errno : EIO);
        }
        fsync_path(tmp, path);
        std::error_code ec;
        std::filesystem::rename(tmp, path, ec);
        if (ec) fail(path, "rename from '" + tmp.string() + "' failed", ec.value());
    } catch (...) {
        if (created) remove_quietly(tmp);
        throw;
    }
    fsync_directory(path.parent_path());
}

void write_text_atomically(const std::filesystem::path& path, const std::string& text) {
    write_file_atomically(path, [&text](std::ostream& out) {
        out.write(text.data(), static_cast<std::streamsize>(text.size()));
    });
}

}  // namespace skipstone::io
